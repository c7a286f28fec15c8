"""Importing gnubg `.mat` files as matches, through the same commands as live play.

The file is read and checked by the rules engine first (so a bad file is refused with the
game, move number and reason before anything is written); then every roll, play, double,
take, drop and resignation is sent through `services.match_act`, with the file's dice, inside
one transaction: a file either imports whole or leaves nothing behind. No savepoint per
command: a failure anywhere rolls the whole import back anyway.

Bounded: a file of more than `TAVLA_IMPORT_MAX_GAMES` games or `TAVLA_IMPORT_MAX_ACTIONS`
actions (rolls, plays, cube actions) is refused before anything is written (its size is
capped before it is read: `TAVLA_IMPORT_MAX_BYTES`). The import runs in the request, at about
6 ms per action: the default limits keep the longest near 12 s (benchmarks/import_bench.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings as django_settings
from django.db import transaction

import games.rules as rules
from games.rules import InvalidMatchFile, mat_actions, parse_mat
from matches import services
from matches.errors import refused
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


def import_mat(text: str, name_problem: Callable[[str], str | None] | None = None) -> Imported:
    """Store the match in a .mat file; raise a RulesError subclass if it cannot be read.
    `name_problem(name)`: why a player's name is refused (the API's rules for names), if any."""
    mat = parse_mat(text)
    for seat, name in enumerate(mat.names):
        problem = name_problem(name) if name_problem is not None else None
        if problem is not None:
            raise refused(InvalidMatchFile, "import_name", seat=seat + 1, problem=problem)
    max_games = int(getattr(django_settings, "TAVLA_IMPORT_MAX_GAMES", 32))
    if len(mat.games) > max_games:
        raise refused(InvalidMatchFile, "import_games", count=len(mat.games), max=max_games)
    settings, actions = mat_actions(mat)
    max_actions = int(getattr(django_settings, "TAVLA_IMPORT_MAX_ACTIONS", 2000))
    if len(actions) > max_actions:
        raise refused(InvalidMatchFile, "import_actions", count=len(actions), max=max_actions)
    dice = ScriptedDice(_opening_rolls(actions))  # the server rolls these by itself
    with transaction.atomic():
        view = services.match_create(
            user=None,
            mode=str(Match.Mode.HOTSEAT),
            length=settings.length,
            cube=settings.cube,
            crawford=settings.crawford,
            public=True,
            dice=dice,
        )
        match_id = view.match_id
        if match_id is None:  # pragma: no cover - a created match has an id
            raise ValueError("match_create returned a view without a match")
        for seat, name in enumerate(mat.names):
            view = services.match_join(
                match_id=match_id, user=None, seat=seat, name=name, dice=dice
            )
        for action in actions:
            view = _drive(view, action, dice)
        state = view.state
        if dice.left or state is None:
            raise refused(InvalidMatchFile, "import_unplayed")
    return Imported(str(match_id), len(state.games), state.score, state.winner, mat.names)


def _drive(view: MatchView, action: rules.Action, dice: ScriptedDice) -> MatchView:
    """Send one recorded action through the store, as the system actor."""
    if isinstance(action, rules.OpeningRoll) or (
        isinstance(action, rules.Move) and not action.steps
    ):
        return view  # the server records opening rolls and forced passes by itself
    if view.match_id is None:  # pragma: no cover - views of stored matches have ids
        raise ValueError("a view without a match")
    return services.match_act(
        match_id=view.match_id, user=None, action=action, dice=dice, within=view
    )


def _opening_rolls(actions: list[rules.Action]) -> list[tuple[int, int]]:
    return [(a.die0, a.die1) for a in actions if isinstance(a, rules.OpeningRoll)]
