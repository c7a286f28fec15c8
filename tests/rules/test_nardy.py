"""Long nardy's legal plays (games/rules/nardy.py) against RULES-LONG-NARDY.md.

- the oracle corpus (tests/data/nardy-public.jsonl, 1,500 cases from an independent
  generator): every case exactly, in both dice orders;
- positions where the wall rule cuts the most dice (tests/data/nardy-wall-cuts.jsonl, found
  by the brute-force reference in nardy_reference.py, which the test asks again);
- the reference against the engine on thousands of seeded positions: self-play (random and
  running), bear-offs, walls;
- hand-written cases for every rule and every "fine point" of the rules text, each result
  worked out by hand;
- perft from the starting position.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from games.rules import (
    LONG_NARDY,
    Dice,
    InvalidPosition,
    NardyPosition,
    legal_plays,
    perft,
    successor_arrays,
)
from games.rules.nardy import PATH, forbidden_wall, my_point, search, their_point

from .nardy_positions import bearoffs, selfplay, walls
from .nardy_reference import reference

DATA = Path(__file__).resolve().parent.parent / "data"


def _load(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CORPUS = _load("nardy-public.jsonl")
WALL_CUTS = _load("nardy-wall-cuts.jsonl")


# -- helpers: positions written by hand, in the mover's numbering ------------------------------


def npos(
    mine: dict[int, int], theirs: dict[int, int], off: tuple[int, int] | None = None
) -> NardyPosition:
    """A checked position; `theirs` in the MOVER's numbering; `off` defaults to whatever
    makes 15 a side."""
    board = [0] * 24
    for point, n in mine.items():
        board[point - 1] += n
    for point, n in theirs.items():
        assert board[point - 1] == 0, point
        board[point - 1] -= n
    if off is None:
        off = (15 - sum(mine.values()), 15 - sum(theirs.values()))
    position = NardyPosition(tuple(board), (0, 0), off)
    position.check()
    return position


def after(position: NardyPosition, *moves: tuple[int, int]) -> NardyPosition:
    """The position after moving the mover's checkers (from, to), 0 = off; no rule checked
    beyond "the checker is there and the point is not the opponent's"."""
    board = list(position.board)
    off = list(position.off)
    for frm, to in moves:
        assert board[frm - 1] > 0, (frm, to)
        board[frm - 1] -= 1
        if to:
            assert board[to - 1] >= 0, (frm, to)
            board[to - 1] += 1
        else:
            off[0] += 1
    return NardyPosition(tuple(board), (0, 0), (off[0], off[1]))


def results(
    position: NardyPosition, a: int, b: int, first_turn: bool = False
) -> set[NardyPosition]:
    got = legal_plays(position, Dice.of(a, b), first_turn=first_turn)
    assert all(isinstance(p.result, NardyPosition) for p in got)
    assert len({p.result for p in got}) == len(got)
    return {p.result for p in got}  # type: ignore[misc]


def dice_used(position: NardyPosition, a: int, b: int, first_turn: bool = False) -> int:
    got = legal_plays(position, Dice.of(a, b), first_turn=first_turn)
    counts = {len(p.steps) for p in got}
    assert len(counts) <= 1
    return counts.pop() if counts else 0


def agrees_with_reference(position: NardyPosition, a: int, b: int, first: bool) -> bool:
    expected, most = reference(position.board, position.off, (a, b), first)
    got = legal_plays(position, Dice.of(a, b), first_turn=first)
    return {(p.result.board, p.result.off) for p in got} == expected and all(
        len(p.steps) == most for p in got
    )


START = NardyPosition.starting()
HIS_HEAD = {12: 15}  # the opponent at his start: all on his 24, my 12


# -- the oracle corpus -------------------------------------------------------------------------


def test_the_corpus_is_complete():
    assert len(CORPUS) == 1500 and len({c["id"] for c in CORPUS}) == 1500
    assert set(Counter(c["family"] for c in CORPUS)) == {
        "opening",
        "selfplay_random",
        "selfplay_greedy",
        "head_limit",
        "wall",
        "bearoff",
        "bearoff_high_die",
        "no_play",
        "one_die_only",
        "must_use_larger",
        "doubles_partial",
    }


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: f"{c['id']:04d}-{c['family']}")
def test_oracle_case(case):
    position = NardyPosition.from_json(case["position"])
    for a, b in (case["dice"], case["dice"][::-1]):  # the dice in either order
        plays = legal_plays(position, Dice.of(a, b), first_turn=case["first_turn"])
        assert [p.result.to_json() for p in plays] == case["plays"], (a, b)
        assert all(len(p.steps) == case["max_dice_used"] for p in plays)
    if not case["plays"]:
        assert case["max_dice_used"] == 0


@pytest.mark.parametrize("case", WALL_CUTS, ids=lambda c: f"{c['dice']}")
def test_the_wall_cuts_the_most_dice(case):
    """Positions where a die (or more) can only be played into a forbidden wall."""
    position = NardyPosition.from_json(case["position"])
    expected, most = reference(position.board, position.off, case["dice"], case["first_turn"])
    assert sorted(expected) == [(tuple(p["board"]), tuple(p["off"])) for p in case["plays"]]
    assert most == case["max_dice_used"]
    plays = legal_plays(position, Dice.of(*case["dice"]), first_turn=case["first_turn"])
    assert [p.result.to_json() for p in plays] == case["plays"]
    assert all(len(p.steps) == most for p in plays)


def test_the_wall_cut_data_has_every_kind_of_cut():
    kinds = Counter((c["dice"][0] == c["dice"][1], c["max_dice_used"]) for c in WALL_CUTS)
    assert {(True, 3), (True, 2), (True, 1), (False, 1), (False, 0)} <= set(kinds)


# -- the independent reference on many positions -----------------------------------------------


def test_the_reference_agrees_with_the_oracle():
    """The brute-force reference is itself right on the oracle's cases."""
    for case in CORPUS[::3]:
        p = case["position"]
        expected, most = reference(p["board"], p["off"], case["dice"], case["first_turn"])
        assert expected == {(tuple(q["board"]), tuple(q["off"])) for q in case["plays"]}
        assert most == case["max_dice_used"]


