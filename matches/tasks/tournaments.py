"""Celery runs the tournaments' schedule (the decisions are in matches/services/tournaments.py).

- A tournament created: `start_tournament` is scheduled for its start time (no further ahead
  than the broker allows, `clock.max_eta`: a task that wakes early schedules itself again).
- A tournament's match ended (`after_commit`, a `TAVLA_AFTER_COMMIT` hook, so only once the
  end is committed): `record_tournament_match` records the result; when it completes the
  round, the next round is paired in the same task, within seconds of the last match's end.
- `sweep_tournaments` (Celery beat, every TAVLA_TOURNAMENT_SWEEP_SECONDS) finds what a lost
  message left undone (the web process died after the commit, the worker was killed between
  two rounds): tournaments past their start time, ended matches unrecorded, complete rounds
  not followed. Every task can run twice or late: the service changes nothing twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from celery import shared_task
from django.utils import timezone

from matches.services import tournaments
from matches.store.committed import Committed
from matches.store.tournament_models import TournamentMatch
from matches.tournaments.events import TournamentCreated

from .clock import TASK_OPTIONS, max_eta
from .sending import send_now

NOT_ENDINGS = frozenset({"rematch_offered", "marked_unrated"})
"""Events written after a match ended that do not end it."""


def after_commit(committed: Committed) -> None:
    """A `TAVLA_AFTER_COMMIT` hook: a tournament's match has just ended, record it."""
    view = committed.view
    if view.state is None or not view.state.is_over or view.match_id is None:
        return
    if all(e.type in NOT_ENDINGS for e in committed.events):
        return
    if TournamentMatch.objects.filter(pk=view.match_id, recorded=False).exists():
        send_now(record_tournament_match, (str(view.match_id),))


def after_tournament_commit(committed: tournaments.TournamentCommitted) -> None:
    """A `TAVLA_TOURNAMENT_AFTER_COMMIT` hook: a new tournament, schedule its start."""
    created = next((e for e in committed.events if isinstance(e, TournamentCreated)), None)
    if created is not None:
        send_start(str(committed.tournament_id), created.settings.starts_at)


def send_start(tournament_id: str, starts_at: datetime) -> bool:
    latest = timezone.now() + timedelta(seconds=max_eta())
    return send_now(start_tournament, (tournament_id,), eta=min(starts_at, latest))


@shared_task(name="matches.start_tournament", **TASK_OPTIONS)
def start_tournament(tournament_id: str) -> str:
    """At the start time: close sign-up, cancel or seed and pair the first round."""
    row, _ = tournaments.load(tournament_id)
    if timezone.now() < row.starts_at:  # woke early (a start further ahead than an ETA may be)
        send_start(tournament_id, row.starts_at)
        return "early"
    return str(tournaments.start(UUID(tournament_id)).status)


@shared_task(name="matches.record_tournament_match", **TASK_OPTIONS)
def record_tournament_match(match_id: str) -> bool:
    """The match's result into its tournament, and the next round if it completed one."""
    return tournaments.record_match(UUID(match_id))


@shared_task(
    name="matches.sweep_tournaments", ignore_result=True, soft_time_limit=50, time_limit=60
)
def sweep_tournaments() -> dict[str, int]:
    return tournaments.sweep()
