"""Random tournaments played to the end: every round obeys the rules, whatever the results.

Hypothesis draws the format, the field (2-64), the Swiss's rounds and the results (and now and
then a player who leaves); small Swiss fields are checked against every possible pairing.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.tournaments import decide, knockout, swiss
from matches.tournaments.events import RoundPaired, event_from_payload
from matches.tournaments.state import Status, TournamentState, replay

from .helpers import Run, perfect_matchings
from .helpers import settings as tournament_settings


@dataclass(frozen=True)
class Plan:
    format: str
    players: int
    rounds: int | None
    seed: int
    leaving: float  # the chance a player leaves after a round


@st.composite
def plans(draw: st.DrawFn, largest: int = 64) -> Plan:
    fmt = draw(st.sampled_from(["swiss", "knockout"]))
    players = draw(st.integers(2, largest))
    rounds = draw(st.integers(1, min(players - 1, 9))) if fmt == "swiss" else None
    leaving = draw(st.sampled_from([0.0, 0.0, 0.02, 0.1]))
    return Plan(fmt, players, rounds, draw(st.integers(0, 2**32)), leaving)


def play(plan: Plan, check_pairing: bool = False) -> Run:
    rng = random.Random(plan.seed)
    run = Run(tournament_settings(plan.format, plan.players, rounds=plan.rounds))
    run.join(plan.players)
    run.start({u: float(rng.randrange(1000, 2000)) for u in range(1, plan.players + 1)})
    while not run.state.is_over:
        assert run.state.current is not None
        for board in run.state.current.boards:
            if not board.decided:
                winner = rng.choice([p for p in board.players if p is not None])
                run.add(decide.record_result(run.state, board.round, board.index, winner))
        for player in run.state.active:
            if rng.random() < plan.leaving:
                run.add(*decide.leave(run.state, player))
        if check_pairing:
            check_against_every_pairing(run.state)
        run.add(*decide.advance(run.state))
    return run


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans())
def test_every_round_pairs_each_player_still_in_once_and_no_pair_twice(plan: Plan) -> None:
    check_rounds(play(plan), plan)


@pytest.mark.parametrize(
    "plan",
    [
        Plan("swiss", 28, 24, 2, 0.0),  # deep into a small field: the search's bound taken
        Plan("swiss", 20, 17, 1, 0.05),
        Plan("swiss", 13, 12, 5, 0.1),
    ],
)
def test_a_swiss_played_almost_as_a_round_robin_is_still_paired_by_the_rules(plan: Plan) -> None:
    check_rounds(play(plan), plan)


def check_rounds(run: Run, plan: Plan) -> None:
    state = run.state
    assert state.status == Status.FINISHED
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    gone: set[int] = set()
    for event in run.events:
        if event.type == "player_withdrawn":
            gone.add(event.user_id)  # type: ignore[attr-defined]
        if not isinstance(event, RoundPaired):
            continue
        seated = [p for pair in event.boards for p in pair if p is not None]
        assert len(seated) == len(set(seated)), "a player on two boards"
        assert not set(seated) & gone, "a player who left was paired"
        pairs = [frozenset((a, b)) for a, b in event.boards if a is not None and b is not None]
        assert not set(pairs) & met, "a pair met twice"
        met |= set(pairs)
        round_byes = [a for a, b in event.boards if a is not None and b is None]
        byes += round_byes
        if plan.format == "swiss":
            assert set(seated) == set(state.players) - gone, "a player still in was left out"
            assert len(round_byes) == len(seated) % 2
    if plan.format == "swiss":
        assert len(byes) == len(set(byes)), "a second bye"
        assert len(state.rounds) == plan.rounds or state.finished.reason == "no_pairing"  # type: ignore[union-attr]
    else:
        assert len(state.rounds) == state.total_rounds == (plan.players - 1).bit_length()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans())
def test_replaying_the_stored_events_gives_the_state_folded_one_by_one(plan: Plan) -> None:
    run = play(plan)
    stored = [
        event_from_payload(e.type, json.loads(json.dumps(e.to_payload()))) for e in run.events
    ]
    assert stored == run.events
    assert replay(stored) == run.state
    halfway = len(run.events) // 2
    assert replay(stored[halfway:], replay(stored[:halfway])) == run.state


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans().filter(lambda p: p.format == "knockout"))
def test_the_knockout_winner_won_every_match_he_played(plan: Plan) -> None:
    state = play(plan).state
    assert state.finished is not None
    winner = state.finished.winner
    size = knockout.bracket_size(plan.players)
    first = state.rounds[0].boards
    byes = sorted(b.players[0] for b in first if b.is_bye)  # type: ignore[type-var]
    assert byes == sorted(state.players[: size - plan.players])  # the top seeds
    losses = {p: 0 for p in state.players}
    for played in state.rounds:
        for board in played.boards:
            for p in board.players:
                if p is not None and board.decided and board.winner != p:
                    losses[p] += 1
    if winner is not None:
        assert losses[winner] == 0
        assert state.finished.standings[0] == winner
        mine = [b for r in state.rounds for b in r.boards if winner in b.players]
        assert len(mine) == len(state.rounds)  # he played (or had a bye in) every round
    assert all(n <= 1 for n in losses.values())  # out at the first loss
    if not state.withdrawn:
        assert winner is not None and sum(losses.values()) == plan.players - 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans(largest=10).filter(lambda p: p.format == "swiss"))
def test_small_swiss_rounds_match_what_every_possible_pairing_allows(plan: Plan) -> None:
    """Before each round of a small Swiss: a pairing is found exactly when one exists, the bye
    is the lowest-ranked player who can take it, a round that can keep to the score groups
    does, and no pairing covers fewer points between its pairs."""
    play(plan, check_pairing=True)


def check_against_every_pairing(state: TournamentState) -> None:
    if state.status != Status.RUNNING or len(state.rounds) == state.total_rounds:
        return
    past = swiss.history(state)
    ranked = [s.user_id for s in swiss.standings(state) if s.user_id in set(state.active)]
    if len(ranked) < 2:
        return
    met = {frozenset((p, o)) for p in ranked for o in past.opponents[p]}

    def allowed(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met

    def pairings(bye: int | None) -> list[list[tuple[int, int]]]:
        return list(perfect_matchings([p for p in ranked if p != bye], allowed))

    if len(ranked) % 2:
        takers = [p for p in reversed(ranked) if p not in past.byes and pairings(p)]
    else:
        takers = [None] if pairings(None) else []  # type: ignore[list-item]
    try:
        pairs, bye = swiss.pair(ranked, past.points, past.opponents, past.byes)
    except swiss.NoPairing:
        assert not takers, "a pairing exists and was not found"
        return
    assert takers and bye == takers[0]
    spread = [
        sum(abs(past.points[a] - past.points[b]) for a, b in pairing) for pairing in pairings(bye)
    ]
    mine = sum(abs(past.points[a] - past.points[b]) for a, b in pairs)
    assert (mine == 0) == (min(spread) == 0)
    assert mine == min(spread)