@pytest.mark.parametrize(
    "source",
    [
        ("selfplay", lambda r: selfplay(r, 1200)),
        ("selfplay_running", lambda r: selfplay(r, 1200, greedy=True)),
        ("bearoffs", lambda r: bearoffs(r, 600)),
        ("walls", lambda r: walls(r, 1500)),
    ],
    ids=lambda s: s[0],
)
def test_engine_equals_reference_on_seeded_positions(source):
    name, make = source
    cases = make(random.Random(f"nardy-{name}"))
    wrong = [
        (position.to_json(), dice.to_json(), first)
        for position, dice, first in cases
        if not agrees_with_reference(position, dice.high, dice.low, first)
    ]
    assert wrong == [], wrong[:3]


def test_the_seeded_positions_reach_the_hard_corners():
    rng = random.Random("nardy-corners")
    cases = selfplay(rng, 600) + bearoffs(rng, 300) + walls(rng, 600)
    seen: Counter[str] = Counter()
    for position, dice, first in cases:
        got = legal_plays(position, dice, first_turn=first)
        seen["first turn"] += first
        seen["no play"] += not got
        seen["bear-off"] += any(s.to == 0 for p in got for s in p.steps)
        seen["partial double"] += bool(dice.is_double and got and len(got[0].steps) < 4)
        seen["wall refused a play"] += _wall_mattered(position, dice, first)
    assert all(n >= 5 for n in seen.values()), seen


def _wall_mattered(position: NardyPosition, dice: Dice, first: bool) -> bool:
    """Whether some play would be legal but for the wall rule."""
    import tests.rules.nardy_reference as ref

    with_walls = ref.reference(position.board, position.off, dice.to_json(), first)
    saved = ref.has_forbidden_wall
    ref.has_forbidden_wall = lambda board: False  # type: ignore[assignment]
    try:
        without = ref.reference(position.board, position.off, dice.to_json(), first)
    finally:
        ref.has_forbidden_wall = saved
    return with_walls != without


