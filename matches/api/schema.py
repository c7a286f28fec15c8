"""OpenAPI helpers: documented error responses (one example per error code), the shared
headers (If-Match, Idempotency-Key), and example payloads."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse

from .errors import ERRORS, error_body
from .serializers import ErrorSerializer

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
    "not_your_turn": ("It is not your turn.", None),
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
    "store_error": ("The match store refused the write.", None),
    "events_are_immutable": ("Match events are append-only.", None),
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
        out[status] = OpenApiResponse(ErrorSerializer, description=description, examples=examples)
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
WRITE_HEADERS = [IF_MATCH, IDEMPOTENCY_KEY]

MATCH_ID = OpenApiParameter(
    "match_id", str, OpenApiParameter.PATH, description="The match's id (a UUID)."
)

STATE_EXAMPLE = {
    "id": "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11",
    "version": 5,
    "status": "active",
    "settings": {
        "mode": "online",
        "length": 5,
        "cube": True,
        "crawford": True,
        "jacoby": False,
        "backgammon_value": 3,
        "next_game_starter": "opening_roll",
        "computer_level": None,
        "clock": {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60},
        "public": True,
    },
    "players": [
        {"seat": 0, "username": "ana", "display_name": "Ana", "kind": "registered"},
        {"seat": 1, "username": "guest-3f9a1c2b7d", "display_name": "Marko", "kind": "guest"},
    ],
    "side": {"seat": 0, "role": "player", "seats": [0]},
    "lobby": {
        "open_challenge": True,
        "invite_code": "K7MPQ2XD",
        "reserved_for": None,
        "rematch_of": None,
        "rematch": None,
        "imported": False,
    },
    "game": 1,
    "phase": "play",
    "board": {
        "points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
        "bar": {"you": 0, "opponent": 0},
        "off": {"you": 0, "opponent": 0},
    },
    "pips": {"you": 167, "opponent": 167},
    "dice": [3, 1],
    "turn": {"seat": 0, "who": "you"},
    "to_act": {"seat": 0, "who": "you"},
    "actions": ["play", "resign"],
    "legal_plays": [
        {
            "notation": "8/5 6/5",
            "steps": [{"from": 8, "to": 5, "hit": False}, {"from": 6, "to": 5, "hit": False}],
            "position_id": "4HPwATDgc/ABMA",
        }
    ],
    "cube": {"value": 1, "owner": None, "offered": False, "in_use": True},
    "crawford": {"rule": True, "crawford_game": False, "post_crawford": False},
    "score": {"you": 0, "opponent": 0, "seats": [0, 0], "length": 5},
    "resignation": None,
    "clock": None,
    "result": None,
    "games": [],
    "gnubg": {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkKAAAAAAAA"},
    "moves": 0,
    "created_at": "2026-05-01T12:00:00+00:00",
    "started_at": "2026-05-01T12:00:05+00:00",
    "finished_at": None,
}


def state_example(name: str = "state", **changes: Any) -> OpenApiExample:
    return OpenApiExample(name, value={**STATE_EXAMPLE, **changes}, response_only=True)


DESCRIPTION = """\
The REST API of tavla, a Balkan backgammon site: matches between players (online, hot-seat,
against the computer), their moves, and a stateless rules service.

**Authentication**: `Authorization: Token <key>` (or `Bearer <key>`), from `POST
/api/v1/auth/signup`, `/auth/login` or `/auth/guest`. Reads of public matches need no token.

**Writes** take the version you decided on (`If-Match: "12"` or `"expected_version": 12`; a
stale one gets 409 `version_conflict` with `detail.current_version`) and an optional
`Idempotency-Key` header (a repeat returns the first response, header `Idempotent-Replayed:
true`, and writes nothing).

**Errors** are JSON `{"code", "message", "detail"}`; `code` is stable:

| code | HTTP | meaning |
| --- | --- | --- |
"""


def add_error_table(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing hook: the table of every error code in info."""
    rows = "\n".join(f"| `{code}` | {status} | {text} |" for code, (status, text) in ERRORS.items())
    result.setdefault("info", {})["description"] = DESCRIPTION + rows + "\n"
    return result
