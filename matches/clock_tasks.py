"""Celery enforces the clock of online matches (README "Clocks").

- After every command on a clocked online match still being played, `after_command` (called
  by matches.services inside the command's transaction) stores the new deadline in the
  MatchClock row and, once the transaction commits, schedules `enforce_clock(match, version)`
  for that deadline plus a small margin. No ETA is ever further ahead than the broker's
  visibility timeout allows (Redis/SQS would deliver it a second time): a later deadline is
  scheduled that far and the task reschedules itself when it wakes too early.
- `enforce_clock` asks the replayed clock (time read now, in the worker). If a seat is out of
  time it ends the match with `services.match_timeout(expected_version=...)`, the command path
  a human's move takes; if someone moved in time, or the timeout is already written, the
  store refuses (VersionConflict, IllegalAction) and the task does nothing. So it can run
  twice, late, or after the match ended: acks_late redelivery is safe.
- `sweep_clocks` (Celery beat, every TAVLA_CLOCK_SWEEP_SECONDS) is the safety net: it finds
  every overdue MatchClock row with one indexed query and does the same, so a lost task, a
  killed worker or a broker outage delays a timeout but never skips or doubles it. It also
  forfeits players who left (matches/presence.py).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from celery import current_app, shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Value
from django.utils import timezone

from games.rules.errors import RulesError

from . import presence, services
from .errors import StoreError
from .models import Match, MatchClock, MatchPresence
from .replay import MatchView
from .store import load_view

logger = logging.getLogger(__name__)

ETA_MARGIN = timedelta(seconds=0.05)  # run just after the deadline, never before it
SWEEP_LIMIT = 500  # matches per sweep and kind; the next sweep takes the rest

TASK_OPTIONS: dict[str, Any] = {
    "ignore_result": True,
    "acks_late": True,  # a task lost with its worker is delivered again ...
    "reject_on_worker_lost": True,  # ... also when only the pool's child process died
}


def clocked(view: MatchView) -> bool:
    """An online match with a clock, both seats taken, still being played."""
    created = view.created
    return (
        view.clock is not None
        and created is not None
        and created.mode == str(Match.Mode.ONLINE)
        and view.full
        and view.state is not None
        and not view.state.is_over
    )


def after_command(view: MatchView, now: datetime) -> None:
    """Called by every command of matches.services inside its transaction (Match row locked):
    keep the MatchClock row in step and schedule the deadline's task on commit."""
    if view.clock is None or not view.full or view.match_id is None:
        return
    created = view.created
    if created is None or created.mode != str(Match.Mode.ONLINE):
        return
    playing = clocked(view)
    deadline = view.clock.deadline() if playing else None
    updated = MatchClock.objects.filter(match_id=view.match_id).update(
        active=playing, version=view.version, deadline=deadline
    )
    if not updated:  # the match has just started
        MatchClock.objects.create(
            match_id=view.match_id, active=playing, version=view.version, deadline=deadline
        )
        if playing:
            presence.seen_at_start(view, now)
    if playing:
        schedule_clock(view)


def schedule_clock(view: MatchView) -> bool:
    """Once the current transaction commits, send `enforce_clock` for the view's deadline."""
    if not clocked(view):
        return False
    assert view.clock is not None
    deadline = view.clock.deadline()
    if deadline is None:
        return False
    match_id, version = str(view.match_id), view.version
    transaction.on_commit(lambda: send_enforce(match_id, version, deadline))
    return True


def max_eta() -> float:
    """Seconds ahead a task may be scheduled: under the broker's visibility timeout."""
    options = current_app.conf.broker_transport_options or {}
    visibility = options.get("visibility_timeout")
    if visibility is None:
        return float(getattr(settings, "TAVLA_CLOCK_MAX_ETA", 3000))
    return max(0.5, float(visibility) * 0.9)


