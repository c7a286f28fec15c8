"""The documented error responses (one example per error code) and the shared parameters
(If-Match, Idempotency-Key, the match id)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from matches.api.bodies import Error
from matches.api.contract import serializer_for
from matches.api.errors import ERRORS, error_body

_EXAMPLE_ERRORS: dict[str, tuple[str, Any]] = {
    "invalid_request": ("Some fields are missing or wrong: see detail.", {"length": ["..."]}),
    "parse_error": (
        "The request body could not be read: send valid JSON.",
        {"reason": "JSON parse error - Expecting value: line 1 column 1 (char 0)"},
    ),
    "invalid_notation": (
        "Cannot read 'x/y': write each move as from/to, like 24/18, bar/22* or 6/off.",
        None,
    ),
    "invalid_dice": ("Cannot read dice from '7'; write them like 31 or [3, 1].", None),
    "invalid_position": ("The player on roll has 14 checkers, not 15.", None),
    "invalid_id": ("'!' is not a Base64 character in '!!!!'.", None),
    "invalid_match_file": ("Line 3: cannot read 'hello'.", None),
    "invalid_version": ('If-Match must be a version number like "12".', None),
    "no_cube_in_long_nardy": ("Long nardy is played without the doubling cube.", None),
    "no_mat_for_long_nardy": (
        "The .mat format is for tavla only: long nardy matches are read as their events.",
        {"game": "long-nardy"},
    ),
    "invalid_credentials": ("Wrong username or password.", None),
    "not_authenticated": ("Sign in first: send your token as 'Authorization: Token <key>'.", None),
    "authentication_failed": ("Your token is not valid: sign in again.", None),
    "permission_denied": ("You may not do this.", None),
    "not_a_player": (
        "You do not play in this match: spectators can watch, not move.",
        None,
    ),
    "invite_required": ("This match is joined with its invite code only.", None),
    "not_found": ("There is nothing here.", None),
    "match_not_found": ("There is no match 0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11.", None),
    "method_not_allowed": ("This endpoint does not take that method.", None),
    "not_acceptable": ("This endpoint cannot answer in the format you asked for.", None),
    "version_conflict": (
        "The match is at version 14, not 12: reload it.",
        {"current_version": 14, "expected_version": 12},
    ),
    "match_full": ("This match already has two players.", None),
    "already_registered": (
        "This account is registered already: log out to sign up another.",
        None,
    ),
    "already_playing": (
        "You are playing an online match: finish it before seeking another.",
        None,
    ),
    "seek_refused": (
        "You left 3 matches before moving lately: quick pairing is closed to you until"
        " 2026-05-01 13:20 UTC.",
        {"early_exits": 3, "until": "2026-05-01T13:20:00+00:00"},
    ),
    "not_your_turn": ("It is not your turn.", None),
    "tournament_not_found": ("There is no tournament 4f0c2a9e-1b7d-4c55-9a51-3c2e0d1f8b20.", None),
    "tournament_refused": (
        "Sign-up for this tournament is closed.",
        {"reason": "signup_closed"},
    ),
    "match_not_finished": ("The match is not finished: it is analysed once it is over.", None),
    "hints_not_allowed": ("Hints are not given in this match.", None),
    "no_analysis": ("This match has not been analysed: ask for its analysis first.", None),
    "unsupported_media_type": ("This endpoint does not read that content type.", None),
    "illegal_play": (
        "Point 5 is closed by 2 of your opponent's checkers.",
        {"reason": "point 5 is closed by 2 of your opponent's checkers"},
    ),
    "illegal_action": (
        "You cannot double now: you have rolled, play your dice.",
        {"reason": "you cannot double now: you have rolled, play your dice"},
    ),
    "out_of_time": ("Time ran out for seat 0: the match is lost on time.", None),
    "rules_error": ("The rules do not allow this.", None),
    "idempotency_key_reused": (
        "This Idempotency-Key was already used for a different request: use a new key.",
        None,
    ),
    "throttled": ("Too many requests: wait a little and try again.", {"retry_after": 12}),
    "payload_too_large": ("The request is too large.", {"max_bytes": 262144}),
    "too_many_attempts": (
        "Too many failed sign-ins: wait a while and try again.",
        {"retry_after": 900},
    ),
    "too_many_streams": (
        "You have too many open connections: close one and try again.",
        {"retry_after": 5, "open": 8, "limit": 8},
    ),
    "store_error": ("The match store refused the write.", None),
    "events_are_immutable": ("Match events are append-only.", None),
    "server_error": ("Something went wrong on the server. Please try again later.", None),
    "service_unavailable": ("The service is unavailable just now: try again in a moment.", None),
    "invalid_message": ("A message may be at most 300 characters.", None),
    "chat_muted": (
        "You are muted in chat until 2026-05-01 13:20 UTC.",
        {"until": "2026-05-01T13:20:00Z"},
    ),
    "chat_banned": ("You are banned from chat until further notice.", {"until": None}),
    "blocked": ("This player is not available to you.", None),
    "play_banned": ("You are banned from play until further notice.", {"until": None}),
    "challenge_pending": (
        "You have challenged this player already: wait for the answer.",
        None,
    ),
    "challenge_not_pending": ("This challenge is expired already.", {"status": "expired"}),
}


def errors(*codes: str) -> dict[int, OpenApiResponse]:
    """Responses for these error codes, grouped by status, each code with its example."""
    by_status: dict[int, list[str]] = defaultdict(list)
    for code in codes:
        by_status[ERRORS[code][0]].append(code)
    out: dict[int, OpenApiResponse] = {}
    for status, group in sorted(by_status.items()):
        description = "; ".join(f"`{c}`: {ERRORS[c][1]}" for c in group)
        examples = [
            OpenApiExample(
                code,
                value=error_body(code, *_EXAMPLE_ERRORS[code]),
                status_codes=[str(status)],
                response_only=True,
            )
            for code in group
        ]
        out[status] = OpenApiResponse(
            serializer_for(Error), description=description, examples=examples
        )
    return out


AUTH = ("not_authenticated", "authentication_failed")
READ_MATCH = ("match_not_found",)
WRITE = (
    "invalid_request",
    "parse_error",
    "invalid_version",
    "unsupported_media_type",
    *AUTH,
    "not_a_player",
    "match_not_found",
    "version_conflict",
    "idempotency_key_reused",
    "payload_too_large",
    "throttled",
)

IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description='The version you decided on, e.g. "12" (the ETag of the state); a stale one'
    " gets 409 `version_conflict`. Or send `expected_version` in the body.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID). Repeating a request with the same key returns"
    " the first response (header `Idempotent-Replayed: true`) and writes nothing new.",
)
TAVLA_LAG = OpenApiParameter(
    "Tavla-Lag",
    int,
    OpenApiParameter.HEADER,
    required=False,
    description="The network lag your client measured (whole milliseconds, 0-60000: e.g."
    " half its last round trip). On a clocked match it is taken off the time your move is"
    " charged, within your lag quota (docs/clocks.md); other values are ignored.",
)
WRITE_HEADERS = [IF_MATCH, IDEMPOTENCY_KEY]

MATCH_ID = OpenApiParameter(
    "match_id", str, OpenApiParameter.PATH, description="The match's id (a UUID)."
)
