"""Hand-written cases for every moving rule in RULES.md.

Each test states the exact set of positions the legal plays must reach, worked out by hand with
`after` (which moves checkers without any rule check). A stack of the mover's checkers on his
1-point is a common prop: while any of his checkers is outside his home board they cannot move
(1 - die is below 1 and bearing off is not allowed), so the interesting checkers are the only
ones that play.
"""

from __future__ import annotations

import pytest

from games.rules.dice import ALL_ROLLS
from games.rules.plays import Step, legal_plays

from .helpers import after, each_after, plays, pos, results

# -- where a checker may land ---------------------------------------------------------------


def test_lands_on_empty_points_either_order_same_play():
    p = pos(mine={24: 1, 1: 14}, theirs={2: 15})
    got = plays(p, 3, 1)
    assert [g.result for g in got] == [after(p, (24, 21), (21, 20))]
    assert len(got[0].steps) == 2


def test_lands_on_own_checker():
    p = pos(mine={24: 1, 21: 1, 1: 13}, theirs={2: 15})
    assert results(p, 3, 1) == each_after(
        p,
        [(24, 21), (21, 20)],  # 24/21 onto his own checker, then one of them 21/20
        [(24, 23), (21, 18)],
        [(21, 18), (18, 17)],
    )


def test_hits_a_blot_only_when_landing_on_it():
    p = pos(mine={24: 1, 1: 14}, theirs={21: 1, 2: 14})
    got = {g.result: g for g in plays(p, 3, 1)}
    hit = after(p, (24, 21), (21, 20))
    passed = after(p, (24, 23), (23, 20))
    assert set(got) == {hit, passed}
    assert hit.bar == (0, 1) and hit.board[20] == 0
    assert passed.bar == (0, 0) and passed.board[20] == -1
    assert got[hit].steps == (Step(24, 21, True), Step(21, 20, False))
    assert got[passed].steps == (Step(24, 23, False), Step(23, 20, False))


def test_hit_then_hit_again_with_the_same_checker():
    p = pos(mine={24: 1, 1: 14}, theirs={21: 1, 20: 1, 2: 13})
    r = after(p, (24, 21), (21, 20))
    assert r.bar == (0, 2)
    assert results(p, 3, 1) == {r, after(p, (24, 23), (23, 20))}


def test_closed_point_cannot_be_landed_on():
    p = pos(mine={24: 1, 1: 14}, theirs={21: 2, 2: 13})
    assert results(p, 3, 1) == {after(p, (24, 23), (23, 20))}


def test_closed_point_of_three_or_more_is_also_closed():
    p = pos(mine={24: 1, 1: 14}, theirs={21: 5, 23: 3, 2: 7})
    assert legal_plays(p, _d(3, 1)) == []


def test_points_passed_over_are_not_checked():
    # 23..19 all closed; a 6 jumps over them and lands on the open 18.
    p = pos(mine={24: 1, 1: 14}, theirs={23: 2, 22: 2, 21: 2, 20: 2, 19: 2, 2: 5})
    # 6-6: 24/18/12/6, and with every checker home the fourth 6 bears off 6/off.
    assert results(p, 6, 6) == {after(p, (24, 18), (18, 12), (12, 6), (6, 0))}
    assert results(p, 6, 5) == {after(p, (24, 18), (18, 13))}


# -- combined moves: the intermediate landing point ----------------------------------------


def test_intermediate_point_must_be_open_one_route():
    # 6-5 from 24: via 18 (closed) or via 19 (open): only the route through 19.
    p = pos(mine={24: 1, 1: 14}, theirs={18: 2, 2: 13})
    got = plays(p, 6, 5)
    assert [g.result for g in got] == [after(p, (24, 13))]
    assert got[0].steps == (Step(24, 19), Step(19, 13))


def test_intermediate_point_must_be_open_no_route():
    # 13 is open but both 18 and 19 are closed: the checker cannot get there.
    p = pos(mine={24: 1, 1: 14}, theirs={18: 2, 19: 2, 2: 11})
    assert plays(p, 6, 5) == []


def test_intermediate_points_of_doubles_must_be_open():
    # 4-4 from 24: 20 open, 16 closed: only one step can be played.
    p = pos(mine={24: 1, 1: 14}, theirs={16: 2, 2: 13})
    got = plays(p, 4, 4)
    assert [g.result for g in got] == [after(p, (24, 20))]


