"""Celery makes the post-game analyses (the work is matches/services/analysis.py).

`POST /matches/{id}/analysis` queues one and sends `analyse_match`; a finished rated match
queues its own as it ends (`after_commit`, a `TAVLA_AFTER_COMMIT` hook; TAVLA_AUTO_ANALYSIS
off: not). The message can be lost (the web process dies after the commit, the broker is
down, the worker dies during the analysis): `sweep_analyses` (Celery beat, every
TAVLA_ANALYSIS_SWEEP_SECONDS) sends again every analysis queued for
TAVLA_ANALYSIS_LOST_SECONDS or running for TAVLA_ANALYSIS_RUNNING_SECONDS, so none stays
"queued" for ever. A repeat is harmless: an analysis made by this engine is not made again.
"""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from matches.services import analysis
from matches.store.committed import Committed

from .sending import send_now


def after_commit(committed: Committed) -> None:
    """A `TAVLA_AFTER_COMMIT` hook: a rated match just finished, so analyse it."""
    state = committed.view.state
    match_id = committed.view.match_id
    if state is None or not state.is_over or match_id is None:
        return
    analysis.auto_queue(match_id)  # sends the task once it is asked for


def send(match_id: UUID) -> bool:
    """Send the task of one analysis (one quick attempt: the sweeper makes up for a miss)."""
    return send_now(analyse_match, (str(match_id),))


@shared_task(
    name="matches.analyse_match",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=300,
    time_limit=330,
)
def analyse_match(match_id: str) -> str:
    """Make the analysis of one finished match; return the status it is left in."""
    return analysis.analyse(UUID(str(match_id)))


@shared_task(name="matches.sweep_analyses", ignore_result=True, soft_time_limit=50, time_limit=60)
def sweep_analyses() -> int:
    """Send again the analyses whose task was lost; how many."""
    lost = timedelta(seconds=float(getattr(settings, "TAVLA_ANALYSIS_LOST_SECONDS", 60.0)))
    running = timedelta(seconds=float(getattr(settings, "TAVLA_ANALYSIS_RUNNING_SECONDS", 600.0)))
    owed = analysis.owed(timezone.now(), lost, running)
    for match_id in owed:
        if not send(match_id):
            break  # the broker is down: they are sent again once it is back
    return len(owed)
