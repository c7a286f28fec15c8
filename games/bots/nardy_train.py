"""TD(lambda) self-play training of long nardy's network (games/bots/nardy_network.py).

The committed weights, games/bots/nardy_weights.npz, were made by exactly the command in
docs/computer-players.md (section "Long nardy"); the same seed gives the same weights, as every
game's dice come from its own seed and the network's first weights from --seed.

As games/bots/td_train.py does for tavla: the network plays both sides greedily on seeded
dice. The opening roll only decides who starts; he rolls both dice, and each side's first
turn knows it is one (the head rule's exception). Each position a player moves into, s_t, is
seen from his side; at the end of the game every position is learnt, in order, towards its
lambda-return

    G_T-1 = flip(V(s_T))                 (the exact result: oyn or mars)
    G_t   = flip((1 - lambda) V(s_t+1) + lambda G_t+1)

(`flip` turns the probabilities round: consecutive positions belong to alternating players).
The step size decays geometrically from --alpha to --alpha-end. Every --report games the
weights are saved and a short duplicate-dice match against the heuristic level is printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from games.rules import LONG_NARDY, board_array, flipped_array, successor_arrays

from .nardy_network import NardyEvaluator, encode_arrays, equity, flip, terminal

MAX_TURNS = 1000
"""A guard: a long nardy game between sane players takes about 100 turns."""


class Trainer:
    """TD(lambda) by lambda-returns after each game, for a `NardyEvaluator` (in place)."""

    def __init__(self, evaluator: NardyEvaluator, alpha: float = 0.1, lam: float = 0.7) -> None:
        self.evaluator = evaluator
        self.alpha = alpha
        self.lam = lam

    def train_game(self, seed: int) -> int:
        """One self-play game on dice seeded by `seed`, then learning from it; its turns."""
        rng = random.Random(seed)
        while rng.randint(1, 6) == rng.randint(1, 6):
            pass  # the opening roll: it decides who starts, whose side is the same here
        b = board_array(LONG_NARDY.starting())
        inputs: list[np.ndarray] = []
        values: list[np.ndarray] = []
        for turn in range(MAX_TURNS):
            high, low = rng.randint(1, 6), rng.randint(1, 6)
            found = successor_arrays(b, high, low, game=LONG_NARDY, first_turn=turn < 2)
            a = np.array(found or [tuple(b)], dtype=np.int64)  # none: the turn passes
            x = encode_arrays(a)
            v = self.evaluator.evaluate_encoded(a, x)
            best = int(np.argmax(equity(v))) if len(a) > 1 else 0
            inputs.append(x[best])
            values.append(v[best])
            if terminal(a[best : best + 1])[0]:
                break
            b = flipped_array(list(a[best]), game=LONG_NARDY)
        self._learn(np.array(inputs), np.array(values))
        return len(values)

    def _learn(self, x: np.ndarray, v: np.ndarray) -> None:
        """A step for every position of a game, in order, towards its lambda-return (the last
        position only anchors the returns)."""
        steps = len(v) - 1
        if steps < 1:
            return
        returns = np.empty((steps, v.shape[1]))
        returns[-1] = flip(v[-1])
        for t in range(steps - 2, -1, -1):
            returns[t] = flip((1.0 - self.lam) * v[t + 1] + self.lam * returns[t + 1])
        net = self.evaluator.net
        alpha = np.float32(self.alpha)
        targets = returns.astype(np.float32)
        for t in range(steps):
            # The network's backprop, inlined: one pass per position (the output's error is
            # measured afresh after the previous step).
            row = x[t]
            hidden = 1.0 / (1.0 + np.exp(-(net.w1 @ row + net.b1)))
            out = 1.0 / (1.0 + np.exp(-(net.w2 @ hidden + net.b2)))
            d_out = (targets[t] - out) * out * (1.0 - out)
            d_hidden = (d_out @ net.w2) * hidden * (1.0 - hidden)
            net.w2 += alpha * np.outer(d_out, hidden)
            net.b2 += alpha * d_out
            net.w1 += alpha * np.outer(d_hidden, row)
            net.b1 += alpha * d_hidden


def versus_heuristic(evaluator: NardyEvaluator, pairs: int, seed: int = 10_000) -> float:
    """Points per game of the network against the heuristic level (duplicate dice)."""
    from .nardy_heuristic import NardyHeuristicPlayer
    from .nardy_network import NardyNetworkPlayer
    from .selfplay import play_duplicate

    player, heuristic = NardyNetworkPlayer(evaluator), NardyHeuristicPlayer()
    total = 0
    for s in range(seed, seed + pairs):
        first, second = play_duplicate(player, heuristic, s, LONG_NARDY)
        total += first.points_for(0) + second.points_for(1)
    return total / (2 * pairs) if pairs else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots.nardy_train", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--alpha", type=float, default=0.1, help="step size at the start")
    parser.add_argument("--alpha-end", type=float, help="step size at the end (default: alpha)")
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1, help="network init and dice seeds")
    parser.add_argument("--out", type=Path, required=True, help="where to save the weights")
    parser.add_argument("--report", type=int, default=1000, help="benchmark every N games")
    parser.add_argument("--report-pairs", type=int, default=20)
    args = parser.parse_args(argv)

    evaluator = NardyEvaluator.fresh(args.hidden, args.seed)
    trainer = Trainer(evaluator, alpha=args.alpha, lam=args.lam)
    decay = (args.alpha_end or args.alpha) / args.alpha
    start = time.perf_counter()
    reporting = 0.0  # time spent on the progress matches, not counted as training
    for g in range(1, args.games + 1):
        trainer.alpha = args.alpha * decay ** ((g - 1) / args.games)
        trainer.train_game(args.seed * 1_000_000_007 + g)
        if g % args.report == 0 or g == args.games:
            evaluator.save(args.out)
            elapsed = time.perf_counter() - start - reporting
            began = time.perf_counter()
            ppg = versus_heuristic(evaluator, args.report_pairs)
            reporting += time.perf_counter() - began
            print(
                f"games {g}  {g / elapsed:.1f}/s  {elapsed / 60:.1f} min  "
                f"alpha {trainer.alpha:.4f}  vs heuristic {ppg:+.3f} ppg",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
