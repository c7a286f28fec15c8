"""One client's cursor on one match: every event after the version it has, in order, once.

Resume and live delivery are one loop: the follower asks for "the events after `sent`". While
the hub's tail reaches back to `sent` they come from the tail (stored events, already read or
carried by a hint that follows the tail exactly); otherwise from the store. It registers with
the hub *before* its first read, so nothing committed in between is missed, and it never sends
an event at or below `sent`, so nothing is sent twice (DESIGN "Real-time").
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any
from uuid import UUID

from matches.services import presence
from matches.store.models import Match
from matches.store.streams import stored_events

from .db import in_thread
from .hub import OVER, Feed, Hub, Listener
from .messages import dumps, events_json, events_message


def presence_every(match: Match, user: Any) -> float | None:
    """How often an open stream keeps its user connected: seated players of a match the
    reconnect rule tracks, else never (spectators, anonymous readers, untracked matches)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if user.pk not in (match.player0_id, match.player1_id) or not presence.tracked(match):
        return None
    return presence.refresh_every(match)


class Follower:
    def __init__(self, hub: Hub, match: Match, after: int, user: Any = None) -> None:
        self.hub = hub
        self.match_id = str(match.pk)
        self.sent = after
        self.start_version = match.version
        self.start_over = match.status in OVER
        user_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
        self.listener = Listener(user_id=user_id, present_every=presence_every(match, user))
        self.feed: Feed | None = None

    async def start(self) -> None:
        self.feed = await self.hub.watch(
            self.match_id, self.start_version, self.start_over, self.listener
        )

    def detach(self) -> None:
        """The hub forgets this follower's listener now (no await): presence stops."""
        self.hub.detach(self.match_id, self.listener)

    async def close(self) -> None:
        """Stop following; a seated player's grace period starts now."""
        await self.hub.unwatch(self.match_id, self.listener)
        if self.listener.present_every and self.listener.user_id:
            with contextlib.suppress(Exception):
                await in_thread(presence.touch_connected, {(self.match_id, self.listener.user_id)})

    @property
    def over(self) -> bool:
        """The match is over and everything has been sent."""
        feed = self.feed
        return feed is not None and feed.over and self.sent >= feed.version

    async def next_batch(self) -> list[dict[str, Any]]:
        """The events after `sent` (possibly none); `sent` moves past them."""
        assert self.feed is not None
        self.listener.wake.clear()
        batch = self.feed.after(self.sent)
        if batch is None:
            batch = await in_thread(_events_after, self.match_id, self.sent)
        if batch:
            self.sent = batch[-1]["seq"]
        return batch

    async def next_message(self) -> str | None:
        """`next_batch` as an encoded `events` message, shared with other clients at the same
        place when it comes from the tail; None when there is nothing new."""
        assert self.feed is not None
        self.listener.wake.clear()
        text = self.feed.message_after(self.sent)
        if text is not None:
            self.sent = self.feed.version
            return text
        batch = await self.next_batch()
        return dumps(events_message(self.match_id, batch)) if batch else None

    async def wait(self, timeout: float | None = None) -> bool:
        """Until the feed moves on (True) or `timeout` seconds pass (False)."""
        try:
            await asyncio.wait_for(self.listener.wake.wait(), timeout)
            return True
        except TimeoutError:
            return False


def _events_after(match_id: str, after: int) -> list[dict[str, Any]]:
    return events_json(stored_events(UUID(match_id), after))
