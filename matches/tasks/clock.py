"""Celery enforces the clock of online matches (README "Clocks"); the decisions are in
matches/services/clock.py.

- Once a command on a clocked online match commits (`after_commit`, a `TAVLA_AFTER_COMMIT`
  hook), `enforce_clock(match, version)` is scheduled for the new deadline plus a small
  margin. No ETA is ever further ahead than the broker's visibility timeout allows (Redis/SQS
  would deliver it a second time): a later deadline is scheduled that far and the task
  reschedules itself when it wakes too early.
- `enforce_clock` asks the replayed clock (time read now, in the worker). If a seat is out of
  time it ends the match with `services.clock.time_out`, the command path a human's move
  takes; if someone moved in time, or the timeout is already written, the store refuses and
  the task does nothing. So it can run twice, late, or after the match ended: acks_late
  redelivery is safe.
- `sweep_clocks` (Celery beat, every TAVLA_CLOCK_SWEEP_SECONDS) is the safety net.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from celery import current_app, shared_task
from django.conf import settings
from django.utils import timezone

from matches.services import clock
from matches.services.deadlines import clocked, deadline_of, out_of_time
from matches.store import load_view
from matches.store.committed import Committed

from .sending import send_now

logger = logging.getLogger(__name__)

ETA_MARGIN = timedelta(seconds=0.05)  # run just after the deadline, never before it

TASK_OPTIONS: dict[str, Any] = {
    "ignore_result": True,
    "acks_late": True,  # a task lost with its worker is delivered again ...
    "reject_on_worker_lost": True,  # ... also when only the pool's child process died
}


def after_commit(committed: Committed) -> None:
    """A `TAVLA_AFTER_COMMIT` hook: a clocked match has a new deadline, schedule its task."""
    view = committed.view
    deadline = deadline_of(view)
    if deadline is not None:
        send_enforce(str(view.match_id), view.version, deadline)


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
    return send_now(enforce_clock, (match_id, version), eta=eta)


@shared_task(name="matches.enforce_clock", soft_time_limit=20, time_limit=30, **TASK_OPTIONS)
def enforce_clock(match_id: str, version: int) -> str:
    """At a deadline: time the match out if its clock says so now; what happened, in a word."""
    view = load_view(UUID(str(match_id)))
    if not clocked(view):
        return "over"
    now = timezone.now()
    seat = out_of_time(view, now)
    if seat is None:
        deadline = deadline_of(view)
        if view.version == int(version) and deadline is not None:
            # Woke before the deadline (a capped ETA): sleep again.
            send_enforce(str(match_id), view.version, deadline)
            return "rescheduled"
        return "in time"
    return clock.time_out(view, seat, now, before_commit=_test_pause)


@shared_task(name="matches.sweep_clocks", soft_time_limit=50, time_limit=60, **TASK_OPTIONS)
def sweep_clocks(now: Any = None) -> dict[str, int]:
    """Time out every overdue match and forfeit every player who left; counts of each."""
    when: datetime = now if isinstance(now, datetime) else timezone.now()
    return clock.sweep(when, before_commit=_test_pause)


def _test_pause() -> None:
    """Tests only (TAVLA_CLOCK_TEST_PAUSE seconds, default 0): hold the timeout's transaction
    open before it commits, so a test can kill the worker in the middle of the task."""
    pause = float(getattr(settings, "TAVLA_CLOCK_TEST_PAUSE", 0) or 0)
    if pause > 0:
        task = current_app.current_task
        task_id = task.request.id if task is not None else None
        logger.warning("TAVLA_CLOCK_TEST_PAUSE: task %s holds the timeout open", task_id)
        time.sleep(pause)
