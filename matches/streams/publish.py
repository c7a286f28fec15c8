"""After a command commits: tell every web process (settings.TAVLA_AFTER_COMMIT).

One message to the match's group, `{"type": "match.committed", "match", "version", "over",
"events"}` (handed to this process's own hub first, without the trip through Redis), and a
notification to the group of each user who should hear of it (challenge
accepted, rematch offered, your turn). Sending never fails the command, and a message that is
lost costs latency only, since every web process also watches the store
(matches/streams/hub.py).

With the Redis pub/sub layer of settings.CHANNEL_LAYERS the committing thread publishes
itself, with a synchronous client (one PUBLISH per message, a round trip of a tenth of a
millisecond, at most `PUBLISH_TIMEOUT` seconds when Redis is unreachable): handing the
messages to an event loop and publishing from there with the asyncio client cost about four
times the CPU (0.39 ms per command, benchmarks/api_bench.py). The message is the layer's
own (`layer.serialize`, on the layer's group channel), so every process's layer receives it
as if it had been sent with `group_send` (tests/streams, two servers). Other layers (the
in-memory one of `make run`) get `group_send` on the process's event loop as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time
from concurrent.futures import Future
from typing import Any

import redis
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from matches.api.contract import render
from matches.selectors import community
from matches.services.notices import Notice
from matches.services.tournaments import TournamentCommitted
from matches.store.committed import Committed
from matches.store.community_models import ChatMessage
from matches.store.models import Match, MatchLobby, PlayerProfile

from . import lobby
from .hub import followed_here, local_hub, match_group, serving_loop, user_group
from .messages import events_json

logger = logging.getLogger(__name__)


def after_commit(committed: Committed) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    view = committed.view
    match_id = str(view.match_id)
    state = view.state
    messages: list[tuple[str, dict[str, Any]]] = [
        (
            match_group(match_id),
            {
                "type": "match.committed",
                "match": match_id,
                "version": view.version,
                "over": bool(state is not None and state.is_over),
                "events": events_json(committed.events),
            },
        )
    ]
    for user_id, kind in notifications(committed):
        note = {"type": "notification", "kind": kind, "match": match_id, "version": view.version}
        messages.append(
            (
                user_group(user_id),
                {"type": "user.notification", "user": user_id, "notification": note},
            )
        )
    messages += lobby_hints(committed)
    send(layer, messages)


def lobby_hints(committed: Committed) -> list[tuple[str, dict[str, Any]]]:
    """The live lobby's hints (matches/streams/lobby.py); never in the way of the match's own."""
    try:
        return lobby.messages(committed)
    except Exception:
        logger.exception("stream: the lobby hint of match %s failed", committed.view.match_id)
        return []


def notice(notice: Notice) -> None:
    """A `TAVLA_NOTIFY` hook: a notice decided outside a match's stream (a seek paired) goes
    to the user's sockets as `{"type": "notification", "kind", "match", "version", "id", ...}`."""
    layer = get_channel_layer()
    if layer is None:
        return
    note = {
        "type": "notification",
        "kind": notice.kind,
        "match": notice.match_id,
        "version": notice.version,
        **notice.data,
        "id": notice.id,  # the outbox row: a client that already heard it drops a repeat
    }
    message = {"type": "user.notification", "user": notice.user_id, "notification": note}
    send(layer, [(user_group(notice.user_id), message)])


def tournament_changed(committed: TournamentCommitted) -> None:
    """A `TAVLA_TOURNAMENT_AFTER_COMMIT` hook: the tournament's followers (sockets subscribed
    to the lobby's "tournaments") hear `{"type": "lobby", "what": "tournaments",
    "tournament", "version"}` and read it again."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "lobby.changed",
        "what": "tournaments",
        "tournament": str(committed.tournament_id),
        "version": committed.state.version,
    }
    send(layer, [(lobby.LOBBY_GROUP, message)])


def signed_out(user_id: int) -> None:
    """A `TAVLA_SIGNED_OUT` hook (matches/api/revocation.py): a token of the user was deleted
    or his account changed. Every process with a socket of his checks those sockets' tokens
    and closes the revoked ones (4401); if this hint is lost, its periodic check does."""
    layer = get_channel_layer()
    if layer is None:
        return
    send(layer, [(user_group(user_id), {"type": "user.revoked", "user": user_id})])


def notifications(committed: Committed) -> list[tuple[int, str]]:
    """Who should hear of these events outside the match's own stream, and why."""
    view = committed.view
    state = view.state
    out: list[tuple[int, str]] = []
    types = {e.type for e in committed.events}
    seated = [s.user_id for s in view.seats if s is not None and s.user_id is not None]
    if "player_joined" in types and view.full and "match_created" not in types:
        out += [(u, "challenge_accepted") for u in seated if u != committed.actor_id]
    created = view.created if "match_created" in types else None
    if created is not None and created.mode == Match.Mode.ONLINE:
        reserved = (
            MatchLobby.objects.filter(match_id=view.match_id, rematch_of__isnull=False)
            .values_list("reserved_for_id", flat=True)
            .first()
        )
        if reserved:
            out.append((reserved, "rematch_offered"))
    if state is not None and not state.is_over and view.full and state.to_act is not None:
        seat = view.seats[state.to_act]
        user_id = seat.user_id if seat is not None else None
        human = seat is not None and seat.kind != PlayerProfile.Kind.COMPUTER
        if human and user_id is not None and user_id != committed.actor_id:
            out.append((user_id, "your_turn"))
    return out


