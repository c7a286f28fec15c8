"""Speed of the rules engine (a benchmark, not a test): `python benchmarks/rules_bench.py`.

- legal-play generation over the gnubg oracle corpus (tests/data/moves-public.jsonl), per
  position: the search alone (arrays in, distinct results out) and the public `legal_plays`
  (Play and Position values, sorted);
- perft from the starting position (depth 3 = 116,154,993 leaves) with `--perft 3`.
Targets (issue 2): <= 20 us per corpus position; perft(3) in under 2 minutes in one process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.rules.dice import Dice  # noqa: E402
from games.rules.perft import perft  # noqa: E402
from games.rules.plays import legal_plays, search, to_array  # noqa: E402
from games.rules.position import Position  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "moves-public.jsonl"


def corpus_bench(rounds: int) -> None:
    cases = [json.loads(line) for line in CORPUS.open()]
    positions = [(Position.from_json(c["position"]), Dice.of(*c["dice"])) for c in cases]
    arrays = [(to_array(p), d.high, d.low) for p, d in positions]
    core, full = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        for b, high, low in arrays:
            search(b, high, low)
        core.append((time.perf_counter() - start) / len(arrays) * 1e6)
        start = time.perf_counter()
        for position, dice in positions:
            legal_plays(position, dice)
        full.append((time.perf_counter() - start) / len(positions) * 1e6)
    print(f"corpus: {len(cases)} positions, {rounds} rounds (best / median)")
    for name, times in (("search (arrays)", core), ("legal_plays (values)", full)):
        best, median = min(times), statistics.median(times)
        print(f"  {name:<22} {best:6.1f} / {median:6.1f} us per position")


def perft_bench(depth: int) -> None:
    start = time.perf_counter()
    leaves = perft(depth)
    print(f"perft({depth}) = {leaves:,} leaves in {time.perf_counter() - start:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--perft", type=int, default=2, help="perft depth (3 takes minutes)")
    args = parser.parse_args()
    corpus_bench(args.rounds)
    perft_bench(args.perft)


if __name__ == "__main__":
    main()
