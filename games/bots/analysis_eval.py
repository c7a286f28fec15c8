"""The analysis's evaluator: a game's network, made to speak in values at a match score.

`Judge` wraps the network of the top level of a game (tavla: games/bots/network.py, long
nardy: games/bots/nardy_network.py) and gives what the analysis asks: the value to the
mover of every position his legal plays reach (`after_play`, at 0 plies the network's
chances of the position with the opponent on roll, made cubeful by games/bots/
analysis_equity.py; at 1 ply the opponent's best reply to each of his 21 rolls looked at
first), and the value of a position before a roll (`before_roll`: the weighted best play of
each roll), both in one batch per position.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from games.rules import TAVLA, Game, flipped_array, successor_arrays

from . import evaluator, nardy_evaluator
from .analysis_equity import Stakes, cubeful, efficiency
from .features import races
from .network import flip

ROLLS: tuple[tuple[int, int], ...] = tuple((h, lo) for h in range(1, 7) for lo in range(1, h + 1))
WEIGHTS = np.array([1.0 if h == lo else 2.0 for h, lo in ROLLS]) / 36.0
"""The 21 distinct rolls, weighted by their chance (doubles 1/36, the others 2/36)."""
OPENING_WEIGHTS = np.array([0.0 if h == lo else 2.0 for h, lo in ROLLS]) / 30.0
"""An opening roll is never a double: its 15 rolls, 2/30 each."""
CANDIDATES = 8
"""At 1 ply, the plays the network ranks best that are searched one roll deeper (and always
the play made)."""


class Judge:
    """Values of positions for the analysis of one game, at `plies` (0 or 1)."""

    def __init__(self, game: Game = TAVLA, plies: int = 0) -> None:
        if plies not in (0, 1):
            raise ValueError("the analysis looks 0 or 1 ply ahead")
        self.game = game
        self.plies = plies
        self.tavla = game is TAVLA

    def chances(self, arrays: np.ndarray) -> np.ndarray:
        """(n, 5) chances (win, win g, win bg, lose g, lose bg) of the player who has just
        moved into each array-form position; long nardy's mars is the gammon, no backgammon."""
        if self.tavla:
            return evaluator().evaluate_arrays(arrays)
        out = nardy_evaluator().evaluate_arrays(arrays)
        zero = np.zeros(len(out))
        return np.stack([out[:, 0], out[:, 1], zero, out[:, 2], zero], axis=1)

    def flipped(self, arrays: np.ndarray) -> np.ndarray:
        return np.array([flipped_array(list(a), game=self.game) for a in arrays], dtype=np.int64)

    def after_play0(self, results: np.ndarray, stakes: Stakes) -> np.ndarray:
        """0 ply: the mover's value (n,) of the positions his plays reach (his side)."""
        p = flip(self.chances(results))  # the opponent's chances, on roll
        them = stakes.turned()
        if not them.cube_live:
            return stakes.dead(flip(p))
        opp = self.flipped(results)
        race = races(opp) if self.tavla else np.zeros(len(opp), dtype=bool)
        return np.asarray(stakes.opposite(cubeful(them, p, efficiency(opp, race))))

    def after_play(
        self,
        results: np.ndarray,
        stakes: Stakes,
        must: Sequence[int] = (),
        reply_first_turn: bool = False,
    ) -> np.ndarray:
        """The mover's value (n,) of the positions his plays reach; at 1 ply the best
        `CANDIDATES` by 0 ply and those in `must` are searched deeper (the rest keep their
        0-ply value: they are no candidate for best). `reply_first_turn`: the opponent's
        reply is his first turn of the game (long nardy's head rule)."""
        shallow = self.after_play0(results, stakes)
        if self.plies == 0 or len(results) == 0:
            return shallow
        order = [int(i) for i in np.argsort(-shallow, kind="stable")[:CANDIDATES]]
        chosen = sorted({*order, *(int(i) for i in must)})
        values = shallow.copy()
        replies = self.flipped(results[chosen])
        deep = self.before_roll_many(replies, stakes.turned(), reply_first_turn)
        for j, i in enumerate(chosen):
            if not self._won(results[i]):
                values[i] = stakes.opposite(deep[j])
        # A play not searched cannot beat the searched ones on its shallow value.
        rest = np.ones(len(results), dtype=bool)
        rest[chosen] = False
        if rest.any():
            values[rest] = np.minimum(values[rest], values[chosen].min())
        return values

    def _won(self, array: np.ndarray) -> bool:
        return bool((array[1:25] <= 0).all())

    def successors(
        self, board: Sequence[int], first_turn: bool
    ) -> tuple[list[tuple[int, ...]], list[int]]:
        """Every roll's resulting positions in one list, and where each roll's group starts
        (a roll that cannot be played leaves the position as it is)."""
        keys: list[tuple[int, ...]] = []
        starts: list[int] = []
        for high, low in ROLLS:
            starts.append(len(keys))
            found = successor_arrays(board, high, low, game=self.game, first_turn=first_turn)
            keys.extend(found if found else (tuple(board),))
        return keys, starts

    def roll_values(
        self, board: Sequence[int], stakes: Stakes, first_turn: bool = False
    ) -> np.ndarray:
        """(21,) the mover's value of his best play of each roll, at 0 ply."""
        keys, starts = self.successors(board, first_turn)
        values = self.after_play0(np.array(keys, dtype=np.int64), stakes)
        ends = [*starts[1:], len(keys)]
        return np.array([values[s:e].max() for s, e in zip(starts, ends, strict=True)])

    def before_roll_many(
        self, boards: np.ndarray, stakes: Stakes, first_turn: bool = False
    ) -> np.ndarray:
        """(n,) the value to the player on roll of each position before his roll, 0 ply."""
        keys: list[tuple[int, ...]] = []
        starts: list[int] = []
        for b in boards:
            more, at = self.successors(list(b), first_turn)
            starts.extend(len(keys) + s for s in at)
            keys.extend(more)
        values = self.after_play0(np.array(keys, dtype=np.int64), stakes)
        ends = [*starts[1:], len(keys)]
        best = np.array([values[s:e].max() for s, e in zip(starts, ends, strict=True)])
        return best.reshape(len(boards), len(ROLLS)) @ WEIGHTS
