"""The games the engine plays, and everything in which they differ, in one place.

`TAVLA` (backgammon as RULES.md reads it) and `LONG_NARDY` (RULES-LONG-NARDY.md) are `Game`
objects: their positions, starting position, legal plays, the array form's turn-around,
what a win is worth, and the match rules that differ (a bar, the cube, backgammons, whether
the opening dice are played, who starts the next game, the resignations offered).

The module-level functions (`legal_plays`, `resolve_play`, ...) are the facade's: they work
on either game's positions, the game being the position's (a `NardyPosition` is long
nardy); functions on the array form, which does not say its game, take `game=`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum

from . import nardy, plays
from .dice import Dice
from .errors import InvalidSettings
from .nardy import NardyPosition
from .plays import Key, Play, Step
from .position import CHECKERS, Position
from .scoring import GameKind
from .scoring import kind_of_win as tavla_kind_of_win
from .validate import next_steps, plays_for
from .validate import resolve_play as _resolve_play


class Variant(StrEnum):
    """The game a match is played in (the match setting `game`)."""

    TAVLA = "tavla"
    LONG_NARDY = "long-nardy"


class Game(ABC):
    """One game's rules. Use the instances `TAVLA` and `LONG_NARDY`."""

    variant: Variant
    position_class: type[Position]
    has_bar: bool
    has_cube: bool
    has_backgammons: bool
    plays_opening_dice: bool  # the opening roll's two dice are the first play (tavla)
    winner_starts_next_game: bool  # the default of the setting `next_game_starter`
    resign_values: tuple[int, ...]  # what a player may resign: 1 single/oyn, 2 gammon/mars...

    def starting(self) -> Position:
        """The starting position, from the side of the player to move."""
        return self.position_class.starting()

    def position_from_json(self, data: object) -> Position:
        """A checked position from JSON (InvalidPosition says what is wrong)."""
        return self.position_class.from_json(data)

    @abstractmethod
    def legal_plays(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> list[Play]:
        """Every distinct legal play (see the module function `legal_plays`)."""

    @abstractmethod
    def successor_arrays(
        self, array: Sequence[int], high: int, low: int, *, first_turn: bool = False
    ) -> list[Key]:
        """The legal plays' resulting array forms (see `successor_arrays`)."""

    @abstractmethod
    def flipped_array(self, array: Sequence[int]) -> list[int]:
        """The array form from the other player's side."""

    def position_from_array(self, array: Sequence[int]) -> Position:
        """The position an array form describes (not checked)."""
        b = list(array)
        board = tuple(b[1:25])
        mine = b[25] + sum(n for n in board if n > 0)
        theirs = -b[0] - sum(n for n in board if n < 0)
        return self.position_class(board, (b[25], -b[0]), (CHECKERS - mine, CHECKERS - theirs))

    @abstractmethod
    def kind_of_win(self, winner_view: Position) -> GameKind:
        """What the game the player on roll in `winner_view` has just won is worth."""

    def __repr__(self) -> str:
        return f"<Game {self.variant.value}>"


class _Tavla(Game):
    variant = Variant.TAVLA
    position_class = Position
    has_bar = True
    has_cube = True
    has_backgammons = True
    plays_opening_dice = True
    winner_starts_next_game = False
    resign_values = (1, 2, 3)

    def legal_plays(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> list[Play]:
        return plays.legal_plays(position, dice)

    def successor_arrays(
        self, array: Sequence[int], high: int, low: int, *, first_turn: bool = False
    ) -> list[Key]:
        return plays.successor_arrays(array, high, low)

    def flipped_array(self, array: Sequence[int]) -> list[int]:
        return plays.flipped_array(array)

    def kind_of_win(self, winner_view: Position) -> GameKind:
        return tavla_kind_of_win(winner_view)


class _LongNardy(Game):
    variant = Variant.LONG_NARDY
    position_class = NardyPosition
    has_bar = False
    has_cube = False
    has_backgammons = False
    plays_opening_dice = False
    winner_starts_next_game = True
    resign_values = (1, 2)

    def legal_plays(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> list[Play]:
        if not isinstance(position, NardyPosition):
            position = NardyPosition(position.board, position.bar, position.off)
        return nardy.legal_plays(position, dice, first_turn)

    def successor_arrays(
        self, array: Sequence[int], high: int, low: int, *, first_turn: bool = False
    ) -> list[Key]:
        return list(nardy.search(list(array), high, low, first_turn))

    def flipped_array(self, array: Sequence[int]) -> list[int]:
        return nardy.flip_array(array)

    def kind_of_win(self, winner_view: Position) -> GameKind:
        """Oyn (1 point), or mars (2) when the loser has borne off none."""
        return GameKind.SINGLE if winner_view.off[1] > 0 else GameKind.GAMMON


TAVLA: Game = _Tavla()
LONG_NARDY: Game = _LongNardy()
GAMES: dict[Variant, Game] = {TAVLA.variant: TAVLA, LONG_NARDY.variant: LONG_NARDY}


def game_of(what: Variant | str | Position | Game) -> Game:
    """The game of a variant (or its name, "tavla" / "long-nardy") or of a position."""
    if isinstance(what, Game):
        return what
    if isinstance(what, Position):
        return LONG_NARDY if isinstance(what, NardyPosition) else TAVLA
    try:
        return GAMES[Variant(what)]
    except ValueError:
        names = ", ".join(v.value for v in Variant)
        raise InvalidSettings("game", f"the games are {names}, not {what!r}") from None


# -- the facade's functions, for both games ----------------------------------------------------


def legal_plays(position: Position, dice: Dice, *, first_turn: bool = False) -> list[Play]:
    """Every distinct legal play, one per resulting position, in the oracles' order (board,
    then bar, then off); [] when the roll cannot be played (the turn passes).

    The game is the position's: a `NardyPosition` is long nardy, where `first_turn` (the
    player's first turn of the game) lets two checkers leave the head with 6-6, 4-4, 3-3.
    """
    if type(position) is Position:
        return plays.legal_plays(position, dice)
    return plays_for(position, dice, first_turn)


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
    position: Position, dice: Dice, play: str | list[object], *, first_turn: bool = False
) -> Play:
    """The legal play meant by notation ("24/18 13/10") or steps ([[24, 18], [13, 10]]);
    IllegalPlay says why when there is none (InvalidNotation when it cannot be read)."""
    return _resolve_play(position, dice, play, first_turn=first_turn)


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
