"""The documentation of every operation: what the views' `@extend_schema` decorators say.

The views stay short; the words, examples and error lists of each operation are here, next to
each other, so the API's documentation reads as one text. Response bodies are the shapes'
serializers (matches/api/contract.py), so what is documented is what is rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from matches.api import requests as rq
from matches.api.bodies import (
    ApiIndex,
    Imported,
    Levels,
    MatchSummaryPage,
    MatExport,
    TokenResponse,
    User,
)
from matches.api.contract import serializer_for
from matches.selectors.shapes import (
    Boards,
    Events,
    Games,
    MatchState,
    MatchSummary,
    NextSteps,
    RulesPlays,
)

from .common import (
    AUTH,
    IDEMPOTENCY_KEY,
    MATCH_ID,
    READ_MATCH,
    TAVLA_LAG,
    WRITE,
    WRITE_HEADERS,
    errors,
)
from .examples import state_example

Decorator = Callable[[Any], Any]

STATE_200 = OpenApiResponse(serializer_for(MatchState), examples=[state_example()])
INVITE_CODE = OpenApiParameter("code", str, OpenApiParameter.PATH, description="Invite code.")
PAGE = serializer_for(MatchSummaryPage)
CURSOR = [
    OpenApiParameter("cursor", str, description="The page to read (from `next`/`previous`)."),
    OpenApiParameter("limit", int, description="Matches per page (at most 100; default 50)."),
]

# -- accounts -------------------------------------------------------------------------------------

TOKEN_EXAMPLE = OpenApiExample(
    "token",
    value={
        "token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
        "user": {"id": 7, "username": "ana", "display_name": "Ana", "kind": "registered"},
    },
    response_only=True,
)

signup = extend_schema(
    tags=["accounts"],
    operation_id="auth_signup",
    summary="Register a player (or a bot account) and get its token",
    description="Creates the account and returns its API token (201). `bot: true` makes a"
    " bot account for a third-party program: it plays through the same endpoints.\n\n"
    "**A guest signs up keeping his matches:** sent with a guest's token, the call turns"
    " that guest account into the registered (or bot) account it describes: same id, same"
    " token, every match and seat kept; 200. A registered or bot account's token gets 409"
    " `already_registered`. Matches keep the name a player had when he sat down"
    " (`players[].username`); his display name and kind follow the account.",
    request=rq.SignupSerializer,
    responses={
        200: OpenApiResponse(
            serializer_for(TokenResponse),
            description="The guest of the token is now this account (matches kept).",
            examples=[TOKEN_EXAMPLE],
        ),
        201: OpenApiResponse(serializer_for(TokenResponse), examples=[TOKEN_EXAMPLE]),
        **errors(
            "invalid_request",
            "parse_error",
            "unsupported_media_type",
            "authentication_failed",
            "already_registered",
            "throttled",
        ),
    },
    examples=[
        OpenApiExample(
            "player",
            value={"username": "ana", "password": "a long secret", "display_name": "Ana"},
            request_only=True,
        ),
        OpenApiExample(
            "bot",
            value={"username": "gnubot", "password": "another secret", "bot": True},
            request_only=True,
        ),
    ],
)

login = extend_schema(
    tags=["accounts"],
    operation_id="auth_login",
    summary="Log in: exchange username and password for the account's token",
    request=rq.LoginSerializer,
    responses={
        200: OpenApiResponse(serializer_for(TokenResponse), examples=[TOKEN_EXAMPLE]),
        **errors(
            "invalid_request",
            "invalid_credentials",
            "parse_error",
            "unsupported_media_type",
            "throttled",
            "too_many_attempts",
        ),
    },
    description="Each login issues a new token (the account may hold several: one per"
    " client). After `AXES_FAILURE_LIMIT` wrong passwords for one username, or from one"
    " address, login is locked for `AXES_COOLOFF_MINUTES`: 429 `too_many_attempts` with"
    " `Retry-After` (README Limits).",
    examples=[
        OpenApiExample(
            "login", value={"username": "ana", "password": "a long secret"}, request_only=True
        )
    ],
)

logout = extend_schema(
    tags=["accounts"],
    operation_id="auth_logout",
    summary="Log out: delete the token (every client using it is signed out)",
    description='`{"everywhere": true}`: every token of the account (every client signed'
    " out at once). No body: only the token sent.",
    request=rq.LogoutSerializer,
    responses={
        204: OpenApiResponse(description="Signed out."),
        **errors(*AUTH, "invalid_request", "parse_error"),
    },
)

guest = extend_schema(
    tags=["accounts"],
    operation_id="auth_guest",
    summary="Play as a guest: one call returns a token for a new guest account",
    description="No registration: the guest keeps playing as long as it keeps the token.",
    request=rq.GuestSerializer,
    responses={
        201: OpenApiResponse(
            serializer_for(TokenResponse),
            examples=[
                OpenApiExample(
                    "guest",
                    value={
                        "token": "4c1e0c0f3b0bd8f1a0f3e6d7c2b9a8e7f6d5c4b3",
                        "user": {
                            "id": 8,
                            "username": "guest-3f9a1c2b7d",
                            "display_name": "Marko",
                            "kind": "guest",
                        },
                    },
                    response_only=True,
                )
            ],
        ),
        **errors("invalid_request", "parse_error", "unsupported_media_type", "throttled"),
    },
    examples=[OpenApiExample("guest", value={"display_name": "Marko"}, request_only=True)],
)

me = extend_schema(
    tags=["accounts"],
    operation_id="me",
    summary="The account this token belongs to",
    responses={
        200: OpenApiResponse(
            serializer_for(User),
            examples=[
                OpenApiExample(
                    "me", value={"id": 7, "username": "ana", "display_name": "Ana", "kind": "bot"}
                )
            ],
        ),
        **errors(*AUTH),
    },
)

api_index = extend_schema(
    tags=["documentation"],
    operation_id="api_index",
    summary="Where things are: the API's sections and its documentation",
    responses={200: serializer_for(ApiIndex)},
)

# -- lists and creation ---------------------------------------------------------------------------

matches_mine = extend_schema(
    tags=["lobby"],
    operation_id="matches_mine",
    summary="My matches (newest first), filtered by status, mode, whose turn",
    parameters=[rq.MatchListQuerySerializer, *CURSOR],
    responses={200: PAGE, **errors("invalid_request", "not_found", *AUTH)},
)

matches_create = extend_schema(
    tags=["matches"],
    operation_id="matches_create",
    summary="Create a match: online (challenge or invite), hot-seat, or vs the computer",
    description="Online matches wait for an opponent: listed as an open challenge"
    " (`open_challenge`, default) and/or joined with the invite code shown in"
    " `lobby.invite_code`. Hot-seat and computer matches start at once (the opening roll"
    " is made by the server). The clock defaults to the site's preset online.",
    request=rq.MatchCreateSerializer,
    parameters=[IDEMPOTENCY_KEY],
    responses={
        201: OpenApiResponse(
            serializer_for(MatchState),
            description="The new match, from your side. Header Location: its URL.",
            examples=[state_example("created")],
        ),
        **errors(
            "invalid_request",
            "parse_error",
            "unsupported_media_type",
            "idempotency_key_reused",
            "throttled",
            *AUTH,
        ),
    },
    examples=[
        OpenApiExample(
            "online 5 points with cube",
            value={"mode": "online", "length": 5, "cube": True, "clock": "site"},
            request_only=True,
        ),
        OpenApiExample(
            "vs the computer",
            value={"mode": "computer", "level": "random", "length": 3},
            request_only=True,
        ),
        OpenApiExample(
            "long nardy online, 3 points",
            value={"game": "long-nardy", "mode": "online", "length": 3, "clock": "site"},
            request_only=True,
        ),
        OpenApiExample(
            "money play, hot-seat",
            value={"mode": "hotseat", "length": 0, "cube": True, "jacoby": True},
            request_only=True,
        ),
        OpenApiExample(
            "custom clock",
            value={
                "mode": "online",
                "length": 7,
                "clock": {"delay": 8, "reserve": 90, "max_move": 45, "reconnect": 60},
            },
            request_only=True,
        ),
    ],
)

matches_challenges = extend_schema(
    tags=["lobby"],
    operation_id="matches_challenges",
    summary="Open challenges: online matches waiting for anyone to accept (join)",
    description="Each with its clock (`settings.clock`) and whether it is rated"
    " (`settings.rated`: a custom clock shorter than the rated minimum makes a match"
    " unrated), for the joiner to see before he joins.",
    parameters=[rq.ChallengeQuerySerializer, *CURSOR],
    responses={200: PAGE, **errors("invalid_request", "not_found", "authentication_failed")},
)

matches_live = extend_schema(
    tags=["lobby"],
    operation_id="matches_live",
    summary="Live matches: public matches being played now (to spectate)",
    parameters=[rq.LiveQuerySerializer, *CURSOR],
    responses={200: PAGE, **errors("invalid_request", "not_found", "authentication_failed")},
)

# -- one match ------------------------------------------------------------------------------------

match_state = extend_schema(
    tags=["matches"],
    operation_id="matches_state",
    summary="The state of a match from your side",
    description="Board in your orientation (your checkers positive, your point numbers),"
    " dice, whose turn, what you may do now, the legal plays, cube, Crawford, score, clock,"
    " version (also the ETag), result, gnubg Position ID and Match ID. Anyone may read a"
    " public match (spectators see it from seat 0 or `?seat=`).",
    parameters=[MATCH_ID, rq.StateQuerySerializer],
    responses={200: STATE_200, **errors("invalid_request", *READ_MATCH, *AUTH)},
)


def command(
    name: str,
    summary: str,
    description: str,
    rules_errors: tuple[str, ...],
    request: type,
    example: dict[str, Any] | None,
) -> Decorator:
    """The documentation of an action on a match (roll, play, double, ...)."""
    return extend_schema(
        tags=["play"],
        operation_id=f"matches_{name.replace('-', '_')}",
        summary=summary,
        description=description
        + " Returns the new state. Only a player seated in the match may do this.",
        request=request,
        parameters=[MATCH_ID, *WRITE_HEADERS, TAVLA_LAG],
        responses={200: STATE_200, **errors(*WRITE, *rules_errors, "out_of_time")},
        examples=[
            OpenApiExample(name, value=example or {"expected_version": 12}, request_only=True)
        ],
    )


matches_join = extend_schema(
    tags=["lobby"],
    operation_id="matches_join",
    summary="Accept an open challenge (or a rematch offered to you)",
    description="Takes the free seat; the opening roll follows at once. Invite-only"
    " matches are joined with POST /invites/{code}/join.",
    request=rq.JoinSerializer,
    parameters=[MATCH_ID, IDEMPOTENCY_KEY],
    responses={
        200: STATE_200,
        **errors(
            "invalid_request",
            "parse_error",
            "unsupported_media_type",
            *AUTH,
            "invite_required",
            "match_not_found",
            "match_full",
            "idempotency_key_reused",
            "throttled",
        ),
    },
    examples=[OpenApiExample("join", value={}, request_only=True)],
)

invite = extend_schema(
    tags=["lobby"],
    operation_id="invites_read",
    summary="The match an invite code (or link) belongs to",
    description="Its settings say its clock (`settings.clock`) and whether it is rated"
    " (`settings.rated`), before the invited player joins.",
    parameters=[INVITE_CODE],
    responses={
        200: serializer_for(MatchSummary),
        **errors("match_not_found", "authentication_failed"),
    },
)

invite_join = extend_schema(
    tags=["lobby"],
    operation_id="invites_join",
    summary="Join a match with its invite code",
    request=rq.JoinSerializer,
    parameters=[INVITE_CODE, IDEMPOTENCY_KEY],
    responses={
        200: STATE_200,
        **errors(
            "invalid_request",
            "parse_error",
            "unsupported_media_type",
            *AUTH,
            "invite_required",
            "match_not_found",
            "match_full",
            "idempotency_key_reused",
            "throttled",
        ),
    },
    examples=[OpenApiExample("join", value={"seat": 1}, request_only=True)],
)

rematch = extend_schema(
    tags=["lobby"],
    operation_id="matches_rematch",
    summary="Rematch: a new match with the same settings and players",
    description="Hot-seat and computer rematches start at once. Online: the new match"
    " waits for the old opponent (offered to him only); if he asked for the rematch"
    " first, this joins it. The old match's `lobby.rematch` points to the new one, and"
    " its event stream gets a `rematch_offered` event (`seat`, `match_id`), so a client"
    " following the old match (long-poll or push) learns of the offer at once.",
    request=None,
    parameters=[MATCH_ID, IDEMPOTENCY_KEY],
    responses={
        200: OpenApiResponse(serializer_for(MatchState), description="Joined the rematch."),
        201: OpenApiResponse(serializer_for(MatchState), description="The new match."),
        **errors(
            "invalid_request",  # a malformed Idempotency-Key
            *AUTH,
            "not_a_player",
            "match_not_found",
            "invite_required",
            "match_full",
            "illegal_action",
            "idempotency_key_reused",
            "payload_too_large",
            "throttled",
        ),
    },
)


def tavla_board(points: str) -> dict[str, Any]:
    """An example tavla board (nothing on the bar or off) from its 24 points, written in a line."""
    zero = {"you": 0, "opponent": 0}
    return {
        "points": [int(n) for n in points.split()],
        "bar": zero,
        "off": dict(zero),
        "heads": None,
    }


next_steps = extend_schema(
    tags=["play"],
    operation_id="matches_legal_next_steps",
    summary="Legal next steps of a partial play (the player on turn's numbering)",
    description="For clients that move one checker at a time (undo stays on the client):"
    " given the single-die steps made so far, which steps may come next, and the board and"
    " pips after them (a client draws the partial play from `board`, never applying steps"
    " itself). An empty `next_steps` with `complete: true` means the play can be confirmed.",
    parameters=[MATCH_ID, rq.NextStepsQuerySerializer],
    responses={
        200: OpenApiResponse(
            serializer_for(NextSteps),
            examples=[
                OpenApiExample(
                    "after 24/21 with 3-1",
                    value={
                        "steps_so_far": [{"from": 24, "to": 21, "hit": False}],
                        "next_steps": [
                            {"from": 24, "to": 23, "hit": False},
                            {"from": 21, "to": 20, "hit": False},
                            {"from": 8, "to": 7, "hit": False},
                            {"from": 6, "to": 5, "hit": False},
                        ],
                        "complete": False,
                        "dice_to_use": 2,
                        "board": tavla_board("-2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 1 0 0 1"),
                        "pips": {"you": 164, "opponent": 167},
                    },
                )
            ],
        ),
        **errors(
            "invalid_request",
            "invalid_notation",
            "match_not_found",
            "illegal_play",
            "illegal_action",
            "authentication_failed",
        ),
    },
)

heartbeat = extend_schema(
    tags=["play"],
    operation_id="matches_heartbeat",
    summary="Say you are still connected to a match",
    description="A seated player of an online match with a clock who makes no request on"
    " the match (state, events long-poll, an action, or this) for longer than the clock's"
    " `reconnect` seconds loses the match by forfeit. Clients that do not long-poll send"
    " this every few seconds. Nothing is written to the match's history.",
    request=None,
    parameters=[MATCH_ID],
    responses={
        204: OpenApiResponse(description="Seen."),
        **errors("match_not_found", "not_a_player", *AUTH),
    },
)

# -- history: events, export, import --------------------------------------------------------------

events = extend_schema(
    tags=["matches"],
    operation_id="matches_events",
    summary="The match's events after a sequence number, with long-poll",
    description="Events with seq > `after`, oldest first. With `wait` (seconds, at most"
    " 30) and nothing new, the request waits until an event arrives or the time is up"
    " (then `events` is empty). Clients loop with `after` = the last seq they saw. Open"
    " long-polls and streams are capped per client and per server (429"
    " `too_many_streams` with `Retry-After`; README Limits).\n\n"
    "`data` is the event's payload (seats are 0 and 1). After the end of a match two more"
    " types may arrive: `rematch_offered` (`seat`: who asked, `match_id`: the new match)"
    " and `marked_unrated` (`reason`: staff took the match out of the ratings; it may come"
    " before the end too), neither of which changes anything in the game.",
    parameters=[MATCH_ID, rq.EventsQuerySerializer],
    responses={
        200: OpenApiResponse(
            serializer_for(Events),
            examples=[
                OpenApiExample(
                    "a roll and a play",
                    value={
                        "version": 6,
                        "events": [
                            {
                                "seq": 5,
                                "type": "rolled",
                                "at": "2026-05-01T12:01:00+00:00",
                                "data": {"seat": 1, "dice": [6, 4]},
                            },
                            {
                                "seq": 6,
                                "type": "moved",
                                "at": "2026-05-01T12:01:09+00:00",
                                "data": {
                                    "seat": 1,
                                    "steps": [[24, 18, 0], [18, 14, 0]],
                                    "notation": "24/14",
                                },
                            },
                        ],
                    },
                ),
                OpenApiExample(
                    "a rematch offered after the end",
                    value={
                        "version": 88,
                        "events": [
                            {
                                "seq": 88,
                                "type": "rematch_offered",
                                "at": "2026-05-01T12:40:02+00:00",
                                "data": {
                                    "seat": 0,
                                    "match_id": "5f0c6a8e-2d4b-4f0e-9a51-0c3b7d9e1f22",
                                },
                            },
                        ],
                    },
                ),
            ],
        ),
        **errors("invalid_request", "match_not_found", "authentication_failed", "too_many_streams"),
    },
)

BOARDS_EXAMPLE = {
    "version": 6,
    "seat": 0,
    "plays": [
        {
            "seq": 6,
            "seat": 1,
            "boards": [
                tavla_board("-1 0 0 0 0 5 -1 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2"),
                tavla_board("-1 0 0 0 0 5 0 3 0 0 -1 -5 5 0 0 0 -3 0 -5 0 0 0 0 2"),
            ],
        }
    ],
}

boards = extend_schema(
    tags=["matches"],
    operation_id="matches_boards",
    summary="The match's plays drawn step by step: the board after each step",
    description="Every `moved` event with seq > `after` (up to the match's version), with"
    " the board after each of its steps, seen from `seat` (default: the caller's own seat,"
    " else seat 0). A client animating a play checker by checker, or showing a record,"
    " draws these boards and never applies steps itself.",
    parameters=[MATCH_ID, rq.BoardsQuerySerializer],
    responses={
        200: OpenApiResponse(
            serializer_for(Boards),
            examples=[OpenApiExample("one play of 6-4, seen by seat 0", value=BOARDS_EXAMPLE)],
        ),
        **errors("invalid_request", "match_not_found", "authentication_failed"),
    },
)

MAT_EXAMPLE = " 3 point match\n\n Game 1\n ana : 0   ben : 0\n  1) 31: 8/5 6/5 ..."

export = extend_schema(
    tags=["matches"],
    operation_id="matches_export",
    summary="Export the match as a gnubg .mat file (text/plain, or JSON with ?format=json)",
    description="The Jellyfish/gnubg .mat text, seat 0 in the left column, as a download"
    " (`text/plain`). With `?format=json` (or `Accept: application/json`) the same text"
    " inside a JSON object. Tavla only: a long nardy match gets 400"
    " `no_mat_for_long_nardy` (its history is GET /matches/{id}/events).",
    parameters=[
        MATCH_ID,
        OpenApiParameter("format", str, enum=["mat", "json"], description="Default: mat."),
    ],
    responses={
        (200, "text/plain"): OpenApiResponse(
            str,
            description="The .mat text.",
            examples=[OpenApiExample("mat", value=MAT_EXAMPLE)],
        ),
        (200, "application/json"): OpenApiResponse(serializer_for(MatExport)),
        **errors(
            "match_not_found",
            "authentication_failed",
            "not_found",
            "not_acceptable",
            "no_mat_for_long_nardy",
        ),
    },
)

import_mat = extend_schema(
    tags=["matches"],
    operation_id="matches_import",
    summary="Import a gnubg .mat file as a finished match for review",
    description="Send the file as multipart (`file`), as a text/plain body, or as JSON"
    ' `{"text": ...}`. Every move is checked by the rules: a bad file is refused with'
    " the game, move and reason, and nothing is stored. Tavla only (`game: long-nardy`:"
    " 400 `no_mat_for_long_nardy`).",
    request={
        "multipart/form-data": rq.ImportSerializer,
        "application/json": rq.ImportSerializer,
        "text/plain": str,
    },
    parameters=[IDEMPOTENCY_KEY],
    responses={
        201: serializer_for(Imported),
        **errors(
            "invalid_request",
            "invalid_match_file",
            "no_mat_for_long_nardy",
            "parse_error",
            "unsupported_media_type",
            *AUTH,
            "idempotency_key_reused",
            "payload_too_large",
            "throttled",
        ),
    },
)

# -- the stateless rules service ------------------------------------------------------------------

_OPENING_21_BOARD = [-2, 0, 0, 0, 1, 4, 0, 3, 0, 0, 1, -5, 4, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]

legal_plays = extend_schema(
    tags=["rules"],
    operation_id="rules_legal_plays",
    summary="Legal plays of a position and a roll",
    description="Every distinct legal play of the player on roll (as gnubg lists them):"
    " notation, single-die steps and the resulting position (Position ID with the"
    " opponent on roll, and the board from the mover's side). An empty list: the roll"
    " cannot be played. Paged: `limit` (default 200, at most 1,000) plays from `offset`;"
    " `total` says how many there are. Rate-limited (`API_THROTTLE_RULES`).",
    parameters=[rq.RulesPlaysPageSerializer],
    responses={
        200: OpenApiResponse(
            serializer_for(RulesPlays),
            examples=[
                OpenApiExample(
                    "opening 2-1 (first of 15 plays)",
                    value={
                        "game": "tavla",
                        "position_id": "4HPwATDgc/ABMA",
                        "dice": [2, 1],
                        "plays": [
                            {
                                "notation": "13/11 6/5",
                                "steps": [
                                    {"from": 13, "to": 11, "hit": False},
                                    {"from": 6, "to": 5, "hit": False},
                                ],
                                "position_id": "4HPwATDgc/ABMA",
                                "board": {
                                    "points": _OPENING_21_BOARD,
                                    "bar": {"you": 0, "opponent": 0},
                                    "off": {"you": 0, "opponent": 0},
                                    "heads": None,
                                },
                            }
                        ],
                        "total": 15,
                    },
                )
            ],
        ),
        **errors(
            "invalid_request",
            "invalid_id",
            "invalid_position",
            "invalid_dice",
            "authentication_failed",
            "throttled",
        ),
    },
)

rules_next_steps = extend_schema(
    tags=["rules"],
    operation_id="rules_legal_next_steps",
    summary="Legal next steps of a partial play in any position",
    parameters=[rq.RulesNextStepsQuerySerializer],
    responses={
        200: OpenApiResponse(
            serializer_for(NextSteps),
            examples=[
                OpenApiExample(
                    "opening 3-1 after 8/5",
                    value={
                        "steps_so_far": [{"from": 8, "to": 5, "hit": False}],
                        "next_steps": [
                            {"from": 24, "to": 23, "hit": False},
                            {"from": 8, "to": 7, "hit": False},
                            {"from": 6, "to": 5, "hit": False},
                            {"from": 5, "to": 4, "hit": False},
                        ],
                        "complete": False,
                        "dice_to_use": 2,
                        "board": tavla_board("-2 0 0 0 1 5 0 2 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2"),
                        "pips": {"you": 164, "opponent": 167},
                    },
                )
            ],
        ),
        **errors(
            "invalid_request",
            "invalid_id",
            "invalid_position",
            "invalid_dice",
            "invalid_notation",
            "illegal_play",
            "authentication_failed",
        ),
    },
)

rules_games = extend_schema(
    tags=["rules"],
    operation_id="rules_games",
    summary="The games and their boards' facts",
    description="Every game the site plays (the `game` of a match) with what a client needs"
    " to draw and explain its board: the bar or the heads, which way the opponent moves, the"
    " starting points, how many checkers close a point, the head and wall rules, the cube,"
    " and the names of the results. From the rules engine's own games (games/rules).",
    responses={
        200: OpenApiResponse(
            serializer_for(Games),
            examples=[
                OpenApiExample(
                    "long nardy",
                    value={
                        "games": [
                            {
                                "game": "long-nardy",
                                "title": "long nardy",
                                "bar": False,
                                "heads": [24, 12],
                                "direction": "same",
                                "start": [*([0] * 11), -15, *([0] * 11), 15],
                                "closed_by": 1,
                                "head_rule": True,
                                "wall": 6,
                                "cube": False,
                                "backgammons": False,
                                "gnubg_ids": False,
                                "opening_dice_played": False,
                                "resign_values": [1, 2],
                                "results": ["oyn", "mars"],
                            }
                        ]
                    },
                )
            ],
        ),
        **errors("authentication_failed"),
    },
)

levels = extend_schema(
    tags=["rules"],
    operation_id="rules_levels",
    summary="The computer's levels of a game, weakest first",
    parameters=[rq.GameQuerySerializer],
    responses={
        200: OpenApiResponse(
            serializer_for(Levels),
            examples=[
                OpenApiExample(
                    "long nardy",
                    value={
                        "game": "long-nardy",
                        "levels": ["random", "heuristic"],
                        "default": "heuristic",
                    },
                )
            ],
        ),
        **errors("invalid_request", "authentication_failed"),
    },
)
