"""Celery tasks of the match store: the computer opponent plays its turns.

A command that leaves the computer to act (a human's move, its double or resignation, the
opening roll the computer won) schedules `play_computer_turns` with `transaction.on_commit`,
so the task only ever sees committed state. The task asks the computer player
(`games.bots.player_for(level)`) one question at a time and sends each answer through the
same services a human's request uses, with the version it decided on: if anything else wrote
first it reloads and decides again; if the computer is no longer to act it stops. Running it
twice, late, or after the match ended is therefore harmless (acks_late redelivery is safe).
"""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from celery import shared_task
from django.db import transaction

from games import bots
from games.rules import match as rules
from games.rules.errors import RulesError

from . import services
from .errors import StoreError, VersionConflict
from .models import Match
from .replay import MatchView
from .store import load_view

logger = logging.getLogger(__name__)

MAX_ACTIONS = 64  # per task run: a turn is at most roll + play, a few more around the cube


def computer_seat(view: MatchView) -> int | None:
    """The seat the site's computer plays in a match against the computer, or None."""
    created = view.created
    if created is None or created.mode != str(Match.Mode.COMPUTER):
        return None
    user = services.computer_user(created.computer_level or bots.DEFAULT_LEVEL)
    seats = view.seats_of(user.pk)
    return seats[0] if seats else None


def computer_to_act(view: MatchView) -> bool:
    state = view.state
    if state is None or state.is_over or not view.full:
        return False
    seat = computer_seat(view)
    return seat is not None and state.to_act == seat


def schedule_computer_turn(view: MatchView) -> bool:
    """After a command: if the computer must act now, play its turn once this commits."""
    if not computer_to_act(view):
        return False
    match_id = str(view.match_id)
    transaction.on_commit(lambda: play_computer_turns.delay(match_id))
    return True


@shared_task(name="matches.play_computer_turns", ignore_result=True, acks_late=True)
def play_computer_turns(match_id: str) -> int:
    """Play every action the computer owes in this match now; return how many it made."""
    done = 0
    mid = UUID(str(match_id))
    for _ in range(MAX_ACTIONS):
        view = load_view(mid)
        state = view.state
        if state is None or state.is_over or not view.full:
            break
        assert view.created is not None
        level = view.created.computer_level or bots.DEFAULT_LEVEL
        user = services.computer_user(level)
        seats = view.seats_of(user.pk)
        if not seats or state.to_act != seats[0]:
            break
        seat = seats[0]
        player = bots.player_for(level)
        try:
            _act(player, view, state, seat, user)
        except VersionConflict:
            continue  # someone wrote first: look again
        except (RulesError, StoreError):
            logger.exception("computer move refused in match %s", match_id)
            break
        done += 1
    return done


def _act(
    player: bots.Player, view: MatchView, state: rules.MatchState, seat: int, user: Any
) -> None:
    common = {"match_id": view.match_id, "user": user, "expected_version": view.version}
    phase = state.phase
    if phase == rules.Phase.ROLL:
        value = player.resign_value(state, seat)
        if value:
            services.match_resign(value=value, **common)
        elif state.may_double(seat) and player.should_double(state, seat):
            services.match_double(**common)
        else:
            services.match_roll(**common)
    elif phase == rules.Phase.PLAY:
        assert state.dice is not None
        play = player.choose_play(state.position_for(seat), state.dice)
        steps = [[s.frm, s.to] for s in play.steps] if play is not None else []
        services.match_play(play=steps, **common)
    elif phase == rules.Phase.DOUBLED:
        if player.should_take(state, seat):
            services.match_take(**common)
        else:
            services.match_drop(**common)
    elif phase == rules.Phase.RESIGNING:
        if player.accept_resignation(state, seat):
            services.match_accept_resign(**common)
        else:
            services.match_reject_resign(**common)
