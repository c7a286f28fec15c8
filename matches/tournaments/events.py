"""The facts a tournament's stream records, as small typed classes serialised to JSON.

The same shape as the match stream's events (matches/store/events.py): each event has a
stable `type` (the name the store will keep beside the payload) and a payload with a schema
version `v`. Everything the tournament decided is in its events: the seeding with the ratings
it used, every round's boards, every result, so replay (state.py) rebuilds the tournament
without deciding anything again, even after a pairing rule changed. The acting user and the
time will be in the stored row, as for matches. This module imports nothing from Django.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from .settings import TournamentSettings

SCHEMA_VERSION = 1

Payload = dict[str, Any]
Pair = tuple[int | None, int | None]
"""A board's two players by user id: (player, None) is a bye, (None, None) an empty knockout
board (both players of the board before it gone, nobody goes on)."""


@dataclass(frozen=True)
class TournamentEvent:
    type: ClassVar[str]

    def to_payload(self) -> Payload:
        return {"v": SCHEMA_VERSION, **dataclasses.asdict(self)}

    @classmethod
    def from_payload(cls, payload: Payload) -> TournamentEvent:
        fields = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in payload.items() if k in fields})


@dataclass(frozen=True)
class TournamentCreated(TournamentEvent):
    """The settings, as checked when the tournament was created."""

    type: ClassVar[str] = "tournament_created"
    settings: TournamentSettings

    def to_payload(self) -> Payload:
        return {"v": SCHEMA_VERSION, "settings": self.settings.to_json()}

    @classmethod
    def from_payload(cls, payload: Payload) -> TournamentEvent:
        return cls(TournamentSettings.from_json(payload["settings"]))


@dataclass(frozen=True)
class PlayerJoined(TournamentEvent):
    """A player signed up. `kind` is the account's kind then (registered, guest, bot)."""

    type: ClassVar[str] = "player_joined"
    user_id: int
    name: str
    kind: str = "registered"


@dataclass(frozen=True)
class PlayerLeft(TournamentEvent):
    """A player took his name off before the start."""

    type: ClassVar[str] = "player_left"
    user_id: int


@dataclass(frozen=True)
class Seed:
    user_id: int
    rating: float


@dataclass(frozen=True)
class TournamentStarted(TournamentEvent):
    """Sign-up closed: the field in seed order (1 first), with the ratings the seeding used,
    so a later change of rating never changes a tournament's seeding or tie-breaks."""

    type: ClassVar[str] = "tournament_started"
    seeds: tuple[Seed, ...]

    def to_payload(self) -> Payload:
        return {"v": SCHEMA_VERSION, "seeds": [[s.user_id, s.rating] for s in self.seeds]}

    @classmethod
    def from_payload(cls, payload: Payload) -> TournamentEvent:
        return cls(tuple(Seed(int(u), float(r)) for u, r in payload["seeds"]))


@dataclass(frozen=True)
class TournamentCancelled(TournamentEvent):
    """The tournament will not be played: `reason` "too_few_players" (at the start time, with
    `players` signed up) or "staff"."""

    type: ClassVar[str] = "tournament_cancelled"
    reason: str
    players: int = 0


@dataclass(frozen=True)
class RoundPaired(TournamentEvent):
    """A round's boards, in bracket order for a knockout. A bye counts as a win, at once.
    `length` is the match length of the round; `matches` the ids of the matches the service
    created for the boards (None for a bye; empty when no match was made yet)."""

    type: ClassVar[str] = "round_paired"
    round: int
    boards: tuple[Pair, ...]
    length: int
    matches: tuple[str | None, ...] = ()

    def to_payload(self) -> Payload:
        return {
            "v": SCHEMA_VERSION,
            "round": self.round,
            "boards": [list(b) for b in self.boards],
            "length": self.length,
            "matches": list(self.matches),
        }

    @classmethod
    def from_payload(cls, payload: Payload) -> TournamentEvent:
        boards = tuple((a, b) for a, b in payload["boards"])
        return cls(payload["round"], boards, payload["length"], tuple(payload.get("matches", ())))


@dataclass(frozen=True)
class MatchResult(TournamentEvent):
    """A board's match ended: the winner (None: both players lost it, both gone), the match
    score in the board's order, and how it ended ("played", "forfeit", "timeout", "resigned",
    "withdrawn")."""

    type: ClassVar[str] = "match_result"
    round: int
    board: int
    winner: int | None
    score: tuple[int, int] = (0, 0)
    ended_by: str = "played"

    def to_payload(self) -> Payload:
        return {**super().to_payload(), "score": list(self.score)}

    @classmethod
    def from_payload(cls, payload: Payload) -> TournamentEvent:
        return cls(
            payload["round"],
            payload["board"],
            payload["winner"],
            (payload["score"][0], payload["score"][1]),
            payload.get("ended_by", "played"),
        )


@dataclass(frozen=True)
class PlayerWithdrawn(TournamentEvent):
    """A player left the running tournament (or staff removed him): he is paired no more and
    forfeits his unfinished match (its own match_result records that)."""

    type: ClassVar[str] = "player_withdrawn"
    user_id: int
    reason: str = "left"


@dataclass(frozen=True)
class TournamentFinished(TournamentEvent):
    """The final standings, first place first. `reason`: "completed" (every round played),
    or "no_pairing" (a Swiss round could not be paired without a repeat: the standings of the
    rounds played are final)."""

    type: ClassVar[str] = "tournament_finished"
    standings: tuple[int, ...]
    winner: int | None
    reason: str = "completed"

    def to_payload(self) -> Payload:
        return {**super().to_payload(), "standings": list(self.standings)}

    @classmethod
    def from_payload(cls, payload: Payload) -> TournamentEvent:
        return cls(
            tuple(payload["standings"]), payload["winner"], payload.get("reason", "completed")
        )


EVENT_TYPES: dict[str, type[TournamentEvent]] = {
    cls.type: cls
    for cls in (
        TournamentCreated,
        PlayerJoined,
        PlayerLeft,
        TournamentStarted,
        TournamentCancelled,
        RoundPaired,
        MatchResult,
        PlayerWithdrawn,
        TournamentFinished,
    )
}


def event_from_payload(type_: str, payload: Payload) -> TournamentEvent:
    """Rebuild an event from its stored form."""
    version = payload.get("v", 1)
    if version > SCHEMA_VERSION:
        raise ValueError(f"event {type_} has schema version {version}, newer than this code")
    return EVENT_TYPES[type_].from_payload(payload)
