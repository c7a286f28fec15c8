"""TD(lambda) self-play training of the network evaluator (games/bots/network.py).

    python -m games.bots.td_train --games 100000 --hidden 64 --alpha 0.1 --lam 0.7 \
        --seed 1 --out games/bots/weights.npz [--resume games/bots/weights.npz]

The network plays both sides, greedily, on seeded dice. Each position it moves into, s_t,
is seen from the side of the player who just moved; its target is the next position's
estimate turned round to that player's side, `flip(V(s_t+1))` (the opponent's win is his
loss, the opponent's gammons his gammon losses), and the exact result when the game ends.

Eligibility traces keep one trace per output (5) for every parameter. Because consecutive
positions are seen from alternating sides, the trace is turned round too at each step:
`e <- lambda * M e + grad V(s_t)`, with M the (symmetric) linear part of `flip`, so that each
TD error reaches earlier positions from their own side. Contact and race networks each keep
their own trace, both decayed at every step (their parameters together are one vector).
Progress (a short benchmark against pubeval) is printed every `--report` games.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from games.rules.dice import Dice
from games.rules.position import Position
from games.rules.scoring import has_won

from .features import encode
from .network import (
    FLIP_ORDER,
    FLIP_SIGN,
    Evaluator,
    Network,
    NetworkPlayer,
    flip,
    terminal_outputs,
)
from .selfplay import MAX_TURNS, opening_roll


class Trainer:
    """Online TD(lambda) for an `Evaluator` (updates its networks in place)."""

    def __init__(self, evaluator: Evaluator, alpha: float = 0.1, lam: float = 0.7) -> None:
        self.evaluator = evaluator
        self.alpha = alpha
        self.lam = lam
        self.player = NetworkPlayer(evaluator)
        self._nets: tuple[Network, Network] = (evaluator.contact, evaluator.race)

    def _fresh_traces(self) -> list[list[np.ndarray]]:
        return [[np.zeros((5, *p.shape)) for p in net.params] for net in self._nets]

    def train_game(self, seed: int, max_turns: int = MAX_TURNS) -> int:
        """One self-play game on dice seeded by `seed`, learning as it goes; its turn count.

        An untrained network can hit back and forth for thousands of turns: after
        `max_turns` the game is abandoned (what it learned so far is kept)."""
        rng = random.Random(seed)
        mover, dice = opening_roll(rng)
        position = Position.starting()
        traces = self._fresh_traces()
        previous: np.ndarray | None = None  # V(s_t-1), from its own side
        sign = FLIP_SIGN.reshape(5, 1)
        for turn in range(1, max_turns + 1):
            play = self.player.choose_play(position, dice)
            state = play.result if play is not None else position
            over = has_won(state)
            if over:
                value = terminal_outputs(state)
            else:
                net = self.evaluator.net_for(state)
                value, grads = net.gradients(encode(state))
            if previous is not None:
                delta = flip(value) - previous
                self._update(traces, delta)
            if over:
                return turn
            # Turn every trace round to this position's side, decay it, add this gradient.
            for net_traces, candidate in zip(traces, self._nets, strict=True):
                for i, trace in enumerate(net_traces):
                    shaped = sign.reshape((5,) + (1,) * (trace.ndim - 1))
                    trace[:] = self.lam * shaped * trace[FLIP_ORDER]
                    if candidate is net:
                        trace += grads[i]
            previous = value
            position = state.flipped()
            mover = 1 - mover
            dice = Dice.of(rng.randint(1, 6), rng.randint(1, 6))
        return max_turns

    def _update(self, traces: list[list[np.ndarray]], delta: np.ndarray) -> None:
        step = self.alpha * delta
        for net, net_traces in zip(self._nets, traces, strict=True):
            for param, trace in zip(net.params, net_traces, strict=True):
                param += np.tensordot(step, trace, axes=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots.td_train", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1, help="network init and dice seeds")
    parser.add_argument("--resume", type=Path, help="start from these weights")
    parser.add_argument("--out", type=Path, required=True, help="where to save the weights")
    parser.add_argument("--report", type=int, default=1000, help="benchmark every N games")
    parser.add_argument("--report-pairs", type=int, default=100)
    args = parser.parse_args(argv)

    evaluator = (
        Evaluator.load(args.resume) if args.resume else Evaluator.fresh(args.hidden, args.seed)
    )
    trainer = Trainer(evaluator, alpha=args.alpha, lam=args.lam)
    start = time.perf_counter()
    for g in range(1, args.games + 1):
        trainer.train_game(args.seed * 1_000_000_007 + g)
        if g % args.report == 0 or g == args.games:
            evaluator.save(args.out)
            ppg = versus_pubeval(evaluator, args.report_pairs)
            rate = g / (time.perf_counter() - start)
            print(f"games {g}  {rate:.1f}/s  vs pubeval {ppg:+.3f} ppg", flush=True)
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
