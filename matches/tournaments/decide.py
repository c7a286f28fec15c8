"""The tournament's commands as pure functions: a state in, the events that record the
decision out (or a TournamentRefused). The service will load the state, call one of these
under the tournament's lock, and append the events; replaying them gives the new state.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime

from . import knockout, swiss
from .events import (
    MatchResult,
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
from .refusals import TournamentRefused
from .settings import Format, TournamentSettings
from .state import Status, TournamentState, fold


def create(
    settings: TournamentSettings, clocks: Collection[str] = (), now: datetime | None = None
) -> TournamentCreated:
    settings.check(clocks, now)
    return TournamentCreated(settings)


def join(
    state: TournamentState, user_id: int, name: str, kind: str, now: datetime | None = None
) -> PlayerJoined:
    settings = _settings(state)
    if state.status != Status.UPCOMING:
        raise TournamentRefused("signup_closed")
    if now is not None and settings.signup_opens is not None and now < settings.signup_opens:
        raise TournamentRefused("signup_not_open", opens=settings.signup_opens.isoformat())
    if state.entrant(user_id) is not None:
        raise TournamentRefused("already_joined")
    if kind == "guest" and not settings.guests:
        raise TournamentRefused("guests_not_allowed")
    if len(state.entrants) >= settings.max_players:
        raise TournamentRefused("tournament_full", max=settings.max_players)
    return PlayerJoined(user_id, name, kind)


def leave(state: TournamentState, user_id: int, reason: str = "left") -> list[TournamentEvent]:
    """Before the start: off the list. Running: withdrawn, his unfinished match forfeited
    (the service also ends the match itself; its later result is then already recorded)."""
    if state.status == Status.UPCOMING:
        if state.entrant(user_id) is None:
            raise TournamentRefused("not_in_tournament")
        return [PlayerLeft(user_id)]
    if state.status != Status.RUNNING:
        raise TournamentRefused("tournament_over")
    if user_id not in state.players or user_id in state.withdrawn:
        raise TournamentRefused("not_in_tournament")
    events: list[TournamentEvent] = [PlayerWithdrawn(user_id, reason)]
    board = state.current.board_of(user_id) if state.current is not None else None
    if board is not None and not board.decided:
        a, b = board.players
        other = b if a == user_id else a
        winner = other if other not in state.withdrawn else None
        events.append(MatchResult(board.round, board.index, winner, (0, 0), "withdrawn"))
    return events


def start(state: TournamentState, ratings: Mapping[int, float]) -> list[TournamentEvent]:
    """At the start time: cancelled when too few joined, else seeded by rating (ties: who
    joined first) and the first round paired."""
    settings = _settings(state)
    if state.status != Status.UPCOMING:
        raise TournamentRefused("signup_closed")
    if len(state.entrants) < settings.min_players:
        return [TournamentCancelled("too_few_players", len(state.entrants))]
    order = sorted(
        range(len(state.entrants)),
        key=lambda i: (-ratings.get(state.entrants[i].user_id, 0.0), i),
    )
    seeds = tuple(
        Seed(state.entrants[i].user_id, float(ratings.get(state.entrants[i].user_id, 0.0)))
        for i in order
    )
    started = TournamentStarted(seeds)
    return [started, *advance(fold(state, started))]


def record_result(
    state: TournamentState,
    round_number: int,
    board: int,
    winner: int | None,
    score: tuple[int, int] = (0, 0),
    ended_by: str = "played",
) -> MatchResult:
    if state.status != Status.RUNNING:
        raise TournamentRefused(
            "not_started" if state.status == Status.UPCOMING else "tournament_over"
        )
    if not 1 <= round_number <= len(state.rounds) or not (
        0 <= board < len(state.rounds[round_number - 1].boards)
    ):
        raise TournamentRefused("no_such_board", round=round_number, board=board)
    found = state.rounds[round_number - 1].boards[board]
    if found.decided:
        raise TournamentRefused("board_decided")
    if winner is not None and winner not in found.players:
        raise TournamentRefused("not_on_board")
    return MatchResult(round_number, board, winner, score, ended_by)


def advance(state: TournamentState) -> list[TournamentEvent]:
    """What follows once the round being played is complete: the next round, or the end.
    Nothing while a match of the round is still on (or the tournament is not running)."""
    if state.status != Status.RUNNING or not state.round_complete:
        return []
    if state.format == Format.KNOCKOUT:
        if len(state.rounds) == state.total_rounds:
            return [_finished(state, knockout.standings(state), knockout.champion(state))]
        return [knockout.pair_round(state)]
    ranked = [s.user_id for s in swiss.standings(state)]
    if len(state.rounds) == state.total_rounds:
        return [_finished(state, ranked, ranked[0])]
    try:
        paired: RoundPaired = swiss.pair_round(state)
    except swiss.NoPairing:
        return [_finished(state, ranked, ranked[0], "no_pairing")]
    return [paired]


def _finished(
    state: TournamentState, ranked: list[int], winner: int | None, reason: str = "completed"
) -> TournamentFinished:
    return TournamentFinished(tuple(ranked), winner, reason)


def _settings(state: TournamentState) -> TournamentSettings:
    if state.settings is None:
        raise TournamentRefused("not_started")
    return state.settings
