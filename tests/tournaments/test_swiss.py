"""The Swiss system's rules, case by case (tests/tournaments/test_properties.py: by chance)."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from matches.tournaments import swiss
from matches.tournaments.events import Seed
from matches.tournaments.settings import MAX_PLAYERS
from matches.tournaments.state import Board, Round, Status, TournamentState

from .helpers import Run, byes_of, higher_seed, pairs_of, perfect_matchings, settings


def thirteen_in_four_rounds() -> Run:
    run = Run(settings("swiss", 13, rounds=4))
    run.join(13)
    run.start()
    return run


def test_round_one_pairs_the_top_half_against_the_bottom_half_and_the_last_seed_sits_out() -> None:
    run = thirteen_in_four_rounds()
    assert pairs_of(run.state, 1) == [(1, 7), (2, 8), (3, 9), (4, 10), (5, 11), (6, 12)]
    assert byes_of(run.state, 1) == [13]
    assert run.state.rounds[0].boards[-1].players == (13, None)  # the bye is the last board


def test_the_second_round_pairs_within_score_groups_and_floats_one_from_the_odd_group() -> None:
    run = thirteen_in_four_rounds()
    run.play_round(higher_seed)  # 1-6 win, 13 had the bye: seven on 1 point, six on 0
    # The bye goes to the lowest-ranked player on 0 (12: Buchholz 1 like 7-11, lowest rating);
    # of the seven on one point 1-3 meet 4-6 and 13 floats down to meet the top of the zeros.
    assert byes_of(run.state, 2) == [12]
    assert pairs_of(run.state, 2) == [(1, 4), (2, 5), (3, 6), (13, 7), (8, 10), (9, 11)]


def test_thirteen_players_four_rounds_no_repeat_one_bye_each_fewest_floats() -> None:
    run = thirteen_in_four_rounds()
    scores: dict[int, int] = dict.fromkeys(range(1, 14), 0)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for number in range(1, 5):
        pairs = pairs_of(run.state, number)
        for a, b in pairs:
            assert frozenset((a, b)) not in met, f"{a} and {b} meet twice"
            met.add(frozenset((a, b)))
        (bye,) = byes_of(run.state, number)
        byes.append(bye)
        # the floats cover as few points as in any pairing of the round without a repeat
        # (one float from each odd group to the next; never a pair of the same score split)
        before = met - {frozenset(p) for p in pairs}
        spread = sum(abs(scores[a] - scores[b]) for a, b in pairs)
        others = sorted({p for pair in pairs for p in pair})
        fewest = min(
            sum(abs(scores[a] - scores[b]) for a, b in pairing)
            for pairing in perfect_matchings(others, _not_in(before))
        )
        assert spread == fewest
        assert all(abs(scores[a] - scores[b]) <= 1 for a, b in pairs)
        run.play_round(higher_seed)
        for board in run.state.rounds[number - 1].boards:
            if board.winner is not None:
                scores[board.winner] += 1
    assert len(set(byes)) == 4
    assert run.state.status == Status.FINISHED
    assert run.state.finished is not None and run.state.finished.reason == "completed"
    assert [s.points for s in swiss.standings(run.state)] == sorted(scores.values(), reverse=True)


def test_standings_by_points_then_buchholz_then_opponents_buchholz_then_rating() -> None:
    # 1 beat 2, 3 beat 4, 5 beat 6; then 1 beat 3, 2 beat 5, 6 beat 4
    rounds = [[(1, 2, 1), (3, 4, 3), (5, 6, 5)], [(1, 3, 1), (2, 5, 2), (6, 4, 6)]]
    ratings = {1: 1500.0, 2: 1500.0, 3: 1500.0, 4: 1900.0, 5: 1600.0, 6: 1500.0}
    table = swiss.standings(_with_history(rounds, ratings))
    rows = [(s.user_id, s.points, s.buchholz, s.opponents_buchholz) for s in table]
    # points: 1 has 2; 2, 3, 5, 6 have 1; 4 none. Buchholz: 2 met 1 and 5 (2 + 1 = 3), 3 met
    # 4 and 1 (0 + 2), 5 met 6 and 2 (1 + 1), 6 met 5 and 4 (1 + 0). 3 and 5 tie on Buchholz
    # and on their opponents' Buchholz (3: 4's 2 + 1's 2; 5: 6's 1 + 2's 3): 5's rating wins.
    assert rows == [
        (1, 2, 2, 5),
        (2, 1, 3, 4),
        (5, 1, 2, 4),
        (3, 1, 2, 4),
        (6, 1, 1, 4),
        (4, 0, 2, 3),
    ]


def test_each_tie_break_decides_only_when_the_ones_before_it_tie() -> None:
    # round 1: 1 beat 3, 2 beat 5, 4 beat 6; round 2: 1 beat 2, 6 beat 3, 5 beat 4
    rounds = [[(1, 3, 1), (2, 5, 2), (4, 6, 4)], [(1, 2, 1), (6, 3, 6), (5, 4, 5)]]
    ratings = {1: 1000.0, 2: 1000.0, 3: 2000.0, 4: 1900.0, 5: 1500.0, 6: 1950.0}
    rows = [
        (s.user_id, s.points, s.buchholz, s.opponents_buchholz)
        for s in swiss.standings(_with_history(rounds, ratings))
    ]
    # 1 leads on points with the least Buchholz; of the one-pointers 2 (Buchholz 3: met 5 and
    # 1) is ahead of 4 and 5 (2) with less opponents' Buchholz; 4 and 5 tie on Buchholz and 5's
    # opponents (2: 3, 4: 2) outweigh 4's (6: 1, 5: 2) though 4 is rated higher; 6 (Buchholz
    # 1) is behind all of them with a higher rating; 3 lost both.
    assert rows == [
        (1, 2, 1, 6),
        (2, 1, 3, 3),
        (5, 1, 2, 5),
        (4, 1, 2, 3),
        (6, 1, 1, 5),
        (3, 0, 3, 2),
    ]


def test_rating_breaks_a_tie_that_points_and_both_buchholz_leave() -> None:
    rounds = [[(1, 2, 1), (3, 4, 3)]]
    state = _with_history(rounds, {1: 1400.0, 2: 1500.0, 3: 1700.0, 4: 1500.0})
    assert [s.user_id for s in swiss.standings(state)] == [3, 1, 2, 4]


def test_a_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one() -> None:
    ranked = [1, 2, 3, 4, 5]
    points = {1: 2, 2: 1, 3: 1, 4: 1, 5: 1}
    opponents = {1: (2, 3), 2: (1,), 3: (1,), 4: (5,), 5: (4,)}
    _, bye = swiss.pair(ranked, points, opponents, byes={5})
    assert bye == 4


def test_the_bye_moves_up_when_the_lowest_would_leave_the_others_unpairable() -> None:
    ranked = [1, 2, 3, 4, 5]
    # 4 met 1, 2 and 5: with 5 out, 4 still has 3 to meet
    opponents = {1: (4,), 2: (4,), 3: (), 4: (1, 2, 5), 5: (4,)}
    pairs, bye = swiss.pair(ranked, dict.fromkeys(ranked, 0), opponents)
    assert bye == 5
    assert pairs == [(1, 2), (3, 4)]
    # 4 met 1, 2 and 3: with 5 out, nobody is left for 4, so the bye goes to 4
    opponents = {1: (4,), 2: (4,), 3: (4,), 4: (1, 2, 3), 5: ()}
    pairs, bye = swiss.pair(ranked, dict.fromkeys(ranked, 0), opponents)
    assert bye == 4
    assert len(pairs) == 2 and 4 not in {p for pair in pairs for p in pair}


def test_a_greedy_pairing_runs_into_a_dead_end_this_one_does_not() -> None:
    # Top down, 1 v 3 and 2 v 4 (top half against bottom half) leaves 5 and 6, who met.
    ranked = [1, 2, 3, 4, 5, 6]
    opponents = {1: (2,), 2: (1,), 3: (), 4: (), 5: (6,), 6: (5,)}
    pairs, bye = swiss.pair(ranked, dict.fromkeys(ranked, 0), opponents)
    assert bye is None
    assert len(pairs) == 3
    assert not {frozenset(p) for p in pairs} & {frozenset((1, 2)), frozenset((5, 6))}


def test_a_bracket_whose_players_all_met_floats_them_down() -> None:
    # 1 and 2 lead on 2 points but met: both float to the one-pointers, who pair among the rest
    ranked = [1, 2, 3, 4, 5, 6]
    points = {1: 2, 2: 2, 3: 1, 4: 1, 5: 0, 6: 0}
    opponents = {1: (2, 5), 2: (1, 6), 3: (6,), 4: (5,), 5: (1, 4), 6: (2, 3)}
    pairs, _ = swiss.pair(ranked, points, opponents)
    assert pairs == [(1, 3), (2, 4), (5, 6)]


def test_no_pairing_without_a_repeat_is_said_not_forced() -> None:
    # six players who met as the two sides of K3,3 in three rounds: the fourth has no pairing
    ranked = [1, 2, 3, 4, 5, 6]
    opponents = {1: (4, 5, 6), 2: (4, 5, 6), 3: (4, 5, 6), 4: (1, 2, 3), 5: (1, 2, 3), 6: (1, 2, 3)}
    with pytest.raises(swiss.NoPairing):
        swiss.pair(ranked, dict.fromkeys(ranked, 0), opponents)
    with pytest.raises(swiss.NoPairing):
        swiss.pair([1], {1: 0}, {})


def test_a_swiss_that_cannot_pair_a_round_ends_with_the_standings_of_the_rounds_played() -> None:
    run = Run(settings("swiss", 6, rounds=5))
    run.join(6)
    run.start()
    state = run.state
    # Rewrite history: K3,3 in three rounds (the seeding's own pairing aside, the fold accepts
    # any boards the events recorded).
    history = [[(1, 4), (2, 5), (3, 6)], [(1, 5), (2, 6), (3, 4)], [(1, 6), (2, 4), (3, 5)]]
    state = _with_history([[(a, b, a) for a, b in r] for r in history], state.ratings, state)
    from matches.tournaments import decide

    (finished,) = decide.advance(state)
    assert finished.type == "tournament_finished"
    assert finished.reason == "no_pairing"  # type: ignore[attr-defined]
    assert finished.standings[:3] == (1, 2, 3)  # type: ignore[attr-defined]


def test_pairing_is_deterministic() -> None:
    ranked = list(range(1, 41))
    points = {p: (p * 7) % 4 for p in ranked}
    ranked.sort(key=lambda p: -points[p])
    opponents = {p: tuple(q for q in ranked if q != p and (p * q) % 11 == 1) for p in ranked}
    first = swiss.pair(ranked, points, opponents)
    assert all(swiss.pair(list(ranked), dict(points), dict(opponents)) == first for _ in range(3))


def _with_history(
    rounds: list[list[tuple[int, int, int]]],
    ratings: dict[int, float],
    start: TournamentState | None = None,
) -> TournamentState:
    """A running Swiss whose rounds are `rounds` of (player, player, winner)."""
    from dataclasses import replace

    from matches.tournaments.events import MatchResult

    base = start or TournamentState(settings=settings("swiss", len(ratings), rounds=4))
    played = tuple(
        Round(
            n,
            tuple(
                Board(n, i, (a, b), result=MatchResult(n, i, w))
                for i, (a, b, w) in enumerate(boards)
            ),
            3,
        )
        for n, boards in enumerate(rounds, start=1)
    )
    seeds = tuple(Seed(p, r) for p, r in sorted(ratings.items(), key=lambda kv: (-kv[1], kv[0])))
    return replace(base, status=Status.RUNNING, seeds=seeds, rounds=played)


def _not_in(met: set[frozenset[int]]) -> Callable[[int, int], bool]:
    return lambda a, b: frozenset((a, b)) not in met


def test_the_largest_field_is_paired_round_after_round() -> None:
    run = Run(settings("swiss", MAX_PLAYERS, rounds=3, max_players=MAX_PLAYERS))
    run.join(MAX_PLAYERS)
    run.start()
    assert len(pairs_of(run.state, 1)) == MAX_PLAYERS // 2
    run.play_round(lambda board: board.players[1])  # upsets: the lower seed wins
    run.play_round(higher_seed)
    assert len(pairs_of(run.state, 3)) == MAX_PLAYERS // 2
    # nobody met twice
    met = [frozenset(p) for n in (1, 2, 3) for p in pairs_of(run.state, n)]
    assert len(met) == len(set(met))


def test_a_search_deeper_than_the_interpreters_stack_limit_still_pairs() -> None:
    # one call per choice: 1,000 players on the same score go 500 calls deep
    ranked = list(range(1, 1001))
    opponents = {p: (p + 1,) if p % 2 else (p - 1,) for p in ranked}  # 1-2, 3-4, ... met
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        pairs, bye = swiss.pair(ranked, dict.fromkeys(ranked, 0), opponents)
    finally:
        sys.setrecursionlimit(before)
    assert bye is None and len(pairs) == 500
    assert not {frozenset(p) for p in pairs} & {frozenset((p, p + 1)) for p in ranked[::2]}
