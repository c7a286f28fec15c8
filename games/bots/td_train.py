"""TD(lambda) self-play training of the network evaluator (games/bots/network.py).

The first committed weights (games/bots/weights.npz until they were replaced by the network
distilled from gnubg, games/bots/distill_train.py; they still play the games of its data
set) were made by exactly this command (82 minutes on one core of the 2-core development
machine; the result is the same on a rerun, as every game's dice come from its own seed):

    python -m games.bots.td_train --games 200000 --hidden 128 --alpha 0.1 --alpha-end 0.02 \
        --lam 0.7 --seed 1 --report 5000 --report-pairs 100 --out td.npz

The network plays both sides, greedily, on seeded dice. Each position it moves into, s_t, is
seen from the side of the player who just moved; a game's positions are learnt at its end
towards their lambda-returns (the "forward view" of TD(lambda), offline):

    G_T-1 = flip(V(s_T))                 (the exact result when s_T ends the game)
    G_t   = flip((1 - lambda) V(s_t+1) + lambda G_t+1)

`flip` turns probabilities round to the other side (the opponent's wins are his losses, the
opponent's gammons his gammon losses): consecutive positions belong to alternating players.
Every position's error G_t - V(s_t), in order, is then back-propagated through the network
that evaluates it (contact or race), with step size alpha, which decays
geometrically from --alpha to --alpha-end over the run. Progress (a short duplicate-dice
benchmark against pubeval) is printed every `--report` games, and the weights are saved then.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from games.rules import Position, board_array, flipped_array, successor_arrays

from .features import encode_arrays, races
from .network import Evaluator, equity, flip
from .neural import NetworkPlayer
from .selfplay import MAX_TURNS, opening_roll


class Trainer:
    """TD(lambda) by lambda-returns after each game, for an `Evaluator` (in place)."""

    def __init__(self, evaluator: Evaluator, alpha: float = 0.1, lam: float = 0.7) -> None:
        self.evaluator = evaluator
        self.alpha = alpha
        self.lam = lam

    def train_game(self, seed: int, max_turns: int = MAX_TURNS) -> int:
        """One self-play game on dice seeded by `seed`, then learning from it; its turns.

        An untrained network can hit back and forth for thousands of turns: after
        `max_turns` the game is abandoned and only its complete part is learnt."""
        rng = random.Random(seed)
        _, dice = opening_roll(rng)
        high, low = dice.high, dice.low
        b = board_array(Position.starting())
        inputs: list[np.ndarray] = []
        race_flags: list[bool] = []
        values: list[np.ndarray] = []
        for _ in range(max_turns):
            found = successor_arrays(b, high, low)
            keys = list(found) if found else [tuple(b)]  # no legal play: the turn passes
            a = np.array(keys, dtype=np.int64)
            x, race = encode_arrays(a), races(a)
            v = self.evaluator.evaluate_encoded(a, x, race)
            best = int(np.argmax(equity(v))) if len(keys) > 1 else 0
            inputs.append(x[best])
            race_flags.append(bool(race[best]))
            values.append(v[best])
            after = keys[best]
            if all(n <= 0 for n in after[1:]):  # the mover has borne off his last checker
                break
            b = flipped_array(list(after))
            high, low = rng.randint(1, 6), rng.randint(1, 6)
            if high < low:
                high, low = low, high
        self._learn(np.array(inputs), np.array(race_flags), np.array(values))
        return len(values)

    def _learn(self, x: np.ndarray, race: np.ndarray, v: np.ndarray) -> None:
        """A step for every position of a game, in order, towards its lambda-return.

        The last position only anchors the returns: the exact result when the game ended
        there, the network's estimate when it was abandoned."""
        steps = len(v) - 1
        if steps < 1:
            return
        returns = np.empty((steps, v.shape[1]))
        returns[-1] = flip(v[-1])
        for t in range(steps - 2, -1, -1):
            returns[t] = flip((1.0 - self.lam) * v[t + 1] + self.lam * returns[t + 1])
        # One position at a time, each measured afresh: a game's positions are alike, and one
        # summed step for all of them overshoots (the outputs saturate).
        nets = (self.evaluator.contact, self.evaluator.race)
        for t in range(steps):
            net = nets[int(race[t])]
            row = x[t : t + 1]
            error = returns[t] - net.forward(row)
            for param, grad in zip(net.params, net.backprop(row, error), strict=True):
                param += self.alpha * grad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots.td_train", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--alpha", type=float, default=0.1, help="step size at the start")
    parser.add_argument("--alpha-end", type=float, help="step size at the end (default: alpha)")
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1, help="network init and dice seeds")
    parser.add_argument("--resume", type=Path, help="start from these weights")
    parser.add_argument("--skip", type=int, default=0, help="games already played (resume)")
    parser.add_argument(
        "--stop-after", type=int, help="stop after this game (alpha still decays over --games)"
    )
    parser.add_argument("--out", type=Path, required=True, help="where to save the weights")
    parser.add_argument("--report", type=int, default=1000, help="benchmark every N games")
    parser.add_argument("--report-pairs", type=int, default=100)
    args = parser.parse_args(argv)

    evaluator = (
        Evaluator.load(args.resume) if args.resume else Evaluator.fresh(args.hidden, args.seed)
    )
    trainer = Trainer(evaluator, alpha=args.alpha, lam=args.lam)
    decay = (args.alpha_end or args.alpha) / args.alpha
    start = time.perf_counter()
    last = min(args.games, args.stop_after or args.games)
    for g in range(args.skip + 1, last + 1):
        trainer.alpha = args.alpha * decay ** ((g - 1) / args.games)
        trainer.train_game(args.seed * 1_000_000_007 + g)
        if g % args.report == 0 or g == last:
            evaluator.save(args.out)
            ppg = versus_pubeval(evaluator, args.report_pairs)
            rate = (g - args.skip) / (time.perf_counter() - start)
            print(
                f"games {g}  {rate:.1f}/s  alpha {trainer.alpha:.4f}  vs pubeval {ppg:+.3f} ppg",
                flush=True,
            )
    return 0


def versus_pubeval(evaluator: Evaluator, pairs: int, seed: int = 10_000) -> float:
    """Points per game of the greedy network against pubeval (duplicate dice)."""
    from .pubeval import PubevalPlayer
    from .selfplay import play_duplicate

    player, pubeval = NetworkPlayer(evaluator), PubevalPlayer()
    total = 0
    for s in range(seed, seed + pairs):
        first, second = play_duplicate(player, pubeval, s)
        total += first.points_for(0) + second.points_for(1)
    return total / (2 * pairs) if pairs else 0.0


if __name__ == "__main__":
    sys.exit(main())
