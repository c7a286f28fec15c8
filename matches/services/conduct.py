"""Early exits: players who leave online matches before moving (docs/ratings.md, "Abuse").

An early exit is an online match with both seats taken that a player aborted (he may only
before the first move), or lost on time or by forfeit without having moved, on one of the
site's clocks: with a creator's own clock (not a preset) losing before the first move is the
clock's doing, not the player's (a 1 s trap clock, issue 24), so it is no exit. It is recorded
(`EarlyExit`) in the transaction that stores the end of the match, counted on the player's
page and in the admin, and the seek queue refuses a player with too many recent ones
(`refusal`). `rebuild` recomputes the records from the events.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max

import games.rules as rules
from matches.store.models import EarlyExit, Match, MatchEvent
from matches.store.replay import MatchView, replay
from matches.store.streams import stored_events

from .ratings import is_preset

KINDS = {
    rules.EndedBy.ABORT: EarlyExit.Kind.ABORTED,
    rules.EndedBy.TIMEOUT: EarlyExit.Kind.TIMEOUT,
    rules.EndedBy.FORFEIT: EarlyExit.Kind.FORFEIT,
}


def early_exit(view: MatchView, actor_id: int | None, moved: set[int]) -> tuple[int, str] | None:
    """(user id, kind) when the end at `view` is an early exit; `actor_id` the user who wrote
    the ending event, `moved` the seats that made a play (a `moved` event) before it."""
    created, state = view.created, view.state
    if created is None or state is None or not state.is_over or created.mode != "online":
        return None
    if not view.full or state.ended_by not in KINDS:
        return None
    if state.ended_by == rules.EndedBy.ABORT:  # by a player; staff aborts are not his doing
        if actor_id is None or not view.seats_of(actor_id):
            return None
        return actor_id, str(KINDS[state.ended_by])
    if state.winner is None:
        return None  # pragma: no cover - a timeout or forfeit has a winner
    if created.clock is not None and not is_preset(created.clock):
        return None  # the creator's own clock decided it
    loser = view.seats[1 - state.winner]
    if loser is None or loser.user_id is None or (1 - state.winner) in moved:
        return None
    return loser.user_id, str(KINDS[state.ended_by])


def on_match_end(view: MatchView, actor_id: int | None) -> None:
    """Called by the command path right after it stored the end of a match."""
    if view.match_id is None or view.created is None or view.created.mode != "online":
        return
    found = early_exit(view, actor_id, moved_seats(view.match_id))
    if found is not None:
        user_id, kind = found
        EarlyExit.objects.get_or_create(
            match_id=view.match_id,
            user_id=user_id,
            defaults={"kind": kind, "at": view.finished_at or view.last_at},
        )


def moved_seats(match_id: Any) -> set[int]:
    seats = MatchEvent.objects.filter(match_id=match_id, type="moved").values_list(
        "payload__seat", flat=True
    )
    return {int(s) for s in seats.distinct()}


# -- the seek queue's rule ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a player may not seek now, and until when."""

    early_exits: int
    until: datetime


def standing(user: Any, now: datetime) -> tuple[int, datetime | None]:
    """How many of his early exits count now, and until when the seek queue refuses him
    (None: it does not). TAVLA_SEEK_EXIT_LIMIT early exits within TAVLA_SEEK_EXIT_WINDOW
    seconds close the queue to him until TAVLA_SEEK_EXIT_COOLDOWN seconds after the last."""
    limit = int(getattr(settings, "TAVLA_SEEK_EXIT_LIMIT", 3))
    window = timedelta(seconds=float(getattr(settings, "TAVLA_SEEK_EXIT_WINDOW", 86400)))
    cooldown = timedelta(seconds=float(getattr(settings, "TAVLA_SEEK_EXIT_COOLDOWN", 3600)))
    recent = EarlyExit.objects.filter(user_id=user.pk, at__gte=now - window).aggregate(
        n=Count("pk"), last=Max("at")
    )
    if limit <= 0 or recent["n"] < limit or recent["last"] is None:
        return recent["n"], None
    until = recent["last"] + cooldown
    return recent["n"], (until if until > now else None)


def refusal(user: Any, now: datetime) -> Refusal | None:
    """Why the seek queue refuses him now, or None."""
    recent, until = standing(user, now)
    return None if until is None else Refusal(recent, until)


# -- rebuilt from the events ---------------------------------------------------------------------


def rebuild() -> int:
    """Recompute every early exit from the stored events; how many there are."""
    ended = Match.objects.filter(
        mode=Match.Mode.ONLINE,
        ended_by__in=[Match.EndedBy.ABORT, Match.EndedBy.TIMEOUT, Match.EndedBy.FORFEIT],
    ).values_list("pk", flat=True)
    rows = []
    for match_id in ended.iterator():
        events = stored_events(match_id)
        view = MatchView(match_id)
        for stored in events:
            was_over = view.state is not None and view.state.is_over
            view = replay((stored,), view)
            if not was_over and view.state is not None and view.state.is_over:
                moved = {int(e.payload["seat"]) for e in events if e.type == "moved"}
                found = early_exit(view, stored.actor_id, moved)
                if found is not None:
                    user_id, kind = found
                    rows.append(
                        EarlyExit(match_id=match_id, user_id=user_id, kind=kind, at=stored.at)
                    )
    with transaction.atomic():
        EarlyExit.objects.all().delete()
        EarlyExit.objects.bulk_create(rows)
    return len(rows)
