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

A bad message (not JSON, not an object, an unknown type, a field of the wrong JSON type, too
long, a match the caller may not read or act on) gets an `error` with the API's stable codes
and the socket stays open: one client's mistakes never touch another's stream, nor this
client's other subscriptions. Every field is checked before it is used, inside the handling
that turns any failure into an `error` frame.

Whatever a socket takes (its slot under the stream caps, its hub listeners and so its
presence, its notification inbox) is given back in one `finally` around its whole life
(`__call__`), however it ends: a close, a vanished client, an exception, a server shutdown.

The socket's token is checked again on every subscribe and command, and the hub closes the
socket (an `error` `authentication_failed`, then close code 4401) when the token is revoked:
logout, logout everywhere, a password change, the account deactivated.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from typing import Any, ClassVar

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from matches import selectors
from matches.api.authentication import digest
from matches.api.contract import render
from matches.api.errors import ApiError, Limited, error_body, error_response
from matches.api.permissions import load_match
from matches.api.views.common import seen_match
from matches.selectors import community
from matches.store.streams import load_view

from . import commands, lobby
from .auth import token_of, user_of
from .db import in_thread
from .follow import Follower
from .hub import Hub, Session
from .limits import Slot, acquire_for_scope
from .messages import dumps

logger = logging.getLogger(__name__)

MAX_SUBSCRIPTIONS = 50
MAX_VERSION = 2**31 - 1  # a version a client may send (the store's seq is a 32-bit integer)
REVOKED = 4401  # close code: the token is bad or was revoked


def max_message() -> int:
    return int(getattr(settings, "TAVLA_WS_MAX_MESSAGE", 16384))


class BadField(ApiError):
    """A field of a client's message with the wrong JSON type or value (400
    invalid_request, the field named in the detail)."""

    def __init__(self, name: str, wanted: str, value: Any) -> None:
        shown = json.dumps(value)[:40] if not isinstance(value, str) else value[:40]
        # the code's own (translated) sentence; the detail names the field and what it takes
        super().__init__("invalid_request", None, {name: [f"{wanted}, not {shown}"]})


def text_field(message: dict[str, Any], name: str, *, required: bool = True) -> str | None:
    value = message.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise BadField(name, "a string", value)
    return value


