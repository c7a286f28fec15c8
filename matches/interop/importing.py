"""Importing gnubg `.mat` files as matches, through the same commands as live play.

The file is read and checked by the rules engine first (so a bad file is refused with the
game, move number and reason before anything is written); then every roll, play, double,
take, drop and resignation is driven through `services`, with the file's dice, inside one
transaction: a file either imports whole or leaves nothing behind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from games.rules import match as rules
from games.rules.matfile import mat_actions, parse_mat
from matches import services
from matches.store.dice import ScriptedDice
from matches.store.models import Match
from matches.store.replay import MatchView


@dataclass(frozen=True)
class Imported:
    match_id: str
    games: int
    final_score: tuple[int, int]
    winner: int | None
    names: tuple[str, str]


def import_mat(text: str) -> Imported:
    """Store the match in a .mat file; raise a RulesError subclass if it cannot be read."""
    mat = parse_mat(text)
    settings, actions = mat_actions(mat)
    dice = ScriptedDice(_dice_in_order(actions))
    with transaction.atomic():
        view = services.match_create(
            user=None,
            mode=Match.Mode.HOTSEAT,
            length=settings.length,
            cube=settings.cube,
            crawford=settings.crawford,
            public=True,
            dice=dice,
        )
        match_id = view.match_id
        for seat, name in enumerate(mat.names):
            view = services.match_join(
                match_id=match_id, user=None, seat=seat, name=name, dice=dice
            )
        for action in actions:
            view = _drive(view, action, dice)
        if dice.left:
            raise AssertionError("dice left over after the import")  # pragma: no cover
    state = view.state
    assert state is not None
    return Imported(str(match_id), len(state.games), state.score, state.winner, mat.names)


def _drive(view: MatchView, action: rules.Action, dice: ScriptedDice) -> MatchView:
    """Send one recorded action through the matching command, as the system actor."""
    common: dict[str, Any] = {"match_id": view.match_id, "user": None, "dice": dice, "hint": view}
    match action:
        case rules.OpeningRoll() | rules.Move(steps=()):
            return view  # recorded by the server on its own
        case rules.Roll():
            return services.match_roll(seat=action.player, **common)
        case rules.Move():
            steps = [[s.frm, s.to] for s in action.steps]
            return services.match_play(seat=action.player, play=steps, **common)
        case rules.Double():
            return services.match_double(seat=action.player, **common)
        case rules.Take():
            return services.match_take(seat=action.player, **common)
        case rules.Drop():
            return services.match_drop(seat=action.player, **common)
        case rules.Resign():
            return services.match_resign(seat=action.player, value=action.value, **common)
        case rules.AcceptResign():
            return services.match_accept_resign(seat=action.player, **common)
    raise TypeError(f"a .mat file does not record {action!r}")  # pragma: no cover


def _dice_in_order(actions: list[rules.Action]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for action in actions:
        if isinstance(action, rules.OpeningRoll):
            pairs.append((action.die0, action.die1))
        elif isinstance(action, rules.Roll):
            pairs.append((action.dice.high, action.dice.low))
    return pairs
