"""A tournament rebuilt from its events: a pure fold, no database access.

The fold decides nothing: the seeding, the boards of every round and every result are read as
the events recorded them (the pairing modules decided them once, when they were written). It
does refuse a stream that cannot be true (a result for a board that does not exist, a second
result for the same board): that is corruption, not a rule to re-judge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .events import (
    MatchResult,
    Pair,
    PlayerJoined,
    PlayerLeft,
    PlayerWithdrawn,
    RoundPaired,
    Seed,
    TournamentCancelled,
    TournamentCreated,
    TournamentEvent,
    TournamentFinished,
    TournamentStarted,
)
from .settings import Format, TournamentSettings


class ReplayError(Exception):
    """The stream cannot be folded (an event out of place): data corruption."""


class Status(StrEnum):
    """What the list of tournaments filters on (GET /tournaments?status=)."""

    UPCOMING = "upcoming"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class Board:
    """One pairing of a round: its players, its match and, once it ended, its result."""

    round: int
    index: int
    players: Pair
    match_id: str | None = None
    result: MatchResult | None = None

    @property
    def is_bye(self) -> bool:
        return self.players[0] is not None and self.players[1] is None

    @property
    def is_empty(self) -> bool:
        return self.players[0] is None and self.players[1] is None

    @property
    def decided(self) -> bool:
        """A bye is a win at once; an empty board has nobody to decide."""
        return self.is_bye or self.is_empty or self.result is not None

    @property
    def winner(self) -> int | None:
        if self.is_bye:
            return self.players[0]
        return self.result.winner if self.result is not None else None

    @property
    def needs_match(self) -> bool:
        return not self.is_bye and not self.is_empty


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    boards: tuple[Board, ...]
    length: int

    @property
    def complete(self) -> bool:
        return all(b.decided for b in self.boards)

    def board_of(self, user_id: int) -> Board | None:
        for board in self.boards:
            if user_id in board.players:
                return board
        return None


@dataclass(frozen=True, slots=True)
class TournamentState:
    """Everything replay knows about a tournament after `version` events."""

    version: int = 0
    settings: TournamentSettings | None = None
    status: Status = Status.UPCOMING
    entrants: tuple[Entrant, ...] = ()  # signed up (and not left), in the order they joined
    seeds: tuple[Seed, ...] = ()  # from the start: the field, seed 1 first
    withdrawn: frozenset[int] = frozenset()
    rounds: tuple[Round, ...] = ()
    cancelled: TournamentCancelled | None = None
    finished: TournamentFinished | None = None

    @property
    def format(self) -> Format:
        if self.settings is None:
            raise ReplayError("the tournament has no settings: its stream has no creation")
        return Format(self.settings.format)

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def players(self) -> tuple[int, ...]:
        """The field in seed order (after the start), withdrawn players included."""
        return tuple(s.user_id for s in self.seeds)

    @property
    def active(self) -> tuple[int, ...]:
        """The players still in, in seed order."""
        return tuple(s.user_id for s in self.seeds if s.user_id not in self.withdrawn)

    @property
    def ratings(self) -> dict[int, float]:
        return {s.user_id: s.rating for s in self.seeds}

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def round_complete(self) -> bool:
        """Whether the round being played has every result (True before the first round)."""
        return self.current is None or self.current.complete

    @property
    def total_rounds(self) -> int:
        """How many rounds the tournament has: the Swiss's setting, or the knockout's bracket
        (known from the start)."""
        if self.format == Format.SWISS:
            assert self.settings is not None and self.settings.rounds is not None
            return self.settings.rounds
        return max(1, (len(self.seeds) - 1).bit_length())

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.CANCELLED)


def fold(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """The state after one more event."""
    return dataclasses.replace(state, version=state.version + 1, **_changes(state, event))


def replay(
    events: Iterable[TournamentEvent], start: TournamentState | None = None
) -> TournamentState:
    """Fold a stream of events, in order."""
    state = start or TournamentState()
    for event in events:
        state = fold(state, event)
    return state


def _changes(state: TournamentState, event: TournamentEvent) -> dict[str, Any]:
    if isinstance(event, TournamentCreated):
        if state.version:
            raise ReplayError("tournament_created is not the first event of the stream")
        return {"settings": event.settings}
    if state.settings is None:
        raise ReplayError(f"{event.type} before tournament_created")
    if isinstance(event, PlayerJoined):
        _expect(state, Status.UPCOMING, event)
        return {"entrants": (*state.entrants, Entrant(event.user_id, event.name, event.kind))}
    if isinstance(event, PlayerLeft):
        _expect(state, Status.UPCOMING, event)
        return {"entrants": tuple(e for e in state.entrants if e.user_id != event.user_id)}
    if isinstance(event, TournamentStarted):
        _expect(state, Status.UPCOMING, event)
        return {"status": Status.RUNNING, "seeds": event.seeds}
    if isinstance(event, TournamentCancelled):
        if state.is_over:
            raise ReplayError("tournament_cancelled after the end")
        return {"status": Status.CANCELLED, "cancelled": event}
    _expect(state, Status.RUNNING, event)
    if isinstance(event, RoundPaired):
        if event.round != len(state.rounds) + 1 or not state.round_complete:
            raise ReplayError(f"round {event.round} paired out of turn")
        ids = event.matches or (None,) * len(event.boards)
        boards = tuple(
            Board(event.round, i, pair, match_id)
            for i, (pair, match_id) in enumerate(zip(event.boards, ids, strict=True))
        )
        return {"rounds": (*state.rounds, Round(event.round, boards, event.length))}
    if isinstance(event, MatchResult):
        return {"rounds": _with_result(state.rounds, event)}
    if isinstance(event, PlayerWithdrawn):
        return {"withdrawn": state.withdrawn | {event.user_id}}
    if isinstance(event, TournamentFinished):
        return {"status": Status.FINISHED, "finished": event}
    raise ReplayError(f"unknown tournament event {event.type}")  # pragma: no cover


def _expect(state: TournamentState, status: Status, event: TournamentEvent) -> None:
    if state.status != status:
        raise ReplayError(f"{event.type} while the tournament is {state.status}")


def _with_result(rounds: tuple[Round, ...], result: MatchResult) -> tuple[Round, ...]:
    if not 1 <= result.round <= len(rounds):
        raise ReplayError(f"a result for round {result.round}, which was not paired")
    played = rounds[result.round - 1]
    if not 0 <= result.board < len(played.boards):
        raise ReplayError(f"a result for board {result.board} of round {result.round}")
    board = played.boards[result.board]
    if board.decided:
        raise ReplayError(f"a second result for board {result.board} of round {result.round}")
    if result.winner is not None and result.winner not in board.players:
        raise ReplayError(f"the winner {result.winner} did not play on that board")
    boards = list(played.boards)
    boards[result.board] = dataclasses.replace(board, result=result)
    changed = dataclasses.replace(played, boards=tuple(boards))
    return (*rounds[: result.round - 1], changed, *rounds[result.round :])
