"""Celery tasks (found by `app.autodiscover_tasks()` as `matches.tasks`): the clock's, the
computer's, the notices' outbox and the seek queue's. They decide nothing themselves: each
calls the services a human's request does."""

from .analysis import analyse_match, sweep_analyses
from .clock import enforce_clock, sweep_clocks
from .computer import play_computer_turns, sweep_computer
from .notices import sweep_notices
from .seeks import sweep_seeks
from .tournaments import record_tournament_match, start_tournament, sweep_tournaments

__all__ = [
    "analyse_match",
    "enforce_clock",
    "play_computer_turns",
    "record_tournament_match",
    "start_tournament",
    "sweep_analyses",
    "sweep_clocks",
    "sweep_computer",
    "sweep_notices",
    "sweep_seeks",
    "sweep_tournaments",
]
