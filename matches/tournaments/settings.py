"""What a tournament is played with, and why some settings cannot be played.

Settings are checked once, when the tournament is created (its `tournament_created` event
records them as checked; replay never re-judges them). A refusal (refusals.py) names the field
at fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from games.rules import MAX_MATCH_LENGTH, Variant

from .refusals import InvalidTournamentSettings

MAX_PLAYERS = 1024
"""The largest field: a Swiss round of this many is paired well under a second
(benchmarks/tournament_bench.py), a knockout of it has ten rounds."""

MAX_NAME = 100


class Format(StrEnum):
    KNOCKOUT = "knockout"
    SWISS = "swiss"


@dataclass(frozen=True)
class TournamentSettings:
    """A tournament's settings. `rounds` is the Swiss's number of rounds (a knockout has as
    many as its field needs); `final_length` the knockout final's match length (None: the same
    as the rounds before it); `clock` a clock preset's name (matches.services.ratings)."""

    name: str
    game: str
    format: str
    length: int
    clock: str
    starts_at: datetime
    rated: bool = True
    guests: bool = False
    min_players: int = 4
    max_players: int = 64
    rounds: int | None = None
    final_length: int | None = None
    signup_opens: datetime | None = None  # None: open from creation

    def check(self, clocks: Collection[str] = (), now: datetime | None = None) -> None:
        """Raise InvalidTournamentSettings (naming the field) unless these settings can be
        played. `clocks`: the preset names the site offers (empty: not checked here); `now`:
        refuse a start time that has passed."""
        _refuse_unless(
            0 < len(self.name.strip()) <= MAX_NAME, "tournament_name", "name", max=MAX_NAME
        )
        _refuse_unless(self.game in tuple(Variant), "tournament_game", "game")
        _refuse_unless(self.format in tuple(Format), "tournament_format", "format")
        _refuse_unless(
            _is_int(self.length) and 1 <= self.length <= MAX_MATCH_LENGTH,
            "tournament_length",
            "length",
            max=MAX_MATCH_LENGTH,
        )
        if self.format == Format.SWISS:
            _refuse_unless(self.final_length is None, "final_length_swiss", "final_length")
        elif self.final_length is not None:
            _refuse_unless(
                _is_int(self.final_length) and self.length <= self.final_length <= MAX_MATCH_LENGTH,
                "final_length",
                "final_length",
                length=self.length,
                max=MAX_MATCH_LENGTH,
            )
        _refuse_unless(_is_int(self.min_players) and self.min_players >= 2, "min_players", "")
        _refuse_unless(
            _is_int(self.max_players) and self.min_players <= self.max_players <= MAX_PLAYERS,
            "max_players",
            "max_players",
            min=self.min_players,
            max=MAX_PLAYERS,
        )
        if self.format == Format.SWISS:
            rounds = self.rounds
            _refuse_unless(
                rounds is not None and _is_int(rounds) and 1 <= rounds < MAX_PLAYERS,
                "swiss_rounds",
                "rounds",
                max=MAX_PLAYERS - 1,
            )
            # Each round every player meets somebody new: with fewer than rounds + 1 players
            # some pair would have to meet twice. (More players still do not promise every
            # round a pairing; swiss.py says what happens then.)
            assert rounds is not None
            _refuse_unless(
                rounds <= self.min_players - 1,
                "too_many_rounds",
                "rounds",
                rounds=rounds,
                need=rounds + 1,
            )
        else:
            _refuse_unless(self.rounds is None, "knockout_rounds", "rounds")
        if clocks:
            _refuse_unless(
                self.clock in clocks, "tournament_clock", "clock", presets=", ".join(clocks)
            )
        _refuse_unless(not (self.rated and self.guests), "guests_rated", "guests")
        _refuse_unless(self.starts_at.utcoffset() is not None, "starts_at", "starts_at")
        if self.signup_opens is not None:
            _refuse_unless(self.signup_opens.utcoffset() is not None, "starts_at", "signup_opens")
            _refuse_unless(self.signup_opens < self.starts_at, "signup_window", "signup_opens")
        if now is not None:
            _refuse_unless(self.starts_at > now, "starts_in_past", "starts_at")

    def length_of(self, round_number: int, rounds: int) -> int:
        """The match length of round `round_number` (1-based) of `rounds`: the knockout's
        final may be longer."""
        if round_number == rounds and self.final_length is not None:
            return self.final_length
        return self.length

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["starts_at"] = self.starts_at.isoformat()
        data["signup_opens"] = self.signup_opens.isoformat() if self.signup_opens else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentSettings:
        fields = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in fields}
        values["starts_at"] = datetime.fromisoformat(values["starts_at"])
        if values.get("signup_opens"):
            values["signup_opens"] = datetime.fromisoformat(values["signup_opens"])
        return cls(**values)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refuse_unless(ok: bool, reason: str, field: str, **params: Any) -> None:
    if not ok:
        raise InvalidTournamentSettings(reason, field or reason, **params)