# -- doubles ---------------------------------------------------------------------------------


def test_doubles_move_four_steps_one_checker():
    p = pos(mine={24: 1, 1: 14}, theirs={2: 15})
    got = plays(p, 2, 2)
    assert [g.result for g in got] == [after(p, (24, 16))]
    assert [s.frm for s in got[0].steps] == [24, 22, 20, 18]


def test_doubles_split_between_two_checkers():
    p = pos(mine={24: 1, 13: 1, 1: 13}, theirs={2: 15})
    expected = {
        after(
            p,
            *[(24 - 2 * i, 22 - 2 * i) for i in range(k)],
            *[(13 - 2 * j, 11 - 2 * j) for j in range(4 - k)],
        )
        for k in range(5)
    }
    assert len(expected) == 5
    got = plays(p, 2, 2)
    assert {g.result for g in got} == expected
    assert all(len(g.steps) == 4 for g in got)


@pytest.mark.parametrize(
    ("closed", "reached"),
    [(16, 18), (18, 20), (20, 22)],
    ids=["three_steps", "two_steps", "one_step"],
)
def test_doubles_partial(closed, reached):
    p = pos(mine={24: 1, 1: 14}, theirs={closed: 2, 2: 13})
    got = plays(p, 2, 2)
    assert [g.result for g in got] == [after(p, (24, reached))]
    assert len(got[0].steps) == (24 - reached) // 2


def test_doubles_partial_with_two_checkers_takes_the_most_steps():
    # 3-3: the 24 checker can go 24/21 only (18 closed); the 10 checker 10/7/4/1 (three
    # steps, onto his own 1-point). Every four-step play is 24/21 10/1.
    p = pos(mine={24: 1, 10: 1, 1: 13}, theirs={18: 2, 2: 13})
    got = plays(p, 3, 3)
    assert {g.result for g in got} == {after(p, (24, 21), (10, 7), (7, 4), (4, 1))}
    assert all(len(g.steps) == 4 for g in got)


# -- the bar ---------------------------------------------------------------------------------

# The opponent's home board from the mover's side is 19..24; die n enters on 25 - n.
# Closed: 24 (die 1), 22 (die 3), 20 (die 5). Open: 23 (2), 21 (4), 19 (6).
PARTLY_CLOSED = {24: 2, 22: 2, 20: 2, 2: 9}


def test_bar_one_checker_both_entry_points_closed_no_play():
    p = pos(mine={10: 1, 1: 13}, theirs=PARTLY_CLOSED, bar=(1, 0))
    # 10/5/2 etc. would be possible without the bar checker: nothing else may move.
    assert plays(p, 5, 3) == []
    assert plays(p, 5, 1) == []


def test_bar_one_checker_enters_then_any_checker_plays_the_other_die():
    p = pos(mine={10: 1, 1: 13}, theirs=PARTLY_CLOSED, bar=(1, 0))
    assert results(p, 6, 1) == each_after(p, [(25, 19), (19, 18)], [(25, 19), (10, 9)])


def test_bar_one_checker_enters_with_either_die():
    p = pos(mine={10: 1, 1: 13}, theirs=PARTLY_CLOSED, bar=(1, 0))
    assert results(p, 4, 2) == each_after(
        p,
        [(25, 21), (21, 19)],  # = bar/23/19
        [(25, 21), (10, 8)],
        [(25, 23), (10, 6)],
    )


def test_bar_one_checker_only_one_die_enters_and_the_other_is_blocked():
    # 6 enters on 19; the 5 is then blocked everywhere (19/14 and 10/5 closed), so 6 alone.
    p = pos(mine={10: 1, 1: 13}, theirs={24: 2, 22: 2, 20: 2, 14: 2, 5: 2, 2: 5}, bar=(1, 0))
    assert results(p, 6, 5) == {after(p, (25, 19))}


def test_bar_two_checkers_both_enter_nothing_else_moves():
    p = pos(mine={10: 1, 1: 12}, theirs=PARTLY_CLOSED, bar=(2, 0))
    assert results(p, 6, 4) == {after(p, (25, 19), (25, 21))}


