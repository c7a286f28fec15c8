"""Commands on matches: load, let the rules decide, append the events, update the projection.

A command is written atomically after the version it was decided on, or not at all: by one
compare-and-set statement, or, when that finds another writer came first (or cannot be used),
in a transaction with the Match row locked (`run`). `expected_version`, when given, must
equal the stream's version or VersionConflict is raised (a stale client). Without it the
command is decided against the latest state, so a command that is still valid simply goes
through. Opening rolls and forced passes are recorded by the server with the command that
leads to them: nobody has to ask for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

from django.db import transaction
from django.utils import timezone

import games.rules as rules
from games import bots
from games.rules import ClockSettings, IllegalAction, InvalidSettings, RulesError
from matches.errors import (
    MatchFull,
    MatchNotFound,
    NotAPlayer,
    OutOfTime,
    StoreError,
    VersionConflict,
    refused,
)
from matches.store.dice import SECRET_DICE, DiceSource
from matches.store.events import (
    Event,
    MatchCreated,
    PlayerJoined,
    RematchOffered,
    TimedOut,
    event_for_action,
)
from matches.store.models import Match, PlayerProfile
from matches.store.plays import plays_on_turn
from matches.store.replay import Decided, MatchView
from matches.store.rows import fetch_match
from matches.store.streams import (
    Moved,
    append,
    append_if_at,
    cached_view,
    compare_and_set_available,
    load_view,
)

from . import conduct, presence, ratings
from .access import check_can_act
from .deadlines import clock_row, out_of_time, record_deadline
from .judgement import Asked, PlayAsked, RollAsked, judged


def rated_clock_minimum() -> str:
    """The least clock a rated match takes, in seconds (why a rated match refuses one)."""
    least = ratings.minimum_clock()
    return ", ".join(f"{k} {v:g} s" for k, v in least.items())


def match_create(
    *,
    user: Any,
    mode: str = str(Match.Mode.ONLINE),
    game: str = "tavla",
    length: int = 1,
    cube: bool = False,
    crawford: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
    backgammon_value: int = 3,
    next_game_starter: str | None = None,
    clock: dict[str, int] | None = None,
    computer_level: str = "",
    public: bool = True,
    seat: int = 0,
    rated: bool | None = None,
    now: datetime | None = None,
    dice: DiceSource = SECRET_DICE,
    hints: bool = False,
) -> MatchView:
    """Open a match: online (waits for an opponent), hot-seat (one user, both seats) or
    against the computer (the computer's account takes the other seat).

    `rated` (default: online match play with a clock that may be rated) is recorded; whether
    the match counts for the ratings also depends on its players and its play
    (matches/services/ratings.py)."""
    now = now or timezone.now()
    if beavers:
        raise refused(InvalidSettings, "no_beavers", "beavers")
    if mode not in Match.Mode.values:
        raise refused(InvalidSettings, "unknown_mode", "mode", mode=repr(mode))
    if seat not in (0, 1):
        raise refused(InvalidSettings, "seat_number", "seat")
    if game not in tuple(rules.Variant):
        raise refused(InvalidSettings, "unknown_game", "game", game=repr(game))
    if mode == Match.Mode.COMPUTER and not computer_level:
        computer_level = bots.default_level(game)  # the level the computer's turns use
    may_rate = mode == Match.Mode.ONLINE and length > 0
    if rated and not may_rate:
        raise refused(InvalidSettings, "rated_online", "rated")
    if may_rate and not ratings.clock_may_be_rated(clock):  # a trap clock rates nobody
        if rated:
            raise refused(InvalidSettings, "rated_clock", "rated", minimum=rated_clock_minimum())
        may_rate = False
    if hints and rated:  # a rated match is played unaided
        raise refused(InvalidSettings, "rated_hints", "hints")
    if hints:
        may_rate = False
    starter = next_game_starter or str(
        rules.MatchSettings(game=rules.Variant(game)).next_game_starter
    )
    created = MatchCreated(
        game=game,
        length=length,
        cube=cube,
        crawford=crawford,
        jacoby=jacoby,
        backgammon_value=backgammon_value,
        next_game_starter=str(rules.Starter(starter)),
        mode=mode,
        clock=clock if mode == Match.Mode.ONLINE else None,
        computer_level=computer_level if mode == Match.Mode.COMPUTER else "",
        rated=may_rate if rated is None else rated,
        hints=hints,
    )
    created.settings().check()
    if created.clock is not None:
        ClockSettings.from_json(created.clock)
    events: list[Event | Decided] = [created]
    seats: list[tuple[int, Any]] = []
    if user is not None:
        seats.append((seat, user))
    if mode == Match.Mode.HOTSEAT and user is not None:
        seats.append((1 - seat, user))
    elif mode == Match.Mode.COMPUTER:
        seats.append((1 - seat, PlayerProfile.computer_user(computer_level)))
    events += [PlayerJoined(s, u.pk, u.get_username(), kind_of(u)) for s, u in seats]
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            length=length,
            cube=cube,
            crawford=crawford,
            jacoby=jacoby,
            beavers=False,
            backgammon_value=backgammon_value,
            next_game_starter=created.next_game_starter,
            mode=mode,
            computer_level=created.computer_level,
            clock=created.clock,
            public=public,
            rated=created.rated,
            hints=hints,
            created_at=now,
            **{f"player{s}": u for s, u in seats},
        )
        view = MatchView(match.pk)
        state = rules.MatchState.new(created.settings())
        full = len({s for s, _ in seats}) == 2
        events += _follow_ups(state, full, dice)
        return append(match, view, events, actor_id=_id(user), at=now)


def match_join(
    *,
    match_id: UUID,
    user: Any,
    seat: int | None = None,
    name: str | None = None,
    expected_version: int | None = None,
    now: datetime | None = None,
    dice: DiceSource = SECRET_DICE,
) -> MatchView:
    """Take the free seat of an online match; the opening roll follows at once.

    `user` None with a `name` seats a named player without an account (imported matches).
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(match_id)
        view = load_view(match.pk, version=match.version)
        if expected_version is not None and expected_version != view.version:
            raise VersionConflict(view.version, expected_version)
        free = [i for i, s in enumerate(view.seats) if s is None]
        if not free or view.state is None or view.state.is_over:
            raise MatchFull.because("match_full")
        if user is not None and view.seats_of(user.pk):
            raise MatchFull.because("already_seated")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise MatchFull.because("seat_taken", seat=chosen)
        joined = PlayerJoined(
            chosen, _id(user), user.get_username() if user else name or "", kind_of(user)
        )
        if user is not None:
            setattr(match, f"player{chosen}", user)
            match.save(update_fields=[f"player{chosen}"])
        events: list[Event | Decided] = [joined, *_follow_ups(view.state, len(free) == 1, dice)]
        view = append(match, view, events, actor_id=_id(user), at=now)
        record_deadline(view, now)  # clocked online matches: the deadline, presence
        return view


def match_roll(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Roll(), **kw)).view


