"""Helpers for the store tests: dice sources, a table to play at, random play, the contract.

`Table` drives one stored match through `matches.services` with dice the test chooses.
`play_random` plays a match with seeded random legal plays (and cube actions) through any
driver: `StoreDriver` (the services, real PostgreSQL) or `PureDriver` (games.rules alone, with
the follow-ups the server records by itself written out again here). With the same seed both
make the same decisions, so a seed can be searched cheaply in pure Python and then replayed
through the store.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol
from uuid import UUID

from django.db import connection

from games.rules import match as rules
from games.rules.dice import Dice
from games.rules.plays import Play
from matches import services, store
from matches.store.models import Match, MatchEvent
from matches.store.replay import MatchView, StoredEvent, replay

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
SITE_CLOCK = {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60}


# -- dice ---------------------------------------------------------------------------------------


class DiceScript:
    """Dice chosen by the test, used in order; more can be pushed while the match goes on."""

    def __init__(self, pairs: Iterable[tuple[int, int]] = ()) -> None:
        self.pairs: deque[tuple[int, int]] = deque(pairs)

    def push(self, *pairs: tuple[int, int]) -> None:
        self.pairs.extend(pairs)

    def opening(self) -> tuple[int, int]:
        if not self.pairs:
            raise LookupError("the test's dice ran out (opening roll)")
        return self.pairs.popleft()

    def roll(self) -> Dice:
        if not self.pairs:
            raise LookupError("the test's dice ran out (roll)")
        return Dice.of(*self.pairs.popleft())

    @property
    def left(self) -> int:
        return len(self.pairs)


class SeededDice:
    """Reproducible random dice."""

    def __init__(self, seed: object) -> None:
        self.rng = random.Random(f"dice-{seed}")
        self.used = 0

    def opening(self) -> tuple[int, int]:
        self.used += 1
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def roll(self) -> Dice:
        self.used += 1
        return Dice.of(self.rng.randint(1, 6), self.rng.randint(1, 6))


class Clock:
    """A test clock: every reading is one second after the previous one."""

    def __init__(self, start: dt.datetime = T0) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        self.now += dt.timedelta(seconds=1)
        return self.now


# -- a table to play at -------------------------------------------------------------------------


@dataclass
class Table:
    """One stored match and who sits where; every call goes through the services."""

    match_id: UUID
    users: tuple[Any, Any]  # the user for each seat (the same user twice in hot-seat)
    dice: Any = field(default_factory=DiceScript)  # a DiceScript, SeededDice or ScriptedDice
    clock: Clock = field(default_factory=Clock)
    views: list[MatchView] = field(default_factory=list)  # every view a command returned

    # -- reading --

    def view(self) -> MatchView:
        return store.load_view(self.match_id, cached=False)

    @property
    def state(self) -> rules.MatchState:
        state = self.view().state
        assert state is not None
        return state

    def row(self) -> Match:
        return Match.objects.get(pk=self.match_id)

    def events(self) -> list[StoredEvent]:
        return store.stored_events(self.match_id)

    def types(self, after: int = 0) -> list[str]:
        return [e.type for e in store.stored_events(self.match_id, after)]

    # -- acting --

    def call(self, command: Callable[..., MatchView], who: int | None, **kw: Any) -> MatchView:
        """Run a command as the user on seat `who` (or as `user=` given), with this table's
        dice and clock. The system (user None) names the seat it acts for."""
        kw.setdefault("now", self.clock())
        kw.setdefault("dice", self.dice)
        user = kw.pop("user") if "user" in kw else self.users[who] if who is not None else None
        if user is None and who is not None:
            kw.setdefault("seat", who)
        view = command(match_id=self.match_id, user=user, **kw)
        self.views.append(view)
        return view

    def roll(self, seat: int, dice: tuple[int, int] | None = None, **kw: Any) -> MatchView:
        if dice is not None:
            self.dice.push(dice)
        return self.call(services.match_roll, seat, **kw)

    def play(self, seat: int, play: str | list[Any], **kw: Any) -> MatchView:
        return self.call(services.match_play, seat, play=play, **kw)

    def turn(self, seat: int, dice: tuple[int, int], play: str | list[Any]) -> MatchView:
        """Roll the given dice, then play."""
        self.roll(seat, dice)
        return self.play(seat, play)

    def any_play(self, seat: int) -> MatchView:
        """Play the first legal play (the roll must be out)."""
        plays = self.state.legal_plays()
        assert plays, "no legal play: the server should have passed"
        return self.play(seat, steps_of(plays[0]))

    def double(self, seat: int, **kw: Any) -> MatchView:
        return self.call(services.match_double, seat, **kw)

    def take(self, seat: int, **kw: Any) -> MatchView:
        return self.call(services.match_take, seat, **kw)

    def drop(self, seat: int, **kw: Any) -> MatchView:
        return self.call(services.match_drop, seat, **kw)

    def resign(self, seat: int, value: int = 1, **kw: Any) -> MatchView:
        return self.call(services.match_resign, seat, value=value, **kw)

    def accept(self, seat: int, **kw: Any) -> MatchView:
        return self.call(services.match_accept_resign, seat, **kw)

    def reject(self, seat: int, **kw: Any) -> MatchView:
        return self.call(services.match_reject_resign, seat, **kw)

    def abort(self, user: Any, **kw: Any) -> MatchView:
        return self.call(services.match_abort, None, user=user, **kw)

    def timeout(self, seat: int, *, wait: float = 61, **kw: Any) -> MatchView:
        """`wait` seconds pass (past the site's 60-second cap on a move), then the clock task
        (the system, no user) says `seat` ran out of time."""
        self.clock.now += dt.timedelta(seconds=wait)
        return self._system(services.match_timeout, seat, **kw)

    def forfeit(self, seat: int, **kw: Any) -> MatchView:
        return self._system(services.match_forfeit, seat, **kw)

    def _system(self, command: Callable[..., MatchView], seat: int, **kw: Any) -> MatchView:
        kw.setdefault("now", self.clock())
        kw.setdefault("dice", self.dice)
        view = command(match_id=self.match_id, seat=seat, **kw)
        self.views.append(view)
        return view

    def end_game_by_resign(
        self, loser: int, value: int = 1, next_opening: tuple[int, int] | None = None
    ) -> MatchView:
        """`loser` (on turn) resigns, the opponent accepts; `next_opening` are the dice of
        the next game's opening roll, which the server rolls in the same command."""
        self.resign(loser, value)
        if next_opening is not None:
            self.dice.push(next_opening)
        return self.accept(1 - loser)


NewTable = Callable[..., Table]  # the `new_table` / `hotseat_table` fixtures


def steps_of(play: Play) -> list[list[int]]:
    return [[s.frm, s.to] for s in play.steps]


def opening(first: int, high: int = 3, low: int = 1) -> tuple[int, int]:
    """Opening dice (player 0's die first) that `first` wins with high-low."""
    assert high > low
    return (high, low) if first == 0 else (low, high)


# -- random play through any driver -------------------------------------------------------------


class Driver(Protocol):
    @property
    def state(self) -> rules.MatchState: ...

    def act(self, what: str, seat: int, arg: Any = None) -> None: ...


class PureDriver:
    """The rules engine alone, with the server's own follow-ups (opening rolls, passes)."""

    def __init__(self, settings: rules.MatchSettings, dice: SeededDice | DiceScript) -> None:
        self.dice = dice
        self.passes = 0
        self.actions: list[rules.Action] = []  # every action, the follow-ups included
        self.state = self._follow_ups(rules.MatchState.new(settings))

    def act(self, what: str, seat: int, arg: Any = None) -> None:
        action: rules.Action
        if what == "roll":
            action = rules.Roll(seat, self.dice.roll())
        elif what == "play":
            action = rules.Move(seat, rules.play_for(self.state, arg).steps)
        elif what == "resign":
            action = rules.Resign(seat, arg)
        else:
            action = {
                "double": rules.Double,
                "take": rules.Take,
                "drop": rules.Drop,
                "accept": rules.AcceptResign,
                "reject": rules.RejectResign,
            }[what](seat)
        self.actions.append(action)
        self.state = self._follow_ups(rules.apply(self.state, action))

    def _follow_ups(self, state: rules.MatchState) -> rules.MatchState:
        while not state.is_over:
            action: rules.Action
            if state.phase == rules.Phase.OPENING:
                action = rules.OpeningRoll(*self.dice.opening())
            elif state.phase == rules.Phase.PLAY and not state.legal_plays():
                assert state.turn is not None
                action = rules.Move(state.turn, ())
                self.passes += 1
            else:
                break
            self.actions.append(action)
            state = rules.apply(state, action)
        return state


class StoreDriver:
    """The services on a stored match; `table.users` act for their seats."""

    COMMANDS: ClassVar[dict[str, Callable[..., MatchView]]] = {
        "roll": services.match_roll,
        "play": services.match_play,
        "double": services.match_double,
        "take": services.match_take,
        "drop": services.match_drop,
        "resign": services.match_resign,
        "accept": services.match_accept_resign,
        "reject": services.match_reject_resign,
    }

    def __init__(self, table: Table, *, expected_version: bool = True) -> None:
        self.table = table
        self.expected_version = expected_version
        self._view = table.view()

    @property
    def state(self) -> rules.MatchState:
        assert self._view.state is not None
        return self._view.state

    def act(self, what: str, seat: int, arg: Any = None) -> None:
        kw: dict[str, Any] = {}
        if what == "play":
            kw["play"] = arg
        elif what == "resign":
            kw["value"] = arg
        if self.expected_version:
            kw["expected_version"] = self._view.version
        self._view = self.table.call(self.COMMANDS[what], seat, **kw)


@dataclass
class Policy:
    """Seeded random choices: legal plays uniformly, the cube and resignations sometimes."""

    seed: object
    double: float = 0.0  # chance to double when allowed
    take: float = 0.75
    resign: float = 0.0  # chance to offer a resignation before rolling
    accept: float = 0.5
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"policy-{self.seed}")

    def choose(self, state: rules.MatchState) -> tuple[str, int, Any]:
        seat = state.to_act
        assert seat is not None
        r = self.rng.random()
        if state.phase == rules.Phase.DOUBLED:
            return ("take" if r < self.take else "drop"), seat, None
        if state.phase == rules.Phase.RESIGNING:
            return ("accept" if r < self.accept else "reject"), seat, None
        if state.phase == rules.Phase.ROLL:
            if state.may_double(seat) and r < self.double:
                return "double", seat, None
            if self.resign and self.rng.random() < self.resign:
                return "resign", seat, self.rng.randint(1, 3)
            return "roll", seat, None
        plays = state.legal_plays()
        return "play", seat, steps_of(self.rng.choice(plays))


