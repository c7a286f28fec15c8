"""The documentation of the players', ratings' and quick pairing's operations (docs/ratings.md),
applied to the views in matches/api/views/players.py and seeks.py as decorators."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from matches.api import requests as rq
from matches.api.bodies import LeaderboardPage, RatingHistoryPage
from matches.api.contract import serializer_for
from matches.selectors.shapes import PlayerCard, Seek

from .common import AUTH, IDEMPOTENCY_KEY, errors
from .operations import PAGE

NAME = OpenApiParameter(
    "name", str, OpenApiParameter.PATH, description="The player's username (any case)."
)
SEEK_ID = OpenApiParameter("seek_id", str, OpenApiParameter.PATH, description="The seek's id.")
CURSOR = [
    OpenApiParameter("cursor", str, description="The page to read (from `next`/`previous`)."),
    OpenApiParameter("limit", int, description="Entries per page (at most 100; default 50)."),
]
OFFSET = [
    OpenApiParameter("offset", int, description="Entries to skip (rank - 1 of the first)."),
    OpenApiParameter("limit", int, description="Entries per page (at most 100; default 50)."),
]

ANA = {"username": "ana", "display_name": "Ana", "kind": "registered"}
BEN = {"username": "ben", "display_name": "Ben", "kind": "registered"}

player = extend_schema(
    tags=["players"],
    operation_id="players_read",
    summary="A player: his ratings and experience per game, his matches, his early exits",
    description="Ratings are FIBS ratings, one per game (docs/ratings.md); a game he has"
    " played no rated match in is not listed (he would start at 1500). `early_exits` counts"
    " the online matches he left before moving; quick pairing refuses a player with too"
    " many lately (`seek_refused_until`).",
    parameters=[NAME],
    responses={
        200: OpenApiResponse(
            serializer_for(PlayerCard),
            examples=[
                OpenApiExample(
                    "ana",
                    value={
                        **ANA,
                        "rated": True,
                        "ratings": [
                            {
                                "game": "tavla",
                                "rating": 1537.82,
                                "experience": 41,
                                "matches": 9,
                                "wins": 6,
                                "losses": 3,
                                "last_match_at": "2026-05-01T12:40:00Z",
                            }
                        ],
                        "matches": {
                            "finished": 12,
                            "won": 8,
                            "lost": 4,
                            "aborted": 1,
                            "playing": 0,
                        },
                        "early_exits": {
                            "aborted": 1,
                            "timeout": 0,
                            "forfeit": 0,
                            "recent": 0,
                            "seek_refused_until": None,
                        },
                        "joined": "2026-04-02T09:00:00Z",
                        "performance": [
                            {
                                "game": "tavla",
                                "matches": 2,
                                "unforced": 310,
                                "pr": 7.42,
                                "history": [
                                    {
                                        "match": "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11",
                                        "date": "2026-04-30T18:02:00Z",
                                        "pr": 8.9,
                                    },
                                    {
                                        "match": "5d1f0e0c-1a2b-4c3d-9e8f-7a6b5c4d3e2f",
                                        "date": "2026-05-01T12:40:00Z",
                                        "pr": 6.1,
                                    },
                                ],
                            }
                        ],
                    },
                )
            ],
        ),
        **errors("not_found", "authentication_failed"),
    },
)

player_matches = extend_schema(
    tags=["players"],
    operation_id="players_matches",
    summary="A player's finished matches, rated or not, newest first",
    description="Online matches and matches against the computer (not hot-seat), each as in"
    " the lists (`winner` is a seat: find his in `players`); each one's record is its"
    " events (GET /matches/{id}/events). A private match is listed only to its players and"
    " staff.",
    parameters=[NAME, rq.HistoryQuerySerializer, *CURSOR],
    responses={200: PAGE, **errors("invalid_request", "not_found")},
)

player_ratings = extend_schema(
    tags=["players"],
    operation_id="players_ratings",
    summary="A player's rating history: his rated matches, latest first",
    parameters=[NAME, rq.HistoryQuerySerializer, *CURSOR],
    responses={
        200: OpenApiResponse(
            serializer_for(RatingHistoryPage),
            examples=[
                OpenApiExample(
                    "one match",
                    value={
                        "next": None,
                        "previous": None,
                        "results": [
                            {
                                "match": "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11",
                                "game": "tavla",
                                "finished_at": "2026-05-01T12:40:00Z",
                                "opponent": BEN,
                                "opponent_rating": 1500.0,
                                "length": 5,
                                "won": True,
                                "rating_before": 1500.0,
                                "rating_after": 1522.36,
                                "change": 22.36,
                                "experience_before": 0,
                            }
                        ],
                    },
                )
            ],
        ),
        **errors("invalid_request", "not_found", "authentication_failed"),
    },
)

leaderboard = extend_schema(
    tags=["players"],
    operation_id="leaderboard",
    summary="The leaderboard of a game: registered players by rating, highest first",
    description="Registered players with at least one rated match in the game. `rank` is"
    " the position (ties keep the older account first).",
    parameters=[rq.GameQuerySerializer, *OFFSET],
    responses={
        200: OpenApiResponse(
            serializer_for(LeaderboardPage),
            examples=[
                OpenApiExample(
                    "top",
                    value={
                        "count": 2,
                        "next": None,
                        "previous": None,
                        "results": [
                            {
                                "rank": 1,
                                "player": ANA,
                                "rating": 1537.82,
                                "experience": 41,
                                "matches": 9,
                                "wins": 6,
                                "losses": 3,
                            },
                            {
                                "rank": 2,
                                "player": BEN,
                                "rating": 1477.64,
                                "experience": 5,
                                "matches": 1,
                                "wins": 0,
                                "losses": 1,
                            },
                        ],
                    },
                )
            ],
        ),
        **errors("invalid_request", "not_found", "authentication_failed"),
    },
)

SEEK_WAITING = {
    "id": "5d0f6d5e-8a43-4f4c-9a59-2c3f0a3e7b21",
    "status": "waiting",
    "game": "tavla",
    "length": 5,
    "cube": True,
    "clock": "site",
    "rating": 1537.82,
    "rating_min": None,
    "rating_max": None,
    "window": 100.0,
    "waited": 0.0,
    "expires_at": "2026-05-01T12:00:30Z",
    "match": None,
    "opponent": None,
    "computer": {"level": "network", "after": 60},
    "created_at": "2026-05-01T12:00:00Z",
}
SEEK_PAIRED = {
    **SEEK_WAITING,
    "status": "paired",
    "window": None,
    "waited": 7.5,
    "expires_at": None,
    "match": "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11",
    "opponent": BEN,
}

seek_create = extend_schema(
    tags=["quick pairing"],
    operation_id="seeks_create",
    summary="Quick pairing: seek an opponent of similar rating",
    description="Posts a seek for the settings given (game, length, cube, clock preset) and"
    " pairs it at once with the waiting seek of the same settings whose player's rating is"
    " closest within the window: +-100 points at first, 100 more every 10 s, anyone after"
    " 60 s (docs/ratings.md). Paired, the match has started for both (`match`: read it"
    " with GET /matches/{id}); else poll GET /seeks/{id} (every few seconds: a seek whose"
    " owner stops polling expires after 30 s). A new seek replaces your waiting one.",
    request=rq.SeekCreateSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        201: OpenApiResponse(
            serializer_for(Seek),
            description="The seek, waiting or already paired. Header Location: its URL.",
            examples=[
                OpenApiExample("waiting", value=SEEK_WAITING, response_only=True),
                OpenApiExample("paired at once", value=SEEK_PAIRED, response_only=True),
            ],
        ),
        **errors(
            "invalid_request",
            "parse_error",
            "unsupported_media_type",
            *AUTH,
            "seek_refused",
            "already_playing",
            "idempotency_key_reused",
            "throttled",
        ),
    },
    examples=[
        OpenApiExample(
            "5 points, cube, the site clock",
            value={"game": "tavla", "length": 5, "cube": True, "clock": "site"},
            request_only=True,
        ),
        OpenApiExample(
            "near my rating, or the computer after a minute",
            value={
                "length": 3,
                "rating_min": 1400,
                "rating_max": 1700,
                "computer": {"level": "network", "after": 60},
            },
            request_only=True,
        ),
    ],
)

seek_read = extend_schema(
    tags=["quick pairing"],
    operation_id="seeks_read",
    summary="Your seek: waiting, or paired with the match to play",
    description="Poll it every few seconds while `status` is waiting: each poll also says"
    " you are still there (else it expires after 30 s) and tries the pairing again when"
    " the window has widened. Only the seek's owner may read it.",
    parameters=[SEEK_ID],
    responses={
        200: OpenApiResponse(
            serializer_for(Seek),
            examples=[
                OpenApiExample("waiting", value=SEEK_WAITING),
                OpenApiExample("paired", value=SEEK_PAIRED),
            ],
        ),
        **errors("not_found", *AUTH),
    },
)

seek_cancel = extend_schema(
    tags=["quick pairing"],
    operation_id="seeks_cancel",
    summary="Withdraw your seek",
    description="A waiting seek is cancelled. One paired meanwhile is not: the answer shows"
    " it paired, with its match.",
    request=None,
    parameters=[SEEK_ID, IDEMPOTENCY_KEY],
    responses={
        200: OpenApiResponse(
            serializer_for(Seek),
            examples=[
                OpenApiExample(
                    "cancelled",
                    value={
                        **SEEK_WAITING,
                        "status": "cancelled",
                        "window": None,
                        "waited": 12.0,
                        "expires_at": None,
                    },
                )
            ],
        ),
        **errors("invalid_request", "not_found", *AUTH, "idempotency_key_reused", "throttled"),
    },
)