def send_enforce(match_id: str, version: int, deadline: datetime) -> bool:
    """Schedule the task; a broker that is down is logged, not raised (the sweeper catches up,
    and the command that called this has committed already)."""
    now = timezone.now()
    eta = min(deadline + ETA_MARGIN, now + timedelta(seconds=max_eta()))
    try:
        with current_app.pool.acquire(block=True, timeout=2) as conn:
            # One quick attempt: a broker that is down must not hold the player's response
            # (kombu would otherwise keep retrying the connection for seconds).
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
            enforce_clock.apply_async((match_id, version), eta=eta, retry=False, connection=conn)
    except Exception:
        logger.warning("clock task of match %s not sent: the sweeper will catch it", match_id)
        return False
    return True


@shared_task(name="matches.enforce_clock", soft_time_limit=20, time_limit=30, **TASK_OPTIONS)
def enforce_clock(match_id: str, version: int) -> str:
    """At a deadline: time the match out if its clock says so now; what happened, in a word."""
    view = load_view(UUID(str(match_id)))
    if not clocked(view):
        return "over"
    now = timezone.now()
    seat = services.out_of_time(view, now)
    if seat is None:
        if view.version == int(version) and view.clock is not None:
            deadline = view.clock.deadline()
            if deadline is not None:  # woke before the deadline (a capped ETA): sleep again
                send_enforce(str(match_id), view.version, deadline)
                return "rescheduled"
        return "in time"
    return time_out(view, seat, now)


def time_out(view: MatchView, seat: int, now: datetime) -> str:
    """Write the timeout through the command path, once: a second writer is refused."""
    try:
        with transaction.atomic():
            assert view.match_id is not None
            services.match_timeout(
                match_id=view.match_id, seat=seat, expected_version=view.version, now=now
            )
            _test_pause()
    except (RulesError, StoreError) as exc:
        logger.info("match %s: no timeout written (%s)", view.match_id, exc)
        return "refused"
    logger.info("match %s: seat %s lost on time", view.match_id, seat)
    return "timed out"


def _test_pause() -> None:
    """Tests only (TAVLA_CLOCK_TEST_PAUSE seconds, default 0): hold the timeout's transaction
    open before it commits, so a test can kill the worker in the middle of the task."""
    pause = float(getattr(settings, "TAVLA_CLOCK_TEST_PAUSE", 0) or 0)
    if pause > 0:
        task = current_app.current_task
        task_id = task.request.id if task is not None else None
        logger.warning("TAVLA_CLOCK_TEST_PAUSE: task %s holds the timeout open", task_id)
        time.sleep(pause)


@shared_task(name="matches.sweep_clocks", soft_time_limit=50, time_limit=60, **TASK_OPTIONS)
def sweep_clocks(now: Any = None) -> dict[str, int]:
    """Time out every overdue match and forfeit every player who left; counts of each."""
    when: datetime = now if isinstance(now, datetime) else timezone.now()
    counts = {"timed_out": 0, "forfeited": 0, "checked": 0}
    due = MatchClock.objects.filter(active=True, deadline__lte=when).order_by("deadline")
    for match_id in due.values_list("match_id", flat=True)[:SWEEP_LIMIT]:
        counts["checked"] += 1
        view = load_view(match_id)
        seat = services.out_of_time(view, when)
        if seat is not None:
            counts["timed_out"] += time_out(view, seat, when) == "timed out"
        else:  # moved in time, or over: correct the row (only if nobody wrote since)
            deadline = view.clock.deadline() if clocked(view) and view.clock else None
            MatchClock.objects.filter(match_id=match_id, version=view.version).update(
                active=clocked(view), deadline=deadline
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
            services.match_forfeit(match_id=match_id, seat=seat, now=now)
    except (RulesError, StoreError) as exc:
        logger.info("match %s: no forfeit of seat %s (%s)", match_id, seat, exc)
        return False
    logger.info("match %s: seat %s forfeited (gone since %s)", match_id, seat, row.last_seen)
    return True