def play_random(
    driver: Driver, policy: Policy, *, games: int | None = None, max_actions: int = 100_000
) -> rules.MatchState:
    """Play until the match is over (or `games` games are finished)."""
    for _ in range(max_actions):
        state = driver.state
        if state.is_over or (games is not None and len(state.games) >= games):
            return state
        what, seat, arg = policy.choose(state)
        driver.act(what, seat, arg)
    raise AssertionError("the match did not end")


def pure_match(
    settings: rules.MatchSettings, seed: object, policy: dict[str, float] | None = None, **kw: Any
) -> PureDriver:
    driver = PureDriver(settings, SeededDice(seed))
    play_random(driver, Policy(seed, **(policy or {})), **kw)
    return driver


def find_seed(
    settings: rules.MatchSettings,
    wanted: Callable[[PureDriver], bool],
    *,
    policy: dict[str, float] | None = None,
    tries: int = 2000,
    **kw: Any,
) -> int:
    """The first seed whose pure random match satisfies `wanted`."""
    for seed in range(tries):
        if wanted(pure_match(settings, seed, policy, **kw)):
            return seed
    raise AssertionError(f"no seed in {tries} gives the wanted match")


# -- the contract: projection and replay ------------------------------------------------------


def expected_projection(view: MatchView) -> dict[str, Any]:
    """What the Match row must say about a match, worked out from its replayed view."""
    state = view.state
    assert state is not None
    if state.is_over:
        status = "aborted" if state.ended_by == rules.EndedBy.ABORT else "finished"
    elif view.full:
        status = "active"
    else:
        status = "waiting"
    return {
        "status": status,
        "score0": state.score[0],
        "score1": state.score[1],
        "turn": state.to_act,
        "version": view.version,
        "winner": state.winner,
        "ended_by": str(state.ended_by or ""),  # the rules' own word
        "started_at": view.started_at,
        "finished_at": view.finished_at,
        "last_move_at": view.last_at,
        "player0_id": view.seats[0].user_id if view.seats[0] else None,
        "player1_id": view.seats[1].user_id if view.seats[1] else None,
    }


