"""The WebSocket of a client (`/ws/v1/live`): follow matches, hear notifications, play.

Client -> server, JSON text frames (docs/realtime.md has every field):
- `{"type": "subscribe", "match": id, "after": 12, "state": false}`: the events after version
  12, then every new one; as a player or a spectator (private matches: players only).
- `{"type": "unsubscribe", "match": id}`
- `{"type": "command", "ref": "c1", "match": id, "action": "play", "body": {...},
  "expected_version": 12, "idempotency_key": "..."}`: one of the match's POST actions, run as
  that HTTP request (`commands`).
- `{"type": "ping"}`

Server -> client: `subscribed`, `events` (the match's version in each), `state` (if asked),
`end` (the match is over and all its events were sent), `notification` (challenge accepted,
rematch offered, your turn), `result` / `error` (a command's answer), `pong`.

A bad message (not JSON, not an object, an unknown type, too long, a match the caller may not
read or act on) gets an `error` with the API's stable codes and the socket stays open: one
client's mistakes never touch another's stream, nor this client's other subscriptions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from matches import selectors
from matches.api.contract import render
from matches.api.errors import ApiError, Limited, error_body, error_response
from matches.api.permissions import load_match, readable_match
from matches.store.streams import load_view

from . import commands, lobby
from .auth import token_of, user_of
from .db import in_thread
from .follow import Follower
from .hub import Hub
from .limits import Slot, acquire_for_scope
from .messages import dumps

logger = logging.getLogger(__name__)

MAX_SUBSCRIPTIONS = 50


def max_message() -> int:
    return int(getattr(settings, "TAVLA_WS_MAX_MESSAGE", 16384))


class LiveConsumer(AsyncWebsocketConsumer):
    # Pushes come through the process's hub (one subscription per process and match), not a
    # channel per socket: an alias with no layer configured gives this consumer none.
    channel_layer_alias = "tavla-no-layer-per-socket"

    token: str | None = None
    user: Any = None
    lobby: frozenset[str] = frozenset()  # the lobby's lists this socket follows (none: off)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every handler:
        that is a hop to the process's one thread-sensitive sync thread for each frame a
        client sends (and each connect and disconnect), to tidy a connection this consumer
        never uses. Its database work runs in `db.in_thread`, whose threads tidy their own."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own, without the same hop after `disconnect` (and without its groups:
        this consumer has none)."""
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def connect(self) -> None:
        self.follows: dict[str, tuple[Follower, asyncio.Task[None]]] = {}
        self.hub = Hub.current()
        self.inbox = False
        self.slot: Slot | None = None
        token, protocol = token_of(self.scope)
        user = await in_thread(user_of, token)
        await self.accept(protocol)
        if user is None:
            await self.send_error("authentication_failed", None)
            await self.close(code=4401)
            return
        try:
            self.slot = acquire_for_scope(self.scope, user)
        except Limited as exc:  # too many sockets and streams from this client (or in all)
            wait = int(exc.wait or 1)
            await self.send_error("too_many_streams", None, detail={"retry_after": wait})
            await self.close(code=4429)
            return
        self.token, self.user = token, user
        if user.is_authenticated:
            await self.hub.open_inbox(user.pk, self.notify)
            self.inbox = True
        await self.send_json(
            {"type": "hello", "user": user.get_username() if user.is_authenticated else None}
        )

    async def disconnect(self, code: int) -> None:
        slot = getattr(self, "slot", None)
        if slot is not None:
            slot.release()
        for match_id in list(getattr(self, "follows", {})):
            await self.unsubscribe(match_id)
        if getattr(self, "inbox", False):
            await self.hub.close_inbox(self.user.pk, self.notify)
            self.inbox = False
        if self.lobby:
            self.lobby = frozenset()
            await self.hub.close_lobby(self.lobby_notify)

    # -- receiving ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.user is None:
            return
        if text_data is None:
            await self.send_error("invalid_request", None, "Send JSON text frames, not binary.")
            return
        if len(text_data) > max_message():
            await self.send_error(
                "invalid_request",
                None,
                f"A message may be at most {max_message()} characters.",
                {"message": [f"{len(text_data)} characters"]},
            )
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError) as exc:  # 1,000 nested brackets: RecursionError
            await self.send_error("parse_error", None, detail={"reason": str(exc)})
            return
        if not isinstance(message, dict):
            await self.send_error("invalid_request", None, "A message is a JSON object.")
            return
        ref = message.get("ref")
        if ref is not None and not isinstance(ref, str | int):
            ref = None
        handler = {
            "subscribe": self.on_subscribe,
            "unsubscribe": self.on_unsubscribe,
            "command": self.on_command,
            "ping": self.on_ping,
            "subscribe_lobby": self.on_subscribe_lobby,
            "unsubscribe_lobby": self.on_unsubscribe_lobby,
        }.get(message.get("type"))  # type: ignore[arg-type]
        if handler is None:
            await self.send_error(
                "invalid_request",
                ref,
                "Unknown message type: send subscribe, unsubscribe, command, ping,"
                " subscribe_lobby or unsubscribe_lobby.",
                {"type": [str(message.get("type"))[:40]]},
            )
            return
        try:
            await handler(message, ref)
        except ApiError as exc:
            await self.send_error(exc.code, ref, exc.message, exc.extra)
        except OSError:  # the client went away before the answer
            return
        except Exception:
            logger.exception("websocket: %s failed", message.get("type"))
            await self.send_error("store_error", ref, "The server could not do this now.")

    async def on_ping(self, message: dict[str, Any], ref: Any) -> None:
        await self.send_json({"type": "pong", "ref": ref})

    async def on_subscribe(self, message: dict[str, Any], ref: Any) -> None:
        after = message.get("after", 0)
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise ApiError(
                "invalid_request",
                "`after` is a version number, 0 or more.",
                {"after": [str(after)[:40]]},
            )
        match = await in_thread(readable_match, message.get("match"), self.user)
        match_id = str(match.pk)
        if match_id in self.follows:
            await self.unsubscribe(match_id)
        if len(self.follows) >= MAX_SUBSCRIPTIONS:
            raise ApiError("invalid_request", f"At most {MAX_SUBSCRIPTIONS} matches per socket.")
        follower = Follower(self.hub, match, after, self.user)
        await follower.start()
        seated = self.user.is_authenticated and self.user.pk in (match.player0_id, match.player1_id)
        await self.send_json(
            {
                "type": "subscribed",
                "ref": ref,
                "match": match_id,
                "version": match.version,
                "role": "player" if seated else "spectator",
            }
        )
        pump = asyncio.get_running_loop().create_task(
            self.pump(follower, bool(message.get("state")))
        )
        self.follows[match_id] = (follower, pump)

    async def on_unsubscribe(self, message: dict[str, Any], ref: Any) -> None:
        match_id = str(message.get("match"))
        if match_id not in self.follows:
            raise ApiError(
                "invalid_request", "You do not follow this match.", {"match": [match_id[:40]]}
            )
        await self.unsubscribe(match_id)
        await self.send_json({"type": "unsubscribed", "ref": ref, "match": match_id})

    async def on_command(self, message: dict[str, Any], ref: Any) -> None:
        client = self.scope.get("client")
        status, body, headers = await in_thread(
            commands.run_command,
            token=self.token,
            match_id=message.get("match"),
            action=message.get("action"),
            body=message.get("body"),
            expected_version=message.get("expected_version"),
            idempotency_key=message.get("idempotency_key"),
            client=tuple(client) if client else None,
        )
        if status >= 400 and isinstance(body, dict) and "code" in body:
            await self.send_json({"type": "error", "ref": ref, "status": status, **body})
            return
        reply: dict[str, Any] = {
            "type": "result",
            "ref": ref,
            "status": status,
            "match": str(message.get("match")),
            "action": message.get("action"),
            "body": body,
        }
        if isinstance(body, dict) and "version" in body:
            reply["version"] = body["version"]
        if headers.get("Idempotent-Replayed"):
            reply["replayed"] = True
        await self.send_json(reply)

    async def on_subscribe_lobby(self, message: dict[str, Any], ref: Any) -> None:
        """Follow the lobby's lists (matches/streams/lobby.py); again: change the lists."""
        what = lobby.parse_subscription(message)
        if not self.lobby:
            await self.hub.open_lobby(self.lobby_notify)
        self.lobby = what
        await self.send_json({"type": "lobby_subscribed", "ref": ref, "what": sorted(what)})

    async def on_unsubscribe_lobby(self, message: dict[str, Any], ref: Any) -> None:
        if self.lobby:
            self.lobby = frozenset()
            await self.hub.close_lobby(self.lobby_notify)
        await self.send_json({"type": "lobby_unsubscribed", "ref": ref})

    def lobby_notify(self, note: dict[str, Any]) -> None:
        """A lobby hint (called by the hub, on the loop): sent if this socket follows its list."""
        if note.get("what") in self.lobby:
            asyncio.get_running_loop().create_task(self._send_quietly(dumps(note)))

    # -- pushing ----------------------------------------------------------------------------

    async def pump(self, follower: Follower, with_state: bool) -> None:
        """Send the follower's events as they come (and the state, if asked)."""
        ended = False
        while True:
            try:
                text = await follower.next_message()
                if text is not None:
                    await self.send(text_data=text)
                    if with_state:
                        await self.send_state(follower)
                if follower.over and not ended:
                    ended = True
                    await self.send_json(
                        {"type": "end", "match": follower.match_id, "version": follower.sent}
                    )
                if text is None:
                    await follower.wait()
            except asyncio.CancelledError:
                raise
            except OSError:  # the client went away; disconnect() cleans up
                return
            except Exception:
                logger.exception("websocket: pushing match %s failed", follower.match_id)
                await asyncio.sleep(1.0)

    async def send_state(self, follower: Follower) -> None:
        body = await in_thread(_state, follower.match_id, self.user)
        await self.send_json(
            {"type": "state", "match": follower.match_id, "version": body["version"], "state": body}
        )

    def notify(self, note: dict[str, Any]) -> None:
        """A notification for this socket's user (called by the hub, on the loop)."""
        asyncio.get_running_loop().create_task(self._send_quietly(dumps(note)))

    async def _send_quietly(self, text: str) -> None:
        with contextlib.suppress(OSError):  # the client went away meanwhile
            await self.send(text_data=text)

    async def unsubscribe(self, match_id: str) -> None:
        follower, pump = self.follows.pop(match_id)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pump
        await follower.close()

    # -- helpers ---------------------------------------------------------------------------

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.send(text_data=dumps(message))

    async def send_error(
        self, code: str, ref: Any, message: str | None = None, detail: Any = None
    ) -> None:
        response = error_response(ApiError(code, message, detail))
        assert response is not None
        body = error_body(code, response.data["message"], detail)
        await self.send_json({"type": "error", "ref": ref, "status": response.status_code, **body})


def _state(match_id: str, user: Any) -> dict[str, Any]:
    match = load_match(match_id)
    return render(selectors.match_state(match, load_view(match.pk, version=match.version), user))
