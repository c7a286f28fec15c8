"""The network levels: plays chosen, cubes and resignations decided by the trained evaluator.

- `NetworkPlayer` plays the legal play whose result has the highest cubeless equity; with
  `noise` it adds a normal error to every play's equity first (the weaker network level).
- `LookaheadPlayer` searches its best few candidate plays one roll deeper.

Both decide the cube from their chances on roll (games/bots/lookahead.py) with the match
equity maths of games/bots/cube.py, resign only races they cannot win, and accept a
resignation when it is worth at least what playing on is.
"""

from __future__ import annotations

import random

import numpy as np

from games.rules import (
    CHECKERS,
    Dice,
    MatchState,
    Phase,
    Play,
    Position,
    board_array,
    flipped_array,
)

from . import cube
from .base import Player
from .lookahead import chances_on_roll, on_roll
from .network import Evaluator, equity, flip


class NetworkPlayer(Player):
    """Plays the legal play of highest cubeless equity; with `noise` > 0, a normal error of
    that standard deviation (in points) is added to each play's equity (a weaker level)."""

    level = "network"

    def __init__(self, evaluator: Evaluator, noise: float = 0.0, seed: int | None = None) -> None:
        self.evaluator = evaluator
        self.noise = noise
        self._random = random.Random(seed)

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        plays = self.legal(position, dice, first_turn)
        if len(plays) <= 1:
            return plays[0] if plays else None
        scores = equity(self.evaluator.evaluate_many([p.result for p in plays]))
        if self.noise:
            scores = scores + np.array([self._random.gauss(0.0, self.noise) for _ in plays])
        return plays[int(np.argmax(scores))]

    # -- the cube and resignations -------------------------------------------------------

    def chances(self, state: MatchState, seat: int) -> cube.Chances:
        """`seat`'s chances in the game of `state`, his side: before his roll when he is to
        roll, after his best play when his dice are out, and when the other player is on turn,
        that player's chances turned round."""
        roller = state.turn
        if roller is not None and roller != seat:
            return self.chances(state, roller).turned()
        position = state.position_for(seat)
        if state.dice is None or Phase.PLAY not in (state.phase, state.resumed_phase):
            return cube.Chances.from_outputs(chances_on_roll(self.evaluator, position))
        results = [p.result for p in self.legal(position, state.dice)] or [position]
        outputs = self.evaluator.evaluate_many(results)
        return cube.Chances.from_outputs(outputs[int(np.argmax(equity(outputs)))])

    def should_double(self, state: MatchState, seat: int) -> bool:
        if not state.may_double(seat):
            return False  # never an illegal double, whoever asks
        return cube.cube_decision(state, seat, self.chances(state, seat)).should_double

    def should_take(self, state: MatchState, seat: int) -> bool:
        doubler = 1 - seat
        return cube.cube_decision(state, doubler, self.chances(state, doubler)).should_take

    def resign_value(self, state: MatchState, seat: int) -> int:
        if state.resign_rejected:
            return 0  # refused this turn: play on, and offer again next turn if still lost
        race = state.position_for(seat).is_race()
        return cube.resign_value(self.chances(state, seat), race) if race else 0

    def accept_resignation(self, state: MatchState, seat: int) -> bool:
        return cube.accept_resignation(state, seat, self.chances(state, seat))


class LookaheadPlayer(NetworkPlayer):
    """Scores its best `candidates` plays (by the network) one roll deeper: each result by
    the opponent's best reply to each of his rolls, and plays the best of those."""

    level = "network-1ply"

    def __init__(self, evaluator: Evaluator, candidates: int = 6, margin: float = 0.25) -> None:
        super().__init__(evaluator)
        self.candidates = candidates
        self.margin = margin  # candidates further than this behind the best are not searched

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        plays = self.legal(position, dice, first_turn)
        if len(plays) <= 1:
            return plays[0] if plays else None
        shallow = equity(self.evaluator.evaluate_many([p.result for p in plays]))
        order = np.argsort(-shallow, kind="stable")[: self.candidates]
        chosen = [int(i) for i in order if shallow[i] >= shallow[order[0]] - self.margin]
        if len(chosen) == 1:
            return plays[chosen[0]]
        for i in chosen:
            if plays[i].result.off[0] == CHECKERS:
                return plays[i]  # the game is won: nothing to look at
        replies = on_roll(
            self.evaluator, [flipped_array(board_array(plays[i].result)) for i in chosen]
        )
        return plays[chosen[int(np.argmax(equity(flip(replies))))]]
