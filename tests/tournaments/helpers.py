"""Tournaments played on paper: created, joined, started and played to the end by a function
that picks each winner, every event folded as the service will fold them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from matches.tournaments import decide
from matches.tournaments.events import TournamentEvent
from matches.tournaments.settings import TournamentSettings
from matches.tournaments.state import Board, TournamentState, fold

START = datetime(2030, 1, 1, 18, 0, tzinfo=UTC)


def settings(
    fmt: str, players: int, rounds: int | None = None, **extra: object
) -> TournamentSettings:
    values: dict[str, object] = {
        "name": "Friday cup",
        "game": "tavla",
        "format": fmt,
        "length": 3,
        "clock": "site",
        "starts_at": START,
        "min_players": players,
        "max_players": max(players, 64),
        "rounds": rounds,
        **extra,
    }
    return TournamentSettings(**values)  # type: ignore[arg-type]


class Run:
    """A tournament and the events it wrote so far, folded one at a time."""

    def __init__(self, chosen: TournamentSettings) -> None:
        self.events: list[TournamentEvent] = []
        self.state = TournamentState()
        self.add(decide.create(chosen))

    def add(self, *events: TournamentEvent) -> None:
        for event in events:
            self.events.append(event)
            self.state = fold(self.state, event)

    def join(self, players: int) -> None:
        for user in range(1, players + 1):
            self.add(decide.join(self.state, user, f"player{user}", "registered"))

    def start(self, ratings: dict[int, float] | None = None) -> None:
        """Seeded by rating: by default player 1 has the highest, so user id = seed."""
        ratings = ratings or {e.user_id: 2000.0 - e.user_id for e in self.state.entrants}
        self.add(*decide.start(self.state, ratings))

    def play_round(self, winner: Callable[[Board], int | None]) -> None:
        """Every open board of the current round decided by `winner`, then what follows."""
        assert self.state.current is not None
        for board in self.state.current.boards:
            if not board.decided:
                number = board.round
                self.add(decide.record_result(self.state, number, board.index, winner(board)))
        self.add(*decide.advance(self.state))

    def play_out(self, winner: Callable[[Board], int | None]) -> None:
        while not self.state.is_over:
            self.play_round(winner)


def higher_seed(board: Board) -> int | None:
    """The player with the lower user id (the higher seed in Run.start's default ratings)."""
    return min(p for p in board.players if p is not None)


def pairs_of(state: TournamentState, number: int) -> list[tuple[int, int]]:
    return [
        (a, b)
        for a, b in (board.players for board in state.rounds[number - 1].boards)
        if a is not None and b is not None
    ]


def byes_of(state: TournamentState, number: int) -> list[int]:
    return [b.players[0] for b in state.rounds[number - 1].boards if b.is_bye and b.players[0]]


def perfect_matchings(
    players: list[int], allowed: Callable[[int, int], bool]
) -> Iterator[list[tuple[int, int]]]:
    """Every pairing of `players` (an even number) whose pairs are all allowed."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if allowed(first, other):
            for tail in perfect_matchings(rest[:i] + rest[i + 1 :], allowed):
                yield [(first, other), *tail]
