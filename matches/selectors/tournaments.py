"""The reads of tournaments (GET /tournaments, /tournaments/{id}, /tournaments/{id}/standings):
the shapes of their bodies and the functions that build them from the state folded from the
tournament's events (matches/services/tournaments.py `load`)."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from django.contrib.auth import get_user_model

from matches.store.models import Match
from matches.store.tournament_models import Tournament
from matches.tournaments import knockout, swiss
from matches.tournaments.settings import Format, TournamentSettings
from matches.tournaments.state import TournamentState

from .shapes import Game

TournamentStatus = Literal["upcoming", "running", "finished", "cancelled"]
TOURNAMENT_STATUSES = typing.get_args(TournamentStatus)
TournamentFormat = Literal["knockout", "swiss"]
EndedBy = Literal["played", "forfeit", "timeout", "resigned", "withdrawn"]
LISTED = 100  # tournaments per list


@dataclass(frozen=True, slots=True)
class TournamentSettingsShape:
    """What the tournament is played with (fixed at creation)."""

    name: str
    game: Game
    format: TournamentFormat
    length: Annotated[int, "The match length of every round."]
    final_length: Annotated[int | None, "Knockout only: the final's length (null: the same)."]
    rounds: Annotated[int | None, "Swiss only: the number of rounds."]
    clock: Annotated[str, "The clock preset of every match."]
    rated: bool
    guests: Annotated[bool, "Guests may join (unrated tournaments only)."]
    min_players: int
    max_players: int
    signup_opens: Annotated[datetime | None, "Null: open from creation."]
    starts_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    id: UUID
    name: str
    game: Game
    format: TournamentFormat
    status: TournamentStatus
    starts_at: datetime
    players: Annotated[int, "Signed up (before the start) or in the field (after it)."]
    max_players: int
    rated: bool
    length: int
    round: Annotated[int, "Rounds paired so far."]
    winner: Annotated[str | None, "The winner's username, once finished."]


@dataclass(frozen=True, slots=True)
class TournamentList:
    tournaments: list[TournamentSummary]


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    user_id: int
    username: str
    kind: str
    seed: Annotated[int | None, "From the start: 1 is the top seed."]
    rating: Annotated[float | None, "The rating the seeding used."]
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class BoardResult:
    winner: Annotated[int | None, "The winner's user id (null: both lost)."]
    score: Annotated[list[int], "The match score, in the board's order."]
    ended_by: EndedBy


@dataclass(frozen=True, slots=True)
class TournamentBoard:
    """One pairing of a round: two players, a bye (one) or empty (none)."""

    index: int
    players: Annotated[list[int | None], "User ids; [a, null] is a bye."]
    usernames: list[str | None]
    match: Annotated[UUID | None, "Its match: GET /matches/{id} (null: a bye)."]
    match_status: Annotated[str | None, "The match's status (waiting, active, finished...)."]
    result: BoardResult | None


@dataclass(frozen=True, slots=True)
class TournamentRound:
    number: int
    length: int
    complete: bool
    boards: list[TournamentBoard]


@dataclass(frozen=True, slots=True)
class TournamentDetail:
    id: UUID
    status: TournamentStatus
    version: Annotated[int, "The number of events of the tournament's stream."]
    settings: TournamentSettingsShape
    players: Annotated[list[TournamentPlayer], "In seed order after the start; else as joined."]
    rounds: list[TournamentRound]
    total_rounds: Annotated[int | None, "How many rounds it has (known from the start)."]
    winner: Annotated[int | None, "The winner's user id, once finished."]
    finish_reason: Annotated[str | None, "completed, no_pairing; cancelled: the reason."]
    joined: Annotated[bool, "You are in it (signed up, or in the field and not withdrawn)."]
    actions: Annotated[list[Literal["join", "leave"]], "What you may do now."]


@dataclass(frozen=True, slots=True)
class StandingRow:
    place: int
    user_id: int
    username: str
    points: Annotated[int, "Swiss: wins and byes; knockout: matches won."]
    buchholz: Annotated[int, "Swiss: the sum of the opponents' points (knockout: 0)."]
    opponents_buchholz: int
    rating: float
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class TournamentStandings:
    tournament: UUID
    final: Annotated[bool, "The tournament is finished: these are its final standings."]
    rows: list[StandingRow]


def listed(status: str | None) -> TournamentList:
    """Tournaments by status (none: every one), starting soonest first; finished ones latest
    first."""
    rows = Tournament.objects.select_related("winner")
    if status:
        rows = rows.filter(status=status)
    if status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        rows = rows.order_by("-starts_at")
    return TournamentList([_summary(row) for row in rows[:LISTED]])


def _summary(row: Tournament) -> TournamentSummary:
    settings = TournamentSettings.from_json(row.settings)
    return TournamentSummary(
        id=row.pk,
        name=row.name,
        game=settings.game,  # type: ignore[arg-type]
        format=settings.format,  # type: ignore[arg-type]
        status=row.status,
        starts_at=row.starts_at,
        players=row.players,
        max_players=settings.max_players,
        rated=settings.rated,
        length=settings.length,
        round=row.rounds_paired,
        winner=row.winner.get_username() if row.winner is not None else None,
    )


def detail(row: Tournament, state: TournamentState, user: object) -> TournamentDetail:
    settings = state.settings
    assert settings is not None
    names = _names(state)
    statuses = _match_statuses(state)
    you = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    if state.seeds:
        kinds = {e.user_id: e.kind for e in state.entrants}
        players = [
            TournamentPlayer(
                s.user_id,
                names.get(s.user_id, ""),
                kinds.get(s.user_id, "registered"),
                i,
                s.rating,
                s.user_id in state.withdrawn,
            )
            for i, s in enumerate(state.seeds, start=1)
        ]
        joined = you in state.players and you not in state.withdrawn
    else:
        players = [
            TournamentPlayer(e.user_id, e.name, e.kind, None, None, False) for e in state.entrants
        ]
        joined = state.entrant(you) is not None if you is not None else False
    actions: list[Literal["join", "leave"]] = []
    if you is not None and not state.is_over:
        if joined:
            actions.append("leave")
        elif state.status == "upcoming":
            actions.append("join")
    rounds = [
        TournamentRound(
            played.number,
            played.length,
            played.complete,
            [
                TournamentBoard(
                    b.index,
                    list(b.players),
                    [names.get(p) if p is not None else None for p in b.players],
                    UUID(b.match_id) if b.match_id else None,
                    statuses.get(b.match_id) if b.match_id else None,
                    BoardResult(
                        b.result.winner,
                        list(b.result.score),
                        b.result.ended_by,  # type: ignore[arg-type]
                    )
                    if b.result is not None
                    else None,
                )
                for b in played.boards
            ],
        )
        for played in state.rounds
    ]
    reason = None
    if state.finished is not None:
        reason = state.finished.reason
    elif state.cancelled is not None:
        reason = state.cancelled.reason
    return TournamentDetail(
        id=row.pk,
        status=str(state.status),  # type: ignore[arg-type]
        version=state.version,
        settings=_settings_shape(settings),
        players=players,
        rounds=rounds,
        total_rounds=state.total_rounds if state.seeds else None,
        winner=state.finished.winner if state.finished is not None else None,
        finish_reason=reason,
        joined=joined,
        actions=actions,
    )


def standings(row: Tournament, state: TournamentState) -> TournamentStandings:
    names = _names(state)
    ratings = state.ratings
    out: list[StandingRow] = []
    if state.seeds and state.format == Format.SWISS:
        for place, s in enumerate(swiss.standings(state), start=1):
            out.append(
                StandingRow(
                    place,
                    s.user_id,
                    names.get(s.user_id, ""),
                    s.points,
                    s.buchholz,
                    s.opponents_buchholz,
                    s.rating,
                    s.user_id in state.withdrawn,
                )
            )
    elif state.seeds:
        ranked = (
            list(state.finished.standings)
            if state.finished is not None
            else knockout.standings(state)
        )
        wins = dict.fromkeys(state.players, 0)
        for played in state.rounds:
            for board in played.boards:
                if board.winner is not None and board.winner in wins:
                    wins[board.winner] += 1
        for place, p in enumerate(ranked, start=1):
            out.append(
                StandingRow(
                    place, p, names.get(p, ""), wins[p], 0, 0, ratings[p], p in state.withdrawn
                )
            )
    return TournamentStandings(row.pk, state.status == "finished", out)


def _settings_shape(s: TournamentSettings) -> TournamentSettingsShape:
    return TournamentSettingsShape(
        name=s.name,
        game=s.game,  # type: ignore[arg-type]
        format=s.format,  # type: ignore[arg-type]
        length=s.length,
        final_length=s.final_length,
        rounds=s.rounds,
        clock=s.clock,
        rated=s.rated,
        guests=s.guests,
        min_players=s.min_players,
        max_players=s.max_players,
        signup_opens=s.signup_opens,
        starts_at=s.starts_at,
    )


def _names(state: TournamentState) -> dict[int, str]:
    names = {e.user_id: e.name for e in state.entrants}
    missing = [p for p in state.players if p not in names]
    if missing:
        users = get_user_model().objects.filter(pk__in=missing)
        names |= {u.pk: u.get_username() for u in users}
    return names


def _match_statuses(state: TournamentState) -> dict[str, str]:
    ids = [b.match_id for r in state.rounds for b in r.boards if b.match_id]
    rows = Match.objects.filter(pk__in=ids).values_list("pk", "status")
    return {str(pk): str(status) for pk, status in rows}
