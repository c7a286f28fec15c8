"""Perft from the starting position: count the leaves of the game tree.

Each level branches over the 21 distinct rolls, then over the distinct legal plays of that roll
(one per resulting position); the result is flipped so the opponent is on roll at the next
level. A roll that cannot be played would be one branch (the pass); from the starting
position none occurs within two levels.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from games.rules.dice import ALL_ROLLS
from games.rules.plays import Board, flip_array, search, to_array
from games.rules.position import Position

ROLLS = tuple((r.high, r.low) for r in ALL_ROLLS)


def perft(b: Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for high, low in ROLLS:
        found = search(b, high, low)
        if depth == 1:
            total += len(found) or 1
        elif not found:
            total += perft(flip_array(b), depth - 1)
        else:
            for key in found:
                total += perft(flip_array(list(key)), depth - 1)
    return total


def test_roll_list_is_the_21_distinct_rolls():
    assert len(ROLLS) == len(set(ROLLS)) == 21
    assert all(1 <= low <= high <= 6 for high, low in ROLLS)


def test_perft_depth_1_per_roll_matches_gnubg_openings():
    b = to_array(Position.starting())
    corpus = Path(__file__).resolve().parent.parent / "data" / "moves-public.jsonl"
    expected: dict[tuple[int, int], int] = {}
    with corpus.open(encoding="utf-8") as f:
        for line in f:
            case = json.loads(line)
            if case["family"] == "opening":
                expected[(case["dice"][0], case["dice"][1])] = len(case["plays"])
    assert set(expected) == set(ROLLS)
    assert {roll: len(search(b, *roll)) for roll in ROLLS} == expected
    assert sum(expected.values()) == 447


def test_perft_depth_1():
    assert perft(to_array(Position.starting()), 1) == 447


def test_perft_depth_2():
    start = time.perf_counter()
    assert perft(to_array(Position.starting()), 2) == 202_782
    elapsed = time.perf_counter() - start
    print(f"perft(2) took {elapsed:.2f} s")
    assert elapsed < 60, f"perft(2) took {elapsed:.1f} s"


def test_search_leaves_the_array_untouched():
    b = to_array(Position.starting())
    before = list(b)
    for roll in ROLLS:
        search(b, *roll)
    assert b == before


# -- the engine's own perft (memoised by position) ---------------------------------------------


def test_memoised_perft_depth_2_from_the_start():
    from games.rules import perft as engine_perft

    assert engine_perft(1) == 447
    assert engine_perft(2) == 202_782


def test_memoised_perft_agrees_with_the_plain_count_elsewhere():
    """From positions with hits, bar entries, blocked rolls and bear-offs, where the memo
    meets the same position by different rolls (and passes count one leaf)."""
    from games.rules import perft as engine_perft

    positions = [
        Position((0, 2, 2, 2, 2, 2, *([0] * 16), -2, 3), (0, 0), (2, 13)),  # a race home
        Position((-2, 2, 2, 2, 2, 2, 2, *([0] * 16), 0), (1, 0), (2, 13)),  # closed board
        Position((2, 0, -1, 3, 0, 2, 0, 3, *([0] * 4), 2, *([0] * 9), -1, 2), (1, 0), (0, 13)),
    ]
    for position in positions:
        position.check()
        for depth in (1, 2):
            assert engine_perft(depth, position) == perft(to_array(position), depth), (
                position,
                depth,
            )
