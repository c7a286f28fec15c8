"""Response bodies only the API has (accounts, errors, pages, import, export): dataclasses,
rendered and documented through matches/api/contract.py like the reads' shapes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from matches.selectors.shapes import Game, LeaderboardEntry, MatchSummary, RatingEntry


@dataclass(frozen=True, slots=True)
class User:
    id: int
    username: str
    display_name: str
    kind: Literal["registered", "guest", "bot", "computer"]


@dataclass(frozen=True, slots=True)
class TokenResponse:
    token: Annotated[str, "Send as `Authorization: Token <token>`."]
    user: User


@dataclass(frozen=True, slots=True)
class Levels:
    game: Game
    levels: Annotated[list[str], "Weakest first."]
    default: Annotated[str, "The level a computer match of this game gets when it names none."]


@dataclass(frozen=True, slots=True)
class Error:
    """Every error: a stable code, a sentence in the caller's language, context."""

    code: Annotated[str, "Stable machine code (the table is in the description)."]
    message: Annotated[str, "A sentence a player understands, in his language."]
    detail: Annotated[
        Any | None,
        "Context; null when none. A refusal of the rules names its stable reason code in"
        " `rule` (e.g. `point_closed`).",
    ]


@dataclass(frozen=True, slots=True)
class MatchSummaryPage:
    """A page of a list, newest first; follow `next` for more."""

    next: Annotated[str | None, "The URL of the next page, or null."]
    previous: Annotated[str | None, "The URL of the previous page, or null."]
    results: list[MatchSummary]


@dataclass(frozen=True, slots=True)
class RatingHistoryPage:
    """A page of a player's rated matches, latest first; follow `next` for older ones."""

    next: Annotated[str | None, "The URL of the next page, or null."]
    previous: Annotated[str | None, "The URL of the previous page, or null."]
    results: list[RatingEntry]


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of the leaderboard, highest rating first."""

    count: Annotated[int, "Players on the leaderboard."]
    next: Annotated[str | None, "The URL of the next page, or null."]
    previous: Annotated[str | None, "The URL of the previous page, or null."]
    results: list[LeaderboardEntry]


@dataclass(frozen=True, slots=True)
class Imported:
    match: MatchSummary
    games: int
    final_score: list[int]
    winner: Annotated[int | None, "The seat that won (0: the file's left column)."]


@dataclass(frozen=True, slots=True)
class MatExport:
    """`GET /matches/{id}/export?format=json`: the .mat text inside JSON."""

    match_id: str
    filename: str
    mat: Annotated[str, "The Jellyfish/gnubg .mat text; seat 0 in the left column."]


@dataclass(frozen=True, slots=True)
class ApiIndex:
    """Where things are (GET /api/v1/)."""

    api: str
    schema: str
    docs: Annotated[str, "Swagger UI."]
    redoc: str
    matches: str
    rules: str
    leaderboard: str
    seeks: Annotated[str, "Quick pairing: POST a seek here."]