def int_field(message: dict[str, Any], name: str, default: int | None) -> int | None:
    value = message.get(name, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VERSION:
        raise BadField(name, f"a version number, 0 to {MAX_VERSION}", value)
    return value


class LiveConsumer(AsyncWebsocketConsumer):
    # Pushes come through the process's hub (one subscription per process and match), not a
    # channel per socket: an alias with no layer configured gives this consumer none.
    channel_layer_alias = "tavla-no-layer-per-socket"

    token: str | None = None
    user: Any = None
    revoked = False
    lobby: frozenset[str] = frozenset()  # the lobby's lists this socket follows (none: off)
    kibitz: frozenset[str] = frozenset()  # matches whose spectators' lines a player hears
    hidden: frozenset[int] = frozenset()  # players blocked either way: their lines not sent

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The socket's whole life; what it took is given back however it ends."""
        self.follows: dict[str, tuple[Follower, asyncio.Task[None]]] = {}
        self.hub = Hub.current()
        self.session: Session | None = None
        self.slot: Slot | None = None
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release_now()
            # the rest awaits (the layer's group, presence's last touch): shielded, so a
            # cancelled socket task (a server shutting down) still gives everything back
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(self.release())

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its `aclose_old_connections()` before every handler:
        that is a hop to the process's one thread-sensitive sync thread for each frame a
        client sends (and each connect and disconnect), to tidy a connection this consumer
        never uses. Its database work runs in `db.in_thread`, whose threads tidy their own."""
        if "dispatch" in settings.TAVLA_PUBLIC_PATHS:  # benchmarks only: Channels' own
            return await super().dispatch(message)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """Channels' own, without the same hop after `disconnect` (and without its groups:
        this consumer has none)."""
        if "dispatch" in settings.TAVLA_PUBLIC_PATHS:  # benchmarks only: Channels' own
            return await super().websocket_disconnect(message)
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def connect(self) -> None:
        try:
            await self._connect()
        except OSError:  # the client went away
            return
        except Exception:
            logger.exception("websocket: connect failed")
            with contextlib.suppress(Exception):
                await self.send_error("store_error", None, "The server could not do this now.")
                await self.close(code=1011)

    async def _connect(self) -> None:
        token, protocol = token_of(self.scope)
        user = await in_thread(user_of, token)
        await self.accept(protocol)
        if user is None:
            await self.send_error("authentication_failed", None)
            await self.close(code=REVOKED)
            return
        try:
            self.slot = acquire_for_scope(self.scope, user)
        except Limited as exc:  # too many sockets and streams from this client (or in all)
            wait = int(exc.wait or 1)
            await self.send_error("too_many_streams", None, detail={"retry_after": wait})
            await self.close(code=4429)
            return
        self.token, self.user = token, user
        if user.is_authenticated and token:
            self.session = Session(user.pk, digest(token), self.notify, self.revoke)
            await self.hub.open_inbox(self.session)
        await self.send_json(
            {"type": "hello", "user": user.get_username() if user.is_authenticated else None}
        )

    async def disconnect(self, code: int) -> None:
        self.release_now()
        await self.release()

    def release_now(self) -> None:
        """What can be given back without awaiting, first: the slot, the pumps, the hub's
        listeners and inbox (so presence and seeks stop being refreshed at once)."""
        slot, self.slot = self.slot, None
        if slot is not None:
            slot.release()
        for follower, pump in self.follows.values():
            pump.cancel()
            follower.detach()
        if self.session is not None:
            self.hub.drop_inbox(self.session)

    async def release(self) -> None:
        """The rest: leave the layer's groups no longer needed, presence's last touch."""
        for match_id in list(self.follows):
            await self.unsubscribe(match_id)
        session, self.session = self.session, None
        if session is not None:
            await self.hub.close_inbox(session)
        if self.lobby:
            self.lobby = frozenset()
            await self.hub.close_lobby(self.lobby_notify)

    def revoke(self, ref: Any = None) -> None:
        """The token was revoked (called by the hub, on the loop, or by a subscribe or a
        command that found it gone): stop pushing at once, say why and close with 4401."""
        if self.revoked:
            return
        self.revoked = True
        for _, pump in self.follows.values():
            pump.cancel()
        asyncio.get_running_loop().create_task(self._close_revoked(ref))

    async def _close_revoked(self, ref: Any) -> None:
        with contextlib.suppress(Exception):
            await self.send_error("authentication_failed", ref, detail={"reason": "revoked"})
            await self.close(code=REVOKED)

    # -- receiving ------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.user is None or self.revoked:
            return
        ref: Any = None
        kind: Any = None
        try:
            if text_data is None:
                raise ApiError("invalid_request", "Send JSON text frames, not binary.")
            if len(text_data) > max_message():
                raise ApiError(
                    "invalid_request",
                    f"A message may be at most {max_message()} characters.",
                    {"message": [f"{len(text_data)} characters"]},
                )
            try:
                message = json.loads(text_data)
            except (ValueError, RecursionError) as exc:  # 1,000 nested brackets: RecursionError
                raise ApiError("parse_error", detail={"reason": str(exc)[:200]}) from None
            if not isinstance(message, dict):
                raise ApiError("invalid_request", "A message is a JSON object.")
            ref = message.get("ref")
            if isinstance(ref, bool) or not isinstance(ref, str | int):
                ref = None  # a ref of another JSON type is not echoed
            kind = message.get("type")
            handler = self.handlers.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ApiError(
                    "invalid_request",
                    "Unknown message type: send subscribe, unsubscribe, command, ping,"
                    " subscribe_lobby, unsubscribe_lobby, say, kibitz or kibitz_switch.",
                    {"type": [(kind if isinstance(kind, str) else json.dumps(kind))[:40]]},
                )
            await handler(self, message, ref)
        except ApiError as exc:
            await self._answer_error(exc.code, ref, exc.message, exc.extra)
        except OSError:  # the client went away before the answer
            return
        except Exception:
            logger.exception("websocket: %s failed", str(kind)[:40])
            await self._answer_error("store_error", ref, "The server could not do this now.")

    async def _answer_error(
        self, code: str, ref: Any, message: Any = None, detail: Any = None
    ) -> None:
        # the client went away (OSError), or the socket is closing (RuntimeError: a send after
        # the close): nobody to tell
        with contextlib.suppress(OSError, RuntimeError):
            await self.send_error(code, ref, message, detail)

    async def on_ping(self, message: dict[str, Any], ref: Any) -> None:
        await self.send_json({"type": "pong", "ref": ref})

    async def on_subscribe(self, message: dict[str, Any], ref: Any) -> None:
        after = int_field(message, "after", 0) or 0
        match_ref = text_field(message, "match")
        state = message.get("state", False)
        if state is not None and not isinstance(state, bool):
            raise BadField("state", "true or false", state)
        # the token again (one hop to a thread for it and the match): revoked, closed 4401
        user, match = await in_thread(_signed_in_and_readable, self.token, match_ref, self.user)
        if user is None:
            self.revoke(ref)
            return
        self.user = user
        self.hidden = frozenset(await in_thread(community.hidden_from, user))
        match_id = str(match.pk)
        if match_id in self.follows:
            await self.unsubscribe(match_id)
        if len(self.follows) >= MAX_SUBSCRIPTIONS:
            raise ApiError("invalid_request", f"At most {MAX_SUBSCRIPTIONS} matches per socket.")
        kibitz = message.get("kibitz")
        if kibitz is not None and not isinstance(kibitz, bool):
            raise BadField("kibitz", "true or false", kibitz)
        if kibitz is not None:
            self.switch_kibitz(str(match.pk), kibitz)
        follower = Follower(self.hub, match, after, self.user)
        follower.listener.chat = functools.partial(self.chat_pushed, str(match.pk))
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
        pump = asyncio.get_running_loop().create_task(self.pump(follower, bool(state)))
        self.follows[match_id] = (follower, pump)

    async def on_unsubscribe(self, message: dict[str, Any], ref: Any) -> None:
        match_id = text_field(message, "match")
        assert match_id is not None
        if match_id not in self.follows:
            raise ApiError(
                "invalid_request", "You do not follow this match.", {"match": [match_id[:40]]}
            )
        await self.unsubscribe(match_id)
        await self.send_json({"type": "unsubscribed", "ref": ref, "match": match_id})

    async def on_command(self, message: dict[str, Any], ref: Any) -> None:
        match_id = text_field(message, "match")
        action = text_field(message, "action")
        body = message.get("body")
        if body is not None and not isinstance(body, dict):
            raise BadField("body", "a JSON object", body)
        expected = int_field(message, "expected_version", None)
        key = text_field(message, "idempotency_key", required=False)
        client = self.scope.get("client")
        status, answer, headers = await in_thread(
            commands.run_command,
            token=self.token,
            match_id=match_id,
            action=action,
            body=body,
            expected_version=expected,
            idempotency_key=key,
            client=tuple(client) if client else None,
        )
        body = answer
        if status == 401 and self.token is not None:  # the token was revoked meanwhile
            self.revoke(ref)
            return
        if status >= 400 and isinstance(body, dict) and "code" in body:
            await self.send_json({"type": "error", "ref": ref, "status": status, **body})
            return
        reply: dict[str, Any] = {
            "type": "result",
            "ref": ref,
            "status": status,
            "match": match_id,
            "action": action,
            "body": body,
        }
        if isinstance(body, dict) and "version" in body:
            reply["version"] = body["version"]
        if headers.get("Idempotent-Replayed"):
            reply["replayed"] = True
        await self.send_json(reply)

    # -- chat (issue 28) ------------------------------------------------------------------

    def switch_kibitz(self, match_id: str, on: bool) -> None:
        kibitz = set(self.kibitz)
        if on:
            kibitz.add(match_id)
        else:
            kibitz.discard(match_id)
        self.kibitz = frozenset(kibitz)

    async def on_kibitz_switch(self, message: dict[str, Any], ref: Any) -> None:
        """A player hears the spectators' lines of a match on this socket, or stops."""
        match_id = text_field(message, "match")
        on = message.get("on")
        if not isinstance(on, bool):
            raise BadField("on", "true or false", on)
        assert match_id is not None
        self.switch_kibitz(match_id[:64], on)
        await self.send_json({"type": "kibitz_switched", "ref": ref, "match": match_id, "on": on})

    async def on_say(self, message: dict[str, Any], ref: Any) -> None:
        await self._chat("say", message, ref)

    async def on_kibitz(self, message: dict[str, Any], ref: Any) -> None:
        await self._chat("kibitz", message, ref)

    async def _chat(self, channel: str, message: dict[str, Any], ref: Any) -> None:
        """A chat line: answered as `POST /matches/{id}/chat` would be (`said`, or `error`)."""
        match_id = text_field(message, "match")
        body: dict[str, Any] = {"channel": channel}
        for name in ("text", "quick"):
            if name in message:
                body[name] = message[name]
        client = self.scope.get("client")
        status, answer = await in_thread(
            commands.run_chat,
            token=self.token,
            match_id=match_id,
            body=body,
            client=tuple(client) if client else None,
        )
        if status == 401 and self.token is not None:
            self.revoke(ref)
            return
        if status >= 400 and isinstance(answer, dict) and "code" in answer:
            await self.send_json({"type": "error", "ref": ref, "status": status, **answer})
            return
        await self.send_json(
            {"type": "said", "ref": ref, "status": status, "match": match_id, "message": answer}
        )

    def chat_pushed(self, match_id: str, hint: dict[str, Any]) -> None:
        """A chat line of a followed match (called by the hub, on the loop): sent on unless
        its author and this reader blocked each other (as of the last subscribe), or it is the
        spectators' and this reader is a player who may not read it now."""
        line = hint.get("message") or {}
        if hint.get("author") in self.hidden:
            return
        if line.get("channel") == "kibitz":
            user = self.user
            seated = bool(user and user.is_authenticated and user.pk in hint.get("players", ()))
            if seated and (match_id not in self.kibitz or hint.get("live_rated")):
                return
        note = {"type": "chat", "match": match_id, "message": line}
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

    handlers: ClassVar[dict[str, Any]] = {}

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


def _signed_in_and_readable(token: str | None, match_ref: Any, user: Any) -> tuple[Any, Any]:
    """(the token's user again, or None if it was revoked; the match he may read)."""
    if token is not None:
        user = user_of(token)
        if user is None or not user.is_authenticated:
            return None, None
    return user, seen_match(match_ref, user)


def _state(match_id: str, user: Any) -> dict[str, Any]:
    match = load_match(match_id)
    return render(selectors.match_state(match, load_view(match.pk, version=match.version), user))


LiveConsumer.handlers = {
    "subscribe": LiveConsumer.on_subscribe,
    "unsubscribe": LiveConsumer.on_unsubscribe,
    "command": LiveConsumer.on_command,
    "ping": LiveConsumer.on_ping,
    "subscribe_lobby": LiveConsumer.on_subscribe_lobby,
    "unsubscribe_lobby": LiveConsumer.on_unsubscribe_lobby,
    "say": LiveConsumer.on_say,
    "kibitz": LiveConsumer.on_kibitz,
    "kibitz_switch": LiveConsumer.on_kibitz_switch,
}
