"""Speed of the rules engine (a benchmark, not a test): `python benchmarks/rules_bench.py`.

- legal-play generation on 5,000 positions (the 1,688 of the gnubg oracle corpus,
  tests/data/moves-public.jsonl, then positions met in seeded random self-play), side by side:
  - `plain generator`: the yardstick, a plain pure-Python generator of resulting positions
    written the way a competent person writes one first (recursive over the dice orders, a set
    of resulting board tuples, then the mandatory-play rules); before timing, the benchmark
    checks that it gives exactly the same set of results as `legal_plays` on every position;
  - `successors (arrays)`: `games.rules.successor_arrays`, the array search alone;
  - `legal_plays`: the public call, returning Play values (steps, result Position, notation);
  - `legal_plays + results`: the same, reading every play's `result` and `steps` as a caller
    that evaluates the plays does;
  and the ratio generator / legal_plays (the target is at least 2x);
- long nardy: `legal_plays` over tests/data/nardy-public.jsonl (1,500 positions, the first
  turn flag as given) and the array search alone, microseconds per call;
- perft from the starting position (tavla depth 3 = 116,154,993 leaves with `--perft 3`;
  long nardy depth 4 = 2,411,418 with `--nardy-perft 4`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.rules import (  # noqa: E402
    LONG_NARDY,
    Dice,
    NardyPosition,
    Position,
    board_array,
    legal_plays,
    perft,
    successor_arrays,
)

CORPUS = ROOT / "tests" / "data" / "moves-public.jsonl"
NARDY_CORPUS = ROOT / "tests" / "data" / "nardy-public.jsonl"
POSITIONS = 5000
SEED = 20240611

State = tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]


# -- the yardstick: a plain generator of resulting positions ---------------------------------


def plain_results(position: Position, dice: Dice) -> set[State]:
    """Every distinct legal resulting (board, bar, off): every order of the dice, every checker.

    A state is the 24 points, then both bars, then both offs (mover first). Each (state, dice
    left) is expanded once, however many step orders lead to it.
    """
    start = (*position.board, *position.bar, *position.off)
    dice_left = (dice.high,) * 4 if dice.high == dice.low else (dice.high, dice.low)
    reached: dict[tuple[int, ...], int] = {}  # final state -> most dice used to reach it
    high_alone: set[tuple[int, ...]] = set()  # final states of one die, the larger
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def walk(state: tuple[int, ...], left: tuple[int, ...], used: int) -> None:
        if (state, left) in seen:
            return
        seen.add((state, left))
        moved = False
        for die in set(left):
            i = left.index(die)
            rest = left[:i] + left[i + 1 :]
            for after in single_steps(state, die):
                moved = True
                walk(after, rest, used + 1)
        if not moved and used >= reached.get(state, 0):
            reached[state] = used
            if used == 1 and left == (dice.low,):
                high_alone.add(state)

    walk(start, dice_left, 0)
    most = max(reached.values())
    if most == 0:
        return set()
    found = {state for state, used in reached.items() if used == most}
    if most == 1 and dice.high != dice.low and high_alone:
        found = high_alone
    return {(s[:24], (s[24], s[25]), (s[26], s[27])) for s in found}


def single_steps(state: tuple[int, ...], die: int) -> list[tuple[int, ...]]:
    """The states one step of `die` leads to (the mover enters from the bar first, hits blots,
    bears off only with all his checkers home: exactly, or from the highest point)."""
    out = []
    if state[24]:  # on the bar: enter on point 25 - die
        to = 25 - die
        if state[to - 1] >= -1:
            s = list(state)
            s[24] -= 1
            _land(s, to)
            out.append(tuple(s))
        return out
    home = all(n <= 0 for n in state[6:24])
    for frm in range(1, 25):
        if state[frm - 1] <= 0:
            continue
        to = frm - die
        if to >= 1:
            if state[to - 1] >= -1:
                s = list(state)
                s[frm - 1] -= 1
                _land(s, to)
                out.append(tuple(s))
        elif home and (to == 0 or all(n <= 0 for n in state[frm:6])):
            s = list(state)
            s[frm - 1] -= 1
            s[26] += 1
            out.append(tuple(s))
    return out


def _land(s: list[int], to: int) -> None:
    if s[to - 1] == -1:  # a blot: hit it
        s[to - 1] = 1
        s[25] += 1
    else:
        s[to - 1] += 1


# -- the positions ---------------------------------------------------------------------------


def bench_positions(n: int = POSITIONS) -> list[tuple[Position, Dice]]:
    """The corpus positions, then seeded random self-play positions up to `n`."""
    cases = [json.loads(line) for line in CORPUS.open()]
    out = [(Position.from_json(c["position"]), Dice.of(*c["dice"])) for c in cases]
    rng = random.Random(SEED)
    position = Position.starting()
    while len(out) < n:
        dice = Dice.of(rng.randint(1, 6), rng.randint(1, 6))
        out.append((position, dice))
        plays = legal_plays(position, dice)
        if plays:
            position = rng.choice(plays).result
            if position.off[0] == 15:
                position = Position.starting()
                continue
        position = position.flipped()
    return out[:n]


def check_same_results(positions: list[tuple[Position, Dice]]) -> None:
    for position, dice in positions:
        ours = {(p.result.board, p.result.bar, p.result.off) for p in legal_plays(position, dice)}
        if ours != plain_results(position, dice):
            raise SystemExit(f"the plain generator disagrees on {position.to_json()} {dice}")


def timed(run: Callable[[], object], rounds: int, n: int) -> tuple[float, float]:
    """(best, median) microseconds per position over `rounds` runs."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) / n * 1e6)
    return min(times), statistics.median(times)


