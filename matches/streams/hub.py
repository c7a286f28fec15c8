"""The process's one view of the matches its clients follow (one hub per event loop).

For every match some local client follows, the hub keeps a `Feed`: the highest version this
process knows is stored and a short tail of the latest events (JSON, contiguous, as stored).
It learns of new versions three ways, and any of them is enough:

- hints from the channel layer (group `match.<id>`, sent after commit by `publish`), which
  usually carry the new events themselves;
- a store watcher: one query per interval for all followed matches
  (`SELECT id, version, status FROM match WHERE id IN (...)`), which catches what no hint
  brought: a lost pub/sub message, a Celery worker's write when the in-memory layer cannot
  carry it to this process;
- a client that read a newer version itself.

A hint whose events do not follow the tail (a gap) is never trusted to fill it: the hub reads
the missing events from the store instead. So correctness never depends on pub/sub delivery,
only latency does. The hub also forwards the caller's notifications (group `user.<id>`),
keeps seated players connected (presence) while they have a stream open, keeps the waiting
seeks of users with an open socket alive, and closes the sockets whose token was revoked.

The channel layer may be down (its Redis stopped, unreachable): the watcher and the presence
work start whatever it does, the hub runs on the watcher alone (every
`TAVLA_STREAM_WATCH_OUTAGE_SECONDS`) while it is down, and a link task keeps trying to make
its channel again and join every group it needs; a ping through its own channel every
`LINK_PING` seconds tells it that pub/sub still carries messages, or that it must rebuild.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from matches.api.models import ApiToken
from matches.services import follows, presence, seeks
from matches.store.models import Match
from matches.store.streams import stored_events

from . import lobby
from .db import in_thread
from .messages import dumps, events_json, events_message

logger = logging.getLogger(__name__)

TAIL = 128  # events kept per followed match: a client that fell further behind reads the store
OVER = (Match.Status.FINISHED, Match.Status.ABORTED)
PRESENCE_TICK = 0.5  # seconds between looks at which open streams are due a presence touch
LAYER_TIMEOUT = 2.0  # seconds a channel-layer call may take before the layer counts as down
LINK_RETRY = 1.0  # seconds between attempts to reach a channel layer that is down
LINK_PING = 2.0  # seconds between pings through the hub's own channel while the layer is up


def match_group(match_id: str) -> str:
    return f"match.{match_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def seek_touch_interval() -> float:
    """How often the users with an open socket keep their waiting seeks alive: a third of the
    seeks' timeout (docs/ratings.md), at most every 5 s."""
    return min(5.0, float(getattr(settings, "TAVLA_SEEK_TIMEOUT", 30)) / 3)


def watch_interval() -> float:
    """Seconds between store checks: fast when the in-memory layer cannot carry other
    processes' hints (the embedded default), a slow safety net with Redis."""
    configured = getattr(settings, "TAVLA_STREAM_WATCH_SECONDS", None)
    if configured:
        return float(configured)
    return 0.25 if isinstance(get_channel_layer(), InMemoryChannelLayer | None) else 2.0


def outage_watch_interval() -> float:
    """Seconds between store checks while the channel layer is down: the watcher alone
    carries every push then."""
    return float(getattr(settings, "TAVLA_STREAM_WATCH_OUTAGE_SECONDS", 0.5) or 0.5)


def auth_recheck_interval() -> float:
    """Seconds between the checks of every open socket's token against the database: the
    bound on how long a revoked token's socket lives when no hint of it arrives."""
    return float(getattr(settings, "TAVLA_WS_AUTH_RECHECK_SECONDS", 10) or 10)


@dataclass(eq=False)
class Session:
    """An authenticated socket: its user's notifications, and a way to close it when its
    token is revoked (logout, password changed, account deactivated)."""

    user_id: int
    digest: str  # of the socket's token (ApiToken.digest)
    deliver: Callable[[dict[str, Any]], None]
    revoke: Callable[[], None]