def projection(match: Match) -> dict[str, Any]:
    return {key: getattr(match, key) for key in expected_projection_keys()}


def expected_projection_keys() -> list[str]:
    return [
        "status",
        "score0",
        "score1",
        "turn",
        "version",
        "winner",
        "ended_by",
        "started_at",
        "finished_at",
        "last_move_at",
        "player0_id",
        "player1_id",
    ]


def check_stream(match_id: UUID) -> list[StoredEvent]:
    """The stream runs 1..n without gaps or duplicates; returns it."""
    seqs = list(
        MatchEvent.objects.filter(match_id=match_id).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1)), f"stream of {match_id} is broken: {seqs}"
    return store.stored_events(match_id)


def check_contract(match_id: UUID) -> MatchView:
    """Cold replay == the projected row; every prefix replays; returns the cold view."""
    events = check_stream(match_id)
    cold = store.load_view(match_id, cached=False)
    assert cold == replay(events, MatchView(match_id))
    assert cold.version == len(events)
    row = Match.objects.get(pk=match_id)
    assert projection(row) == expected_projection(cold), f"projection of {match_id}"
    return cold


def check_views_are_cold_replays(table: Table) -> None:
    """Every view a command returned equals a cold replay of the stream up to its version."""
    events = table.events()
    for view in table.views:
        assert view == replay(events[: view.version], MatchView(table.match_id)), view.version


@contextmanager
def statements() -> Iterator[list[str]]:
    """The SQL statements run on this thread's connection meanwhile."""
    seen: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen
