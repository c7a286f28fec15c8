"""Celery plays the computer's turns (the decisions are in matches/services/computer.py).

Once a command that leaves the computer to act commits (a human's move, his double or
resignation, the opening roll the computer won), the `TAVLA_AFTER_COMMIT` hook
`after_commit` sends `play_computer_turns`, so the task only ever sees committed state.
The computer's own commands do not send another task: the running one plays on.
"""

from __future__ import annotations

from uuid import UUID

from celery import shared_task

from matches.services import computer
from matches.store.committed import Committed


def after_commit(committed: Committed) -> None:
    """A `TAVLA_AFTER_COMMIT` hook: the computer must act now, so play its turn."""
    view = committed.view
    if not computer.computer_to_act(view):
        return
    seat = computer.computer_seat(view)
    mover = view.seats[seat] if seat is not None else None
    if mover is not None and committed.actor_id is not None and committed.actor_id == mover.user_id:
        return  # the computer's own command, inside a running task: it plays on
    play_computer_turns.delay(str(view.match_id))


@shared_task(name="matches.play_computer_turns", ignore_result=True, acks_late=True)
def play_computer_turns(match_id: str) -> int:
    """Play every action the computer owes in this match now; return how many it made."""
    return computer.play_turns(UUID(str(match_id)))
