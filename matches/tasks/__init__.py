"""Celery tasks (found by `app.autodiscover_tasks()` as `matches.tasks`): the clock's and the
computer's. They decide nothing themselves: each calls the services a human's request does."""

from .clock import enforce_clock, sweep_clocks
from .computer import play_computer_turns

__all__ = ["enforce_clock", "play_computer_turns", "sweep_clocks"]
