"""Celery plays the computer's turns (the decisions are in matches/services/computer.py).

Once a command that leaves the computer to act commits (a human's move, his double or
resignation, the opening roll the computer won), the `TAVLA_AFTER_COMMIT` hook
`after_commit` sends `play_computer_turns`, so the task only ever sees committed state.
The computer's own commands do not send another task: the running one plays on.

That message can be lost: the web process dies between the commit and the send, the broker
is down at that moment, the worker dies in the middle of the turn (the embedded broker does
not deliver it again). The store still says the computer is to act, so `sweep_computer`
(Celery beat, every TAVLA_COMPUTER_SWEEP_SECONDS) sends the turn of every such match idle for
TAVLA_COMPUTER_OWED_SECONDS. A repeat does nothing twice: each action is written with the
version it was decided on, so the second writer loses and looks again.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from uuid import UUID

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from matches.services import computer
from matches.store.committed import Committed

from .sending import send_now

logger = logging.getLogger(__name__)


def after_commit(committed: Committed) -> None:
    """A `TAVLA_AFTER_COMMIT` hook: the computer must act now, so play its turn."""
    view = committed.view
    if not computer.computer_to_act(view):
        return
    seat = computer.computer_seat(view)
    mover = view.seats[seat] if seat is not None else None
    if mover is not None and committed.actor_id is not None and committed.actor_id == mover.user_id:
        return  # the computer's own command, inside a running task: it plays on
    send_now(play_computer_turns, (str(view.match_id),))


@shared_task(
    name="matches.play_computer_turns",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,  # a worker killed mid-turn: delivered again (where the broker can)
)
def play_computer_turns(match_id: str) -> int:
    """Play every action the computer owes in this match now; return how many it made."""
    return computer.play_turns(UUID(str(match_id)), between=_test_pause)


@shared_task(name="matches.sweep_computer", ignore_result=True, soft_time_limit=50, time_limit=60)
def sweep_computer() -> int:
    """Send the turn of every match whose computer has owed an action for a while; how many."""
    idle = timedelta(seconds=float(getattr(settings, "TAVLA_COMPUTER_OWED_SECONDS", 3.0)))
    owed = computer.owed(timezone.now(), idle)
    for match_id in owed:
        if not send_now(play_computer_turns, (str(match_id),)):
            break  # the broker is down: the next sweep tries again
    return len(owed)


def _test_pause() -> None:
    """Tests only (TAVLA_COMPUTER_TEST_PAUSE seconds, default 0): wait after each action of the
    computer's turn, so a test can kill the worker in the middle of the turn."""
    pause = float(getattr(settings, "TAVLA_COMPUTER_TEST_PAUSE", 0) or 0)
    if pause > 0:
        logger.warning("TAVLA_COMPUTER_TEST_PAUSE: the computer's turn waits %.1f s", pause)
        time.sleep(pause)