# -- numbering and positions --------------------------------------------------------------------


def test_the_opponents_points_in_my_numbering():
    assert my_point(24) == 12 and my_point(1) == 13 and my_point(6) == 18 and my_point(13) == 1
    assert all(their_point(my_point(q)) == q for q in range(1, 25))
    assert PATH == (
        12,
        11,
        10,
        9,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
        24,
        23,
        22,
        21,
        20,
        19,
        18,
        17,
        16,
        15,
        14,
        13,
    )


def test_the_starting_position_and_turning_it_round():
    assert START.board[23] == 15 and START.board[11] == -15 and sum(map(abs, START.board)) == 30
    assert START.flipped() == START
    p = npos({24: 10, 20: 3, 5: 2}, {12: 9, 3: 5, 16: 1}, off=(0, 0))
    q = p.flipped()
    assert q.flipped() == p
    # My 20 is his ((20 - 13) mod 24) + 1 = 8; his 12 (my 12 is his 24) ...
    assert q.board[8 - 1] == -3 and q.board[24 - 1] == 9 and q.board[15 - 1] == 5
    assert q.board[4 - 1] == 1 and q.board[my_point(24) - 1] == -10
    assert p.pips() == (24 * 10 + 20 * 3 + 5 * 2, 24 * 9 + 15 * 5 + 4 * 1)
    assert q.pips() == (p.pips()[1], p.pips()[0])


def test_json_has_board_and_off_and_no_bar():
    p = npos({24: 14, 3: 1}, HIS_HEAD)
    assert p.to_json() == {"board": list(p.board), "off": [0, 0]}
    assert NardyPosition.from_json(p.to_json()) == p
    with pytest.raises(InvalidPosition, match="no bar"):
        NardyPosition.from_json({**p.to_json(), "bar": [1, 0]})
    with pytest.raises(InvalidPosition, match="15"):
        NardyPosition.from_json({"board": [1] * 24, "off": [0, 0]})
    with pytest.raises(InvalidPosition):
        NardyPosition.from_json({"board": [0] * 23, "off": [0, 0]})


# -- where a checker may land -------------------------------------------------------------------


def test_one_opposing_checker_closes_a_point_and_nothing_is_hit():
    p = npos({13: 1, 1: 14}, {10: 1, 12: 14})
    assert results(p, 3, 1) == set()  # 10 and 12 both held by the opponent
    q = npos({13: 1, 1: 14}, {10: 1, 12: 14})
    assert results(q, 2, 1) == {after(q, (13, 11))}  # the 1 is blocked after and before
    assert dice_used(q, 2, 1) == 1


def test_every_point_a_checker_stops_on_must_be_open():
    p = npos({24: 1, 1: 14}, {18: 1, 12: 14})
    assert results(p, 6, 5) == {after(p, (24, 19), (19, 13))}  # through 19, not 18
    q = npos({24: 1, 1: 14}, {18: 1, 19: 1, 12: 13})
    assert results(q, 6, 5) == set()


def test_landing_on_own_checkers():
    p = npos({20: 2, 14: 1, 1: 12}, HIS_HEAD)
    assert after(p, (20, 14), (14, 9)) in results(p, 6, 5)
    assert after(p, (20, 14), (20, 15)) in results(p, 6, 5)


# -- leaving the head ---------------------------------------------------------------------------


def test_one_checker_leaves_the_head_per_turn():
    p = npos({24: 14, 1: 1}, HIS_HEAD)
    assert results(p, 6, 5) == {after(p, (24, 18), (18, 13))}  # not 24/18 24/19
    q = npos({24: 13, 20: 1, 1: 1}, HIS_HEAD)
    assert results(q, 6, 5) == {
        after(q, (24, 13)),
        after(q, (20, 9)),
        after(q, (24, 18), (20, 15)),
        after(q, (24, 19), (20, 14)),
    }


