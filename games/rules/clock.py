"""The site's clock, as pure functions of time given to it (never read here).

Each move has `delay` free seconds (unused delay is not banked); after that the player's
match `reserve` runs; no single move may take longer than `max_move` seconds. A "move" is the
time one player is the one to act: from the moment it becomes his duty (the opponent's play,
a double offered to him) until it is someone else's, so roll and play are one move.
When time runs out the player loses the match.

Lag compensation (`LagTracker`, after lichess's scalachess): each player has a quota of
seconds; a command whose client reports network lag has that lag, bounded by the quota and by
`LAG_MAX_PER_MOVE` for the whole move, taken off the time the move is charged. The quota grows
by `LAG_QUOTA_GAIN` at the end of each of his moves, up to `LAG_QUOTA_MAX`. The compensation
granted is recorded in the event (replay never re-judges), so replay gives the same clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from .errors import InvalidSettings

_FIELDS = ("delay", "reserve", "max_move", "reconnect")


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Whole seconds: free delay per move, reserve per match, cap per move, reconnection grace.

    The defaults are the site's clock (RULES.md "Clocks"), named `SITE_CLOCK`.
    """

    delay: float = 12
    reserve: float = 120
    max_move: float = 60
    reconnect: float = 60

    @classmethod
    def from_json(cls, data: Any, *, check: bool = True) -> ClockSettings:
        """Settings from `{"delay", "reserve", "max_move", "reconnect"}` (missing fields: the
        site's). Raises InvalidSettings naming the field unless each is a whole number of
        seconds, 0 or more (max_move more than 0). check=False reads a recorded clock as it
        is (replay never re-judges what was accepted when it was recorded)."""
        if not isinstance(data, dict):
            raise InvalidSettings.because("clock_object", "clock")
        values = {**SITE_CLOCK.to_json(), **data}
        if not check:
            return cls(**{name: values[name] for name in _FIELDS})
        unknown = set(data) - set(_FIELDS)
        if unknown:
            name = sorted(unknown)[0]
            raise InvalidSettings.because("clock_field", name, field=repr(name))
        for name in _FIELDS:
            value = values[name]
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise InvalidSettings.because("clock_seconds", name, field=name)
            if value != int(value):
                raise InvalidSettings.because("clock_whole", name, field=name, value=value)
            if value < 0:
                raise InvalidSettings.because("clock_negative", name, field=name)
        clock = cls(**{name: int(values[name]) for name in _FIELDS})
        if clock.max_move <= 0:
            raise InvalidSettings.because("clock_max_move", "max_move")
        return clock

    def to_json(self) -> dict[str, float]:
        return {
            "delay": self.delay,
            "reserve": self.reserve,
            "max_move": self.max_move,
            "reconnect": self.reconnect,
        }


LAG_QUOTA_START = 3.0
"""Seconds of lag compensation a player has when his match starts."""
LAG_QUOTA_GAIN = 1.0
"""Seconds added to his quota at the end of each of his moves."""
LAG_QUOTA_MAX = 7.0
"""The quota never grows past this."""
LAG_MAX_PER_MOVE = 2.0
"""No move is compensated more than this, whatever the quota and the reported lag."""


@dataclass(frozen=True, slots=True)
class LagTracker:
    """One player's lag quota. `armed` once his client has reported lag in this match: a
    client that never reports is never compensated, so it has no grace at its deadline."""

    quota: float = LAG_QUOTA_START
    armed: bool = False

    def compensation(self, lag: float, credit: float = 0.0) -> float:
        """What a command reporting `lag` seconds would be granted now, in a move already
        granted `credit`: the lag, at most the quota and what the move may still get."""
        room = min(self.quota, LAG_MAX_PER_MOVE - credit)
        return round(max(0.0, min(lag, room)), 3)

    def grace(self, credit: float = 0.0) -> float:
        """The most a command could still be granted in this move (0 unless armed): the
        clock's enforcement waits that long past the deadline."""
        return self.compensation(LAG_MAX_PER_MOVE, credit) if self.armed else 0.0

    def granted(self, comp: float) -> LagTracker:
        """After `comp` seconds were granted (a recorded figure, not re-judged)."""
        return LagTracker(max(0.0, round(self.quota - comp, 3)), True)

    def moved(self) -> LagTracker:
        """At the end of one of his moves: the quota grows, up to its cap."""
        return LagTracker(min(LAG_QUOTA_MAX, round(self.quota + LAG_QUOTA_GAIN, 3)), self.armed)


