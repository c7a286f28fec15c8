"""Who is connected to a clocked online match, for the reconnect rule (README "Clocks").

"Connected" for an HTTP client: a seated player is connected to an active online match with a
clock while his last authenticated request on that match is at most the clock's `reconnect`
seconds old. Every request on the match counts (the state, the events long-poll, while it
waits too, any action, and `POST /matches/{id}/heartbeat`), and so does an open WebSocket
subscription or Server-Sent Events stream (`touch_connected`, from matches/streams/hub.py).
Both seats are seen when the match starts. A player not seen for longer than the grace loses
the match by forfeit (the clock sweeper, matches/services/clock.py). `reconnect: 0` turns the
rule off for a match.

Presence is one small row per seat (MatchPresence), moved forward with one UPDATE, never an
event: it is not part of the match's history, only of the decision to end it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from matches.store.models import Match, MatchPresence, PlayerProfile
from matches.store.replay import MatchView

COMPUTER = str(PlayerProfile.Kind.COMPUTER)

# A touch writes only if the stored time is older than this: a burst of requests (a state
# read right after a move, the long-poll) costs one UPDATE, not one each.
RESOLUTION = timedelta(seconds=0.5)
# The long-poll touches again while it waits, at most this often (and 3 times per grace).
LONG_POLL_REFRESH = 5.0


def tracked(match: Match) -> bool:
    """Matches whose players can be forfeited for leaving: online, with a clock."""
    return match.mode == Match.Mode.ONLINE and bool(match.clock) and grace_of(match) > 0


def grace_of(match: Match) -> float:
    clock = match.clock or {}
    try:
        return float(clock.get("reconnect", 0) or 0)
    except (TypeError, ValueError):
        return 0.0


def refresh_every(match: Match) -> float:
    """How often a waiting long-poll should touch again."""
    return max(0.2, min(LONG_POLL_REFRESH, grace_of(match) / 3))


def touch(match: Match, user: Any, now: datetime | None = None) -> int:
    """The user made an authenticated request on the match now: one UPDATE (0 rows for a
    spectator, an anonymous reader, or a match without a clock)."""
    if user is None or not getattr(user, "is_authenticated", False) or not tracked(match):
        return 0
    if match.status != Match.Status.ACTIVE:
        return 0
    if user.pk not in (match.player0_id, match.player1_id):
        return 0
    now = now or timezone.now()
    return MatchPresence.objects.filter(
        match_id=match.pk, user_id=user.pk, last_seen__lt=now - RESOLUTION
    ).update(last_seen=now)


def touch_connected(pairs: Iterable[tuple[Any, int]], now: datetime | None = None) -> int:
    """Players with a stream open on a match (WebSocket, Server-Sent Events, a waiting
    long-poll) are connected: one UPDATE for all of them (matches/streams/hub.py). Pairs are
    (match id, user id) of seated players of tracked matches; others match no row."""
    now = now or timezone.now()
    wanted = Q()
    for match_id, user_id in pairs:
        wanted |= Q(match_id=match_id, user_id=user_id)
    if not wanted:
        return 0
    return MatchPresence.objects.filter(wanted, last_seen__lt=now - RESOLUTION).update(
        last_seen=now
    )


def seen_at_start(view: MatchView, now: datetime) -> None:
    """The match has just started: both seated players are seen now (inside its transaction).

    Seats without an account (named players of an import) are not tracked, nor the computer
    (it never connects; it is never gone)."""
    if view.clock is None or view.clock.settings.reconnect <= 0:
        return
    grace = timedelta(seconds=view.clock.settings.reconnect)
    rows = [
        MatchPresence(match_id=view.match_id, seat=i, user_id=s.user_id, last_seen=now, grace=grace)
        for i, s in enumerate(view.seats)
        if s is not None and s.user_id is not None and s.kind != COMPUTER
    ]
    MatchPresence.objects.bulk_create(rows, ignore_conflicts=True)


def last_seen(match_id: Any) -> dict[int, datetime]:
    return dict(MatchPresence.objects.filter(match_id=match_id).values_list("seat", "last_seen"))
