"""After a command commits: tell every web process (settings.TAVLA_AFTER_COMMIT).

One message to the match's group, `{"type": "match.committed", "match", "version", "over",
"events"}` (handed to this process's own hub first, without the trip through Redis), and a
notification to the group of each user who should hear of it (challenge
accepted, rematch offered, your turn). Sending never waits and never fails the command: the
message goes out on the process's event loop (the server's, or a small background loop in a
Celery worker), and a message that is lost costs latency only, since every web process also
watches the store (matches/streams/hub.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import Future
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer

from matches.services.notices import Notice
from matches.store.committed import Committed
from matches.store.models import Match, MatchLobby

from .hub import local_hub, match_group, serving_loop, user_group
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
    send(layer, messages)


def notice(notice: Notice) -> None:
    """A `TAVLA_NOTIFY` hook: a notice decided outside a match's stream (a seek paired) goes
    to the user's sockets as `{"type": "notification", "kind", "match", "version", ...}`."""
    layer = get_channel_layer()
    if layer is None:
        return
    note = {
        "type": "notification",
        "kind": notice.kind,
        "match": notice.match_id,
        "version": notice.version,
        **notice.data,
    }
    message = {"type": "user.notification", "user": notice.user_id, "notification": note}
    send(layer, [(user_group(notice.user_id), message)])


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
        human = seat is not None and not seat.name.startswith("computer-")
        if human and user_id is not None and user_id != committed.actor_id:
            out.append((user_id, "your_turn"))
    return out


def send(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Hand the messages to an event loop of this process and return at once."""
    loop = serving_loop()
    if loop is None:
        if isinstance(layer, InMemoryChannelLayer):
            return  # nobody in this process listens, and no other process can hear it
        loop = _background_loop()
    future = asyncio.run_coroutine_threadsafe(_send_all(layer, messages), loop)
    future.add_done_callback(_log_failure)


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    hub = local_hub()
    if hub is not None:
        # This process's own followers get the events at once, not after a round trip
        # through Redis; the copy that comes back is then older than the feed and ignored.
        # (Notifications are not versioned: they only come through the layer, once.)
        for _, message in messages:
            if message["type"] == "match.committed":
                hub.on_message(message)
    for group, message in messages:
        await layer.group_send(group, message)


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