PUBLISH_TIMEOUT = 0.5  # seconds a command waits for Redis at most before it gives up a hint
PUBLISH_PAUSE = 5.0  # after a failure, seconds without trying (commands do not wait for it)


def send(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Hand the match's events to this process's own followers, then publish everything."""
    loop = serving_loop()
    publisher = _publisher(layer)
    if publisher is not None:
        if loop is not None:
            committed = [
                m
                for _, m in messages
                if m["type"] == "match.committed" and followed_here(loop, m["match"])
            ]
            if committed:  # else no wake-up of the loop: nobody here follows the match
                loop.call_soon_threadsafe(_deliver_locally, committed)
        publisher.publish_all(messages)
        return
    if loop is None:
        if isinstance(layer, InMemoryChannelLayer):
            return  # nobody in this process listens, and no other process can hear it
        loop = _background_loop()
    future = asyncio.run_coroutine_threadsafe(_send_all(layer, messages), loop)
    future.add_done_callback(_log_failure)


def _deliver_locally(messages: list[dict[str, Any]]) -> None:
    """On the serving loop: this process's followers get the events at once, not after a
    round trip through Redis; the copy that comes back is then older than the feed and
    ignored. (Notifications are not versioned: they only come through the layer, once.)"""
    hub = local_hub()
    if hub is not None:
        for message in messages:
            hub.on_message(message)


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    _deliver_locally([m for _, m in messages if m["type"] == "match.committed"])
    for group, message in messages:
        await layer.group_send(group, message)


class Publisher:
    """PUBLISH on a Redis pub/sub layer's group channels from any thread. When Redis cannot
    be reached it stops trying for `PUBLISH_PAUSE` seconds, so that commands do not each wait
    up to `PUBLISH_TIMEOUT` for it while it is down (the store watchers deliver meanwhile)."""

    def __init__(self, layer: RedisPubSubChannelLayer, url: str, prefix: str) -> None:
        self.layer = layer
        self.prefix = prefix
        self.client = redis.Redis.from_url(
            url, socket_timeout=PUBLISH_TIMEOUT, socket_connect_timeout=PUBLISH_TIMEOUT
        )
        self.paused_until = 0.0

    def publish_all(self, messages: list[tuple[str, dict[str, Any]]]) -> bool:
        """True when every message went out."""
        if time.monotonic() < self.paused_until:
            return False
        try:
            sent = [(group_channel(self.prefix, g), self.layer.serialize(m)) for g, m in messages]
            if len(sent) == 1:
                self.client.publish(*sent[0])
            else:  # the match's message and its notifications: one round trip
                pipe = self.client.pipeline(transaction=False)
                for channel, data in sent:
                    pipe.publish(channel, data)
                pipe.execute()
        except redis.RedisError as exc:
            self.paused_until = time.monotonic() + PUBLISH_PAUSE
            logger.warning(
                "stream: hints not published for %.0f s (the store watcher covers them): %r",
                PUBLISH_PAUSE,
                exc,
            )
            return False
        return True


def group_channel(prefix: str, group: str) -> str:
    """The Redis channel of a group: the name channels-redis' private
    `RedisPubSubLoopLayer._get_group_channel_name` gives it (tests/test_private_internals.py
    compares the two; docs/private-internals.md)."""
    return f"{prefix}__group__{group}"


_publishers: dict[int, tuple[Any, Publisher | None]] = {}


def _publisher(layer: Any) -> Publisher | None:
    """The synchronous publisher of a one-host Redis pub/sub layer, else None."""
    known = _publishers.get(id(layer))
    if known is None or known[0] is not layer:
        publisher = None
        public = "publish" in settings.TAVLA_PUBLIC_PATHS  # benchmarks only: group_send
        if isinstance(layer, RedisPubSubChannelLayer) and not public:
            config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
            hosts = config.get("hosts") or []
            if len(hosts) == 1 and isinstance(hosts[0], str):
                publisher = Publisher(layer, hosts[0], config.get("prefix", "asgi"))
        known = _publishers[id(layer)] = (layer, publisher)
    return known[1]


def _log_failure(future: Future[None]) -> None:
    if future.cancelled():  # the loop stopped first (a test's short-lived loop)
        return
    exc = future.exception()
    if exc is not None:
        logger.warning("stream: a hint was not published (the store watcher covers it): %r", exc)


_loop: tuple[int, asyncio.AbstractEventLoop] | None = None
_loop_lock = threading.Lock()


def _background_loop() -> asyncio.AbstractEventLoop:
    """A loop in a daemon thread, for processes without one (Celery workers, commands); a
    forked child (Celery's prefork pool) starts its own."""
    global _loop
    with _loop_lock:
        if _loop is None or _loop[0] != os.getpid() or _loop[1].is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="tavla-publish", daemon=True).start()
            _loop = (os.getpid(), loop)
        return _loop[1]


def chat(message: ChatMessage) -> None:
    """A `TAVLA_CHAT` hook (matches/services/chat.py): a chat line, committed, goes to the
    match's group as `{"type": "match.chat", "match", "message", "author", "players",
    "live_rated"}`; each socket following the match sends it on if its reader may read it
    (matches/streams/consumers.py). Lost, it is read back with GET /matches/{id}/chat?after=."""
    layer = get_channel_layer()
    if layer is None:
        return
    match = message.match
    hint = {
        "type": "match.chat",
        "match": str(match.pk),
        "message": json.loads(json.dumps(render(community.chat_message(message)))),
        "author": message.author_id,
        "players": [match.player0_id, match.player1_id],
        "live_rated": community.live_rated(match),
    }
    send(layer, [(match_group(str(match.pk)), hint)])