def corpus_bench(rounds: int) -> None:
    positions = bench_positions()
    check_same_results(positions)
    arrays = [(board_array(p), d.high, d.low) for p, d in positions]

    def plain() -> None:
        for position, dice in positions:
            plain_results(position, dice)

    def successors() -> None:
        for b, high, low in arrays:
            successor_arrays(b, high, low)

    def public() -> None:
        for position, dice in positions:
            legal_plays(position, dice)

    def public_read() -> None:
        for position, dice in positions:
            for play in legal_plays(position, dice):
                play.result  # noqa: B018
                play.steps  # noqa: B018

    results = {
        "plain generator": timed(plain, rounds, len(positions)),
        "successors (arrays)": timed(successors, rounds, len(positions)),
        "legal_plays": timed(public, rounds, len(positions)),
        "legal_plays + results": timed(public_read, rounds, len(positions)),
    }
    print(
        f"tavla: {len(positions)} positions (1,688 corpus + self-play), same results as the"
        f" plain generator on every one; {rounds} rounds (best / median us per position)"
    )
    for name, (best, median) in results.items():
        print(f"  {name:<24} {best:6.1f} / {median:6.1f}")
    plain_best = results["plain generator"][0]
    for name in ("legal_plays", "legal_plays + results"):
        print(f"  plain generator / {name:<22} {plain_best / results[name][0]:.2f}x")


def nardy_bench(rounds: int) -> None:
    cases = [json.loads(line) for line in NARDY_CORPUS.open()]
    positions = [
        (NardyPosition.from_json(c["position"]), Dice.of(*c["dice"]), bool(c["first_turn"]))
        for c in cases
    ]
    arrays = [(board_array(p), d.high, d.low, first) for p, d, first in positions]

    def public() -> None:
        for position, dice, first in positions:
            legal_plays(position, dice, first_turn=first)

    def public_read() -> None:
        for position, dice, first in positions:
            for play in legal_plays(position, dice, first_turn=first):
                play.result  # noqa: B018

    def successors() -> None:
        for b, high, low, first in arrays:
            successor_arrays(b, high, low, game=LONG_NARDY, first_turn=first)

    print(f"long nardy: {len(positions)} corpus positions; best / median us per call")
    for name, run in (
        ("successors (arrays)", successors),
        ("legal_plays", public),
        ("legal_plays + results", public_read),
    ):
        best, median = timed(run, rounds, len(positions))
        print(f"  {name:<24} {best:6.1f} / {median:6.1f}")


def perft_bench(depth: int, nardy_depth: int) -> None:
    start = time.perf_counter()
    leaves = perft(depth)
    print(f"tavla perft({depth}) = {leaves:,} leaves in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    leaves = perft(nardy_depth, game=LONG_NARDY)
    print(
        f"long nardy perft({nardy_depth}) = {leaves:,} leaves in"
        f" {time.perf_counter() - start:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--perft", type=int, default=2, help="tavla perft depth (3: minutes)")
    parser.add_argument("--nardy-perft", type=int, default=4, help="long nardy perft depth")
    args = parser.parse_args()
    corpus_bench(args.rounds)
    nardy_bench(args.rounds)

    perft_bench(args.perft, args.nardy_perft)


if __name__ == "__main__":
    main()
