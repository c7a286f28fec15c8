"""A player's command sent on a WebSocket runs as the very HTTP request it stands for.

`{"type": "command", "match": M, "action": "play", "body": {...}, "expected_version": 12,
"idempotency_key": "k1"}` becomes `POST /api/v1/matches/M/play` with that JSON body,
`If-Match: "12"`, `Idempotency-Key: k1` and the socket's token, dispatched in this process
through the same URL and the same API view as over HTTP. So the socket gets the same state,
the same error codes, the same idempotency records (a key used over HTTP and then over the
socket for the same request is the same request) and the same version and permission rules,
by construction, whatever the views become.
"""

from __future__ import annotations

import io
import json
from typing import Any
from uuid import UUID

from django.core.handlers.wsgi import WSGIRequest
from django.urls import Resolver404, resolve

from matches.api.errors import ApiError, error_response

# The writes of one match a socket may send (the POST endpoints under /matches/{id}/).
ACTIONS = frozenset(
    {
        "join",
        "abort",
        "rematch",
        "roll",
        "play",
        "double",
        "take",
        "drop",
        "resign",
        "resign-match",
        "accept",
        "reject",
        "heartbeat",
    }
)
KEPT_HEADERS = ("ETag", "Location", "Idempotent-Replayed")


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
        headers: dict[str, str] = {}
        if expected_version is not None:
            if not isinstance(expected_version, int) or isinstance(expected_version, bool):
                raise ApiError(
                    "invalid_version", detail={"expected_version": [str(expected_version)[:40]]}
                )
            headers["HTTP_IF_MATCH"] = f'"{expected_version}"'
        if idempotency_key is not None:
            headers["HTTP_IDEMPOTENCY_KEY"] = str(idempotency_key)
        if token:
            headers["HTTP_AUTHORIZATION"] = f"Token {token}"
        request = _request(
            f"/api/v1/matches/{match}/{action}", json.dumps(body).encode(), headers, client
        )
        try:
            resolved = resolve(request.path_info)
        except Resolver404:  # pragma: no cover - every action has its route
            raise ApiError("not_found") from None
        response = resolved.func(request, *resolved.args, **resolved.kwargs)
    except ApiError as exc:  # refused before it became a request
        refusal = error_response(exc)
        assert refusal is not None
        return refusal.status_code, refusal.data, {}
    if hasattr(response, "render"):
        response.render()
    content = json.loads(response.content) if response.content else None
    kept = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
    return response.status_code, content, kept


def _request(
    path: str, body: bytes, headers: dict[str, str], client: tuple[str, int] | None
) -> WSGIRequest:
    host = client[0] if client else "127.0.0.1"
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "SERVER_NAME": "websocket",
        "SERVER_PORT": "0",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": host,
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        **headers,
    }
    return WSGIRequest(environ)