@pytest.mark.parametrize("first", [True, False])
def test_a_double_takes_one_head_checker_except_on_a_first_turn(first):
    p = npos({24: 13, 20: 1, 1: 1}, HIS_HEAD)
    for play in legal_plays(p, Dice.of(3, 3), first_turn=first):
        assert sum(s.frm == 24 for s in play.steps) <= (2 if first else 1)
    assert any(
        sum(s.frm == 24 for s in play.steps) == 2
        for play in legal_plays(p, Dice.of(3, 3), first_turn=True)
    )


def test_first_turn_six_six_four_four_three_three_take_two_from_the_head():
    # 6-6: two to 18; 18/12 is the opponent's head, so two dice only.
    assert results(START, 6, 6, True) == {after(START, (24, 18), (24, 18))}
    assert dice_used(START, 6, 6, True) == 2
    # 4-4: 24/16(2): one checker three steps would stop on 12.
    assert results(START, 4, 4, True) == {after(START, (24, 16), (24, 16))}
    # 3-3: 24/18(2) or 24/15 24/21.
    assert results(START, 3, 3, True) == {
        after(START, (24, 18), (24, 18)),
        after(START, (24, 15), (24, 21)),
    }


def test_first_turn_other_doubles_still_take_one_from_the_head():
    assert results(START, 5, 5, True) == {after(START, (24, 4))}  # 5-5 plays 24/4
    assert dice_used(START, 5, 5, True) == 4
    assert results(START, 2, 2, True) == {after(START, (24, 16))}
    assert results(START, 1, 1, True) == {after(START, (24, 20))}


def test_not_a_first_turn_six_six_takes_one_from_the_head():
    assert results(START, 6, 6, False) == {after(START, (24, 18))}
    # 3-3: one checker, 24/21/18/15, and 15/12 is his head: three dice.
    assert results(START, 3, 3, False) == {after(START, (24, 15))}
    assert dice_used(START, 3, 3, False) == 3


# -- the wall -------------------------------------------------------------------------------------


def _board(mine: dict[int, int], theirs: dict[int, int]) -> list[int]:
    b = [0] * 26
    for point, n in mine.items():
        b[point] = n
    for point, n in theirs.items():
        b[point] = -n
    return b


