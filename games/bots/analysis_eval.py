"""The analysis's evaluator: a game's network, made to speak in values at a match score.

`Judge` wraps the network of the top level of a game (tavla: games/bots/network.py, long
nardy: games/bots/nardy_network.py) and gives what the analysis asks: the value to the
mover of every position his legal plays reach (`after_play0`: the network's chances of the
position with the opponent on roll, made cubeful by games/bots/analysis_equity.py;
`after_play1`: one roll deeper, the opponent's cube action and best reply to each of his 21
rolls), the error's two values (`judge_play`: at 1 ply the network's choice and the play
made valued by the mean of both, docs/analysis.md says why), and the value of a position
before a roll (`before_roll_many`, `roll_values`: each roll's best play), in one batch per
position. A judge keeps the last positions' rolls, as consecutive decisions ask for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from games.rules import TAVLA, Game, Variant, successor_arrays

from . import evaluator, nardy_evaluator
from .analysis_equity import Stakes, cubeful, efficiency
from .features import races
from .network import flip

ROLLS: tuple[tuple[int, int], ...] = tuple((h, lo) for h in range(1, 7) for lo in range(1, h + 1))
WEIGHTS = np.array([1.0 if h == lo else 2.0 for h, lo in ROLLS]) / 36.0
"""The 21 distinct rolls, weighted by their chance (doubles 1/36, the others 2/36)."""
OPENING_WEIGHTS = np.array([0.0 if h == lo else 2.0 for h, lo in ROLLS]) / 30.0
"""An opening roll is never a double: its 15 rolls, 2/30 each."""
KEPT = 64
"""How many positions' rolls a judge keeps (the next decisions ask for the same ones)."""


def _tavla_chances(arrays: np.ndarray) -> np.ndarray:
    return evaluator().evaluate_arrays(arrays)


def _nardy_chances(arrays: np.ndarray) -> np.ndarray:
    """Long nardy's network says (win, win mars, lose mars): its mars is the gammon, and it has
    no backgammon."""
    out = nardy_evaluator().evaluate_arrays(arrays)
    zero = np.zeros(len(out))
    return np.stack([out[:, 0], out[:, 1], zero, out[:, 2], zero], axis=1)


CHANCES: dict[Variant, Callable[[np.ndarray], np.ndarray]] = {
    Variant.TAVLA: _tavla_chances,
    Variant.LONG_NARDY: _nardy_chances,
}
"""Each game's network, as (n, 5) chances (win, win g, win bg, lose g, lose bg) of the player
who has just moved into each array-form position."""


@dataclass
class Outlook:
    """Positions after a play, ready to be valued at any stakes: the chances of the
    opponent, on roll (n, 5), his side, and his cube efficiency (n,)."""

    chances: np.ndarray
    efficiency: np.ndarray


@dataclass
class Rolls:
    """A position before a roll: every roll's resulting positions (`outlook`, one group a
    roll, starting at `starts`), and their best value per roll by the stakes asked."""

    outlook: Outlook
    starts: np.ndarray
    values: dict[Stakes, np.ndarray] = field(default_factory=dict)