def test_bar_two_checkers_only_one_can_enter():
    # die 1 closed: one checker enters with the 6; the other stays on the bar, so the 1
    # cannot be played by anything else.
    p = pos(mine={10: 1, 1: 12}, theirs=PARTLY_CLOSED, bar=(2, 0))
    got = plays(p, 6, 1)
    assert [g.result for g in got] == [after(p, (25, 19))]
    assert got[0].result.bar == (1, 0)


def test_bar_two_checkers_doubles_enter_both_then_play_on():
    p = pos(mine={10: 1, 1: 12}, theirs=PARTLY_CLOSED, bar=(2, 0))
    assert results(p, 4, 4) == each_after(
        p,
        [(25, 21), (25, 21), (21, 17), (21, 17)],
        [(25, 21), (25, 21), (21, 17), (17, 13)],
        [(25, 21), (25, 21), (21, 17), (10, 6)],
        # 10/6/2 is not possible: 2 is closed
    )


def test_bar_three_checkers_two_dice_enter_two():
    p = pos(mine={10: 1, 1: 11}, theirs=PARTLY_CLOSED, bar=(3, 0))
    got = plays(p, 6, 4)
    assert [g.result for g in got] == [after(p, (25, 19), (25, 21))]
    assert got[0].result.bar == (1, 0)


def test_bar_three_checkers_doubles_enter_all_then_one_more_step():
    p = pos(mine={10: 1, 1: 11}, theirs=PARTLY_CLOSED, bar=(3, 0))
    assert results(p, 6, 6) == each_after(
        p,
        [(25, 19), (25, 19), (25, 19), (19, 13)],
        [(25, 19), (25, 19), (25, 19), (10, 4)],
    )


def test_bar_three_checkers_doubles_on_a_closed_entry_point():
    p = pos(mine={10: 1, 1: 11}, theirs=PARTLY_CLOSED, bar=(3, 0))
    assert plays(p, 5, 5) == []


def test_bar_four_checkers_doubles_all_four_steps_enter():
    p = pos(mine={10: 1, 1: 10}, theirs=PARTLY_CLOSED, bar=(4, 0))
    got = plays(p, 2, 2)
    assert [g.result for g in got] == [after(p, *[(25, 23)] * 4)]
    assert got[0].result.bar == (0, 0)


def test_bar_entry_hits_a_blot():
    p = pos(mine={10: 1, 1: 13}, theirs={23: 1, **PARTLY_CLOSED, 2: 8}, bar=(1, 0))
    assert results(p, 6, 2) == each_after(
        p,
        [(25, 23), (23, 17)],  # bar/23*/17
        [(25, 23), (10, 4)],  # bar/23* 10/4
        [(25, 19), (19, 17)],  # bar/19/17, no hit: a different position
        [(25, 19), (10, 8)],
    )
    assert after(p, (25, 23), (10, 4)).bar == (0, 1)


def test_bar_closed_board_no_roll_plays():
    board = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 2: 3}
    for n_bar in (1, 2, 3):
        p = pos(mine={10: 1, 1: 14 - n_bar}, theirs=board, bar=(n_bar, 0))
        for roll in ALL_ROLLS:
            assert legal_plays(p, roll) == [], (n_bar, roll)


# -- mandatory play --------------------------------------------------------------------------


def test_both_dice_must_be_played_when_possible():
    # 24/18 alone dead-ends (18/17 and 14/13 closed, 14/8 closed); so does 24/23 (23/17
    # closed). Only plays that use the 7 checker use both dice.
    p = pos(mine={24: 1, 14: 1, 7: 1, 1: 12}, theirs={17: 2, 13: 2, 8: 2, 2: 9})
    got = plays(p, 6, 1)
    assert {g.result for g in got} == each_after(p, [(24, 18), (7, 6)], [(24, 23), (7, 1)])
    assert all(len(g.steps) == 2 for g in got)


def test_larger_die_when_only_one_die_fits():
    # 24/18 or 24/19, but 13 is closed so neither continues: play the 6.
    p = pos(mine={24: 1, 1: 14}, theirs={13: 2, 2: 13})
    got = plays(p, 6, 5)
    assert [g.result for g in got] == [after(p, (24, 18))]
    assert got[0].steps == (Step(24, 18),)