@dataclass(eq=False)
class Listener:
    """One open stream on one match: woken when the feed moves on."""

    user_id: int | None = None
    present_every: float | None = None  # a seated player of a tracked match: touch this often
    chat: Callable[[dict[str, Any]], None] | None = None  # hears the match's chat lines
    touched: float = field(default_factory=time.monotonic)
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class Feed:
    """What this process knows of one match: events `base + 1 .. version` in `tail`."""

    match_id: str
    version: int
    over: bool
    base: int = 0
    tail: list[dict[str, Any]] = field(default_factory=list)
    listeners: set[Listener] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    fetching: bool = False
    refetch: bool = False
    _encoded: dict[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.base = self.version

    def after(self, seq: int) -> list[dict[str, Any]] | None:
        """The events after `seq` up to the version known, or None if the tail does not reach
        back that far (then they are read from the store)."""
        if seq >= self.version:
            return []
        if seq < self.base:
            return None
        return self.tail[seq - self.base :]

    def message_after(self, seq: int) -> str | None:
        """The `events` message of the events after `seq`, encoded once for every client at
        the same place (2,000 spectators of one match share one string)."""
        text = self._encoded.get(seq)
        if text is None:
            batch = self.after(seq)
            if not batch:
                return None
            text = self._encoded[seq] = dumps(events_message(self.match_id, batch))
        return text

    def extend(self, events: list[dict[str, Any]], over: bool | None = None) -> bool:
        """Add events that follow the tail; False (nothing added) if they do not."""
        fresh = [e for e in events if e["seq"] > self.version]
        if not fresh or fresh[0]["seq"] != self.version + 1:
            return False
        for expected, event in enumerate(fresh, self.version + 1):
            if event["seq"] != expected:
                return False
        self.tail.extend(fresh)
        self.version = fresh[-1]["seq"]
        if len(self.tail) > TAIL:
            cut = len(self.tail) - TAIL
            del self.tail[:cut]
            self.base += cut
        if over is not None:
            self.over = over
        self._encoded.clear()
        for listener in self.listeners:
            listener.wake.set()
        return True

    def finished(self, over: bool) -> None:
        if over and not self.over:
            self.over = True
            for listener in self.listeners:
                listener.wake.set()


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop of this process's hub (the server's loop), if there is one."""
    for loop in list(_hubs):
        if loop.is_running() and not loop.is_closed():
            return loop
    return None


def followed_here(loop: asyncio.AbstractEventLoop, match_id: str) -> bool:
    """Whether the hub of `loop` follows the match, asked from any thread. A feed made just
    after this said no reads the store once it is subscribed (`Hub.watch`), so an event
    committed before that read is not missed."""
    hub = _hubs.get(loop)
    return hub is not None and match_id in hub.feeds


def local_hub() -> Hub | None:
    """The hub of the running loop, if it has one (never makes one)."""
    return _hubs.get(asyncio.get_running_loop())


class Hub:
    """Feeds, notification inboxes and the background tasks that keep them current."""

    @classmethod
    def current(cls) -> Hub:
        loop = asyncio.get_running_loop()
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = cls()
        return hub

    def __init__(self) -> None:
        self.feeds: dict[str, Feed] = {}
        self.inboxes: dict[int, set[Session]] = {}
        self.lobby: set[Callable[[dict[str, Any]], None]] = set()  # the live lobby's sockets
        self.lobby_marks: dict[str, str] | None = None  # the lists as the watcher last saw them
        self.lobby_hinted: dict[str, float] = {}  # when the layer last brought a lobby hint
        self.layer = get_channel_layer()
        self.channel: str | None = None  # the hub's channel on the layer, while it is up
        self.groups: set[str] = set()  # the groups the hub needs (joined while the layer is up)
        self.layer_up = False
        self.pinged = 0.0  # monotonic time the last ping came back through the layer
        self.receiver: asyncio.Task[None] | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.fetches: set[asyncio.Task[None]] = set()
        self.checks: set[asyncio.Task[None]] = set()
        self.link_tried = asyncio.Event()  # the link's first attempt since the start is over

    # -- following matches ------------------------------------------------------------------

    async def watch(self, match_id: str, version: int, over: bool, listener: Listener) -> Feed:
        """Follow a match (read at `version`) for `listener`. Returns once hints for it reach
        this process, so a store read made after this misses nothing."""
        feed = self.feeds.get(match_id)
        if feed is None:
            feed = self.feeds[match_id] = Feed(match_id, version, over)
            try:
                await self._join(match_group(match_id))
            finally:
                feed.ready.set()
        else:
            await feed.ready.wait()
            if version > feed.version:
                self.catch_up(feed)
            feed.finished(over)
        feed.listeners.add(listener)
        return feed

    def detach(self, match_id: str, listener: Listener) -> None:
        """Stop waking and refreshing the presence of `listener` at once (no await);
        `unwatch` then tidies the feed and the layer's group."""
        feed = self.feeds.get(match_id)
        if feed is not None:
            feed.listeners.discard(listener)

    async def unwatch(self, match_id: str, listener: Listener) -> None:
        feed = self.feeds.get(match_id)
        if feed is None:
            return
        feed.listeners.discard(listener)
        if not feed.listeners and feed.ready.is_set():
            del self.feeds[match_id]
            await self._leave(match_group(match_id))
            self._stop_if_idle()

    def catch_up(self, feed: Feed) -> None:
        """Read the events after the feed's version from the store (one read at a time)."""
        if feed.fetching:
            feed.refetch = True
            return
        feed.fetching = True
        task = asyncio.get_running_loop().create_task(self._fetch(feed))
        self.fetches.add(task)
        task.add_done_callback(self.fetches.discard)

    async def _fetch(self, feed: Feed) -> None:
        try:
            while True:
                feed.refetch = False
                status, events = await in_thread(_status_and_events, feed.match_id, feed.version)
                over = status in OVER
                if events:
                    feed.extend(events, over)
                feed.finished(over)
                if not feed.refetch:
                    return
        except Exception:
            logger.exception("stream: reading match %s from the store failed", feed.match_id)
        finally:
            feed.fetching = False

    # -- notifications -----------------------------------------------------------------------

    async def open_inbox(self, session: Session) -> None:
        """The socket hears its user's notifications and revocations from now on."""
        boxes = self.inboxes.setdefault(session.user_id, set())
        first = not boxes
        boxes.add(session)
        if first:
            await self._join(user_group(session.user_id))

    def drop_inbox(self, session: Session) -> bool:
        """Forget the socket at once (no await, so nothing can interrupt it); True when it
        was the user's last one here and his group should be left (`close_inbox`)."""
        boxes = self.inboxes.get(session.user_id)
        if boxes is None or session not in boxes:
            return False
        boxes.discard(session)
        if boxes:
            return False
        del self.inboxes[session.user_id]
        return True

    async def close_inbox(self, session: Session) -> None:
        """`drop_inbox` (if not done yet), then leave the user's group if he has no other
        socket here."""
        self.drop_inbox(session)
        if session.user_id not in self.inboxes:
            await self._leave(user_group(session.user_id))
            self._stop_if_idle()

    # -- revoked tokens ----------------------------------------------------------------------

    def recheck(self, sessions: list[Session]) -> None:
        """Check these sockets' tokens against the database (in the background) and close
        those that are no longer valid."""
        if not sessions:
            return
        task = asyncio.get_running_loop().create_task(self._recheck(sessions))
        self.checks.add(task)
        task.add_done_callback(self.checks.discard)

    async def _recheck(self, sessions: list[Session]) -> None:
        try:
            valid = await in_thread(_valid_digests, {s.digest for s in sessions})
        except Exception:
            logger.warning("stream: the sockets' tokens could not be checked now", exc_info=False)
            return
        for session in sessions:
            if session.digest not in valid:
                session.revoke()

    # -- the live lobby ----------------------------------------------------------------------

    async def open_lobby(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        first = not self.lobby
        self.lobby.add(deliver)
        if first:
            await self._join(lobby.LOBBY_GROUP)
            try:  # the watcher's first sample, so a change from now on is seen
                self.lobby_marks = await in_thread(lobby.marks)
            except Exception:
                self.lobby_marks = None
                logger.exception("stream: the store watcher could not read the lobby")

    async def close_lobby(self, deliver: Callable[[dict[str, Any]], None]) -> None:
        if deliver not in self.lobby:
            return
        self.lobby.discard(deliver)
        if not self.lobby:
            await self._leave(lobby.LOBBY_GROUP)
            self._stop_if_idle()

    def lobby_changed(self, what: str, match_id: str | None, tournament: Any = None) -> None:
        note = {"type": "lobby", "what": what, "match": match_id}
        if tournament is not None:  # a tournament's change (docs/realtime.md "Tournaments")
            note["tournament"] = str(tournament)
        for deliver in list(self.lobby):
            deliver(note)

    async def _watch_lobby(self, interval: float) -> None:
        """The store watcher's part for the lobby: a hint for each list whose ids changed
        since its last look, unless the layer brought one for it meanwhile."""
        try:
            marks = await in_thread(lobby.marks)
        except Exception:
            logger.exception("stream: the store watcher could not read the lobby")
            return
        before, self.lobby_marks = self.lobby_marks, marks
        if before is None:
            return
        now = time.monotonic()
        for what, mark in marks.items():
            recent = now - self.lobby_hinted.get(what, -1e9) <= 2 * interval
            if before.get(what) != mark and not recent:
                self.lobby_changed(what, None)

    # -- messages from the channel layer ------------------------------------------------------

    def on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "match.committed":
            feed = self.feeds.get(str(message.get("match")))
            if feed is None or message["version"] <= feed.version:
                return
            if not feed.extend(message.get("events") or [], bool(message.get("over"))):
                self.catch_up(feed)  # a gap: the store fills it
        elif kind == "match.chat":  # a chat line (publish.chat): each socket decides
            feed = self.feeds.get(str(message.get("match")))
            for listener in list(feed.listeners if feed is not None else ()):
                if listener.chat is not None:
                    listener.chat(message)
        elif kind == "user.notification":
            for session in list(self.inboxes.get(int(message["user"]), ())):
                session.deliver(message["notification"])
        elif kind == "user.revoked":  # a token deleted, a password changed, a deactivation
            self.recheck(list(self.inboxes.get(int(message["user"]), ())))
        elif kind == "hub.ping":
            self.pinged = time.monotonic()
        elif kind == "lobby.changed" and message.get("what") in lobby.WHATS:
            self.lobby_hinted[message["what"]] = time.monotonic()
            match = message.get("match")
            self.lobby_changed(
                message["what"], None if match is None else str(match), message.get("tournament")
            )

    # -- the background tasks ----------------------------------------------------------------

    def _start(self) -> None:
        """The background tasks, once: the store watcher, presence and token checks first,
        whatever the channel layer does, then the link to the layer."""
        if self.tasks:
            return
        loop = asyncio.get_running_loop()
        self.link_tried.clear()
        self.tasks = [
            loop.create_task(self._watch()),
            loop.create_task(self._presence()),
            loop.create_task(self._check_tokens()),
        ]
        if self.layer is not None:
            self.tasks.append(loop.create_task(self._link()))

    def _stop_if_idle(self) -> None:
        if self.feeds or self.inboxes or self.lobby:
            return
        for task in self.tasks:
            task.cancel()
        self.tasks = []
        self._unlink()

    def _unlink(self) -> None:
        """Forget the layer's channel (the layer forgets a channel whose receiver stopped)."""
        if self.receiver is not None:
            self.receiver.cancel()
            self.receiver = None
        self.channel = None
        self.layer_up = False

    async def _layer_call(self, call: Awaitable[Any]) -> Any:
        return await asyncio.wait_for(call, LAYER_TIMEOUT)

    async def _join(self, group: str) -> None:
        """Hints for `group` from now on, when the layer is up (never raises: while the layer
        is down the watcher covers the group, and the link joins it when the layer is back)."""
        self.groups.add(group)
        self._start()
        if self.layer is not None and not self.link_tried.is_set():
            # the first join since the start waits for the link's first attempt (it joins
            # every group needed), as it waited for the channel before: a hint sent right
            # after this is heard
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.link_tried.wait(), LAYER_TIMEOUT)
        channel = self.channel
        if self.layer is None or channel is None:
            return
        try:
            await self._layer_call(self.layer.group_add(group, channel))
        except Exception as exc:
            self._layer_down(exc)

    async def _leave(self, group: str) -> None:
        self.groups.discard(group)
        channel = self.channel
        if self.layer is None or channel is None:
            return
        try:
            await self._layer_call(self.layer.group_discard(group, channel))
        except Exception as exc:
            self._layer_down(exc)

    def _layer_down(self, exc: BaseException) -> None:
        if self.layer_up:
            logger.warning(
                "stream: the channel layer is down (%r): the store watcher carries the pushes,"
                " every %.2f s, until it is back",
                exc,
                outage_watch_interval(),
            )
        self._unlink()

    async def _link(self) -> None:
        """Keep a channel on the layer, joined to every group the hub needs: make it (again)
        while the layer is down, and ping through it while it is up."""
        assert self.layer is not None
        failures = 0
        while True:
            if self.channel is None:
                try:
                    await self._connect()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self.link_tried.set()
                    failures += 1
                    if failures == 1:
                        logger.warning(
                            "stream: no channel layer (%r): the store watcher carries the"
                            " pushes until it answers",
                            exc,
                        )
                    await self._reset_layer()
                    await asyncio.sleep(LINK_RETRY)
                    continue
                self.link_tried.set()
                if failures:
                    logger.warning("stream: the channel layer is back: pushes by pub/sub again")
                failures = 0
            await asyncio.sleep(LINK_PING)
            channel = self.channel
            if channel is None:
                continue
            try:
                await self._layer_call(self.layer.send(channel, {"type": "hub.ping"}))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._layer_down(exc)
                failures = 1
                await self._reset_layer()
                continue
            if time.monotonic() - self.pinged > 3 * LINK_PING + LAYER_TIMEOUT:
                self._layer_down(TimeoutError("no ping came back through the channel layer"))
                failures = 1
                await self._reset_layer()

    async def _connect(self) -> None:
        """A new channel, joined to every group needed (those added meanwhile too)."""
        assert self.layer is not None
        channel = await self._layer_call(self.layer.new_channel("tavla-hub."))
        joined: set[str] = set()
        while pending := self.groups - joined:
            for group in pending:
                await self._layer_call(self.layer.group_add(group, channel))
                joined.add(group)
        self.pinged = time.monotonic()
        self.channel, self.layer_up = channel, True
        self.receiver = asyncio.get_running_loop().create_task(self._receive(channel))
        for feed in self.feeds.values():  # what was missed while the layer was down
            self.catch_up(feed)

    async def _reset_layer(self) -> None:
        """Drop the layer's half-made state (its subscriptions, its Redis connection), so the
        next attempt starts clean."""
        flush = getattr(self.layer, "flush", None)
        if flush is not None:
            with contextlib.suppress(Exception):
                await self._layer_call(flush())

    async def _receive(self, channel: str) -> None:
        assert self.layer is not None
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("stream: the channel layer failed; the store watcher goes on")
                await asyncio.sleep(1.0)
                continue
            try:
                self.on_message(message)
            except Exception:
                logger.exception("stream: a bad message from the channel layer: %r", message)

    async def _watch(self) -> None:
        interval = watch_interval()
        while True:
            up = self.layer is None or self.layer_up
            await asyncio.sleep(interval if up else min(interval, outage_watch_interval()))
            if self.lobby:
                await self._watch_lobby(interval)
            if not self.feeds:
                continue
            try:
                rows = await in_thread(_versions, list(self.feeds))
            except Exception:
                logger.exception("stream: the store watcher could not read versions")
                continue
            for match_id, (version, status) in rows.items():
                feed = self.feeds.get(match_id)
                if feed is None:
                    continue
                if version > feed.version:
                    self.catch_up(feed)
                elif status in OVER:
                    feed.finished(True)

    async def _presence(self) -> None:
        seeks_touched = time.monotonic()
        while True:
            await asyncio.sleep(PRESENCE_TICK)
            now = time.monotonic()
            if self.inboxes and now - seeks_touched >= seek_touch_interval():
                seeks_touched = now  # an open socket keeps its user's waiting seek alive
                try:
                    await in_thread(seeks.touch_users, list(self.inboxes))
                except Exception:
                    logger.exception("stream: seeks could not be kept alive")
                try:  # and shows him online to his friends (issue 28)
                    await in_thread(follows.seen_online, list(self.inboxes))
                except Exception:
                    logger.exception("stream: who is online could not be recorded")
            due: set[tuple[str, int]] = set()
            for feed in self.feeds.values():
                for listener in feed.listeners:
                    every = listener.present_every
                    if every and listener.user_id and now - listener.touched >= every:
                        listener.touched = now
                        due.add((feed.match_id, listener.user_id))
            if due:
                try:
                    await in_thread(presence.touch_connected, due)
                except Exception:
                    logger.exception("stream: presence could not be recorded")

    async def _check_tokens(self) -> None:
        """Every open socket's token, checked against the database now and then: a socket
        whose revocation hint was lost (the layer down) is closed within this interval."""
        while True:
            await asyncio.sleep(auth_recheck_interval())
            self.recheck([s for boxes in self.inboxes.values() for s in boxes])


def _valid_digests(digests: set[str]) -> set[str]:
    """The digests of these that belong to a token still valid: present, not expired, of an
    active account (read from the database, not the token cache)."""
    rows = ApiToken.objects.filter(digest__in=digests, user__is_active=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    )
    return set(rows.values_list("digest", flat=True))


def _versions(match_ids: list[str]) -> dict[str, tuple[int, str]]:
    rows = Match.objects.filter(pk__in=match_ids).values_list("pk", "version", "status")
    return {str(pk): (version, status) for pk, version, status in rows}


def _status_and_events(match_id: str, after: int) -> tuple[str | None, list[dict[str, Any]]]:
    """The status first, then the events: if it says over, the events read after it are all
    the events there will ever be."""
    status = Match.objects.filter(pk=match_id).values_list("status", flat=True).first()
    return status, events_json(stored_events(UUID(match_id), after))
