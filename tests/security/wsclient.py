"""Small helpers of the stream abuse tests: WebSockets from a loopback address of their own,
matches to follow and moves to push, against the deployed-like site."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .site import address, client

API = "/api/v1"


def ws(
    base: str, token: str | None = None, source: str | None = None, query: bool = False
) -> ClientConnection:
    """A WebSocket to `base`'s `/ws/v1/live` from `source` (a new loopback address by
    default), with the token as the web client sends it (or in the query string)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection(
        (host, int(port)), timeout=10, source_address=(source or address(), 0)
    )
    url = f"ws://{host}:{port}/ws/v1/live"
    protocols: list[Any] = ["tavla.v1"]
    if token and query:
        url += f"?token={token}"
    elif token:
        protocols.append("token." + token)
    return connect(url, sock=sock, subprotocols=protocols, open_timeout=10)


def recv(conn: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    return dict(json.loads(conn.recv(timeout=timeout)))


def until(conn: ClientConnection, kind: str, timeout: float = 10, **fields: Any) -> dict[str, Any]:
    """The next message of `kind` with these fields; the ones before it are dropped."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, f"no {kind} {fields} within {timeout} s"
        message = recv(conn, left)
        if message.get("type") == kind and all(message.get(k) == v for k, v in fields.items()):
            return message


def closed_with(conn: ClientConnection, timeout: float = 10) -> tuple[int | None, list[dict]]:
    """Read until the server closes: its close code and the messages before it."""
    seen: list[dict] = []
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            seen.append(recv(conn, end - time.monotonic()))
    except ConnectionClosed:
        return conn.close_code, seen
    except TimeoutError:
        pass
    raise AssertionError(f"still open after {timeout} s: {seen[-5:]}")


def guest(base: str) -> str:
    """A new guest's token (from an address of its own: the sign-up limit is per address)."""
    with client(base) as http:
        r = http.post(f"{API}/auth/guest", json={})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])


def hotseat(base: str, token: str, public: bool = True) -> str:
    with client(base, headers={"Authorization": f"Token {token}"}) as http:
        r = http.post(f"{API}/matches", json={"mode": "hotseat", "length": 3, "public": public})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])


def act(http: httpx.Client, match_id: str) -> int:
    """One step of a hot-seat match (a roll or the first legal play): the new version."""
    state = http.get(f"{API}/matches/{match_id}").json()
    if "play" in state["actions"]:
        r = http.post(
            f"{API}/matches/{match_id}/play", json={"play": state["legal_plays"][0]["notation"]}
        )
    else:
        assert "roll" in state["actions"], state["actions"]
        r = http.post(f"{API}/matches/{match_id}/roll", json={})
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


def version_of(base: str, match_id: str, token: str) -> int:
    with client(base, headers={"Authorization": f"Token {token}"}) as http:
        return int(http.get(f"{API}/matches/{match_id}").json()["version"])