def match_play(*, match_id: UUID, user: Any, play: str | list[Any], **kw: Any) -> MatchView:
    """Play the rolled dice: notation ("24/18 13/10") or steps ([[24, 18], [13, 10]])."""
    return run(Command(match_id, user, PlayDice(play), **kw)).view


def match_double(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Act(rules.Double), **kw)).view


def match_take(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Act(rules.Take), **kw)).view


def match_drop(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Act(rules.Drop), **kw)).view


def match_resign(*, match_id: UUID, user: Any, value: int = 1, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Resign(value), **kw)).view


def match_accept_resign(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Act(rules.AcceptResign), **kw)).view


def match_reject_resign(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return run(Command(match_id, user, Act(rules.RejectResign), **kw)).view


def match_resign_match(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    """The player gives up the whole match, at any moment of it (his turn or not): the
    opponent wins with the points the match still needed (an unlimited match: the cube)."""

    return run(Command(match_id, user, ResignMatch(), **kw)).view


def match_timeout(*, match_id: UUID, seat: int, **kw: Any) -> MatchView:
    """The seat's time ran out: it loses the match. Refused unless the clock says so, so a
    late or repeated clock task changes nothing."""
    return run(Command(match_id, None, TimeOut(), seat=seat, **kw)).view


def match_forfeit(*, match_id: UUID, seat: int, **kw: Any) -> MatchView:
    """The seat left and did not come back in time: it loses the match."""
    return run(Command(match_id, None, Forfeit(), seat=seat, **kw)).view


def match_abort(*, match_id: UUID, user: Any, reason: str = "", **kw: Any) -> MatchView:
    """End a match with no winner: a player before anything was decided (an online match
    before its opening roll, others before the first move), staff any time."""
    return run(Command(match_id, user, AbortMatch(reason), **kw)).view


def match_act(*, match_id: UUID, user: Any, action: rules.Action, **kw: Any) -> MatchView:
    """Do one rules action for its player: the entry for callers that decide in the rules'
    terms (the computer's turn, an imported file). Trusted callers only: a `Roll` is recorded
    with the dice it carries (the server drew them, or the file says them)."""
    if not isinstance(action, _PLAYER_ACTIONS):
        raise refused(IllegalAction, "not_a_player_action", action=type(action).__name__)
    return run(Command(match_id, user, Given(action), seat=action.player, **kw)).view


_PLAYER_ACTIONS = (
    rules.Roll,
    rules.Move,
    rules.Double,
    rules.Take,
    rules.Drop,
    rules.Resign,
    rules.AcceptResign,
    rules.RejectResign,
)


def match_offer_rematch(
    *, match_id: UUID, user: Any, rematch_id: UUID, now: datetime | None = None
) -> MatchView:
    """Record in a finished match's stream that one of its players offers a rematch (the new
    match `rematch_id`): whoever follows the stream learns of it without asking again."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _lock(match_id)
        view = load_view(match.pk, version=match.version)
        if not _state(view).is_over:
            raise refused(IllegalAction, "rematch_when_over")
        seats = view.seats_of(user.pk)
        if not seats:
            raise NotAPlayer.because("not_a_player")
        offered = RematchOffered(seats[0], str(rematch_id))
        return append(match, view, [offered], actor_id=_id(user), at=now)


# -- what a command asks ------------------------------------------------------------------


class Ask:
    """What a command asks of the match, turned into the rules' actions for the acting seat.

    Each kind says who may ask it: `staff_may` (staff act without a seat), `before_start`
    (asked while the match waits for its second player), `timed` (the clock is looked at
    first: a command after the deadline loses on time instead). A new command is a new Ask
    and a function building its `Command`."""

    staff_may: ClassVar[bool] = False
    before_start: ClassVar[bool] = False
    timed: ClassVar[bool] = True

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Act(Ask):
    """An action that needs nothing but the acting seat (double, take, drop, ...)."""

    action: Callable[[int], rules.Action]

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        return [self.action(seat)]


@dataclass(frozen=True, slots=True)
class Given(Ask):
    """An action a trusted caller decided in the rules' terms (the computer, an import)."""

    action: rules.Action

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        return [self.action]


@dataclass(frozen=True, slots=True)
class Roll(Ask):
    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        return [RollAsked(seat)]


@dataclass(frozen=True, slots=True)
class PlayDice(Ask):
    play: str | list[Any]

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        return [PlayAsked(seat, self.play)]


@dataclass(frozen=True, slots=True)
class Resign(Ask):
    value: int = 1

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        return [rules.Resign(seat, self.value)]


@dataclass(frozen=True, slots=True)
class TimeOut(Ask):
    """The clock's task: refused unless the seat really is out of time."""

    timed: ClassVar[bool] = False  # it is the clock's own decision

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        if _state(view).is_over:
            raise IllegalAction.because("match_over")
        if out_of_time(view, command.at) != seat:
            raise refused(IllegalAction, "not_out_of_time", seat=seat)
        return [rules.LoseMatch(seat, rules.EndedBy.TIMEOUT)]


@dataclass(frozen=True, slots=True)
class ResignMatch(Ask):
    """The player gives up the whole match, his turn or not."""

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        if _state(view).is_over:
            raise IllegalAction.because("match_over")
        return [rules.LoseMatch(seat, rules.EndedBy.RESIGN)]


@dataclass(frozen=True, slots=True)
class Forfeit(Ask):
    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        return [rules.LoseMatch(seat, rules.EndedBy.FORFEIT)]


@dataclass(frozen=True, slots=True)
class AbortMatch(Ask):
    reason: str = ""
    staff_may: ClassVar[bool] = True
    before_start: ClassVar[bool] = True

    def actions(self, view: MatchView, seat: int, command: Command) -> list[Asked]:
        if _state(view).is_over:
            raise IllegalAction.because("match_over")
        user = command.user
        staff = user is None or getattr(user, "is_staff", False)
        if not staff and view.moves:
            raise refused(IllegalAction, "abort_before_move")
        if not staff and not view.player_may_abort:  # fair dice (MatchView.player_may_abort)
            raise refused(IllegalAction, "abort_before_roll")
        return [rules.Abort(self.reason)]


# -- the command path -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One command on a match, as a value: who asks what, and on which version.

    `user` None is the system (the clock, imports, admins' tools); `seat` the seat it acts
    for (a user's own when None). `request`: a player's request (the API, a socket): he is
    authorised as a seated player before anything is decided (on the cached view's seats, or
    on the Match row; `_at_once`), and a refusal is made from the row; otherwise a trusted
    caller, whose refusal on a cached view is asked again under the lock. `lag`:
    the network lag (seconds) the client reports, compensated within his quota
    (games.rules.clock.LagTracker) and recorded in the command's first event. `within`: the
    view an import's previous command left, inside the import's one transaction (no
    savepoint per command); used when still at the locked row's version.
    """

    match_id: UUID | str
    user: Any
    ask: Ask
    expected_version: int | None = None
    seat: int | None = None
    lag: float | None = None
    request: bool = False
    now: datetime | None = None
    dice: DiceSource = SECRET_DICE
    within: MatchView | None = None

    @property
    def at(self) -> datetime:
        return self.now or timezone.now()


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command left: the Match row as written and the view at the new version."""

    match: Match
    view: MatchView


@dataclass(frozen=True, slots=True)
class _Decision:
    """A command decided on a view: its events with the states they lead to, or the seat
    found out of time (the timeout is written instead)."""

    events: list[Decided]
    ending: rules.MatchState
    late: int | None = None

    @property
    def under_lock(self) -> bool:
        """Written only with the Match row locked: the timeout, or the end of the match (its
        ratings and early exits are written in the same transaction)."""
        return self.late is not None or self.ending.is_over


@dataclass(frozen=True, slots=True)
class _Tried:
    """A command judged on a view without the lock and not written: its decision (one to be
    written under the lock) or its refusal. At the same version the row's view is this view,
    so that judgement stands: it is reused, never made again."""

    view: MatchView
    verdict: _Decision | RulesError | StoreError

    def decided(self) -> _Decision:
        """The decision; the refusal raised."""
        if isinstance(self.verdict, _Decision):
            return self.verdict
        raise self.verdict

    @property
    def for_the_lock(self) -> bool:
        """A decision to be written under the lock (`_Decision.under_lock`)."""
        return isinstance(self.verdict, _Decision) and self.verdict.under_lock


def run(command: Command) -> Outcome:
    """The command path: load, authorise, decide once, append, return the row and the view.

    First without a lock (`_at_once`): decided on this process's cached view (a request: on
    the view at the row's version if that one is missing, behind or refuses) and written by
    one compare-and-set statement (PostgreSQL) that returns the row. When that cannot be
    done (no cached view for a trusted caller, the match ends, the clock ran out, an import)
    or another writer came first, it is written in a transaction with the Match row locked;
    a judgement already made at the locked row's version is taken as it is."""
    command = replace(command, now=command.at)
    tried: _Tried | None = None
    if command.within is None and compare_and_set_available():
        done = _at_once(command)
        if isinstance(done, Outcome):
            return done
        tried = done
    with transaction.atomic(savepoint=command.within is None):
        match = _lock(command.match_id)
        if command.request:
            check_can_act(match, command.user, staff_may=command.ask.staff_may)
            _seen(command, match)
        view, decision = _decided_at(command, match, tried)
        view = _store(
            match,
            view,
            decision,
            actor_id=None if decision.late is not None else _id(command.user),
            at=command.at,
        )
        record_deadline(view, command.at)  # clocked online matches: the deadline
    if decision.late is not None:
        raise OutOfTime(decision.late)
    return Outcome(match, view)


def _decided_at(
    command: Command, match: Match, tried: _Tried | None
) -> tuple[MatchView, _Decision]:
    """The view at the locked row's version and the command's decision on it: the one made
    without the lock at that version, else an import's previous view or the store's."""
    if tried is not None and tried.view.version == match.version:
        return tried.view, tried.decided()
    within = command.within
    if within is not None and within.match_id == match.pk and within.version == match.version:
        view = within
    else:
        view = load_view(match.pk, version=match.version)
    return view, _decide(command, view)


def _seen(command: Command, match: Match) -> None:
    """A seated player's request on a clocked online match shows him connected (accepted or
    refused: presence.py); written once per request, by the path that ends it."""
    if command.request:
        presence.touch(match, command.user, command.now)


def _at_once(command: Command) -> Outcome | _Tried | None:
    """The command decided without a transaction and written by `append_if_at`; otherwise
    what is left for the lock (nothing was written then): a decision to write under it, a
    trusted caller's refusal to check at the locked row's version, or None.

    First on this process's cached view as it is: the statement finds out if it was behind,
    and returns the row, so a command on a current view is one round trip. A request is
    authorised on that view's seats (a seat, once taken, is never given up, so a player
    seated in a view behind the store is seated in it too). A refusal there is final only
    at the row's version (the view may be behind, or the user is no player and the row
    says how to refuse him): a request is then authorised on the row and, if the row is
    ahead, decided again on it (`_on_the_row`)."""
    pk = _pk(command.match_id)
    cached = cached_view(pk)
    found: Match | None = None
    tried: _Tried | None = None
    if cached is not None and (not command.request or _seated(cached, command.user)):
        tried = _tried(command, cached)
        if isinstance(tried.verdict, _Decision):
            if tried.for_the_lock:
                return tried
            written = _append_at_once(command, cached, tried.verdict)
            if isinstance(written, Outcome):
                _seen(command, written.match)
                return written
            found, tried = written.match, None  # another writer came first
    if not command.request:
        return tried
    return _on_the_row(command, pk, found, tried)


def _on_the_row(
    command: Command, pk: UUID, found: Match | None, tried: _Tried | None
) -> Outcome | _Tried | None:
    """A request authorised on the Match row (`found`, or read now) and decided on the view
    at its version (or refused as it was on the cached view, if that was at this version);
    its refusal is final. What is left for the lock as in `_at_once`."""
    match = found if found is not None else fetch_match(pk)
    if match is None:
        raise MatchNotFound(command.match_id)
    check_can_act(match, command.user, staff_may=command.ask.staff_may)
    if tried is None or tried.view.version != match.version:
        tried = _tried(command, load_view(match.pk, version=match.version))
    try:
        decision = tried.decided()
    except (RulesError, StoreError):
        _seen(command, match)
        raise
    if decision.under_lock:
        return tried
    written = _append_at_once(command, tried.view, decision)
    if isinstance(written, Outcome):
        _seen(command, written.match)
        return written
    return None


def _tried(command: Command, view: MatchView) -> _Tried:
    """The command judged on a view: its decision or its refusal, as a value."""
    try:
        return _Tried(view, _decide(command, view))
    except (RulesError, StoreError) as refusal:
        return _Tried(view, refusal)


def _append_at_once(command: Command, view: MatchView, decision: _Decision) -> Outcome | Moved:
    """The compare-and-set append of a decision: the row and the view as written, or the
    row as found when it was no longer at the view's version. A command seats nobody: a
    match that keeps a clock row has had it since it started (match_join), and the statement
    upserts it."""
    written = append_if_at(
        view, decision.events, actor_id=_id(command.user), at=command.at, clock=clock_row
    )
    return written if isinstance(written, Moved) else Outcome(*written)


def _seated(view: MatchView, user: Any) -> bool:
    """The user sits in the match as the view knows it (the seats its events gave)."""
    return user is not None and bool(view.seats_of(user.pk))


def _decide(command: Command, view: MatchView) -> _Decision:
    """The one decision of a command on a view: the refusal (a stale version, not a player,
    no opponent yet, the rules'), the timeout when the acting seat is out of time, or the
    events with the states they lead to."""
    if command.expected_version is not None and command.expected_version != view.version:
        raise VersionConflict(view.version, command.expected_version)
    ask = command.ask
    acting = _acting_seat(view, command.user, command.seat, ask.staff_may)
    state = _state(view)
    if not ask.before_start and not view.full and not state.is_over:
        raise refused(IllegalAction, "waiting_for_opponent")
    if ask.timed:
        late = out_of_time(view, command.at, _lag_of(command, view, acting))
        if late is not None:  # too late: the timeout is written now, even before the clock task
            lost = rules.apply(state, rules.LoseMatch(late, rules.EndedBy.TIMEOUT), check=False)
            return _Decision([Decided(TimedOut(late), lost)], lost, late)
    events: list[Decided] = []
    for asked in ask.actions(view, acting, command):
        action, state = judged(state, asked, command.dice)
        events.append(Decided(event_for_action(action), state))
    clock = view.clock
    if command.lag is not None and events and clock is not None and clock.running == acting:
        first = events[0]
        events[0] = Decided(replace(first.event, lag=clock.compensation(command.lag)), first.state)
    events += _follow_ups(state, view.full, command.dice)  # these never end a match
    return _Decision(events, state)


def _lag_of(command: Command, view: MatchView, acting: int) -> float | None:
    """The lag to judge a command's time with: the reported lag (0 if none) when the acting
    seat's move is running; None (the grace) for the system's and anyone else's."""
    if command.user is None or view.clock is None or view.clock.running != acting:
        return None
    return command.lag if command.lag is not None else 0.0


def _store(
    match: Match,
    view: MatchView,
    decision: _Decision,
    *,
    actor_id: int | None,
    at: datetime,
) -> MatchView:
    """Append a command's events; when they end the match, what its end sets off in the same
    transaction: the ratings (whose lock must come before the insert) and early exits."""
    was_over = view.state is not None and view.state.is_over
    if not was_over and decision.ending.is_over:
        ratings.lock_before_end(view, decision.ending)
    view = append(match, view, decision.events, actor_id=actor_id, at=at)
    if not was_over and view.state is not None and view.state.is_over:
        ratings.on_match_end(view)
        conduct.on_match_end(view, actor_id)
    return view


def _follow_ups(state: rules.MatchState, full: bool, dice: DiceSource) -> list[Decided]:
    """What the server records by itself: opening rolls (ties again), forced passes. Decided
    here from the state (a pass only when no play is legal), so folded as facts."""
    events: list[Decided] = []
    while full and not state.is_over:
        if state.phase == rules.Phase.OPENING:
            action: rules.Action = rules.OpeningRoll(*dice.opening())
        elif state.phase == rules.Phase.PLAY and state.turn is not None:
            if plays_on_turn(state):
                break
            action = rules.Move(state.turn, ())
        else:
            break
        state = rules.apply(state, action, check=False)
        events.append(Decided(event_for_action(action), state))
    return events


def _acting_seat(view: MatchView, user: Any, seat: int | None, staff_may: bool) -> int:
    """The seat a user acts for: his own; in hot-seat the one whose move it is."""
    state = _state(view)
    if user is None:  # the system: clocks, imports, admins' tools
        if seat is None:
            seat = state.to_act if state.to_act is not None else 0
        return seat
    seats = view.seats_of(user.pk)
    if not seats:
        if staff_may and getattr(user, "is_staff", False):
            return seat if seat is not None else 0
        raise NotAPlayer.because("not_a_player")
    if seat is not None:
        if seat not in seats:
            raise NotAPlayer.because("not_your_seat", seat=seat)
        return seat
    if len(seats) == 2:
        return state.to_act if state.to_act is not None else 0
    return seats[0]


def _state(view: MatchView) -> rules.MatchState:
    if view.state is None:  # pragma: no cover - every stream starts with match_created
        raise MatchNotFound("?")
    return view.state


def _pk(match_id: UUID | str) -> UUID:
    try:
        return match_id if isinstance(match_id, UUID) else UUID(str(match_id))
    except (ValueError, TypeError):
        raise MatchNotFound(match_id) from None


def _lock(match_id: UUID | str) -> Match:
    match = fetch_match(_pk(match_id), for_update=True)
    if match is None:
        raise MatchNotFound(match_id)
    return match


def _id(user: Any) -> int | None:
    return None if user is None else int(user.pk)


def kind_of(user: Any) -> str:
    """The kind of account a user plays as now (recorded when he sits down)."""
    if user is None:
        return ""
    kind = PlayerProfile.objects.filter(user_id=user.pk).values_list("kind", flat=True).first()
    return str(kind) if kind else PlayerProfile.without_profile()
