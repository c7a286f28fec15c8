"""The site's computer opponent: which seat it plays, whether it must act, and its turn.

`play_turns` asks the computer player of the match's game and level (`games.bots.player_for`) one
question at a time and sends each answer through the same commands a human's request uses,
with the version it decided on: if anything else wrote first it reloads and decides again;
if the computer is no longer to act it stops. Running it twice, late, or after the match
ended is therefore harmless. Celery runs it (matches/tasks/computer.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db.models import Q

import games.rules as rules
from games import bots
from games.rules import RulesError
from matches.errors import StoreError, VersionConflict
from matches.store import MatchView, load_view
from matches.store.dice import SECRET_DICE
from matches.store.models import Match, PlayerProfile

from . import play as commands

logger = logging.getLogger(__name__)

MAX_ACTIONS = 64  # per run: a turn is at most roll + play, a few more around the cube


def computer_seat(view: MatchView) -> int | None:
    """The seat the site's computer plays: in a match against the computer, or the seat of a
    computer account in any other match (a tournament's computer entrant), or None."""
    return computer_and_seat(view)[1]


def computer_and_seat(view: MatchView) -> tuple[str, int | None]:
    """The computer's level and seat in this match ("", None: no computer plays in it).
    Against the computer the level is the match's; elsewhere it is the one of the computer's
    account seated (PlayerProfile.computer_username)."""
    created = view.created
    if created is None:
        return "", None
    if created.mode == str(Match.Mode.COMPUTER):
        level = created.computer_level or bots.default_level(created.game)
        user = PlayerProfile.computer_user(level)
        seats = view.seats_of(user.pk)
        return level, (seats[0] if seats else None)
    levels = {PlayerProfile.computer_username(level): level for level in bots.levels(created.game)}
    for index, seat in enumerate(view.seats):
        if seat is not None and seat.kind == PlayerProfile.Kind.COMPUTER and seat.name in levels:
            return levels[seat.name], index
    return "", None


def computer_to_act(view: MatchView) -> bool:
    state = view.state
    if state is None or state.is_over or not view.full:
        return False
    seat = computer_seat(view)
    return seat is not None and state.to_act == seat


def owed(now: datetime, idle: timedelta, limit: int = 200) -> list[UUID]:
    """Matches against the computer where the computer is to act (the projection's `turn` is
    the seat to act) and nothing was written for `idle`: the task of its turn was lost (the
    web process died after the commit, the broker was down, the worker died mid-turn). The
    sweeper sends their turns again; a turn already under way makes the repeat a no-op."""
    computer = PlayerProfile.Kind.COMPUTER
    computer_to_move = Q(turn=0, player0__tavla_profile__kind=computer) | Q(
        turn=1, player1__tavla_profile__kind=computer
    )
    return list(
        Match.objects.filter(status=Match.Status.ACTIVE, last_move_at__lte=now - idle)
        .filter(computer_to_move)
        .order_by("last_move_at")
        .values_list("id", flat=True)[:limit]
    )


def play_turns(match_id: UUID, between: Callable[[], None] | None = None) -> int:
    """Play every action the computer owes in this match now; return how many it made.
    `between` (tests) is called after each action is stored."""
    done = 0
    for _ in range(MAX_ACTIONS):
        view = load_view(match_id)
        state = view.state
        if state is None or state.is_over or not view.full or view.created is None:
            break
        level, seat = computer_and_seat(view)
        if seat is None or state.to_act != seat:
            break
        user = PlayerProfile.computer_user(level)
        try:
            _act(bots.player_for(level, view.created.game), view, state, seat, user)
        except VersionConflict:
            continue  # someone wrote first: look again
        except (RulesError, StoreError):
            logger.exception("computer move refused in match %s", match_id)
            break
        done += 1
        if between is not None:
            between()
    return done


def _act(
    player: bots.Player, view: MatchView, state: rules.MatchState, seat: int, user: Any
) -> None:
    """The player's next action (games.bots.decide), through the store; rolls are the
    server's secret dice."""
    if view.match_id is None:  # pragma: no cover - views of stored matches have ids
        raise ValueError("a view without a match")
    action = bots.decide(player, state, seat, roll=SECRET_DICE.roll)
    commands.match_act(
        match_id=view.match_id, user=user, action=action, expected_version=view.version
    )
