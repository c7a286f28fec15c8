"""The facts a match stream records, as small typed classes serialised to JSON.

Each event has a `type` (the name stored in `MatchEvent.type`) and a payload with an explicit
schema version `v`. Every non-deterministic input is in the event: the dice in the payload,
the acting user and the time in the row (`MatchEvent.actor`, `MatchEvent.created_at`).
`to_action()` turns an event into the rules engine's action; events that only concern the
store (creation, seats, a rematch offered after the end, staff marking a match unrated) have
none. This module imports nothing from Django.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import games.rules as rules
from games.rules import Dice, Step, format_play

SCHEMA_VERSION = 1
"""The version new events are written with. Raising it: register an upcaster (below) from the
old version of every event type whose payload changed, so stored streams replay unchanged."""

Payload = dict[str, Any]
UPCASTERS: dict[tuple[str, int], Callable[[Payload], Payload]] = {}
"""(event type, version) -> a function turning that payload into the next version's."""


def upcaster(
    type_: str, version: int
) -> Callable[[Callable[[Payload], Payload]], Callable[[Payload], Payload]]:
    """Register how a `type_` payload of schema `version` becomes one of `version + 1`."""

    def register(fn: Callable[[Payload], Payload]) -> Callable[[Payload], Payload]:
        UPCASTERS[(type_, version)] = fn
        return fn

    return register


def upcast(type_: str, payload: Payload) -> Payload:
    """A stored payload brought up to SCHEMA_VERSION, one version at a time, on read. Types
    whose payload did not change between two versions need no upcaster for that step."""
    version = payload.get("v", 1)
    if version > SCHEMA_VERSION:
        raise ValueError(f"event {type_} has schema version {version}, newer than this code")
    while version < SCHEMA_VERSION:
        step = UPCASTERS.get((type_, version))
        payload = step(dict(payload)) if step is not None else dict(payload)
        version += 1
        payload["v"] = version
    return payload


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS.setdefault(cls, tuple(f.name for f in dataclasses.fields(cls)))
    return names


_FIELDS: dict[type, tuple[str, ...]] = {}  # per event class


def _copied(value: Any) -> Any:
    """A field's value copied as `dataclasses.asdict` copies it: JSON values (lists and
    dicts anew) here, anything else by `asdict` itself."""
    if type(value) is list:
        return [_copied(v) for v in value]
    if type(value) is dict:
        return {k: _copied(v) for k, v in value.items()}
    if value is None or type(value) in (int, str, bool, float):
        return value
    return dataclasses.asdict(_Holder(value))["value"]


@dataclass(frozen=True)
class _Holder:
    """What is not a JSON value is copied by `asdict`, through this one-field holder."""

    value: Any


@dataclass(frozen=True)
class Event:
    type: ClassVar[str]
    # Seconds of lag compensation granted to the running move by the command this event
    # starts (games.rules.clock.LagTracker); None (and absent from the payload): no lag
    # reported. Decided when written, never re-judged.
    lag: float | None = dataclasses.field(default=None, kw_only=True)

    def to_payload(self) -> dict[str, Any]:
        """`{"v": ..., **dataclasses.asdict(self)}` (without `lag` when there is none), copied
        by hand: the fields hold only JSON values (numbers, strings, lists, dicts), and
        `asdict`'s recursion cost more than the rest of numbering a command's events
        (tests/store/test_payloads.py holds the two equal)."""
        payload: dict[str, Any] = {"v": SCHEMA_VERSION}
        for name in _field_names(type(self)):
            payload[name] = _copied(getattr(self, name))
        if payload["lag"] is None:
            del payload["lag"]
        return payload

    def to_action(self) -> rules.Action | None:
        return None


@dataclass(frozen=True)
class MatchCreated(Event):
    """The settings the match is played with; the stream alone rebuilds the match."""

    type: ClassVar[str] = "match_created"
    length: int
    cube: bool
    crawford: bool
    jacoby: bool
    backgammon_value: int
    next_game_starter: str
    mode: str
    clock: dict[str, int] | None = None
    computer_level: str = ""
    game: str = "tavla"  # streams written before long nardy existed are tavla
    # Counts for the ratings when both players may be rated (docs/ratings.md). Streams written
    # before ratings existed have no flag: their online matches were rated by default.
    rated: bool = True
    # The players may ask for hints (GET /matches/{id}/hint): created so, never rated.
    hints: bool = False

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if not payload["hints"]:
            del payload["hints"]  # the payload of a match without hints is as it always was
        return payload

    def settings(self) -> rules.MatchSettings:
        return rules.MatchSettings(
            game=rules.Variant(self.game),
            length=self.length,
            cube=self.cube,
            crawford=self.crawford,
            jacoby=self.jacoby,
            backgammon_value=self.backgammon_value,
            next_game_starter=rules.Starter(self.next_game_starter),
        )


@dataclass(frozen=True)
class PlayerJoined(Event):
    type: ClassVar[str] = "player_joined"
    seat: int
    user_id: int | None  # None for a named player without an account (imported matches)
    name: str
    # The account's kind when he sat down (registered, guest, bot, computer): ratings need the
    # kind the match was played as, even if a guest registers later. "" in older streams.
    kind: str = ""


@dataclass(frozen=True)
class OpeningRolled(Event):
    """One die each; a tie is rolled again (another opening_roll event)."""

    type: ClassVar[str] = "opening_roll"
    die0: int
    die1: int

    def to_action(self) -> rules.Action:
        return rules.OpeningRoll(self.die0, self.die1)


