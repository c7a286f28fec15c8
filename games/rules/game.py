"""The games' functions of the facade: they work on any game's positions, the game being the
position's (`games.game_of`); functions on the array form, which does not say its game, take
`game=`. The games themselves are variant.py (what a game is), tavla.py and nardy.py (each
game), games.py (the registry: `GAMES`, `find_game`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import Key, Play, Step
from .dice import Dice
from .games import GAMES, LONG_NARDY, TAVLA, find_game, game_of
from .position import Position
from .scoring import GameKind
from .validate import next_steps
from .validate import resolve_play as _resolve_play
from .variant import Game, Variant

__all__ = [
    "GAMES",
    "LONG_NARDY",
    "TAVLA",
    "Game",
    "Variant",
    "find_game",
    "flipped_array",
    "game_of",
    "kind_of_win",
    "legal_next_steps",
    "legal_plays",
    "position_from_array",
    "resolve_play",
    "successor_arrays",
]


def legal_plays(position: Position, dice: Dice, *, first_turn: bool = False) -> list[Play]:
    """Every distinct legal play, one per resulting position, in the oracles' order (board,
    then bar, then off); [] when the roll cannot be played (the turn passes).

    The game is the position's: in long nardy `first_turn` (the player's first turn of the
    game) lets two checkers leave the head with 6-6, 4-4, 3-3.
    """
    return game_of(position).legal_plays(position, dice, first_turn=first_turn)


def legal_next_steps(
    position: Position, dice: Dice, steps_so_far: list[Step], *, first_turn: bool = False
) -> list[Step]:
    """The steps a player may make next after a partial play (no touch-move: he may undo).

    A step is offered only if some legal whole play continues through it; an empty list
    after a non-empty prefix means the play is complete. Raises IllegalPlay when the prefix
    itself cannot start a legal play.
    """
    return next_steps(position, dice, steps_so_far, first_turn=first_turn)


def resolve_play(
    position: Position,
    dice: Dice,
    play: str | list[object],
    *,
    first_turn: bool = False,
    legal: Sequence[Play] | None = None,
) -> Play:
    """The legal play meant by notation ("24/18 13/10") or steps ([[24, 18], [13, 10]]);
    IllegalPlay says why when there is none (InvalidNotation when it cannot be read).
    `legal`: the position's legal plays with these dice, when the caller has them."""
    return _resolve_play(position, dice, play, first_turn=first_turn, legal=legal)


def successor_arrays(
    array: Sequence[int],
    high: int,
    low: int,
    *,
    game: Game = TAVLA,
    first_turn: bool = False,
) -> list[Key]:
    """Every distinct position a legal play of the roll high-low reaches, as array forms
    (tuples, still from the mover's side, not turned round), in no particular order; [] when
    the roll cannot be played. Dice in either order.

    The same positions as `legal_plays` gives, without building Play values: the fast path
    for callers that evaluate many positions (the computer players). The array form is
    `board_array`'s.
    """
    return game.successor_arrays(array, high, low, first_turn=first_turn)


def flipped_array(array: Sequence[int], *, game: Game = TAVLA) -> list[int]:
    """The same position's array form from the other player's side (he is now to move)."""
    return game.flipped_array(array)


def position_from_array(array: Sequence[int], *, game: Game = TAVLA) -> Position:
    """The position an array form describes (see `board_array`); not checked."""
    return game.position_from_array(array)


def kind_of_win(winner_view: Position) -> GameKind:
    """What the game the player on roll in `winner_view` has just won is worth: tavla single,
    gammon or backgammon; long nardy oyn (SINGLE) or mars (GAMMON)."""
    return game_of(winner_view).kind_of_win(winner_view)
