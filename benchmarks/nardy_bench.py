"""Strength and speed of long nardy's computer players (a benchmark, not a test):
`python benchmarks/nardy_bench.py`.

Games of long nardy (oyn 1 point, mars 2) between two levels on shared dice: each seed is
played twice with the seats swapped, so the luck of the dice mostly cancels. For each matchup
it prints, for the first player: points per game and win rate, each with its standard error
(over seed pairs, which are independent), the share of mars, and the wall time per game (of
all workers together). Then the time per move of each level over the same positions (those
the network met in games against the heuristic), side by side, and the load average.

    python benchmarks/nardy_bench.py                          # network-heuristic 1,000 pairs,
                                                              # heuristic-random 250 pairs
    python benchmarks/nardy_bench.py --pairs 100 --floor-pairs 50
    python benchmarks/nardy_bench.py --weights w.npz          # other weights (nardy_train.py)
    python benchmarks/nardy_bench.py --workers 2              # the matchups' seeds in 2 processes
    python benchmarks/nardy_bench.py --times-only --positions 1000   # only the ms per move
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.bots  # noqa: E402
from games.bots import player_for  # noqa: E402
from games.bots.base import Player  # noqa: E402
from games.bots.selfplay import play_duplicate  # noqa: E402
from games.rules import LONG_NARDY, Dice, Play, Position  # noqa: E402

GAME = "long-nardy"


class Recorder(Player):
    """Plays like `inner` and keeps every position it was asked about (for timing)."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.level = inner.level
        self.seen: list[tuple[Position, Dice, bool]] = []

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        self.seen.append((position, dice, first_turn))
        return self.inner.choose_play(position, dice, first_turn=first_turn)


def _pairs(job: tuple[str, str, int, int, str | None]) -> list[tuple[int, int, int]]:
    """(points, wins, mars games) of `first` for each seed pair of a slice of seeds."""
    first, second, start, stop, weights = job
    if weights:
        games.bots.NARDY_WEIGHTS = Path(weights)
    a, b = player_for(first, GAME), player_for(second, GAME)
    out = []
    for s in range(start, stop):
        one, two = play_duplicate(a, b, s, LONG_NARDY)
        out.append(
            (
                one.points_for(0) + two.points_for(1),
                (one.winner == 0) + (two.winner == 1),
                (one.points == 2) + (two.points == 2),
            )
        )
    return out


def matchup(
    first: str, second: str, pairs: int, seed: int, workers: int, weights: str | None
) -> None:
    start = time.perf_counter()
    if workers > 1:
        step = math.ceil(pairs / (4 * workers))
        jobs = [
            (first, second, s, min(s + step, seed + pairs), weights)
            for s in range(seed, seed + pairs, step)
        ]
        with ProcessPoolExecutor(workers) as pool:
            results = [r for part in pool.map(_pairs, jobs) for r in part]
    else:
        results = _pairs((first, second, seed, seed + pairs, weights))
    elapsed = time.perf_counter() - start
    n = len(results)
    points = [p / 2 for p, _, _ in results]
    wins = [w / 2 for _, w, _ in results]
    mars = sum(m for _, _, m in results) / (2 * n)

    def se(values: list[float]) -> float:
        return statistics.stdev(values) / math.sqrt(len(values))

    print(
        f"{first:<10} {second:<10} {2 * n:>6} {statistics.mean(points):>+7.3f} "
        f"{se(points):>6.3f} {statistics.mean(wins):>6.3f} {se(wins):>6.3f} {mars:>6.3f} "
        f"{elapsed / (2 * n) * 1000:>8.0f}",
        flush=True,
    )


def move_times(levels: list[str], positions: int, seed: int, repeat: int) -> None:
    """ms per move of each level over the same positions: those the network met. Each
    position is timed `repeat` times and its fastest kept: on a shared machine a single
    timing also measures whoever else had the core."""
    recorder = Recorder(player_for("network", GAME))
    heuristic = player_for("heuristic", GAME)
    s = seed
    while len(recorder.seen) < positions:
        play_duplicate(recorder, heuristic, s, LONG_NARDY)
        s += 1
    seen = recorder.seen[:positions]
    for level in levels:
        player = player_for(level, GAME)
        times = []
        for position, dice, first_turn in seen:
            best = math.inf
            for _ in range(repeat):
                began = time.perf_counter()
                player.choose_play(position, dice, first_turn=first_turn)
                best = min(best, time.perf_counter() - began)
            times.append(best * 1000)
        times.sort()
        print(
            f"{level:<10} {len(times)} positions: ms per move mean {statistics.mean(times):.2f}, "
            f"median {times[len(times) // 2]:.2f}, 95th {times[int(0.95 * len(times))]:.2f}, "
            f"max {times[-1]:.2f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--pairs", type=int, default=1000, help="network-heuristic seed pairs")
    parser.add_argument("--floor-pairs", type=int, default=250, help="heuristic-random seed pairs")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--positions", type=int, default=400, help="positions timed per level")
    parser.add_argument("--workers", type=int, default=1, help="processes for the games")
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (best)")
    parser.add_argument("--times-only", action="store_true", help="only the ms per move")
    parser.add_argument("--weights", type=Path, help="other weights for the network level")
    args = parser.parse_args(argv)
    weights = str(args.weights) if args.weights else None
    if weights:
        games.bots.NARDY_WEIGHTS = Path(weights)
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.times_only:
        print(
            f"{'player':<10} {'opponent':<10} {'games':>6} {'ppg':>7} {'+-se':>6} "
            f"{'win':>6} {'+-se':>6} {'mars':>6} {'ms/game':>8}",
            flush=True,
        )
        matchup("network", "heuristic", args.pairs, args.seed, args.workers, weights)
        matchup("heuristic", "random", args.floor_pairs, args.seed, args.workers, weights)
    levels = ["network", "heuristic", "random"]
    move_times(levels, args.positions, args.seed + 100_000, args.repeat)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