class Judge:
    """Values of positions for the analysis of one game, at `plies` (0 or 1)."""

    def __init__(self, game: Game = TAVLA, plies: int = 0) -> None:
        if plies not in (0, 1):
            raise ValueError("the analysis looks 0 or 1 ply ahead")
        self.game = game
        self.plies = plies
        self.chances = CHANCES[game.variant]  # the game's network (n, 5)
        # Turning a board round is a signed permutation of its array form (either game):
        # flipping the probe 1..26 shows where each entry comes from (0: always empty).
        probe = -np.array(game.flipped_array(list(range(1, 27))), dtype=np.int64)
        self._flip_from = np.maximum(probe - 1, 0)
        self._flip_keep = -(probe > 0).astype(np.int64)
        self._kept: dict[tuple[tuple[int, ...], bool], Rolls] = {}

    def flipped(self, arrays: np.ndarray) -> np.ndarray:
        """The array forms (n, 26) turned round, the opponent's side."""
        return arrays[:, self._flip_from] * self._flip_keep

    def outlook(self, results: np.ndarray) -> Outlook:
        """The network's view of the positions plays reach (array forms, the mover's side);
        a game without the cube has no cube efficiency."""
        chances = flip(self.chances(results))
        if not self.game.has_cube:
            return Outlook(chances, np.zeros(len(results)))
        opp = self.flipped(results)
        return Outlook(chances, efficiency(opp, races(opp)))

    def worth(self, outlook: Outlook, stakes: Stakes) -> np.ndarray:
        """The mover's value (n,) of the positions of `outlook` at his `stakes`."""
        them = stakes.turned()
        if not them.cube_live:
            return stakes.dead(flip(outlook.chances))
        value = cubeful(them, outlook.chances, outlook.efficiency)
        return np.asarray(stakes.opposite(value))

    def after_play0(self, results: np.ndarray, stakes: Stakes) -> np.ndarray:
        """0 ply: the mover's value (n,) of the positions his plays reach (his side)."""
        return self.worth(self.outlook(results), stakes)

    def after_play1(
        self, results: np.ndarray, stakes: Stakes, reply_first_turn: bool = False
    ) -> np.ndarray:
        """1 ply: the mover's value (n,) of the positions his plays reach, the opponent on
        roll: his cube action first where he may double, then his best reply to each of his
        21 rolls (a play that wins the game keeps its exact value). `reply_first_turn`: the
        reply is the opponent's first turn (long nardy's head rule)."""
        won = (results[:, 1:25] <= 0).all(axis=1)
        values = np.empty(len(results))
        if won.any():
            values[won] = self.after_play0(results[won], stakes)
        if not won.all():
            on_roll = self.on_roll(self.flipped(results[~won]), stakes.turned(), reply_first_turn)
            values[~won] = stakes.opposite(on_roll)
        return values

    def after_play(
        self, results: np.ndarray, stakes: Stakes, reply_first_turn: bool = False
    ) -> np.ndarray:
        """The mover's value (n,) of the positions his plays reach, by the judge's standard:
        at 0 plies the network's (`after_play0`); at 1 ply the mean of that and of the value
        one roll deeper (`after_play1`), two estimates whose errors are partly independent."""
        shallow = self.after_play0(results, stakes)
        if self.plies == 0 or len(results) == 0:
            return shallow
        return 0.5 * (shallow + self.after_play1(results, stakes, reply_first_turn))

    def judge_play(
        self, results: np.ndarray, stakes: Stakes, played: int, reply_first_turn: bool = False
    ) -> tuple[int, float, float]:
        """(best, its value, the played play's value) among the legal plays' `results`.

        The best is the network's choice at 0 plies. At 1 ply the two plays that make the
        error, that choice and the one made, are then valued by `after_play`'s 1-ply
        standard: the choice is the best partly because the network overrates it (the
        largest of many estimates is biased upward), and a second estimate, not used to
        choose, takes half of that back; should it put the play made first, that was best."""
        shallow = self.after_play0(results, stakes)
        best = int(np.argmax(shallow))
        if self.plies == 0:
            return best, float(shallow[best]), float(shallow[played])
        pair = results[[best, played]]
        value_best, value_played = 0.5 * (
            shallow[[best, played]] + self.after_play1(pair, stakes, reply_first_turn)
        )
        if value_played >= value_best:
            return played, float(value_played), float(value_played)
        return best, float(value_best), float(value_played)

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

    def rolls(self, boards: np.ndarray, first_turn: bool = False) -> list[Rolls]:
        """Every roll's results of each board (the player on roll's side), the network's
        view of them in one batch. Kept for a while: the position a play reaches, looked at
        one roll deeper, is the opponent's next decision, whose luck asks the same."""
        names = [(tuple(b.tolist()), first_turn) for b in boards]
        missing = [name for name in dict.fromkeys(names) if name not in self._kept]
        if missing:
            keys: list[tuple[int, ...]] = []
            starts: list[list[int]] = []
            for board, _ in missing:
                more, at = self.successors(board, first_turn)
                starts.append([len(keys) + s for s in at])
                keys.extend(more)
            seen = self.outlook(np.array(keys, dtype=np.int64))
            ends = [s[0] for s in starts[1:]] + [len(keys)]
            for name, at, end in zip(missing, starts, ends, strict=True):
                part = slice(at[0], end)
                view = Outlook(seen.chances[part], seen.efficiency[part])
                self._kept[name] = Rolls(view, np.array(at) - at[0])
                if len(self._kept) > KEPT:
                    del self._kept[next(iter(self._kept))]
        return [self._kept[name] for name in names]

    def roll_values(
        self, board: Sequence[int], stakes: Stakes, first_turn: bool = False
    ) -> np.ndarray:
        """(21,) the mover's value of his best play of each roll, at 0 ply."""
        return self.roll_values_many(np.array([board], dtype=np.int64), stakes, first_turn)[0]

    def roll_values_many(
        self, boards: np.ndarray, stakes: Stakes, first_turn: bool = False
    ) -> np.ndarray:
        """(n, 21) `roll_values` of each board."""
        out = []
        for rolls in self.rolls(boards, first_turn):
            if stakes not in rolls.values:
                worth = self.worth(rolls.outlook, stakes)
                rolls.values[stakes] = np.maximum.reduceat(worth, rolls.starts)
            out.append(rolls.values[stakes])
        return np.array(out).reshape(len(boards), len(ROLLS))

    def before_roll_many(
        self, boards: np.ndarray, stakes: Stakes, first_turn: bool = False
    ) -> np.ndarray:
        """(n,) the value to the player on roll of each position before his roll, 0 ply,
        leaving the cube where it is."""
        return self.roll_values_many(boards, stakes, first_turn) @ WEIGHTS

    def on_roll(self, boards: np.ndarray, stakes: Stakes, first_turn: bool = False) -> np.ndarray:
        """(n,) the value to the player on roll before his roll, his cube action included:
        where he may double, the better of not doubling and doubling (the opponent taking
        or passing, whichever is worse for the doubler)."""
        no_double = self.before_roll_many(boards, stakes, first_turn)
        if not stakes.can_double("me"):
            return no_double
        doubled = replace(stakes, cube=2 * stakes.cube, owner="them")
        take = self.before_roll_many(boards, doubled, first_turn)
        drop = stakes.value(stakes.cube)
        return np.maximum(no_double, np.minimum(take, drop))
