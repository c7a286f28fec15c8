"""Telling a user something outside a match's own stream ("your seek was paired: match X").

The core does not know how users are reached (a WebSocket's user channel, a mobile push):
the functions named in the setting `TAVLA_NOTIFY` (dotted paths, each taking a `Notice`)
are called once the transaction that decided it has committed. A hook that fails is logged.
Notices are hints: what they say is also in the state clients can poll (the seek's own).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Notice:
    user_id: int
    kind: str  # e.g. "seek_paired"
    match_id: str | None = None
    version: int | None = None  # the match's version when it was decided
    data: dict[str, Any] = field(default_factory=dict)


@cache
def hooks() -> tuple[Callable[[Notice], object], ...]:
    return tuple(import_string(path) for path in getattr(settings, "TAVLA_NOTIFY", ()))


def notify(notices: Iterable[Notice]) -> None:
    """Deliver the notices once the current transaction commits (at once outside one)."""
    batch = tuple(notices)
    if batch:
        transaction.on_commit(lambda: deliver(batch))


def deliver(batch: tuple[Notice, ...]) -> None:
    for notice in batch:
        for hook in hooks():
            try:
                hook(notice)
            except Exception:
                logger.exception("notification hook %s failed for user %s", hook, notice.user_id)
