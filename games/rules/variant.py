"""What a game is: the facts of its board and the questions its rules answer.

Every difference between the games the engine plays is a fact or a method of a `Game`; the
rest of the engine (the match, the refusals of `validate.py`, perft) and every caller ask the
game, never the type of a position. Each game is one module (tavla.py, nardy.py) with its
`Game` subclass; games.py registers them (`GAMES`, `find_game`), as python-chess's
`chess/variant.py` does its variants. docs/architecture.md "Adding a game".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

from .board import Board, Key, Play, from_array
from .dice import Dice
from .errors import IllegalPlay
from .position import Position
from .scoring import GameKind


class Variant(StrEnum):
    """The game a match is played in (the match setting `game`)."""

    TAVLA = "tavla"
    LONG_NARDY = "long-nardy"


class Game(ABC):
    """One game's rules: the facts of its board and its move search and refusals.

    The facts, as class attributes (in the mover's numbering: he moves from 24 toward 1):
    """

    variant: Variant
    title: str  # the game's name in an English sentence ("long nardy")
    position_class: type[Position]
    has_bar: bool  # hit checkers go to the bar (tavla); long nardy has no bar, no hitting
    heads: tuple[int, int] | None  # (the mover's head, the opponent's): where 15 checkers start
    direction: Literal["opposite", "same"]  # the two players move opposite ways round, or the same
    closing_count: int  # how many opposing checkers close a point (2: a blot is hit; 1)
    head_rule: bool  # at most one checker leaves the head in a turn (two on a first turn...)
    wall: int | None  # no wall of this many points in a row unless passed (6), or None
    has_cube: bool
    has_backgammons: bool
    has_gnubg_ids: bool  # GNU Backgammon's Position and Match IDs describe its positions
    plays_opening_dice: bool  # the opening roll's two dice are the first play (tavla)
    winner_starts_next_game: bool  # the default of the setting `next_game_starter`
    resign_values: tuple[int, ...]  # what a player may resign: 1 single/oyn, 2 gammon/mars...
    results: tuple[str, ...]  # the names of a win worth 1, 2 (and 3) points
    resign_reason: str  # the refusal (errors.REFUSALS) of a resignation value not offered
    no_cube_reason: str  # the refusal of a double in a match without the cube

    @property
    def name(self) -> str:
        """The game's name: its `variant` ("tavla", "long-nardy")."""
        return self.variant.value

    def starting(self) -> Position:
        """The starting position, from the side of the player to move."""
        return self.position_class.starting()

    def position_from_json(self, data: object) -> Position:
        """A checked position from JSON (InvalidPosition says what is wrong)."""
        return self.position_class.from_json(data)

    def position_from_array(self, array: Sequence[int]) -> Position:
        """The position an array form describes (not checked)."""
        return from_array(array, self.position_class)

    def result_name(self, kind: GameKind) -> str:
        """What this game calls a win of this kind (gammon / mars, ...)."""
        return self.results[min(int(kind), len(self.results)) - 1]

    @abstractmethod
    def legal_plays(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> list[Play]:
        """Every distinct legal play, one per resulting position, in the oracles' order;
        [] when the roll cannot be played. `first_turn`: the player's first turn of the game
        (the head rule's exception)."""

    @abstractmethod
    def successor_arrays(
        self, array: Sequence[int], high: int, low: int, *, first_turn: bool = False
    ) -> list[Key]:
        """The legal plays' resulting array forms (see game.successor_arrays)."""

    @abstractmethod
    def flipped_array(self, array: Sequence[int]) -> list[int]:
        """The array form from the other player's side."""

    @abstractmethod
    def kind_of_win(self, winner_view: Position) -> GameKind:
        """What the game the player on roll in `winner_view` has just won is worth."""

    @abstractmethod
    def their_point(self, point: int) -> int:
        """The opponent's own number of the mover's `point` (1..24)."""

    @abstractmethod
    def my_point(self, theirs: int) -> int:
        """The mover's number of the opponent's point `theirs` (1..24)."""

    # -- the refusals that differ (validate.py asks them) ---------------------------------------

    @abstractmethod
    def point_closed(self, point: int, count: int) -> IllegalPlay:
        """The refusal of a step onto `point`, held by `count` opposing checkers."""

    def no_bar(self) -> IllegalPlay | None:
        """The refusal of a step from the bar in a game without one (None: it has a bar)."""
        return None

    def refuse_play(
        self,
        after: Board,
        from_head: int,
        dice: Dice,
        first_turn: bool,
        legal: Sequence[Play],
    ) -> IllegalPlay | None:
        """The refusal of a whole play by a rule of this game alone (None: none applies):
        `after` the array form it leads to, `from_head` the checkers it took off the head."""
        return None

    def __repr__(self) -> str:
        return f"<Game {self.variant.value}>"