def test_larger_die_applies_across_checkers():
    # Two checkers can each play the 6 (24/18, 10/4) but no 5 is ever playable (24/19, 10/5,
    # 18/13 closed; 4/off not allowed with 24 out): either 6 is a legal play.
    p = pos(mine={24: 1, 10: 1, 1: 13}, theirs={19: 2, 13: 2, 5: 2, 2: 9})
    assert results(p, 6, 5) == each_after(p, [(24, 18)], [(10, 4)])


def test_smaller_die_when_the_larger_cannot_be_played():
    # 6 from 24 lands on closed 18; 5 lands on 19, then 19/13 is closed.
    p = pos(mine={24: 1, 1: 14}, theirs={18: 2, 13: 2, 2: 11})
    got = plays(p, 6, 5)
    assert [g.result for g in got] == [after(p, (24, 19))]
    assert got[0].steps == (Step(24, 19),)


def test_forced_order_three_then_six():
    # 24/18 is closed: only 24/21/15 uses both dice.
    p = pos(mine={24: 1, 1: 14}, theirs={18: 2, 2: 13})
    got = plays(p, 6, 3)
    assert [g.result for g in got] == [after(p, (24, 15))]
    assert got[0].steps == (Step(24, 21), Step(21, 15))


def test_forced_order_three_first_brings_the_last_checker_home_to_bear_off():
    # 9/3 is closed. 9/6 with the 3 brings everything home, then 6/off with the 6.
    # 5/2 with the 3 first dead-ends (9/3 closed, cannot bear off with 9 out).
    p = pos(mine={9: 1, 5: 1}, theirs={3: 2, 20: 13})
    got = plays(p, 6, 3)
    assert [g.result for g in got] == [after(p, (9, 6), (6, 0))]
    assert got[0].steps == (Step(9, 6), Step(6, 0))


def test_one_die_only_the_max_not_a_choice():
    # A player may not stop early: with both dice playable no one-die play is offered.
    p = pos(mine={24: 1, 1: 14}, theirs={2: 15})
    assert all(len(g.steps) == 2 for g in plays(p, 6, 5))


# -- bearing off -----------------------------------------------------------------------------

FAR = {20: 15}  # the opponent's checkers, well out of the way (his 5-point)


def test_bear_off_with_the_exact_die():
    p = pos(mine={6: 2, 4: 1}, theirs=FAR)
    assert results(p, 6, 4) == each_after(p, [(6, 0), (6, 2)], [(6, 0), (4, 0)])


def test_higher_die_bears_off_from_the_highest_point_only():
    # The 6 may take the checker from 4 (the highest) but never the one on 2.
    p = pos(mine={4: 1, 2: 1}, theirs=FAR)
    assert results(p, 6, 1) == each_after(p, [(4, 0), (2, 1)], [(4, 3), (3, 0)])


def test_higher_dice_both_bear_off():
    p = pos(mine={4: 1, 2: 1}, theirs=FAR)
    got = plays(p, 6, 5)
    assert [g.result for g in got] == [after(p, (4, 0), (2, 0))]
    assert got[0].result.off == (15, 0)


def test_empty_die_point_forces_a_move_from_a_higher_point():
    # 4 and 3 are empty and a checker is on 6: the 2 cannot be borne off with either die
    # until the 6 has moved.
    p = pos(mine={6: 1, 2: 1}, theirs=FAR)
    assert results(p, 4, 3) == {after(p, (6, 2), (2, 0))}


def test_moving_inside_home_instead_of_bearing_off_is_legal():
    p = pos(mine={5: 1, 3: 1}, theirs=FAR)
    assert results(p, 3, 2) == each_after(
        p,
        [(3, 0), (5, 3)],
        [(5, 2), (3, 1)],  # bears nothing off although it could
    )


def test_no_bear_off_while_a_checker_is_outside_home():
    p = pos(mine={8: 1, 2: 1}, theirs=FAR)
    assert results(p, 2, 1) == each_after(p, [(8, 6), (2, 1)], [(8, 6), (6, 5)])


def test_bear_off_after_the_last_checker_comes_home_in_the_same_turn():
    p = pos(mine={7: 1, 3: 1}, theirs=FAR)
    assert results(p, 3, 1) == each_after(
        p,
        [(7, 4), (4, 3)],
        [(7, 4), (3, 2)],
        [(7, 6), (3, 0)],  # only as 7/6 then 3/off
    )


