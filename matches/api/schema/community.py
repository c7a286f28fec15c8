"""The documentation of the community operations (issue 28: chat, follows, blocks, direct
challenges, reports), applied to matches/api/views/community.py as decorators. The socket's
side (chat pushes, `say`/`kibitz` actions, the challenge notices) is docs/realtime.md."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema

from matches.api import requests as rq
from matches.api.contract import serializer_for
from matches.selectors import community as shapes

from .common import AUTH, IDEMPOTENCY_KEY, MATCH_ID, errors

NAME = OpenApiParameter(
    "name", str, OpenApiParameter.PATH, description="The player's username (any case)."
)
CHALLENGE_ID = OpenApiParameter(
    "challenge_id", str, OpenApiParameter.PATH, description="The challenge's id (a UUID)."
)
ANA = {"name": "ana", "display_name": "Ana"}
BEN = {"name": "ben", "display_name": "Ben"}
MATCH = "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11"
LINE = {
    "id": 41,
    "match": MATCH,
    "channel": "say",
    "author": ANA,
    "text": "good game so far",
    "quick": None,
    "created_at": "2026-05-01T12:00:00Z",
}
QUICK_LINE = {**LINE, "id": 42, "text": None, "quick": "well_played"}
CHALLENGE = {
    "id": "5d0f6d5e-8a43-4f4c-9a59-2c3f0a3e7b21",
    "from": ANA,
    "to": BEN,
    "settings": {"game": "tavla", "length": 5, "cube": True, "rated": True},
    "status": "pending",
    "match": None,
    "created_at": "2026-05-01T12:00:00Z",
    "expires_at": "2026-05-01T12:01:00Z",
}
WRITE_ERRORS = ("invalid_request", "parse_error", "unsupported_media_type", *AUTH, "throttled")


def _ok(shape: type, status: int = 200, **examples: object) -> dict[int, OpenApiResponse]:
    return {
        status: OpenApiResponse(
            serializer_for(shape),
            examples=[
                OpenApiExample(name, value=value, response_only=True)
                for name, value in examples.items()
            ],
        )
    }


chat_read = extend_schema(
    tags=["chat"],
    operation_id="matches_chat_read",
    summary="A match's chat: the lines after an id",
    description="In id order, those with id > `after` (at most 1000: ask again after the"
    " last). `say` lines: whoever may read the match. Kibitz (the spectators' lines):"
    " spectators always; a player only with `kibitz=true`, and never while a rated match is"
    " being played (after it ends he may). A page that reconnects asks after the last id it"
    " has: it gets exactly what it missed. New lines are pushed on the WebSocket"
    " (docs/realtime.md, `chat`).",
    parameters=[MATCH_ID, rq.ChatQuerySerializer],
    responses={
        **_ok(shapes.ChatMessages, messages={"messages": [LINE, QUICK_LINE]}),
        **errors("invalid_request", "match_not_found", "authentication_failed", "throttled"),
    },
)

chat_say = extend_schema(
    tags=["chat"],
    operation_id="matches_chat_say",
    summary="Say a line in a match's chat (players: say; spectators: kibitz)",
    description="A text (1-300 characters once trimmed, no control or bidi override"
    " characters) or a quick message's code. Shown as text everywhere, never as HTML. Rate"
    " limited per user (`API_THROTTLE_CHAT`, 20 a minute, HTTP and socket together).",
    request=rq.ChatPostSerializer,
    parameters=[MATCH_ID, IDEMPOTENCY_KEY],
    examples=[
        OpenApiExample("text", value={"channel": "say", "text": "good luck!"}, request_only=True),
        OpenApiExample("quick", value={"channel": "say", "quick": "thanks"}, request_only=True),
    ],
    responses={
        **_ok(shapes.ChatMessage, 201, text=LINE),
        **errors(
            *WRITE_ERRORS,
            "invalid_message",
            "not_a_player",
            "permission_denied",
            "chat_muted",
            "chat_banned",
            "blocked",
            "match_not_found",
            "idempotency_key_reused",
        ),
    },
)


def _relation(op: str, summary: str, shape: type, value: dict[str, bool]) -> Any:
    return extend_schema(
        tags=["players"],
        operation_id=op,
        summary=summary,
        request=None,
        parameters=[NAME],
        responses={
            **_ok(shape, state=value),
            **errors("invalid_request", *AUTH, "blocked", "not_found", "throttled"),
        },
    )


follow = _relation(
    "players_follow",
    "Follow a player (refused between blocked players)",
    shapes.Following,
    {"following": True},
)
unfollow = _relation(
    "players_unfollow", "Stop following a player", shapes.Following, {"following": False}
)
block = _relation(
    "players_block",
    "Block a player: no chat, no challenge, no pairing, not seen online; unfollows both ways",
    shapes.Blocking,
    {"blocked": True},
)
unblock = _relation("players_unblock", "Unblock a player", shapes.Blocking, {"blocked": False})

following = extend_schema(
    tags=["players"],
    operation_id="me_following",
    summary="The players you follow: online now (a socket open), and the match each plays",
    description="`online`: he has a WebSocket open (seen within 15 s); `playing`: a public"
    " online match he plays now. A player who blocked you is shown offline and not playing.",
    responses={
        **_ok(
            shapes.FriendList,
            friends={"players": [{**BEN, "online": True, "playing": MATCH}]},
        ),
        **errors(*AUTH),
    },
)

blocked = extend_schema(
    tags=["players"],
    operation_id="me_blocked",
    summary="The players you block",
    responses={**_ok(shapes.PersonList, blocked={"players": [BEN]}), **errors(*AUTH)},
)

challenges_read = extend_schema(
    tags=["challenges"],
    operation_id="challenges_list",
    summary="Your pending direct challenges: to you and from you",
    responses={
        **_ok(shapes.Challenges, pending={"incoming": [], "outgoing": [CHALLENGE]}),
        **errors(*AUTH),
    },
)

challenge_create = extend_schema(
    tags=["challenges"],
    operation_id="challenges_create",
    summary="Challenge a player by name to an online match with these settings",
    description="The settings are those of POST /matches (an online match; you sit on seat"
    " 0). He hears it on his socket (a `notification` of kind `challenge`,"
    " docs/realtime.md) and accepts or declines within 60 s; then it expires.",
    request=rq.ChallengeCreateSerializer,
    parameters=[IDEMPOTENCY_KEY],
    examples=[
        OpenApiExample(
            "5 points", value={"to": "ben", "length": 5, "cube": True}, request_only=True
        )
    ],
    responses={
        **_ok(shapes.Challenge, 201, pending=CHALLENGE),
        **errors(
            *WRITE_ERRORS,
            "blocked",
            "play_banned",
            "not_found",
            "challenge_pending",
            "idempotency_key_reused",
        ),
    },
)


def _answer(op: str, summary: str, value: dict[str, object], *extra: str) -> Any:
    return extend_schema(
        tags=["challenges"],
        operation_id=op,
        summary=summary,
        request=None,
        parameters=[CHALLENGE_ID],
        responses={
            **_ok(shapes.Challenge, answered=value),
            **errors(*AUTH, "not_found", "challenge_not_pending", "throttled", *extra),
        },
    )


challenge_accept = _answer(
    "challenges_accept",
    "Accept a challenge to you: the match is made with both of you seated (`match`)",
    {**CHALLENGE, "status": "accepted", "match": MATCH},
    "blocked",
    "play_banned",
    "idempotency_key_reused",
)
challenge_decline = _answer(
    "challenges_decline", "Decline a challenge to you", {**CHALLENGE, "status": "declined"}
)
challenge_cancel = _answer(
    "challenges_cancel", "Cancel your own challenge", {**CHALLENGE, "status": "cancelled"}
)

report = extend_schema(
    tags=["players"],
    operation_id="reports_create",
    summary="Report a player to staff: a chat line of his, a match, or just him",
    description="Staff read reports in the admin, with the lines around the reported one,"
    " and may mute the player, ban him from chat or play; every staff action is kept in an"
    " audit log.",
    request=rq.ReportSerializer,
    parameters=[IDEMPOTENCY_KEY],
    examples=[
        OpenApiExample(
            "a line", value={"player": "ben", "message": 41, "reason": "abuse"}, request_only=True
        )
    ],
    responses={
        **_ok(shapes.ReportReceipt, 201, open={"id": 7, "status": "open"}),
        **errors(*WRITE_ERRORS, "not_found", "match_not_found", "idempotency_key_reused"),
    },
)
