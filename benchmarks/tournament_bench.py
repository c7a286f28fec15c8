"""Speed of tournament pairing (a benchmark, not a test): `python benchmarks/tournament_bench.py`.

    python benchmarks/tournament_bench.py [--players 1000] [--played 4] [--late 9]
                                          [--repeat 5] [--seed 1]

Pure Python, no database (matches/tournaments):

- a Swiss round of `--players` after `--played` rounds of random results (so score groups and
  repeats matter): `swiss.pair_round`, median and worst of `--repeat` runs in ms, with the
  round's shape (score groups, pairs across groups, points between paired players);
- the same after `--late` rounds (small groups at the top and bottom, many repeats);
- a whole Swiss of `--played + 1` rounds played through the commands (pairing, results,
  standings), seconds;
- knockout seeding of `--players`: the start (seeded by rating, the first round with its byes)
  and `knockout.first_round` alone, ms.

Every pairing timed is checked: each player once, no repeat, at most one bye each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.tournaments import decide, knockout, swiss  # noqa: E402
from matches.tournaments.events import RoundPaired, TournamentEvent  # noqa: E402
from matches.tournaments.settings import TournamentSettings  # noqa: E402
from matches.tournaments.state import TournamentState, fold  # noqa: E402


def tournament(fmt: str, players: int, rounds: int | None, rng: random.Random) -> TournamentState:
    chosen = TournamentSettings(
        name="benchmark",
        game="tavla",
        format=fmt,
        length=3,
        clock="site",
        starts_at=datetime(2030, 1, 1, tzinfo=UTC),
        min_players=players,
        max_players=players,
        rounds=rounds,
    )
    state = fold(TournamentState(), decide.create(chosen))
    for user in range(1, players + 1):
        state = fold(state, decide.join(state, user, f"p{user}", "registered"))
    return state


def ratings(players: int, rng: random.Random) -> dict[int, float]:
    return {u: round(rng.gauss(1500, 200), 1) for u in range(1, players + 1)}


def add(state: TournamentState, events: list[TournamentEvent]) -> TournamentState:
    for event in events:
        state = fold(state, event)
    return state


def play_rounds(state: TournamentState, rounds: int, rng: random.Random) -> TournamentState:
    """`rounds` rounds decided at random; the state is left with every result of the last one
    in and the next round not yet paired."""
    for number in range(1, rounds + 1):
        assert state.current is not None and state.current.number == number
        for board in state.current.boards:
            if not board.decided:
                winner = rng.choice([p for p in board.players if p is not None])
                state = fold(state, decide.record_result(state, number, board.index, winner))
        if number < rounds:
            state = add(state, decide.advance(state))
    return state


def check(state: TournamentState, paired: RoundPaired) -> None:
    seated = [p for board in paired.boards for p in board if p is not None]
    assert sorted(seated) == sorted(state.active), "every player still in, once"
    past = swiss.history(state)
    for a, b in paired.boards:
        if a is not None and b is not None:
            assert b not in past.opponents[a], f"{a} and {b} met before"
        elif a is not None:
            assert a not in past.byes, f"{a} had a bye already"


def timed(fn: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return times, result


def shape(state: TournamentState, paired: RoundPaired) -> str:
    points = swiss.history(state).points
    pairs = [(a, b) for a, b in paired.boards if a is not None and b is not None]
    groups = len({points[p] for p in state.active})
    across = sum(points[a] != points[b] for a, b in pairs)
    spread = sum(abs(points[a] - points[b]) for a, b in pairs)
    return f"{groups} score groups, {across} pairs across groups, {spread} points between pairs"


def swiss_round(players: int, played: int, repeat: int, seed: int) -> None:
    rng = random.Random(seed)
    state = tournament("swiss", players, played + 1, rng)
    state = add(state, decide.start(state, ratings(players, rng)))
    state = play_rounds(state, played, rng)
    times, paired = timed(lambda: swiss.pair_round(state), repeat)
    check(state, paired)
    print(
        f"swiss: pairing round {played + 1} of {players} players: median"
        f" {statistics.median(times):.1f} ms, worst {max(times):.1f} ms ({shape(state, paired)})"
    )


def whole_swiss(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    start = time.perf_counter()
    state = tournament("swiss", players, rounds, rng)
    state = add(state, decide.start(state, ratings(players, rng)))
    state = play_rounds(state, rounds, rng)
    state = add(state, decide.advance(state))
    assert state.finished is not None
    print(
        f"swiss: a whole Swiss of {players} players in {rounds} rounds (pairings, results,"
        f" standings): {time.perf_counter() - start:.2f} s"
    )


def knockout_seeding(players: int, repeat: int, seed: int) -> None:
    rng = random.Random(seed)
    state = tournament("knockout", players, None, rng)
    rated = ratings(players, rng)
    times, events = timed(lambda: decide.start(state, rated), repeat)
    started, paired = events
    assert isinstance(paired, RoundPaired)
    byes = sum(b is None for _, b in paired.boards)
    assert byes == knockout.bracket_size(players) - players
    field = [s.user_id for s in started.seeds]
    alone, _ = timed(lambda: knockout.first_round(field), repeat)
    print(
        f"knockout: seeding {players} players and pairing the first round: median"
        f" {statistics.median(times):.1f} ms (the bracket alone {statistics.median(alone):.2f} ms;"
        f" {byes} byes to the top seeds, {knockout.bracket_size(players)} slots)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--played", type=int, default=4)
    parser.add_argument("--late", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    swiss_round(args.players, args.played, args.repeat, args.seed)
    swiss_round(args.players, args.late, args.repeat, args.seed)
    whole_swiss(args.players, args.played + 1, args.seed)
    knockout_seeding(args.players, args.repeat, args.seed)


if __name__ == "__main__":
    main()
