"""Property tests of the legal play search on random valid positions (hypothesis).

The positions cover open middle games, bear-offs (sometimes with a checker on the bar, as after
being hit while bearing off), bar-heavy positions against crowded home boards, and races.
A small brute-force reference (every die order, every checker, no shortcuts) cross-checks the
set of results.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.dice import ALL_ROLLS, Dice
from games.rules.plays import Play, Step, apply_step, legal_plays, to_array
from games.rules.position import Position

from .helpers import after

SLOW = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- strategies ------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Position:
    kind = draw(st.sampled_from(["mixed", "mixed", "bearoff", "bearoff_hit", "bar", "race"]))
    if kind == "bearoff":
        my_bar, my_off, my_points = 0, draw(st.integers(0, 14)), range(1, 7)
    elif kind == "bearoff_hit":  # hit while bearing off: one on the bar, the rest home
        my_bar, my_off, my_points = 1, draw(st.integers(0, 12)), range(1, 7)
    elif kind == "bar":
        my_bar, my_off, my_points = draw(st.integers(1, 4)), draw(st.integers(0, 2)), range(1, 25)
    elif kind == "race":
        top = draw(st.integers(1, 20))
        my_bar, my_off, my_points = 0, draw(st.integers(0, 8)), range(1, top + 1)
    else:
        my_bar, my_off, my_points = draw(st.integers(0, 1)), draw(st.integers(0, 3)), range(1, 25)
    board = [0] * 24
    for point in draw(
        st.lists(
            st.sampled_from(list(my_points)),
            min_size=15 - my_bar - my_off,
            max_size=15 - my_bar - my_off,
        )
    ):
        board[point - 1] += 1

    free = [p for p in range(1, 25) if board[p - 1] == 0]
    if kind == "race":
        top_mine = max((p for p in range(1, 25) if board[p - 1] > 0), default=0)
        free = [p for p in free if p > top_mine] or free
    # Weight the opponent toward his home board (the mover's 19..24) and the mover's home
    # board, where closed entry points and bear-off hits happen.
    weighted = free + [p for p in free if p >= 19] * 2 + [p for p in free if p <= 6]
    their_bar = draw(st.integers(0, 3 if kind == "bar" else 1))
    their_off = draw(st.integers(0, 10 if kind in ("bearoff", "race") else 2))
    for point in draw(
        st.lists(
            st.sampled_from(weighted),
            min_size=15 - their_bar - their_off,
            max_size=15 - their_bar - their_off,
        )
    ):
        board[point - 1] -= 1
    position = Position(tuple(board), (my_bar, their_bar), (my_off, their_off))
    position.check()
    return position


rolls = st.sampled_from(ALL_ROLLS)


# -- a brute-force reference -----------------------------------------------------------------


def _single_steps(board: list[int], bar: int, die: int) -> list[tuple[int, int]]:
    """Every (from, to) one die allows, read straight from RULES.md."""
    if bar:
        to = 25 - die
        return [(25, to)] if board[to - 1] >= -1 else []
    home = all(n <= 0 for n in board[6:])
    out = []
    for frm in range(1, 25):
        if board[frm - 1] <= 0:
            continue
        to = frm - die
        if to >= 1:
            if board[to - 1] >= -1:
                out.append((frm, to))
        elif home and (to == 0 or all(n <= 0 for n in board[frm:])):
            out.append((frm, 0))
    return out


def reference_results(position: Position, dice: Dice) -> set[Position]:
    """All results of legal plays, by trying every die order and every checker."""
    start = (position.board, position.bar, position.off)
    best: dict[int, set[tuple]] = {}  # steps used -> {(state, first die or 0)}
    seen: set[tuple] = set()

    def walk(state, left: tuple[int, ...], used: int, first: int) -> None:
        if (state, left, first) in seen:
            return
        seen.add((state, left, first))
        best.setdefault(used, set()).add((state, first))
        board, bar, off = state
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for frm, to in _single_steps(list(board), bar[0], die):
                b = list(board)
                mine_bar, their_bar = bar
                mine_off, their_off = off
                if frm == 25:
                    mine_bar -= 1
                else:
                    b[frm - 1] -= 1
                if to == 0:
                    mine_off += 1
                elif b[to - 1] == -1:
                    b[to - 1] = 1
                    their_bar += 1
                else:
                    b[to - 1] += 1
                walk(
                    (tuple(b), (mine_bar, their_bar), (mine_off, their_off)),
                    tuple(rest),
                    used + 1,
                    first or die,
                )

    walk(start, tuple(dice.steps), 0, 0)
    most = max(best)
    if most == 0:
        return set()
    chosen = best[most]
    if most == 1 and not dice.is_double:
        # One die only: the larger if it can be played at all.
        with_high = {s for s in chosen if s[1] == dice.high}
        chosen = with_high or chosen
    return {Position(*state) for state, _ in chosen}


# -- properties ------------------------------------------------------------------------------


def _checkers(p: Position) -> tuple[int, int]:
    mine = sum(n for n in p.board if n > 0) + p.bar[0] + p.off[0]
    theirs = -sum(n for n in p.board if n < 0) + p.bar[1] + p.off[1]
    return mine, theirs


@SETTINGS
@given(positions(), rolls)
def test_matches_brute_force_reference(position, dice):
    assert {p.result for p in legal_plays(position, dice)} == reference_results(position, dice)


@SETTINGS
@given(positions(), rolls)
def test_results_are_valid_and_keep_fifteen_each(position, dice):
    for play in legal_plays(position, dice):
        play.result.check()
        assert _checkers(play.result) == (15, 15)
        assert not (play.result.bar[0] and play.result.off[0] > position.off[0])


@SETTINGS
@given(positions(), rolls)
def test_mover_pips_drop_by_the_steps_taken(position, dice):
    before_mine, before_theirs = position.pips()
    for play in legal_plays(position, dice):
        after_mine, after_theirs = play.result.pips()
        # A step from the bar counts from 25; a step off ends at 0, so a bear-off with a
        # larger die drops only the point number.
        assert before_mine - after_mine == sum(s.frm - s.to for s in play.steps)
        # The opponent's pips only grow, and only by hits: a blot hit on the mover's point t
        # sat on the opponent's 25 - t and goes back to his bar (25).
        assert after_theirs - before_theirs == sum(s.to for s in play.steps if s.hit)
        assert after_theirs >= before_theirs


@SETTINGS
@given(positions(), rolls)
def test_each_step_uses_one_die(position, dice):
    for play in legal_plays(position, dice):
        left = list(dice.steps)
        for s in play.steps:
            distance = s.frm - s.to
            # exact die, or bearing off with a larger die
            die = distance if distance in left else min(d for d in left if d > distance)
            assert s.to == 0 or die == distance, (play.steps, dice)
            left.remove(die)


@SETTINGS
@given(positions(), rolls)
def test_steps_replay_to_the_result(position, dice):
    plays = legal_plays(position, dice)
    for play in plays:
        assert after(position, *((s.frm, s.to) for s in play.steps)) == play.result
        b = to_array(position)
        for s in play.steps:
            assert apply_step(b, s.frm, s.to) == s.hit
        assert b == to_array(play.result)


@SETTINGS
@given(positions(), rolls)
def test_plays_are_distinct_sorted_and_use_the_same_number_of_steps(position, dice):
    plays = legal_plays(position, dice)
    keys = [p.result.sort_key() for p in plays]
    assert len(set(keys)) == len(keys)
    assert keys == sorted(keys)
    assert len({len(p.steps) for p in plays}) <= 1
    if plays:
        assert 1 <= len(plays[0].steps) <= (4 if dice.is_double else 2)
        assert all(p.result != position for p in plays)


@SLOW
@given(positions(), rolls)
def test_legal_next_steps_offers_every_step_of_every_play(position, dice):
    from games.rules import legal_next_steps

    plays = legal_plays(position, dice)
    # Doubles can have hundreds of plays; a spread of about ten keeps the test fast.
    for play in plays[:: max(1, len(plays) // 10)]:
        for k, step in enumerate(play.steps):
            offered = legal_next_steps(position, dice, list(play.steps[:k]))
            assert step in offered, (play.steps, k, offered)
        assert legal_next_steps(position, dice, list(play.steps)) == []


def _chain_results(position: Position, dice: Dice) -> tuple[set[Position], set[int]]:
    """Follow every step legal_next_steps offers, from nothing to a complete play."""
    from games.rules import legal_next_steps

    finished: set[Position] = set()
    lengths: set[int] = set()
    seen: set[tuple] = set()

    def dfs(prefix: list[Step], current: Position) -> None:
        # Different orders of the same steps reach the same state; with doubles every
        # remaining die is the same, so (position, steps taken) identifies the state.
        if dice.is_double:
            key = (current, len(prefix))
            if key in seen:
                return
            seen.add(key)
        offered = legal_next_steps(position, dice, prefix)
        if not offered:
            if prefix:
                finished.add(current)
                lengths.add(len(prefix))
            return
        assert len({(s.frm, s.to) for s in offered}) == len(offered)
        for step in offered:
            dfs([*prefix, step], after(current, (step.frm, step.to)))

    dfs([], position)
    return finished, lengths


@settings(SLOW, max_examples=60)
@given(positions(), rolls)
def test_chaining_legal_next_steps_reaches_exactly_the_legal_plays(position, dice):
    plays = legal_plays(position, dice)
    finished, lengths = _chain_results(position, dice)
    assert finished == {p.result for p in plays}
    assert lengths == ({len(plays[0].steps)} if plays else set())


@SETTINGS
@given(positions())
def test_flip_twice_is_identity_and_swaps_pips(position):
    flipped = position.flipped()
    flipped.check()
    assert flipped.flipped() == position
    assert flipped.pips() == position.pips()[::-1]
    assert flipped.bar == position.bar[::-1] and flipped.off == position.off[::-1]


@SETTINGS
@given(positions(), rolls)
def test_json_round_trip_of_results(position, dice):
    for play in legal_plays(position, dice)[:5]:
        assert Position.from_json(play.result.to_json()) == play.result


def test_strategy_covers_the_interesting_kinds():
    """The generator really produces bar, bear-off and closed-board positions."""
    seen = {"bar": 0, "bearoff": 0, "closed_entry": 0, "no_play": 0, "hit": 0}

    @settings(max_examples=400, deadline=None, database=None, derandomize=True)
    @given(positions(), rolls)
    def sample(position: Position, dice: Dice) -> None:
        seen["bar"] += position.bar[0] > 0
        seen["bearoff"] += any(s.to == 0 for p in legal_plays(position, dice) for s in p.steps)
        seen["closed_entry"] += position.bar[0] > 0 and any(n <= -2 for n in position.board[18:])
        plays: list[Play] = legal_plays(position, dice)
        seen["no_play"] += not plays
        seen["hit"] += any(s.hit for p in plays for s in p.steps)

    sample()
    assert all(n >= 10 for n in seen.values()), seen
