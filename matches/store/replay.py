"""Rebuilding a match from its events: a pure fold, no database access.

Replay never re-judges (events were checked when they were written): the settings, the clock
and every action are read as recorded, even after a rule or a limit changed. It does check
that the sequence numbers run 1, 2, 3, ... without gaps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import games.rules as rules
from games.rules import Clock, ClockSettings

from .events import (
    Event,
    MarkedUnrated,
    MatchCreated,
    PlayerJoined,
    RematchOffered,
    event_from_payload,
)


class ReplayError(Exception):
    """The stored stream is broken (a gap in seq, an unknown event): data corruption."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as the store keeps it: its place in the stream, who and when."""

    seq: int
    type: str
    payload: dict[str, Any]
    actor_id: int | None
    at: datetime

    @property
    def event(self) -> Event:
        return event_from_payload(self.type, self.payload)


@dataclass(frozen=True, slots=True)
class Seat:
    user_id: int | None
    name: str
    kind: str = ""  # as recorded when he sat down ("" in streams older than ratings)


@dataclass(frozen=True, slots=True)
class MatchView:
    """Everything replay knows about a match at `version`."""

    match_id: UUID | None = None
    version: int = 0
    created: MatchCreated | None = None
    seats: tuple[Seat | None, Seat | None] = (None, None)
    state: rules.MatchState | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    last_at: datetime | None = None
    turn_started_at: datetime | None = None  # when the seat to act got the turn (for clocks)
    finished_at: datetime | None = None
    moves: int = 0  # plays and passes so far: a match with none may still be aborted
    clock: Clock | None = None  # online matches with a clock: reserves and the running move
    rematch: str | None = None  # the id of the rematch offered once the match is over
    marked_unrated: bool = False  # staff took it out of the ratings (a marked_unrated event)

    @property
    def full(self) -> bool:
        return self.seats[0] is not None and self.seats[1] is not None

    @property
    def player_may_abort(self) -> bool:
        """Whether a player may still end the match with no winner. Fair dice: an online
        match only until its opening roll is out (the server rolls it as the second player
        sits down), so nobody sees the roll and aborts to fish for a better one; hot-seat and
        computer matches (no opponent to wrong, never rated) until the first move."""
        if self.moves:
            return False
        online = self.created is not None and self.created.mode == "online"
        return not (online and self.full)

    def seats_of(self, user_id: int) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.user_id == user_id]


def fold(view: MatchView, stored: StoredEvent) -> MatchView:
    """The view after one more event."""
    return replay((stored,), view)


def replay(events: Iterable[StoredEvent], start: MatchView | None = None) -> MatchView:
    """Fold events into a view. The fields are folded in a dict and the view built once at the
    end: rebuilding a frozen view for every event was most of the cost of a long replay."""
    view = start or MatchView()
    fields = {name: getattr(view, name) for name in _FIELDS}
    folded = False
    for stored in events:
        _fold_into(fields, stored, stored.event, None)
        folded = True
    return MatchView(**fields) if folded else view


@dataclass(frozen=True, slots=True)
class Decided:
    """A command's event as it was decided: the event itself and, for an event the rules
    fold, the state the judgement led to. Appending it folds the view with these, so a
    decided command is neither parsed back from its payload nor applied a second time."""

    event: Event
    state: rules.MatchState | None = None


def extended(
    view: MatchView, stored: Iterable[StoredEvent], decided: Iterable[Decided]
) -> MatchView:
    """`view` after a command's events, numbered as `stored`, with the states `decided` says
    (an event without one is folded as replay folds it)."""
    fields = {name: getattr(view, name) for name in _FIELDS}
    folded = False
    for one, d in zip(stored, decided, strict=True):
        _fold_into(fields, one, d.event, d.state)
        folded = True
    return MatchView(**fields) if folded else view


def _fold_into(
    v: dict[str, Any], stored: StoredEvent, event: Event, state: rules.MatchState | None
) -> None:
    if stored.seq != v["version"] + 1:
        raise ReplayError(f"event seq {stored.seq} follows {v['version']}: the stream has a gap")
    v["version"] = stored.seq
    if isinstance(event, RematchOffered):  # after the end: the game is unchanged
        v["rematch"] = event.match_id
        return
    if isinstance(event, MarkedUnrated):  # a staff decision: the game and its times stay
        v["marked_unrated"] = True
        return
    v["last_at"] = stored.at
    if isinstance(event, MatchCreated):
        v["created"] = event
        v["state"] = rules.MatchState.new(event.settings(), check=False)  # never re-judged
        v["created_at"] = stored.at
        if event.clock is not None:
            v["clock"] = Clock.new(ClockSettings.from_json(event.clock, check=False))
    elif isinstance(event, PlayerJoined):
        seats = list(v["seats"])
        seats[event.seat] = Seat(event.user_id, event.name, event.kind)
        v["seats"] = (seats[0], seats[1])
        if seats[0] is not None and seats[1] is not None:
            v["started_at"] = stored.at
    else:
        before = v["state"]
        action = None if state is not None else event.to_action()
        if before is None or (state is None and action is None):
            raise ReplayError(f"event {stored.seq} ({stored.type}) has nothing to apply to")
        if state is not None:  # decided just now: the judgement's own state
            after = state
        else:  # a recorded fact, never re-judged
            assert action is not None
            after = rules.apply(before, action, check=False)
        v["state"] = after
        if after.to_act != before.to_act or after.phase != before.phase:
            v["turn_started_at"] = stored.at
        if v["clock"] is not None:
            if event.lag is not None:  # lag compensation granted when it was written
                v["clock"] = v["clock"].credited(event.lag)
            v["clock"] = v["clock"].switch(None if after.is_over else after.to_act, stored.at)
        if stored.type in ("moved", "passed"):
            v["moves"] += 1
        if after.is_over:
            v["finished_at"] = stored.at


_FIELDS = tuple(f.name for f in dataclasses.fields(MatchView))
