"""The clock of online matches, decided in the store (README "Clocks").

- Every command on a clocked online match calls `deadlines.record_deadline` inside its
  transaction: the MatchClock row (an index of deadlines, not the truth) follows the replayed
  clock, and both seats are seen when the match starts (the reconnect rule).
- `time_out` and `forfeit` end a match through the command path a human's move takes, so a
  second writer (a duplicate task, a late one, a move in time) is refused and nothing is
  written twice.
- `sweep` is the safety net that Celery beat runs (matches/tasks/clock.py): every overdue
  MatchClock row is timed out, every player who left is forfeited.

Celery's part (scheduling a task for each deadline) is in matches/tasks/clock.py; it learns of
new deadlines from the committed events (`TAVLA_AFTER_COMMIT`), never from this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Value

from games.rules import RulesError
from matches.errors import StoreError
from matches.store import MatchView, load_view
from matches.store.models import Match, MatchClock, MatchPresence

from .deadlines import clocked, deadline_of, out_of_time
from .play import match_forfeit, match_timeout

logger = logging.getLogger(__name__)

SWEEP_LIMIT = 500  # matches per sweep and kind; the next sweep takes the rest


def time_out(
    view: MatchView, seat: int, now: datetime, *, before_commit: Callable[[], None] | None = None
) -> str:
    """Write the timeout through the command path, once: a second writer is refused.
    `before_commit` runs inside the transaction (tests hold it open there)."""
    if view.match_id is None:
        return "refused"
    try:
        with transaction.atomic():
            match_timeout(match_id=view.match_id, seat=seat, expected_version=view.version, now=now)
            if before_commit is not None:
                before_commit()
    except (RulesError, StoreError) as exc:
        logger.info("match %s: no timeout written (%s)", view.match_id, exc)
        return "refused"
    logger.info("match %s: seat %s lost on time", view.match_id, seat)
    return "timed out"


def forfeit(match_id: UUID, seat: int, now: datetime) -> bool:
    """The seat was not seen for longer than the grace: it loses the match by forfeit.

    The Match row is locked first (the order every command takes), then the presence is read
    again: a request that came in the meantime saves the player."""
    try:
        with transaction.atomic():
            Match.objects.select_for_update().filter(pk=match_id).first()
            row = MatchPresence.objects.filter(match_id=match_id, seat=seat).first()
            if row is None or row.last_seen >= now - row.grace:
                return False
            match_forfeit(match_id=match_id, seat=seat, now=now)
    except (RulesError, StoreError) as exc:
        logger.info("match %s: no forfeit of seat %s (%s)", match_id, seat, exc)
        return False
    logger.info("match %s: seat %s forfeited (gone since %s)", match_id, seat, row.last_seen)
    return True


def sweep(when: datetime, *, before_commit: Callable[[], None] | None = None) -> dict[str, int]:
    """Time out every overdue match and forfeit every player who left; counts of each."""
    counts = {"timed_out": 0, "forfeited": 0, "checked": 0}
    due = MatchClock.objects.filter(active=True, deadline__lte=when).order_by("deadline")
    for match_id in due.values_list("match_id", flat=True)[:SWEEP_LIMIT]:
        counts["checked"] += 1
        view = load_view(match_id)
        seat = out_of_time(view, when)
        if seat is not None:
            done = time_out(view, seat, when, before_commit=before_commit)
            counts["timed_out"] += done == "timed out"
        else:  # moved in time, or over: correct the row (only if nobody wrote since)
            MatchClock.objects.filter(match_id=match_id, version=view.version).update(
                active=clocked(view), deadline=deadline_of(view)
            )
    cutoff = ExpressionWrapper(Value(when) - F("grace"), output_field=DateTimeField())
    gone = MatchPresence.objects.filter(
        match__status=Match.Status.ACTIVE, last_seen__lt=cutoff
    ).values_list("match_id", "seat")
    for match_id, seat in list(gone[:SWEEP_LIMIT]):
        counts["forfeited"] += forfeit(match_id, seat, when)
    if counts["timed_out"] or counts["forfeited"]:
        logger.info("clock sweep: %s", counts)
    return counts
