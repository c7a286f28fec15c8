"""Telling a user something outside a match's own stream ("your seek was paired: match X").

The core does not know how users are reached (a WebSocket's user channel, a mobile push):
the functions named in the setting `TAVLA_NOTIFY` (dotted paths, each taking a `Notice`)
are called once the transaction that decided it has committed. A hook that fails is logged.

Every notice is first written to the outbox (`OutboxNotice`) in that same transaction, and
marked sent once its delivery ran. A process that dies between the commit and the delivery
leaves the row unsent; `sweep` (Celery beat, matches/tasks/notices.py) delivers it a few
seconds later. So a notice is delivered at least once, and its `id` lets a client drop a
repeat. Notices are hints all the same: what they say is also in the state clients can poll
(the seek's own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from matches.store.models import OutboxNotice

logger = logging.getLogger(__name__)

# A notice still unsent this long after it was decided is delivered by the sweeper.
OWED_AFTER = timedelta(seconds=2)
# Sent rows are kept this long (for the admin and for tests), then deleted by the sweeper.
KEEP_SENT = timedelta(days=1)
SWEEP_BATCH = 500


@dataclass(frozen=True, slots=True)
class Notice:
    user_id: int
    kind: str  # e.g. "seek_paired"
    match_id: str | None = None
    version: int | None = None  # the match's version when it was decided
    data: dict[str, Any] = field(default_factory=dict)
    id: int | None = None  # the outbox row: the same notice delivered twice has the same id


@cache
def hooks() -> tuple[Callable[[Notice], object], ...]:
    return tuple(import_string(path) for path in getattr(settings, "TAVLA_NOTIFY", ()))


def notify(notices: Iterable[Notice]) -> None:
    """Write the notices to the outbox in the current transaction and deliver them once it
    commits (at once outside one)."""
    rows = [
        OutboxNotice(
            user_id=n.user_id, kind=n.kind, match_id=n.match_id, version=n.version, data=n.data
        )
        for n in notices
    ]
    if not rows:
        return
    OutboxNotice.objects.bulk_create(rows)
    batch = tuple(_notice(row) for row in rows)
    transaction.on_commit(lambda: deliver(batch))


def deliver(batch: tuple[Notice, ...]) -> None:
    """Run every hook for every notice, then mark them sent."""
    for notice in batch:
        for hook in hooks():
            try:
                hook(notice)
            except Exception:
                logger.exception("notification hook %s failed for user %s", hook, notice.user_id)
    ids = [n.id for n in batch if n.id is not None]
    if ids:
        OutboxNotice.objects.filter(id__in=ids, sent_at__isnull=True).update(sent_at=timezone.now())


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Deliver the notices still unsent `OWED_AFTER` after they were decided (their process
    died before delivering them), and delete sent ones older than `KEEP_SENT`."""
    now = now or timezone.now()
    with transaction.atomic():
        owed = list(
            OutboxNotice.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True, created_at__lte=now - OWED_AFTER)
            .order_by("created_at")[:SWEEP_BATCH]
        )
        # Delivered while the rows are locked: a sweep beside this one skips them.
        deliver(tuple(_notice(row) for row in owed))
    pruned, _ = OutboxNotice.objects.filter(sent_at__lt=now - KEEP_SENT).delete()
    if owed:
        logger.warning("delivered %d notices their process did not send", len(owed))
    return {"delivered": len(owed), "pruned": pruned}


def _notice(row: OutboxNotice) -> Notice:
    match_id = str(row.match_id) if row.match_id is not None else None
    notice = Notice(row.user_id, row.kind, match_id, row.version, dict(row.data or {}))
    return replace(notice, id=row.pk)
