"""The documentation of the post-game analysis and the hint (docs/analysis.md), applied to
the views in matches/api/views/analysis.py as decorators."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from matches.api.contract import serializer_for
from matches.selectors.analysis_shapes import Hints, MatchAnalysis

from .common import AUTH, IDEMPOTENCY_KEY, MATCH_ID, errors

MATCH = "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11"
PLAYER = {
    "name": "Ana",
    "unforced": 152,
    "error_rate": 14.9,
    "pr": 7.45,
    "luck": 0.41,
    "checker_unforced": 148,
    "checker_error_rate": 15.2,
    "marks": {"doubtful": 6, "bad": 3, "very bad": 1},
    "result": 0.5,
    "luck_adjusted": 0.12,
}
DONE = OpenApiExample(
    "done",
    value={
        "match_id": MATCH,
        "status": "done",
        "engine": "network-0ply-950ca2a0e80c",
        "requested_at": "2026-05-01T12:40:01Z",
        "finished_at": "2026-05-01T12:40:04Z",
        "error": None,
        "games": [
            {
                "decisions": [
                    {
                        "player": 0,
                        "action": "move",
                        "dice": [3, 1],
                        "played": "24/21 6/5",
                        "best": "8/5 6/5",
                        "error": 0.112,
                        "mark": "bad",
                        "luck": 0.153,
                        "equity": 0.041,
                        "position_id": "4HPwATDgc/ABMA",
                        "board": None,
                    }
                ]
            }
        ],
        "players": [PLAYER, {**PLAYER, "name": "Ben"}],
    },
    response_only=True,
)
QUEUED = OpenApiExample(
    "queued",
    value={
        "match_id": MATCH,
        "status": "queued",
        "engine": None,
        "requested_at": "2026-05-01T12:40:01Z",
        "finished_at": None,
        "error": None,
        "games": None,
        "players": None,
    },
    response_only=True,
)
BODY = serializer_for(MatchAnalysis)

analysis_request = extend_schema(
    tags=["analysis"],
    operation_id="matches_analysis_request",
    summary="Ask for the post-game analysis of a finished match",
    description="Every decision of the match judged by the project's network as GNU"
    " Backgammon judges (docs/analysis.md): 202 with the analysis queued (or running), or"
    " 200 with it when it is made already. A Celery worker makes it (a 7-point match in a"
    " few seconds); read it with GET. Anyone who may read the match may ask (with a token);"
    " a failed analysis, or one made by an older network, is made again. A match still being"
    " played gets 409 `match_not_finished`. Finished rated matches are analysed by"
    " themselves (TAVLA_AUTO_ANALYSIS).",
    parameters=[MATCH_ID, IDEMPOTENCY_KEY],
    request=None,
    responses={
        200: OpenApiResponse(BODY, examples=[DONE]),
        202: OpenApiResponse(BODY, examples=[QUEUED]),
        **errors(
            "invalid_request",
            "match_not_found",
            "match_not_finished",
            *AUTH,
            "idempotency_key_reused",
            "throttled",
        ),
    },
)

analysis_read = extend_schema(
    tags=["analysis"],
    operation_id="matches_analysis_read",
    summary="The post-game analysis of a match: its status, and when done every decision",
    description="`status` queued, running, done or failed. When done: `games` (each"
    " decision in order: `player`, `action`, `dice`, `played`, `best`, `error`, `mark`,"
    " `luck` as `python -m games.bots analyse` prints them, and its `equity` and position:"
    " `position_id` in tavla, `board` in long nardy) and `players` (unforced decisions,"
    " error rate, PR, luck, marks). Whoever may read the match may read it. 404"
    " `no_analysis` for a match never asked to be analysed, and 409 `match_not_finished`"
    " while it is being played.",
    parameters=[MATCH_ID],
    responses={
        200: OpenApiResponse(BODY, examples=[DONE, QUEUED]),
        **errors("match_not_found", "no_analysis", "match_not_finished", "authentication_failed"),
    },
)

hint = extend_schema(
    tags=["analysis"],
    operation_id="matches_hint",
    summary="The best plays for the player on turn (top 5, with equities and errors)",
    description="The legal plays with the dice out ranked by the analysis's network, best"
    " first: each with its equity (EMG) and what it loses against the best. Only to a"
    " player of the match and only where hints are allowed (`settings.hints`): against the"
    " computer, in hot-seat, and in unrated matches created with `hints: true`; anywhere"
    " else (a rated match, a spectator) 403 `hints_not_allowed`. Before the roll (or once"
    " the match is over) `plays` is empty; while the opponent is to act, 409"
    " `not_your_turn`.",
    parameters=[MATCH_ID],
    responses={
        200: OpenApiResponse(
            serializer_for(Hints),
            examples=[
                OpenApiExample(
                    "hints",
                    value={
                        "match_id": MATCH,
                        "version": 14,
                        "dice": [3, 1],
                        "plays": [
                            {"play": "8/5 6/5", "equity": 0.153, "error": 0.0},
                            {"play": "24/21 6/5", "equity": 0.041, "error": 0.112},
                        ],
                    },
                    response_only=True,
                )
            ],
        ),
        **errors("match_not_found", "hints_not_allowed", "not_your_turn", *AUTH, "throttled"),
    },
)
