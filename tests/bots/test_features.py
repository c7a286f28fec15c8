"""The network's inputs: the raw board code and the hand-made inputs, against plain loops."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.features import FEATURES, encode, encode_arrays, encode_many, races
from games.rules.dice import Dice
from games.rules.plays import flip_array, legal_plays, to_array
from games.rules.position import Position

START = Position.starting()
EXTRA = slice(FEATURES - 6, FEATURES)


def exposure(b: list[int]) -> tuple[int, int]:
    """Reference: for each blot of the side of `b`, enemy sources 1-6 and 7-12 pips behind."""
    direct = indirect = 0
    for i in range(1, 25):
        if b[i] != 1:
            continue
        for j in range(0, i):
            source = b[0] < 0 if j == 0 else b[j] < 0
            if source and 1 <= i - j <= 6:
                direct += 1
            elif source and 7 <= i - j <= 12:
                indirect += 1
    return direct, indirect


def prime(made: list[bool]) -> int:
    best = run = 0
    for m in made:
        run = run + 1 if m else 0
        best = max(best, run)
    return min(best, 6)


@st.composite
def arrays(draw: st.DrawFn) -> list[int]:
    """A legal position in array form: 15 checkers a side, at most one side per point."""
    b = [0] * 26
    for sign in (1, -1):
        for _ in range(15):
            spot = draw(st.integers(0, 26))  # 26: borne off
            if spot == 26:
                continue
            index = (25 if sign > 0 else 0) if spot in (0, 25) else spot
            if b[index] * sign < 0:
                continue  # the other side holds it: this checker is borne off
            b[index] += sign
    return b


@settings(max_examples=300, deadline=None)
@given(arrays())
def test_hand_made_inputs_match_plain_loops(b: list[int]) -> None:
    x = encode_arrays(np.array([b]))[0]
    flipped = flip_array(b)
    expected = [
        exposure(b)[0] / 6,
        exposure(b)[1] / 6,
        prime([n >= 2 for n in b[1:25]]) / 6,
        exposure(flipped)[0] / 6,
        exposure(flipped)[1] / 6,
        prime([n <= -2 for n in b[1:25]]) / 6,
    ]
    assert np.allclose(x[EXTRA], expected)
    # Either side's half means the same thing: the flipped position swaps the halves.
    y = encode_arrays(np.array([flipped]))[0]
    assert np.array_equal(x[:96], y[96:192])
    assert np.allclose(x[EXTRA][:3], y[EXTRA][3:])


def test_starting_position() -> None:
    x = encode(START)
    assert x.shape == (FEATURES,)
    assert np.array_equal(x[:96], x[96:192])  # the start is symmetric
    bars, offs, pips = x[192:194], x[194:196], x[196:198]
    assert bars.tolist() == [0, 0] and offs.tolist() == [0, 0]
    assert np.allclose(pips, [1.67, 1.67])
    assert np.allclose(x[EXTRA], [0, 0, 1 / 6, 0, 0, 1 / 6])  # no blots; one-point "primes"


def test_a_blot_in_direct_range() -> None:
    plays = {p.notation: p for p in legal_plays(START, Dice.of(3, 1))}
    safe = plays["8/5 6/5"].result  # no blot
    split = plays["24/21 6/5"].result  # blots: 24 (shots from 19), 21 (19, 17), 5 (1)
    assert encode(safe)[FEATURES - 6] == 0
    assert np.isclose(encode(split)[FEATURES - 6], 4 / 6)
    many = encode_many([safe, split])
    assert np.array_equal(many[1], encode(split))


def test_races() -> None:
    race = Position((2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, 0, 0, 0, -4))
    assert races(np.array([to_array(race), to_array(START)])).tolist() == [True, False]
    assert race.is_race() and not START.is_race()
    on_bar = Position(race.board, bar=(1, 0))
    assert races(np.array([to_array(on_bar)])).tolist() == [False]
