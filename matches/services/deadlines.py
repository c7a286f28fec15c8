"""Deadlines of clocked online matches: who is out of time, and the MatchClock index row.

The clock itself is pure (`games.rules.clock`, folded into every view by replay); this module
asks it and keeps the index that the sweeper reads in step, inside each command's transaction.
"""

from __future__ import annotations

from datetime import datetime

from matches.store import MatchView
from matches.store.models import Match, MatchClock
from matches.store.streams import ClockRow

from . import presence


def clocked(view: MatchView) -> bool:
    """An online match with a clock, both seats taken, still being played."""
    created = view.created
    return (
        view.clock is not None
        and created is not None
        and created.mode == str(Match.Mode.ONLINE)
        and view.full
        and view.state is not None
        and not view.state.is_over
    )


def deadline_of(view: MatchView) -> datetime | None:
    """When the running move is lost on time with no command from its player, for a match
    being played on a clock: the clock's deadline plus his lag grace (Clock.timeout_at)."""
    if not clocked(view) or view.clock is None:
        return None
    return view.clock.timeout_at()


def keeps_clock_row(view: MatchView) -> bool:
    """A match that has a MatchClock row from its start on: online, with a clock, both seats
    taken."""
    created = view.created
    return (
        view.clock is not None
        and view.full
        and view.match_id is not None
        and created is not None
        and created.mode == str(Match.Mode.ONLINE)
    )


def clock_row(view: MatchView) -> ClockRow | None:
    """The MatchClock row's values at `view`, for an append that writes them in its own
    statement; None for a match that keeps no such row."""
    if not keeps_clock_row(view):
        return None
    return ClockRow(active=clocked(view), deadline=deadline_of(view))


def record_deadline(view: MatchView, now: datetime) -> None:
    """Inside a command's transaction (Match row locked): keep the MatchClock row in step."""
    if not keeps_clock_row(view):
        return
    playing = clocked(view)
    deadline = deadline_of(view)
    updated = MatchClock.objects.filter(match_id=view.match_id).update(
        active=playing, version=view.version, deadline=deadline
    )
    if not updated:  # the match has just started
        MatchClock.objects.create(
            match_id=view.match_id, active=playing, version=view.version, deadline=deadline
        )
        if playing:
            presence.seen_at_start(view, now)


def out_of_time(view: MatchView, now: datetime, lag: float | None = None) -> int | None:
    """The seat whose clock has run out at `now` in a match still being played, if any.
    `lag`: judging a command of the running seat that reports this lag (seconds); None: the
    clock's tasks and anyone else, who wait out his lag grace too."""
    if view.clock is None or view.state is None or view.state.is_over or not view.full:
        return None
    return view.clock.out_of_time(now, lag)
