"""The interface every computer player implements, whatever its strength.

A player sees the game the way the rules engine does: positions from its own side (its
checkers positive, moving from 24 toward 1), dice as `Dice`, and the match as a
`MatchState` plus the seat it plays. The service asks it one question at a time and sends
the answer through the same commands a human uses, so a player can never do something
illegal: `choose_play` picks from the legal plays, and the cube and resignation questions
are asked only when the rules allow that action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from games.rules import Dice, MatchState, Play, Position, legal_plays


class Player(ABC):
    """A computer player. Subclasses choose plays; the cube and resignation answers default
    to the simplest sound behaviour (never double, always take, accept any resignation)."""

    #: The level name the service knows this player by ("random", ...).
    level: str = ""

    @abstractmethod
    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        """One of the legal plays of `dice` in `position` (the player's own side), or None
        when the roll cannot be played at all. `first_turn`: the player's first turn of the
        game, which long nardy's head rule needs (tavla ignores it)."""

    def should_double(self, state: MatchState, seat: int) -> bool:
        """Offer the cube now? Asked only when `state.may_double(seat)` is true."""
        return False

    def should_take(self, state: MatchState, seat: int) -> bool:
        """Take the cube `state.turn` offered? False drops (the game is lost at the old value)."""
        return True

    def resign_value(self, state: MatchState, seat: int) -> int:
        """Resign now, on the player's own turn? 0 for no, else 1/2/3 (single/gammon/bg)."""
        return 0

    def accept_resignation(self, state: MatchState, seat: int) -> bool:
        """Accept the resignation the opponent offers (`state.resign_value`)?"""
        return True

    def legal(self, position: Position, dice: Dice, first_turn: bool = False) -> list[Play]:
        """The legal plays, for subclasses (the game is the position's, games.game_of:
        long nardy)."""
        return legal_plays(position, dice, first_turn=first_turn)
