"""Positions for distilling gnubg's 0-ply evaluations into the network (step 1 of 3).

`python benchmarks/distill/positions.py --games 6000 --seed 7 --out positions.npz` plays the
project's network against itself with randomness and keeps, at every turn, the play it chose
and a few other legal plays of the same roll, each in array form (games.rules.board_array,
26 counts, from the side of the player who has just moved: the form the evaluator scores).
The other plays matter: analysis ranks every legal play, so the network must score the poor
ones too, not only the positions good play reaches. The randomness (a random legal play with
probability --explore, otherwise the best by equity plus Gaussian noise) takes the games
through primes, back games and odd races besides the usual ones. Finished games (the mover
has borne off) are left out: their value is exact. Step 2 is label.py, run inside gnubg.

The committed weights' data set was played by the TD-trained network that came before them
(`git show 223fa38:games/bots/weights.npz > td.npz`, or games/bots/td_train.py's command),
three runs of 1,400 games (docs/computer-players.md has the commands).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.bots.features import encode_arrays, races  # noqa: E402
from games.bots.network import Evaluator, equity  # noqa: E402
from games.bots.selfplay import MAX_TURNS, opening_roll  # noqa: E402
from games.rules import Position, board_array, flipped_array, successor_arrays  # noqa: E402

WEIGHTS = ROOT / "games" / "bots" / "weights.npz"


def play(evaluator: Evaluator, seed: int, others: int, explore: float, noise: float):  # type: ignore[no-untyped-def]
    """One game; yields the arrays kept at each turn."""
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    _, dice = opening_roll(rng)
    high, low = dice.high, dice.low
    b = board_array(Position.starting())
    for _ in range(MAX_TURNS):
        found = successor_arrays(b, high, low)
        keys = list(found) if found else [tuple(b)]
        a = np.array(keys, dtype=np.int64)
        if len(keys) > 1 and rng.random() < explore:
            best = rng.randrange(len(keys))
        elif len(keys) > 1:
            v = evaluator.evaluate_encoded(a, encode_arrays(a), races(a))
            best = int(np.argmax(equity(v) + nrng.normal(0.0, noise, len(keys))))
        else:
            best = 0
        kept = [best, *rng.sample(range(len(keys)), min(others, len(keys)))]
        for i in dict.fromkeys(kept):
            if (a[i, 1:] > 0).any():  # the mover still has checkers on the board
                yield a[i]
        after = keys[best]
        if all(n <= 0 for n in after[1:]):
            return
        b = flipped_array(list(after))
        high, low = rng.randint(1, 6), rng.randint(1, 6)
        if high < low:
            high, low = low, high


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--others", type=int, default=4, help="other plays kept per turn")
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--noise", type=float, default=0.1, help="equity noise, std")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--weights", type=Path, default=WEIGHTS, help="the players' network")
    args = parser.parse_args()
    evaluator = Evaluator.load(args.weights)
    rows: list[np.ndarray] = []
    for g in range(args.games):
        # Each game its own amount of randomness: some nearly clean, some wild.
        scale = (g % 4) / 2.0
        rows.extend(
            play(
                evaluator,
                args.seed * 1_000_003 + g,
                args.others,
                args.explore * scale,
                args.noise * scale,
            )
        )
        if (g + 1) % 500 == 0:
            print(f"{g + 1} games, {len(rows)} positions", flush=True)
    a = np.unique(np.array(rows, dtype=np.int8), axis=0)
    np.savez_compressed(args.out, boards=a)
    a.tofile(args.out.with_suffix(".bin"))  # for label.py: gnubg's Python has no numpy
    print(f"{len(a)} distinct positions -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