@dataclass(frozen=True)
class Rolled(Event):
    type: ClassVar[str] = "rolled"
    seat: int
    dice: list[int]

    def to_action(self) -> rules.Action:
        return rules.Roll(self.seat, Dice.of(self.dice[0], self.dice[1]))


@dataclass(frozen=True)
class Moved(Event):
    """A whole play as steps [from, to, hit] in the mover's numbering (25 bar, 0 off)."""

    type: ClassVar[str] = "moved"
    seat: int
    steps: list[list[int]]
    notation: str

    def to_action(self) -> rules.Action:
        return rules.Move(self.seat, tuple(Step(f, t, bool(h)) for f, t, h in self.steps))


@dataclass(frozen=True)
class Passed(Event):
    """The roll could not be played; recorded by the server, the turn moves on."""

    type: ClassVar[str] = "passed"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.Move(self.seat, ())


@dataclass(frozen=True)
class CubeOffered(Event):
    type: ClassVar[str] = "cube_offered"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.Double(self.seat)


@dataclass(frozen=True)
class CubeTaken(Event):
    type: ClassVar[str] = "cube_taken"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.Take(self.seat)


@dataclass(frozen=True)
class CubeDropped(Event):
    type: ClassVar[str] = "cube_dropped"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.Drop(self.seat)


@dataclass(frozen=True)
class ResignOffered(Event):
    type: ClassVar[str] = "resign_offered"
    seat: int
    value: int

    def to_action(self) -> rules.Action:
        return rules.Resign(self.seat, self.value)


@dataclass(frozen=True)
class ResignAccepted(Event):
    type: ClassVar[str] = "resign_accepted"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.AcceptResign(self.seat)


@dataclass(frozen=True)
class ResignRejected(Event):
    type: ClassVar[str] = "resign_rejected"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.RejectResign(self.seat)


@dataclass(frozen=True)
class TimedOut(Event):
    """The seat's time ran out: it loses the match."""

    type: ClassVar[str] = "timed_out"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.LoseMatch(self.seat, rules.EndedBy.TIMEOUT)


@dataclass(frozen=True)
class Forfeited(Event):
    """The seat loses the match without time running out (left and did not come back)."""

    type: ClassVar[str] = "forfeited"
    seat: int
    reason: str

    def to_action(self) -> rules.Action:
        return rules.LoseMatch(self.seat, rules.EndedBy.FORFEIT)


@dataclass(frozen=True)
class MatchResigned(Event):
    """The seat gave up the whole match: the opponent gets the points the match still needed."""

    type: ClassVar[str] = "match_resigned"
    seat: int

    def to_action(self) -> rules.Action:
        return rules.LoseMatch(self.seat, rules.EndedBy.RESIGN)


@dataclass(frozen=True)
class Aborted(Event):
    type: ClassVar[str] = "aborted"
    reason: str

    def to_action(self) -> rules.Action:
        return rules.Abort(self.reason)


@dataclass(frozen=True)
class RematchOffered(Event):
    """A player of a finished match asked for a rematch: the new match's id. It changes
    nothing in the game; it tells whoever follows this match's stream where the rematch is."""

    type: ClassVar[str] = "rematch_offered"
    seat: int
    match_id: str


@dataclass(frozen=True)
class MarkedUnrated(Event):
    """Staff took the match out of the ratings (the acting staff member is the event's actor).

    It changes nothing in the game and may follow the end of the match; the ratings are
    recomputed without it (docs/ratings.md)."""

    type: ClassVar[str] = "marked_unrated"
    reason: str = ""


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        MatchCreated,
        PlayerJoined,
        OpeningRolled,
        Rolled,
        Moved,
        Passed,
        CubeOffered,
        CubeTaken,
        CubeDropped,
        ResignOffered,
        ResignAccepted,
        ResignRejected,
        TimedOut,
        Forfeited,
        MatchResigned,
        Aborted,
        RematchOffered,
        MarkedUnrated,
    )
}


def event_from_payload(type_: str, payload: dict[str, Any]) -> Event:
    """Rebuild an event from its stored form, upcasting older schema versions first."""
    cls = EVENT_TYPES[type_]
    payload = upcast(type_, payload)
    fields = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in payload.items() if k in fields})


def event_for_action(action: rules.Action) -> Event:
    """The event that records a rules action decided by a command."""
    match action:
        case rules.OpeningRoll():
            return OpeningRolled(action.die0, action.die1)
        case rules.Roll():
            return Rolled(action.player, action.dice.to_json())
        case rules.Move() if not action.steps:
            return Passed(action.player)
        case rules.Move():
            steps = [[s.frm, s.to, int(s.hit)] for s in action.steps]
            return Moved(action.player, steps, format_play(action.steps))
        case rules.Double():
            return CubeOffered(action.player)
        case rules.Take():
            return CubeTaken(action.player)
        case rules.Drop():
            return CubeDropped(action.player)
        case rules.Resign():
            return ResignOffered(action.player, action.value)
        case rules.AcceptResign():
            return ResignAccepted(action.player)
        case rules.RejectResign():
            return ResignRejected(action.player)
        case rules.LoseMatch() if action.reason == rules.EndedBy.TIMEOUT:
            return TimedOut(action.player)
        case rules.LoseMatch() if action.reason == rules.EndedBy.RESIGN:
            return MatchResigned(action.player)
        case rules.LoseMatch():
            return Forfeited(action.player, action.reason.value)
        case rules.Abort():
            return Aborted(action.reason)
    raise TypeError(f"no event for {action!r}")  # pragma: no cover
