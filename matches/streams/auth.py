"""Who is on a WebSocket: the same token as over HTTP, in any form a client can send.

- `Authorization: Token <key>` (or `Bearer <key>`) on the upgrade request: any client but a
  browser;
- the subprotocols `tavla.v1` and `token.<key>` (browsers: `new WebSocket(url, ["tavla.v1",
  "token." + key])`; the server answers `tavla.v1`, never echoing the token);
- `?token=<key>` in the URL (easy; the web processes' logs show it as `token=[redacted]`,
  tavla_project/uvicorn_worker.py, but a proxy's may not: prefer the subprotocol).

No token at all: an anonymous client, who may watch public matches.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import AuthenticationFailed

from matches.api.authentication import TokenAuthentication

PROTOCOL = "tavla.v1"
TOKEN_PROTOCOL = "token."


def token_of(scope: dict[str, Any]) -> tuple[str | None, str | None]:
    """(token or None, subprotocol to answer or None)."""
    offered = list(scope.get("subprotocols") or [])
    answer = PROTOCOL if PROTOCOL in offered else None
    for proto in offered:
        if proto.startswith(TOKEN_PROTOCOL) and len(proto) > len(TOKEN_PROTOCOL):
            return proto[len(TOKEN_PROTOCOL) :], answer
    for name, value in scope.get("headers") or []:
        if name == b"authorization":
            parts = value.decode("latin-1").split()
            if len(parts) == 2 and parts[0].lower() in ("token", "bearer"):
                return parts[1], answer
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return query["token"][0], answer
    return None, answer


def user_of(token: str | None) -> Any:
    """The token's user; AnonymousUser without a token; None for a bad token."""
    if not token:
        return AnonymousUser()
    try:
        user, _ = TokenAuthentication().authenticate_credentials(token)
    except AuthenticationFailed:
        return None
    return user