_NO_LAG = (LagTracker(), LagTracker())


@dataclass(frozen=True, slots=True)
class Clock:
    """Both reserves and the move that is running, if any."""

    settings: ClockSettings
    reserve: tuple[float, float]
    running: int | None = None  # the player whose move it is
    since: datetime | None = None  # when his move started
    lag: tuple[LagTracker, LagTracker] = _NO_LAG  # each player's lag quota
    credit: float = 0.0  # lag compensation granted to the running move so far

    @classmethod
    def new(cls, settings: ClockSettings) -> Clock:
        return cls(settings, (settings.reserve, settings.reserve))

    def switch(self, to: int | None, at: datetime) -> Clock:
        """The running move ends at `at` (its overtime comes off the reserve); `to` starts one.

        Switching to the player who is already running keeps his move going.
        """
        if to is not None and to == self.running:
            return self
        clock = self._charged(at)
        return replace(clock, running=to, since=at if to is not None else None, credit=0.0)

    def _charged(self, at: datetime) -> Clock:
        if self.running is None or self.since is None:
            return self
        used = (at - self.since).total_seconds() - self.credit
        over = max(0.0, used - self.settings.delay)
        reserve = list(self.reserve)
        reserve[self.running] = max(0.0, reserve[self.running] - over)
        lag = list(self.lag)
        lag[self.running] = lag[self.running].moved()
        return replace(self, reserve=(reserve[0], reserve[1]), lag=(lag[0], lag[1]))

    def compensation(self, lag: float) -> float:
        """The compensation a command of the running player reporting `lag` seconds gets."""
        if self.running is None:
            return 0.0
        return self.lag[self.running].compensation(lag, self.credit)

    def credited(self, comp: float) -> Clock:
        """The running move after `comp` seconds of lag were granted to it (as recorded)."""
        if self.running is None:
            return self
        lag = list(self.lag)
        lag[self.running] = lag[self.running].granted(comp)
        return replace(self, lag=(lag[0], lag[1]), credit=round(self.credit + comp, 3))

    def deadline(self) -> datetime | None:
        """When the running move is out of time for a command that reports no lag (the
        compensation already granted to this move included)."""
        if self.running is None or self.since is None:
            return None
        s = self.settings
        allowed = min(s.delay + self.reserve[self.running], s.max_move)
        return self.since + timedelta(seconds=allowed + self.credit)

    def timeout_at(self) -> datetime | None:
        """When the running player is timed out with no command from him: the deadline plus
        the most his lag quota could still cover (LagTracker.grace)."""
        deadline = self.deadline()
        if deadline is None or self.running is None:
            return None
        return deadline + timedelta(seconds=self.lag[self.running].grace(self.credit))

    def out_of_time(self, now: datetime, lag: float | None = None) -> int | None:
        """The player whose time has run out at `now`, if any. `lag`: the lag reported by a
        command of the running player arriving at `now` (compensated as `compensation`);
        None for anyone else (the clock's tasks, the opponent): the grace counts then."""
        if lag is None:
            end = self.timeout_at()
        else:
            deadline = self.deadline()
            end = None if deadline is None else deadline + timedelta(seconds=self.compensation(lag))
        return self.running if end is not None and now >= end else None

    def remaining(self, now: datetime) -> list[dict[str, float]]:
        """For each player: delay left in the running move, reserve left (never below 0)."""
        out = []
        for player in (0, 1):
            reserve = self.reserve[player]
            delay = 0.0
            if player == self.running and self.since is not None:
                used = max(0.0, (now - self.since).total_seconds() - self.credit)
                delay = max(0.0, self.settings.delay - used)
                over = max(0.0, used - self.settings.delay)
                reserve = max(0.0, reserve - over)
            out.append({"delay": round(delay, 3), "reserve": round(reserve, 3)})
        return out


SITE_CLOCK = ClockSettings()
"""The site's clock (RULES.md "Clocks"): 12 s delay per move (not banked), 120 s reserve per
match, 60 s at most per move, 60 s to reconnect."""
SITE: dict[str, float] = SITE_CLOCK.to_json()
"""`SITE_CLOCK` as JSON (the old name)."""