def test_bear_off_doubles_use_all_four_steps():
    p = pos(mine={5: 2, 1: 1}, theirs=FAR)
    got = plays(p, 5, 5)
    # 5/off(2), then the 1-point checker goes off with the third 5; the fourth is unused.
    assert [g.result for g in got] == [after(p, (5, 0), (5, 0), (1, 0))]
    assert len(got[0].steps) == 3
    assert got[0].result.off == (15, 0)


def test_bear_off_hits_and_continues():
    p = pos(mine={6: 2}, theirs={3: 1, 20: 14})
    got = plays(p, 3, 3)
    r = after(p, (6, 3), (6, 3), (3, 0), (3, 0))
    assert [g.result for g in got] == [r]
    assert r.off == (15, 0) and r.bar == (0, 1)


def test_after_being_hit_the_mover_cannot_bear_off_until_home():
    # The mover was hit while bearing off: two already off stay off, one on the bar.
    p = pos(
        mine={6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, theirs={24: 2, 12: 3}, bar=(1, 0), off=(2, 10)
    )
    got = plays(p, 6, 5)
    assert {g.result for g in got} == each_after(
        p,
        [(25, 19), (19, 14)],
        [(25, 19), (6, 1)],
    )
    assert all(g.result.off[0] == 2 for g in got)


def test_after_being_hit_closed_entry_blocks_bear_off_entirely():
    p = pos(mine={6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}, theirs={19: 2, 20: 2, 21: 2}, bar=(1, 0))
    # 6, 5 and 4 enter on 19, 20, 21, all closed: nothing can be borne off or moved.
    assert plays(p, 6, 5) == []
    assert plays(p, 6, 4) == []
    assert plays(p, 4, 4) == []


def test_game_ending_play_leaves_fifteen_off():
    p = pos(mine={1: 2}, theirs=FAR)
    assert results(p, 2, 1) == {after(p, (1, 0), (1, 0))}


# -- no play ---------------------------------------------------------------------------------


def test_no_play_returns_an_empty_list():
    p = pos(mine={24: 1, 1: 14}, theirs={18: 2, 19: 2, 2: 11})
    assert legal_plays(p, _d(6, 5)) == []
    assert legal_plays(p, _d(6, 6)) == []
    assert legal_plays(p, _d(5, 5)) == []


def test_plays_are_sorted_like_the_corpus():
    p = pos(mine={24: 2, 13: 5, 8: 3, 6: 5}, theirs={1: 2, 12: 5, 17: 3, 19: 5})
    got = legal_plays(p, _d(3, 1))
    keys = [g.result.sort_key() for g in got]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys) == 16


def _d(a: int, b: int):
    from games.rules.dice import Dice

    return Dice.of(a, b)


# -- the Play values -------------------------------------------------------------------------


def test_plays_are_values_equal_to_eagerly_built_ones():
    """legal_plays builds its plays lazily; they equal and hash like Play(steps, result)."""
    from games.rules.plays import Play

    p = pos(mine={24: 2, 13: 5, 8: 3, 6: 5}, theirs={1: 2, 12: 5, 17: 3, 19: 4, 21: 1})
    for play in legal_plays(p, _d(4, 4)) + legal_plays(p, _d(3, 1)):
        eager = Play(play.steps, after(p, *((s.frm, s.to) for s in play.steps)))
        assert play == eager and hash(play) == hash(eager)
        assert play.result == eager.result and play.result.off == p.off
        assert repr(play) == repr(eager)
    assert legal_plays(p, _d(3, 1))[0] != legal_plays(p, _d(3, 1))[1]


def test_a_play_is_immutable():
    play = legal_plays(pos(mine={13: 15}, theirs={24: 15}), _d(2, 1))[0]
    with pytest.raises(AttributeError):
        play.steps = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        play.result = play.result  # type: ignore[misc]
    with pytest.raises(AttributeError):
        play.extra = 1  # type: ignore[attr-defined]


def test_a_bear_off_play_counts_its_checkers_off():
    p = pos(mine={1: 2, 2: 1}, theirs={20: 15}, off=(12, 0))
    (play,) = [q for q in legal_plays(p, _d(2, 1)) if q.result.off[0] == 14]
    assert play.result == after(p, (2, 0), (1, 0))