def test_six_points_in_a_row_with_no_opponent_past_them_is_a_forbidden_wall():
    assert forbidden_wall(_board({10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {12: 15}))
    assert not forbidden_wall(_board({10: 1, 9: 1, 8: 1, 7: 1, 6: 1}, {12: 15}))  # five
    assert not forbidden_wall(_board({10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 4: 1}, {12: 15}))  # gap
    assert forbidden_wall(_board({11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {12: 15}))


def test_a_wall_is_allowed_once_an_opposing_checker_has_passed_it():
    wall = {10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}
    assert not forbidden_wall(_board(wall, {12: 14, 4: 1}))  # his checker on my 4: past it
    assert not forbidden_wall(_board(wall, {12: 14, 20: 1}))  # on my 20: further still
    assert forbidden_wall(_board(wall, {12: 14, 11: 1}))  # on my 11: still behind it


def test_a_wall_may_run_from_my_1_to_my_24():
    crossing = {3: 1, 2: 1, 1: 1, 24: 1, 23: 1, 22: 1}
    assert forbidden_wall(_board(crossing, {12: 15}))
    assert not forbidden_wall(_board(crossing, {12: 14, 21: 1}))
    assert forbidden_wall(_board(crossing, {12: 14, 4: 1}))
    # ... but 13 and 12 are the two ends of his path, not neighbours.
    assert not forbidden_wall(_board({15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1}, {9: 15}))


def test_holding_my_whole_home_is_a_wall_while_every_opposing_checker_is_behind_it():
    home = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    assert forbidden_wall(_board(home, {12: 10, 7: 5}))
    assert not forbidden_wall(_board(home, {12: 10, 18: 5}))  # one in his home: passed


def test_the_wall_rule_forces_the_smaller_die():
    """Only 6/2 (the 4) is legal: every play of the 5, and both dice, fill point 1."""
    p = npos({2: 3, 3: 3, 4: 3, 5: 2, 6: 3, 12: 1}, {7: 6, 8: 9})
    assert results(p, 5, 4) == {after(p, (6, 2))}
    assert dice_used(p, 5, 4) == 1


def test_borne_off_opposing_checkers_are_not_past_the_wall():
    p = npos({2: 3, 3: 3, 4: 3, 5: 2, 6: 3, 12: 1}, {7: 6, 8: 4}, off=(0, 5))
    assert results(p, 5, 4) == {after(p, (6, 2))}


def test_the_same_plays_are_legal_once_an_opposing_checker_has_passed():
    p = npos({2: 3, 3: 3, 4: 3, 5: 2, 6: 3, 12: 1}, {7: 6, 8: 8, 20: 1})
    assert results(p, 5, 4) == {after(p, (6, 1), (6, 2)), after(p, (6, 1), (5, 1))}


def test_the_wall_is_judged_at_the_end_of_the_play():
    """13/11 makes 11..6 six in a row (his checkers all behind, on 12); 11/10 breaks it
    again: the play is legal, though its only route stops on the wall (13/12 is closed)."""
    p = npos({13: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1, 1: 9}, {12: 15})
    halfway = after(p, (13, 11))
    assert forbidden_wall([0, *halfway.board, 0])
    assert after(p, (13, 11), (11, 10)) in results(p, 2, 1)
    assert after(p, (13, 11), (6, 5)) in results(p, 2, 1)  # 11..7 and 5: broken too
    assert halfway not in results(p, 2, 1)
    assert agrees_with_reference(p, 2, 1, False)


def test_a_double_cut_short_by_the_wall():
    """6-6: 18/12 is fine; any 12/6 fills 6 and makes 6..1 (his checkers all on 8..11,
    behind it), and so does everything after: one die only."""
    p = npos({1: 2, 2: 2, 3: 3, 4: 3, 5: 3, 12: 1, 18: 1}, {8: 3, 9: 2, 10: 7, 11: 3})
    assert results(p, 6, 6) == {after(p, (18, 12))}
    assert dice_used(p, 6, 6) == 1


# -- the most dice ------------------------------------------------------------------------------


def test_both_dice_in_the_only_order_that_works():
    p = npos({9: 1, 1: 14}, {3: 1, 12: 14})
    assert results(p, 6, 2) == {after(p, (9, 7), (7, 1))}  # 9/3 is closed
    assert dice_used(p, 6, 2) == 2


def test_only_one_die_fits_so_the_larger():
    p = npos({13: 1, 1: 14}, {2: 1, 12: 14})
    assert results(p, 6, 5) == {after(p, (13, 7))}  # 13/7/2 and 13/8/2 both end on 2


def test_the_smaller_die_when_the_larger_cannot_be_played():
    p = npos({13: 1, 1: 14}, {7: 1, 2: 1, 12: 13})
    assert results(p, 6, 5) == {after(p, (13, 8))}


def test_a_double_plays_as_many_steps_as_it_can():
    p = npos({13: 1, 1: 14}, {5: 1, 12: 14})
    assert results(p, 4, 4) == {after(p, (13, 9))}
    q = npos({13: 1, 1: 14}, {12: 15})
    # 13/9/5/1, then all fifteen are home: the fourth 4 bears one off from the 1-point.
    assert results(q, 4, 4) == {after(q, (13, 1), (1, 0))}


def test_no_play_at_all():
    p = npos({13: 1, 1: 14}, {7: 1, 8: 1, 12: 13})
    assert legal_plays(p, Dice.of(6, 5)) == []
    assert successor_arrays([0, *p.board, 0], 6, 5, game=LONG_NARDY) == []


# -- bearing off ------------------------------------------------------------------------------


FAR = {20: 15}  # the opponent's checkers out of the way (in his own home-ward path)


def test_bear_off_by_the_exact_die_or_move_inside():
    p = npos({3: 1, 1: 1}, FAR, off=(13, 0))
    assert results(p, 3, 1) == {after(p, (3, 0), (1, 0)), after(p, (3, 2), (2, 0))}


def test_a_higher_die_bears_off_from_the_highest_point_only():
    p = npos({4: 1, 2: 1}, FAR, off=(13, 0))
    assert results(p, 6, 5) == {after(p, (4, 0), (2, 0))}


def test_an_empty_die_point_makes_a_higher_checker_move():
    p = npos({5: 1, 2: 1}, FAR, off=(13, 0))
    assert results(p, 4, 1) == {after(p, (5, 1), (2, 1)), after(p, (5, 4), (4, 0))}


def test_a_lower_point_bears_off_only_with_no_checker_higher_even_one_that_cannot_move():
    """6-5 ... 5-4: the 6-checker cannot move (1 and 2 are held), yet it stands higher, so
    neither die may bear the 3-checker off: no play at all."""
    p = npos({6: 1, 3: 1}, {1: 1, 2: 1, 20: 13}, off=(13, 0))
    assert legal_plays(p, Dice.of(5, 4)) == []


def test_moving_inside_home_instead_of_bearing_off_is_allowed():
    p = npos({3: 1, 2: 1}, FAR, off=(13, 0))
    assert results(p, 2, 1) == {after(p, (3, 1), (2, 1)), after(p, (2, 0), (3, 2))}


def test_no_bearing_off_until_all_fifteen_are_home_but_the_same_turn_may_finish_it():
    p = npos({7: 1, 1: 1}, FAR, off=(13, 0))
    assert results(p, 6, 1) == {after(p, (7, 1), (1, 0))}
    q = npos({8: 1, 2: 1}, FAR, off=(13, 0))
    assert results(q, 2, 1) == {after(q, (8, 6), (2, 1)), after(q, (8, 5))}


def test_the_same_position_by_more_dice_is_the_play_with_the_most_dice():
    p = npos({3: 1}, FAR, off=(14, 0))
    (play,) = legal_plays(p, Dice.of(6, 1))
    assert play.result.off == (15, 0) and len(play.steps) == 2  # 3/2 2/off, not 3/off
    (one,) = legal_plays(p, Dice.of(6, 5))
    assert one.result.off == (15, 0) and [(s.frm, s.to) for s in one.steps] == [(3, 0)]


# -- dice, order, values ------------------------------------------------------------------------


def test_dice_in_either_order_and_plays_unique_and_sorted():
    rng = random.Random("nardy-order")
    for position, dice, first in selfplay(rng, 300):
        b = [0, *position.board, 0]
        assert search(list(b), dice.high, dice.low, first) == search(
            list(b), dice.low, dice.high, first
        )
        got = legal_plays(position, dice, first_turn=first)
        keys = [p.result.sort_key() for p in got]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
        assert set(successor_arrays(b, dice.low, dice.high, game=LONG_NARDY, first_turn=first)) == {
            (0, *p.result.board, 0) for p in got
        }


def test_the_notation_of_a_play_reads_back():
    from games.rules import resolve_play

    for position, dice, first in selfplay(random.Random("nardy-notation"), 200):
        for play in legal_plays(position, dice, first_turn=first):
            assert play.notation
            assert resolve_play(position, dice, play.notation, first_turn=first) == play


# -- perft ------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth, leaves", [(1, 22), (2, 484), (3, 35_387)])
def test_perft(depth, leaves):
    assert perft(depth, game=LONG_NARDY) == leaves
    assert perft(depth, NardyPosition.starting()) == leaves


def test_perft_depth_4_in_reasonable_time():
    start = time.perf_counter()
    assert perft(4, game=LONG_NARDY) == 2_411_418
    elapsed = time.perf_counter() - start
    print(f"long nardy perft(4) took {elapsed:.1f} s")
    assert elapsed < 60, elapsed
