"""Commands on matches: load, let the rules decide, append the events, update the projection.

A command is written atomically after the version it was decided on, or not at all: by one
compare-and-set statement, or, when that finds another writer came first (or cannot be used),
in a transaction with the Match row locked (`_command`). `expected_version`, when given, must
equal the stream's version or VersionConflict is raised (a stale client). Without it the
command is decided against the latest state, so a command that is still valid simply goes
through. Opening rolls and forced passes are recorded by the server with the command that
leads to them: nobody has to ask for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import games.rules as rules
from games import bots
from games.rules import ClockSettings, Dice, IllegalAction, InvalidSettings, RulesError
from matches.errors import (
    MatchFull,
    MatchNotFound,
    NotAPlayer,
    OutOfTime,
    StoreError,
    VersionConflict,
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
from matches.store.plays import chosen_play, plays_on_turn
from matches.store.replay import MatchView
from matches.store.rows import fetch_match
from matches.store.streams import (
    append,
    append_if_at,
    cached_view,
    compare_and_set_available,
    load_view,
)

from . import conduct, ratings
from .deadlines import clock_row, out_of_time, record_deadline

Decide = Callable[[MatchView, int], list[rules.Action]]
# Checks of the caller's right to act, given the locked Match row (the API's permissions):
# the one read of the row serves both.
Authorize = Callable[[Match], None]


def rated_clock_text() -> str:
    """Why a rated match refuses a custom clock: the minimum, in seconds."""
    least = ratings.minimum_clock()
    minimum = ", ".join(f"{k} {v:g} s" for k, v in least.items())
    return f"a rated match needs a preset clock or one of at least {minimum}"


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
) -> MatchView:
    """Open a match: online (waits for an opponent), hot-seat (one user, both seats) or
    against the computer (the computer's account takes the other seat).

    `rated` (default: online match play with a clock that may be rated) is recorded; whether
    the match counts for the ratings also depends on its players and its play
    (matches/services/ratings.py)."""
    now = now or timezone.now()
    if beavers:
        raise InvalidSettings("beavers", "beavers are not played on this site")
    if mode not in Match.Mode.values:
        raise InvalidSettings("mode", f"unknown mode {mode!r}: choose online, hotseat or computer")
    if seat not in (0, 1):
        raise InvalidSettings("seat", "a seat is 0 or 1")
    if game not in tuple(rules.Variant):
        raise InvalidSettings("game", f"unknown game {game!r}: choose tavla or long-nardy")
    if mode == Match.Mode.COMPUTER and not computer_level:
        computer_level = bots.default_level(game)  # the level the computer's turns use
    may_rate = mode == Match.Mode.ONLINE and length > 0
    if rated and not may_rate:
        raise InvalidSettings("rated", "only online matches to a number of points are rated")
    if may_rate and not ratings.clock_may_be_rated(clock):  # a trap clock rates nobody
        if rated:
            raise InvalidSettings("rated", rated_clock_text())
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
    )
    created.settings().check()
    if created.clock is not None:
        ClockSettings.from_json(created.clock)
    events: list[Event] = [created]
    seats: list[tuple[int, Any]] = []
    if user is not None:
        seats.append((seat, user))
    if mode == Match.Mode.HOTSEAT and user is not None:
        seats.append((1 - seat, user))
    elif mode == Match.Mode.COMPUTER:
        seats.append((1 - seat, computer_user(computer_level)))
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
            raise MatchFull("this match already has two players")
        if user is not None and view.seats_of(user.pk):
            raise MatchFull("you already play in this match")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise MatchFull(f"seat {chosen} is taken")
        joined = PlayerJoined(
            chosen, _id(user), user.get_username() if user else name or "", kind_of(user)
        )
        if user is not None:
            setattr(match, f"player{chosen}", user)
            match.save(update_fields=[f"player{chosen}"])
        events: list[Event] = [joined, *_follow_ups(view.state, len(free) == 1, dice)]
        view = append(match, view, events, actor_id=_id(user), at=now)
        record_deadline(view, now)  # clocked online matches: the deadline, presence
        return view


def match_roll(
    *, match_id: UUID, user: Any, dice: DiceSource = SECRET_DICE, **kw: Any
) -> MatchView:
    return _command(
        match_id, user, lambda v, s: [rules.Roll(s, _roll(v, s, dice))], dice=dice, **kw
    )


def match_play(*, match_id: UUID, user: Any, play: str | list[Any], **kw: Any) -> MatchView:
    """Play the rolled dice: notation ("24/18 13/10") or steps ([[24, 18], [13, 10]])."""

    def decide(view: MatchView, seat: int) -> list[rules.Action]:
        state = _state(view)
        rules.check_turn(state, rules.Phase.PLAY, seat, "move")
        return [rules.Move(seat, chosen_play(state, play).steps)]

    return _command(match_id, user, decide, **kw)


def match_double(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return _command(match_id, user, lambda v, s: [rules.Double(s)], **kw)


def match_take(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return _command(match_id, user, lambda v, s: [rules.Take(s)], **kw)


def match_drop(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return _command(match_id, user, lambda v, s: [rules.Drop(s)], **kw)


def match_resign(*, match_id: UUID, user: Any, value: int = 1, **kw: Any) -> MatchView:
    return _command(match_id, user, lambda v, s: [rules.Resign(s, value)], **kw)


def match_accept_resign(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return _command(match_id, user, lambda v, s: [rules.AcceptResign(s)], **kw)


def match_reject_resign(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    return _command(match_id, user, lambda v, s: [rules.RejectResign(s)], **kw)


def match_resign_match(*, match_id: UUID, user: Any, **kw: Any) -> MatchView:
    """The player gives up the whole match, at any moment of it (his turn or not): the
    opponent wins with the points the match still needed (an unlimited match: the cube)."""

    def decide(view: MatchView, seat: int) -> list[rules.Action]:
        if _state(view).is_over:
            raise IllegalAction.because("match_over")
        return [rules.LoseMatch(seat, rules.EndedBy.RESIGN)]

    return _command(match_id, user, decide, **kw)


def match_timeout(*, match_id: UUID, seat: int, **kw: Any) -> MatchView:
    """The seat's time ran out: it loses the match. Refused unless the clock says so, so a
    late or repeated clock task changes nothing."""

    now = kw.pop("now", None) or timezone.now()

    def decide(view: MatchView, s: int) -> list[rules.Action]:
        if _state(view).is_over:
            raise IllegalAction.because("match_over")
        if out_of_time(view, now) != s:
            raise IllegalAction(f"seat {s} is not out of time")
        return [rules.LoseMatch(s, rules.EndedBy.TIMEOUT)]

    return _command(match_id, None, decide, seat=seat, now=now, clock_checked=False, **kw)


def match_forfeit(*, match_id: UUID, seat: int, **kw: Any) -> MatchView:
    """The seat left and did not come back in time: it loses the match."""
    return _command(
        match_id, None, lambda v, s: [rules.LoseMatch(s, rules.EndedBy.FORFEIT)], seat=seat, **kw
    )


def match_abort(*, match_id: UUID, user: Any, reason: str = "", **kw: Any) -> MatchView:
    """End a match with no winner: a player before anything was decided (an online match
    before its opening roll, others before the first move), staff any time."""

    def decide(view: MatchView, seat: int) -> list[rules.Action]:
        if _state(view).is_over:
            raise IllegalAction.because("match_over")
        staff = user is None or getattr(user, "is_staff", False)
        if not staff and view.moves:
            raise IllegalAction("a match can be aborted only before the first move")
        if not staff and not view.player_may_abort:  # fair dice (MatchView.player_may_abort)
            raise IllegalAction(
                "an online match can be aborted only before the opening roll: resign instead"
            )
        return [rules.Abort(reason)]

    return _command(match_id, user, decide, any_user=True, needs_opponent=False, **kw)


def match_act(*, match_id: UUID, user: Any, action: rules.Action, **kw: Any) -> MatchView:
    """Do one rules action for its player: the entry for callers that decide in the rules'
    terms (the computer's turn, an imported file). Trusted callers only: a `Roll` is recorded
    with the dice it carries (the server drew them, or the file says them)."""
    if not isinstance(action, _PLAYER_ACTIONS):
        raise IllegalAction(f"{type(action).__name__} is not an action a player takes")
    seat = action.player
    return _command(match_id, user, lambda v, s: [action], seat=seat, **kw)


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
            raise IllegalAction("a rematch is offered once the match is over")
        seats = view.seats_of(user.pk)
        if not seats:
            raise NotAPlayer("you do not play in this match")
        offered = RematchOffered(seats[0], str(rematch_id))
        return append(match, view, [offered], actor_id=_id(user), at=now)


# -- the command path -------------------------------------------------------------------------


def _command(
    match_id: UUID,
    user: Any,
    decide: Decide,
    *,
    expected_version: int | None = None,
    seat: int | None = None,
    now: datetime | None = None,
    dice: DiceSource = SECRET_DICE,
    any_user: bool = False,
    clock_checked: bool = True,
    needs_opponent: bool = True,
    hint: MatchView | None = None,
    authorize: Authorize | None = None,
    savepoint: bool = True,
    lag: float | None = None,
) -> MatchView:
    """The command path. `lag`: the network lag (seconds) the player's client reports for
    this command; compensated within his quota (games.rules.clock.LagTracker) and recorded in
    the command's first event. `hint`: the view a trusted caller got from its previous command in
    the same transaction (an import), used when it is still at the locked row's version.
    `savepoint=False`: inside a caller's transaction that fails whole (an import), no
    savepoint per command.
    `authorize`: the caller's permission checks, run on the Match row before anything else.

    First without a lock (`_unlocked`): decided on the view at the row's version (or, with no
    permissions to check, this process's cached view) and written by one compare-and-set
    statement. When that cannot be done (no cached view, the match ends, the clock ran out,
    an import) or another writer came first, the command is decided again in a transaction
    with the Match row locked: one read of the row, no read of events when this process's
    cached view is at its version."""
    now = now or timezone.now()
    turn = _Turn(user, decide, expected_version, seat, dice, any_user, needs_opponent, lag)
    if hint is None and savepoint and compare_and_set_available():
        done = _unlocked(match_id, turn, now, clock_checked, authorize)
        if done is not None:
            return done
    late: int | None = None
    with transaction.atomic(savepoint=savepoint):
        match = _lock(match_id)
        if authorize is not None:
            authorize(match)
        if hint is not None and hint.match_id == match.pk and hint.version == match.version:
            view = hint
        else:
            view = load_view(match.pk, version=match.version)
        acting, state = turn.check(view)
        late = out_of_time(view, now, turn.lag_of(view, acting)) if clock_checked else None
        if late is not None:
            # Too late: the timeout is written now, even if no clock task has come yet.
            lost = rules.apply(state, rules.LoseMatch(late, rules.EndedBy.TIMEOUT), check=False)
            view = _store(match, view, [TimedOut(late)], lost, actor_id=None, at=now)
        else:
            events, state = turn.decided(view, acting, state)
            view = _store(match, view, events, state, actor_id=_id(user), at=now)
        record_deadline(view, now)  # clocked online matches: the deadline
    if late is not None:
        raise OutOfTime(late)
    return view


@dataclass(frozen=True, slots=True)
class _Turn:
    """A command's caller and decision, checked and decided on a view (by either path)."""

    user: Any
    decide: Decide
    expected_version: int | None
    seat: int | None
    dice: DiceSource
    any_user: bool
    needs_opponent: bool
    lag: float | None = None

    def lag_of(self, view: MatchView, acting: int) -> float | None:
        """The lag to judge this command's time with: the reported lag (0 if none) when the
        acting seat's move is running; None (the grace) for the system's and anyone else's."""
        if self.user is None or view.clock is None or view.clock.running != acting:
            return None
        return self.lag if self.lag is not None else 0.0

    def check(self, view: MatchView) -> tuple[int, rules.MatchState]:
        """The acting seat and the state, or the refusal: a stale version, not a player, no
        opponent yet."""
        if self.expected_version is not None and self.expected_version != view.version:
            raise VersionConflict(view.version, self.expected_version)
        acting = _acting_seat(view, self.user, self.seat, self.any_user)
        state = _state(view)
        if self.needs_opponent and not view.full and not state.is_over:
            raise IllegalAction("the match has not started: it is waiting for an opponent")
        return acting, state

    def decided(
        self, view: MatchView, acting: int, state: rules.MatchState
    ) -> tuple[list[Event], rules.MatchState]:
        """The command's events (with what the server records after them) and the state
        they lead to."""
        events: list[Event] = []
        for action in self.decide(view, acting):
            state = rules.apply(state, action)
            events.append(event_for_action(action))
        clock = view.clock
        if self.lag is not None and events and clock is not None and clock.running == acting:
            events[0] = replace(events[0], lag=clock.compensation(self.lag))
        events += _follow_ups(state, view.full, self.dice)  # these never end a match
        return events, state


def _unlocked(
    match_id: UUID,
    turn: _Turn,
    now: datetime,
    clock_checked: bool,
    authorize: Authorize | None,
) -> MatchView | None:
    """The command decided without a transaction and written by `append_if_at`; None when
    it must be decided under the lock instead (nothing was written then).

    With `authorize` the Match row is read (the permissions need it) and the view is the one
    at its version; without, the process's cached view is taken as it is, and the write finds
    out if it was behind. A refusal is final only when the view was the row's: refused on a
    cached view that may be behind, the command is asked again under the lock."""
    pk = _pk(match_id)
    match: Match | None = None
    if authorize is not None:
        match = fetch_match(pk)
        if match is None:
            raise MatchNotFound(match_id)
        authorize(match)
        view = load_view(match.pk, version=match.version)
    else:
        cached = cached_view(pk)
        if cached is None:
            return None
        view = cached
    try:
        acting, state = turn.check(view)
        if clock_checked and out_of_time(view, now, turn.lag_of(view, acting)) is not None:
            return None  # the timeout is written under the lock
        events, state = turn.decided(view, acting, state)
    except (RulesError, StoreError):
        if match is None:
            return None
        raise
    if state.is_over:
        return None  # the end (its ratings, early exits) is written under the lock
    # A command seats nobody: a match that keeps a clock row has had it since it started
    # (match_join), and the statement upserts it.
    return append_if_at(view, events, actor_id=_id(turn.user), at=now, match=match, clock=clock_row)


def _store(
    match: Match,
    view: MatchView,
    events: list[Event],
    ending: rules.MatchState,
    *,
    actor_id: int | None,
    at: datetime,
) -> MatchView:
    """Append a command's events; when they end the match, what its end sets off in the same
    transaction: the ratings (whose lock must come before the insert) and early exits."""
    was_over = view.state is not None and view.state.is_over
    if not was_over and ending.is_over:
        ratings.lock_before_end(view, ending)
    view = append(match, view, events, actor_id=actor_id, at=at)
    if not was_over and view.state is not None and view.state.is_over:
        ratings.on_match_end(view)
        conduct.on_match_end(view, actor_id)
    return view


def _follow_ups(state: rules.MatchState, full: bool, dice: DiceSource) -> list[Event]:
    """What the server records by itself: opening rolls (ties again), forced passes."""
    events: list[Event] = []
    while full and not state.is_over:
        if state.phase == rules.Phase.OPENING:
            action: rules.Action = rules.OpeningRoll(*dice.opening())
        elif state.phase == rules.Phase.PLAY and state.turn is not None:
            if plays_on_turn(state):
                break
            action = rules.Move(state.turn, ())
        else:
            break
        state = rules.apply(state, action)
        events.append(event_for_action(action))
    return events


def _acting_seat(view: MatchView, user: Any, seat: int | None, any_user: bool) -> int:
    """The seat a user acts for: his own; in hot-seat the one whose move it is."""
    state = _state(view)
    if user is None:  # the system: clocks, imports, admins' tools
        if seat is None:
            seat = state.to_act if state.to_act is not None else 0
        return seat
    seats = view.seats_of(user.pk)
    if not seats:
        if any_user and getattr(user, "is_staff", False):
            return seat if seat is not None else 0
        raise NotAPlayer("you do not play in this match")
    if seat is not None:
        if seat not in seats:
            raise NotAPlayer(f"you do not sit on seat {seat}")
        return seat
    if len(seats) == 2:
        return state.to_act if state.to_act is not None else 0
    return seats[0]


def _roll(view: MatchView, seat: int, dice: DiceSource) -> Dice:
    state = _state(view)
    if state.phase != rules.Phase.ROLL or state.turn != seat:
        # Let the rules give the reason, without spending dice.
        rules.apply(state, rules.Roll(seat, Dice.of(1, 2)))
    return dice.roll()


def _state(view: MatchView) -> rules.MatchState:
    if view.state is None:  # pragma: no cover - every stream starts with match_created
        raise MatchNotFound("?")
    return view.state


def _pk(match_id: UUID) -> UUID:
    try:
        return match_id if isinstance(match_id, UUID) else UUID(str(match_id))
    except (ValueError, TypeError):
        raise MatchNotFound(match_id) from None


def _lock(match_id: UUID) -> Match:
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
    if kind:
        return str(kind)
    name = user.get_username()
    return "computer" if name.startswith("computer-") else "registered"


def computer_user(level: str) -> Any:
    """The account the computer plays under at a level (created on first use)."""
    user, _ = get_user_model().objects.get_or_create(
        username=f"computer-{level}", defaults={"is_active": True}
    )
    return user
