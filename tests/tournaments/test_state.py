"""The tournament folded from its events, the commands' refusals, and the events' JSON."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import pytest

from matches.tournaments import decide
from matches.tournaments.events import (
    EVENT_TYPES,
    MatchResult,
    PlayerJoined,
    RoundPaired,
    TournamentEvent,
    event_from_payload,
)
from matches.tournaments.refusals import TournamentRefused
from matches.tournaments.state import ReplayError, Status, TournamentState, fold, replay

from .helpers import START, Run, higher_seed, settings


def stored(event: TournamentEvent) -> TournamentEvent:
    """The event as the store will give it back: its payload through JSON."""
    return event_from_payload(event.type, json.loads(json.dumps(event.to_payload())))


def played_swiss() -> Run:
    run = Run(settings("swiss", 7, rounds=3, signup_opens=START - timedelta(days=1)))
    run.join(7)
    run.add(decide.leave(run.state, 3)[0])
    run.add(decide.join(run.state, 3, "player3", "registered"))
    run.add(decide.join(run.state, 8, "player8", "bot"))
    run.start({1: 1700, 2: 1650, 3: 1800, 4: 1500, 5: 1500, 6: 1400, 7: 1300, 8: 1000})
    run.play_round(higher_seed)
    run.add(*decide.leave(run.state, 2))
    run.play_out(higher_seed)
    return run


def test_every_event_type_survives_json() -> None:
    run = played_swiss()
    seen = {e.type for e in run.events}
    assert seen == set(EVENT_TYPES) - {"tournament_cancelled"}
    for event in run.events:
        assert stored(event) == event, event.type
    cancelled = decide.start(replay(run.events[:3]), {})
    assert [stored(e) for e in cancelled] == cancelled


def test_replaying_the_stored_events_gives_the_state_folded_one_by_one() -> None:
    run = played_swiss()
    assert replay(stored(e) for e in run.events) == run.state
    assert run.state.version == len(run.events)
    assert run.state.status == Status.FINISHED
    assert run.state.withdrawn == frozenset({2})
    # seeded by rating, ties by who joined first (4 before 5); 3 joined again after leaving
    assert run.state.players == (3, 1, 2, 4, 5, 6, 7, 8)
    assert [e.user_id for e in run.state.entrants] == [1, 2, 4, 5, 6, 7, 3, 8]
    # 2 withdrew once round 2 was paired: he lost that board by forfeit and was paired no more
    board = run.state.rounds[1].board_of(2)
    assert board is not None and board.result is not None
    assert board.result.ended_by == "withdrawn" and board.result.winner != 2
    assert all(2 not in b.players for r in run.state.rounds[2:] for b in r.boards)
    assert len(run.state.rounds) == 3


def test_a_round_is_complete_when_every_board_is_decided() -> None:
    run = Run(settings("swiss", 5, rounds=2))
    run.join(5)
    run.start()
    assert not run.state.round_complete
    assert decide.advance(run.state) == []  # nothing while matches are on
    current = run.state.current
    assert current is not None
    for board in current.boards[:-2]:
        run.add(decide.record_result(run.state, 1, board.index, higher_seed(board)))
    assert not run.state.round_complete
    last = current.boards[-2]
    run.add(decide.record_result(run.state, 1, last.index, higher_seed(last), (3, 1)))
    assert run.state.round_complete  # the bye was decided when it was paired
    (paired,) = decide.advance(run.state)
    assert isinstance(paired, RoundPaired) and paired.round == 2


def test_too_few_players_at_the_start_cancel_the_tournament() -> None:
    run = Run(settings("knockout", 4))
    run.join(3)
    run.start()
    assert run.state.status == Status.CANCELLED
    assert run.state.cancelled is not None
    assert (run.state.cancelled.reason, run.state.cancelled.players) == ("too_few_players", 3)
    assert run.state.rounds == ()


def test_the_commands_refuse_what_a_tournament_does_not_allow() -> None:
    opens = START - timedelta(days=1)
    run = Run(settings("knockout", 2, max_players=2, signup_opens=opens))

    def reason(command: object, *args: object, **kwargs: object) -> str:
        with pytest.raises(TournamentRefused) as caught:
            command(run.state, *args, **kwargs)  # type: ignore[operator]
        return caught.value.reason

    assert reason(decide.join, 1, "a", "registered", now=opens - timedelta(1)) == "signup_not_open"
    run.add(decide.join(run.state, 1, "a", "registered", now=opens))
    assert reason(decide.join, 1, "a", "registered") == "already_joined"
    assert reason(decide.leave, 9) == "not_in_tournament"
    assert reason(decide.record_result, 1, 0, 1) == "not_started"
    run.add(decide.join(run.state, 2, "b", "registered"))
    assert reason(decide.join, 3, "c", "registered") == "tournament_full"
    run.start()
    assert reason(decide.join, 3, "c", "registered") == "signup_closed"
    assert reason(decide.record_result, 1, 5, 1) == "no_such_board"
    assert reason(decide.record_result, 2, 0, 1) == "no_such_board"
    assert reason(decide.record_result, 1, 0, 3) == "not_on_board"
    run.add(decide.record_result(run.state, 1, 0, 2))
    assert reason(decide.record_result, 1, 0, 1) == "board_decided"
    run.add(*decide.advance(run.state))
    assert run.state.finished is not None and run.state.finished.winner == 2
    assert reason(decide.leave, 1) == "tournament_over"


def test_a_stream_that_cannot_be_true_is_refused_on_replay() -> None:
    run = Run(settings("knockout", 4))
    run.join(4)
    run.start()
    created, joined = run.events[0], run.events[1]
    with pytest.raises(ReplayError):
        replay([joined])  # nothing before the creation
    with pytest.raises(ReplayError):
        replay([created, created])
    with pytest.raises(ReplayError):
        fold(run.state, PlayerJoined(9, "late", "registered"))  # after the start
    with pytest.raises(ReplayError):
        fold(run.state, MatchResult(1, 7, 1))  # no such board
    with pytest.raises(ReplayError):
        fold(run.state, MatchResult(1, 0, 3))  # 3 is not on board 0 (1 v 4)
    decided = fold(run.state, MatchResult(1, 0, 1))
    with pytest.raises(ReplayError):
        fold(decided, MatchResult(1, 0, 4))  # a second result
    with pytest.raises(ReplayError):
        fold(decided, dataclasses.replace(run.events[-1]))  # round 1 again, while it is on
    with pytest.raises(ReplayError):
        fold(TournamentState(), RoundPaired(1, ((1, 2),), 3))


def test_a_newer_schema_version_is_refused() -> None:
    with pytest.raises(ValueError, match="newer"):
        event_from_payload("player_left", {"v": 2, "user_id": 1})
