"""Supervised training of the network evaluator on GNU Backgammon's 0-ply evaluations.

gnubg is the teacher at training time only: benchmarks/distill/ makes the data set (step 1,
positions.py: positions from the project's own self-play with randomness; step 2, label.sh:
gnubg's 0-ply cubeless probabilities of each), and this module (step 3) fits the contact and
race networks (games/bots/network.py, unchanged in form: one sigmoid hidden layer, five
sigmoid outputs) to them. The product only ever runs the resulting weights.

    python -m games.bots.distill_train positions.npz labels.bin [more pairs] --hidden 256 \
        --race-hidden 128 --epochs 40 --seed 1 --out games/bots/weights.npz

The loss is the cross-entropy of each of the five outputs against gnubg's probability (its
gradient at the output's logit is simply output - target), minimised by Adam on mini-batches,
the step size decaying linearly to a tenth over the run. A random 5 % of the positions is
held out and the mean absolute equity error on it printed after each epoch; the weights are
saved after each epoch of the contact network (trained after the race one).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .features import encode_arrays, races
from .network import Evaluator, Network, equity, flip


def load(positions: Path, labels: Path) -> tuple[np.ndarray, np.ndarray]:
    """(n, 26) boards and (n, 5) targets for the player who has just moved (gnubg's labels
    are for the player on roll: turned round)."""
    with np.load(positions) as data:
        boards = data["boards"].astype(np.int64)
    raw = np.fromfile(labels, dtype=np.float32).reshape(-1, 5).astype(np.float64)
    if len(raw) != len(boards):
        raise ValueError(f"{len(boards)} positions but {len(raw)} labels")
    return boards, np.clip(flip(raw), 0.0, 1.0)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def fit(
    net: Network,
    x: np.ndarray,
    y: np.ndarray,
    held_x: np.ndarray,
    held_y: np.ndarray,
    epochs: int,
    rng: np.random.Generator,
    lr: float = 1e-3,
    batch: int = 256,
    label: str = "",
    after_epoch: Callable[[], None] | None = None,
) -> None:
    """Adam on the outputs' cross-entropy, in place (float32 inside, for speed);
    `after_epoch` is called after each epoch (to save the weights so far)."""
    params = [p.astype(np.float32) for p in net.params]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2, eps, t = 0.9, 0.999, 1e-8, 0
    x, y = x.astype(np.float32), y.astype(np.float32)
    steps = epochs * ((len(x) + batch - 1) // batch)
    for epoch in range(epochs):
        start = time.time()
        order = rng.permutation(len(x))
        for i in range(0, len(x), batch):
            idx = order[i : i + batch]
            xb, yb = x[idx], y[idx]
            w1, c1, w2, c2 = params
            hidden = _sigmoid(xb @ w1.T + c1)
            out = _sigmoid(hidden @ w2.T + c2)
            d_out = (out - yb) / len(idx)
            d_hidden = (d_out @ w2) * hidden * (1.0 - hidden)
            grads = [d_hidden.T @ xb, d_hidden.sum(axis=0), d_out.T @ hidden, d_out.sum(0)]
            t += 1
            rate = lr * (1.0 - 0.9 * t / steps)
            for p, g, mp, vp in zip(params, grads, m, v, strict=True):
                mp *= b1
                mp += (1 - b1) * g
                vp *= b2
                vp += (1 - b2) * g * g
                p -= rate * (mp / (1 - b1**t)) / (np.sqrt(vp / (1 - b2**t)) + eps)
        net.w1, net.b1, net.w2, net.b2 = (p.astype(np.float64) for p in params)
        error = np.abs(equity(net.forward(held_x)) - equity(held_y)).mean()
        print(
            f"{label} epoch {epoch + 1}/{epochs}: held-out mean |equity error| {error:.4f}"
            f" ({time.time() - start:.0f} s)",
            flush=True,
        )
        if after_epoch is not None:
            after_epoch()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument(
        "data",
        type=Path,
        nargs="+",
        help="pairs: positions.npz (positions.py) labels.bin (label.sh)",
    )
    parser.add_argument("--hidden", type=int, default=256, help="contact network")
    parser.add_argument("--race-hidden", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--race-epochs", type=int, help="default: --epochs")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    if len(args.data) % 2:
        parser.error("data come in pairs: positions.npz labels.bin ...")
    pairs = [load(p, q) for p, q in zip(args.data[::2], args.data[1::2], strict=True)]
    boards = np.concatenate([b for b, _ in pairs])
    targets = np.concatenate([t for _, t in pairs])
    x, race = encode_arrays(boards), races(boards)
    held = rng.random(len(boards)) < 0.05
    print(f"{len(boards)} positions, {race.sum()} races, {held.sum()} held out", flush=True)
    # The race network first: the evaluator is saved after every epoch of the contact one.
    evaluator = Evaluator(
        Network(args.hidden, seed=args.seed), Network(args.race_hidden, seed=args.seed + 1)
    )
    for name, rows, epochs in (
        ("race", race, args.race_epochs or args.epochs),
        ("contact", ~race, args.epochs),
    ):
        net = evaluator.race if name == "race" else evaluator.contact
        train, test = rows & ~held, rows & held
        fit(
            net,
            x[train],
            targets[train],
            x[test],
            targets[test],
            epochs,
            rng,
            args.lr,
            label=name,
            after_epoch=(lambda: evaluator.save(args.out)) if name == "contact" else None,
        )
    print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
