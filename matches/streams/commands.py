"""A player's command sent on a WebSocket: the same answer as the HTTP request it stands for.

`{"type": "command", "match": M, "action": "play", "body": {...}, "expected_version": 12,
"idempotency_key": "k1"}` is answered as `POST /api/v1/matches/M/play` with that JSON body,
`If-Match: "12"`, `Idempotency-Key: k1` and the socket's token would be: the same view's
`answer` (which calls the same service) is called directly, after the same checks in the same
order (the token, the rate limits, the Idempotency-Key), with no HTTP request made up. So the
socket gets the same state, the same error codes and bodies, the same idempotency records (a
key used over HTTP and then over the socket for the same request is the same request: the
fingerprint is the POST's) and the same version and permission rules.
"""

from __future__ import annotations

import json
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions

from matches.api.authentication import TokenAuthentication
from matches.api.errors import ApiError, error_response
from matches.api.idempotency import fingerprint_of, keyed_write
from matches.api.views import commands as command_views
from matches.api.views import community as community_views
from matches.api.views import lobby as lobby_views

# The writes of one match a socket may send (the POST endpoints under /matches/{id}/).
WRITES: dict[str, Any] = {
    "join": lobby_views.JoinView,
    "abort": command_views.AbortView,
    "rematch": lobby_views.RematchView,
    "roll": command_views.RollView,
    "play": command_views.PlayView,
    "double": command_views.DoubleView,
    "take": command_views.TakeView,
    "drop": command_views.DropView,
    "resign": command_views.ResignView,
    "resign-match": command_views.ResignMatchView,
    "accept": command_views.AcceptView,
    "reject": command_views.RejectView,
    "heartbeat": command_views.HeartbeatView,
}
ACTIONS = frozenset(WRITES)
KEPT_HEADERS = ("ETag", "Location", "Idempotent-Replayed")


class _Caller:
    """What the rate limits look at in a request: the user, the method, the token."""

    method = "POST"

    def __init__(self, user: Any, auth: Any, client: tuple[str, int] | None) -> None:
        self.user = user
        self.auth = auth
        self.META = {"REMOTE_ADDR": client[0] if client else "127.0.0.1"}


def run_command(
    *,
    token: str | None,
    match_id: Any,
    action: Any,
    body: Any,
    expected_version: Any = None,
    idempotency_key: Any = None,
    client: tuple[str, int] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """(HTTP status, JSON body, kept headers) of the command, as the API answers it."""
    try:
        if not isinstance(action, str) or action not in ACTIONS:
            raise ApiError(
                "invalid_request",
                "Unknown action: send one of " + ", ".join(sorted(ACTIONS)) + ".",
                {"action": [str(action)[:40]]},
            )
        try:
            match = UUID(str(match_id))
        except ValueError:
            raise ApiError("match_not_found", "No such match.") from None
        if body is None:
            body = {}
        if not isinstance(body, dict):
            raise ApiError("invalid_request", "`body` must be a JSON object.", {"body": ["object"]})
        if_match = None
        if expected_version is not None:
            if not isinstance(expected_version, int) or isinstance(expected_version, bool):
                raise ApiError(
                    "invalid_version", detail={"expected_version": [str(expected_version)[:40]]}
                )
            if_match = f'"{expected_version}"'
        view = WRITES[action]
        # as DRF's `initial` would: who it is, that he is signed in, his rate
        user, auth = _authenticated(token)
        _check_throttles(view, _Caller(user, auth, client))
        path = f"/api/v1/matches/{match}/{action}"
        raw = json.dumps(body).encode()

        def handle() -> Any:
            return view.answer(user, str(match), body, if_match, None)

        if view.keyed:
            key = None if idempotency_key is None else str(idempotency_key)
            response = keyed_write(
                user,
                key,
                lambda: fingerprint_of("POST", path, raw),
                handle,
                atomic=view.atomic_write,
            )
        else:
            response = handle()
    except Exception as exc:
        refusal = error_response(exc)
        if refusal is None:
            raise
        response = refusal
    content = None if response.data is None else json.loads(json.dumps(response.data))
    kept = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
    return response.status_code, content, kept


def _authenticated(token: str | None) -> tuple[Any, Any]:
    """The token's user (401 `authentication_failed` for a bad one) or 401
    `not_authenticated` without a token: every write needs one."""
    if not token:
        raise exceptions.NotAuthenticated()
    if len(token.split()) != 1:  # as the Authorization header it stood for would be read
        raise exceptions.AuthenticationFailed("Send 'Authorization: Token <key>'.")
    user, auth = TokenAuthentication().authenticate_credentials(token)
    if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
        raise exceptions.NotAuthenticated()  # pragma: no cover - a token's user is a user
    return user, auth


def _check_throttles(view: Any, caller: _Caller) -> None:
    """The view's rate limits, as DRF's `check_throttles` applies them."""
    waits = []
    for throttle_class in view.throttle_classes:
        throttle = throttle_class()
        if not throttle.allow_request(caller, view):
            waits.append(throttle.wait())
    if waits:
        known = [w for w in waits if w is not None]
        raise exceptions.Throttled(max(known, default=None))


def run_chat(
    *, token: str | None, match_id: Any, body: dict[str, Any], client: tuple[str, int] | None
) -> tuple[int, Any]:
    """(HTTP status, JSON body) of a chat line sent on the socket (`say` / `kibitz`), as
    `POST /api/v1/matches/{id}/chat` answers it: the token, the chat rate limit, the view."""
    try:
        user, auth = _authenticated(token)
        _check_throttles(community_views.ChatView, _Caller(user, auth, client))
        response = community_views.ChatView.answer(user, str(match_id), body)
    except Exception as exc:
        refusal = error_response(exc)
        if refusal is None:
            raise
        response = refusal
    return response.status_code, json.loads(json.dumps(response.data))
