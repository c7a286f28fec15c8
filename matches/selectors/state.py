"""Reads: a match from a caller's side, and the lists of matches (mine, open challenges, live).

Nothing here writes. The state of one match is rebuilt from its events (`store.load_view`,
cached); lists read the projected `Match` rows only, never replaying a stream.

A caller sees the board from a side (`Side`): a seated player from his own seat; a hot-seat
user from the seat whose move it is (or the one he asks for); a spectator from seat 0 (or the
one he asks for). "you" and "opponent" in a state are relative to that side.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from threading import Lock
from typing import Any
from uuid import UUID

from cachetools import LRUCache, TTLCache
from django.db.models import Q, QuerySet
from django.utils import timezone

import games.rules as rules
from games.rules import (
    Dice,
    GameKind,
    Play,
    Position,
    Step,
    apply_steps,
    game_of,
    legal_next_steps,
    legal_plays,
    play_result_id,
    result_position_id,
)
from matches.store.analysis_models import hints_allowed
from matches.store.models import Match, MatchLobby, PlayerProfile
from matches.store.plays import first_turn_of, plays_of
from matches.store.replay import MatchView
from matches.store.rows import stored_ratings
from matches.store.streams import status_of

from . import shapes
from .kept import by_identity
from .ratings import RATED_KINDS, START_RATING, ratings_for_rows, ratings_of
from .shapes import Side, Who


def side_for(view: MatchView, user: Any, requested: int | None = None) -> Side:
    seats = view.seats_of(user.pk) if user is not None and user.is_authenticated else []
    state = view.state
    acting = None
    if state is not None:
        acting = state.to_act if state.to_act is not None else state.turn
    return _side(seats, requested, acting)


def _side(seats: list[int], requested: int | None, acting: int | None) -> Side:
    if len(seats) == 1:
        return Side(seats[0], "player", seats)
    if len(seats) == 2:
        return Side(requested if requested is not None else acting or 0, "hotseat", seats)
    return Side(requested or 0, "spectator", seats)


def row_side(match: Match, user: Any) -> Side:
    """The caller's side of a match in a list, from its projected row."""
    mine = user is not None and user.is_authenticated
    seats = [
        s for s, pk in enumerate((match.player0_id, match.player1_id)) if mine and pk == user.pk
    ]
    return _side(seats, None, match.turn)


def acting_seat(view: MatchView, side: Side) -> int | None:
    """The seat the caller acts for now, or None (spectators; the other player's turn)."""
    state = view.state
    if state is None or not side.seats:
        return None
    if side.role == "hotseat":
        return state.to_act
    return side.seats[0]


# -- pieces of a state ---------------------------------------------------------------------


def board_json(position: Position) -> shapes.Board:
    """A position from its mover's side: points[i] is his point i+1 (positive: his checkers).
    The game's facts say the rest: no bar (null) in a game without one; the heads where the
    game has them (long nardy: the mover's 24, the opponent's 12, in the mover's numbering)
    with the checkers still on them."""
    game = game_of(position)
    points = position.board
    heads = None
    if game.heads is not None:
        mine, theirs = game.heads
        heads = shapes.Heads(
            you=shapes.Head(mine, max(points[mine - 1], 0)),
            opponent=shapes.Head(theirs, max(-points[theirs - 1], 0)),
        )
    return shapes.Board(
        points=list(points),
        bar=shapes.SideCount(position.bar[0], position.bar[1]) if game.has_bar else None,
        off=shapes.SideCount(position.off[0], position.off[1]),
        heads=heads,
    )


def step_json(step: Step) -> shapes.Step:
    """A step as a response shows it (frozen: one per step, shared by every play with it)."""
    shown = _steps.get(step)
    if shown is None:
        shown = _steps.setdefault(step, shapes.Step(step.frm, step.to, step.hit))
    return shown


_steps: dict[Step, shapes.Step] = {}  # at most 26 x 26 x 2 steps


def play_json(play: Play, has_gnubg_ids: bool) -> shapes.LegalPlay:
    """A legal play: its notation, its single-die steps and the position it leads to: tavla
    as the gnubg Position ID with the opponent on roll (as gnubg shows it); long nardy (no
    gnubg ID) as the board from the mover's side. `has_gnubg_ids`: the game's (the plays of
    one roll share it)."""
    if has_gnubg_ids:  # from the search's array: the result's Position is never built
        position_id, board = play_result_id(play.result_array()), None
    else:
        position_id, board = None, board_json(play.result)
    return shapes.LegalPlay(
        notation=play.notation,
        steps=[step_json(s) for s in play.steps],
        position_id=position_id,
        board=board,
    )


def plays_json(position: Position, dice: Dice, first_turn: bool = False) -> list[shapes.LegalPlay]:
    """The legal plays in a match state (the next state has the board: a tavla roll can have
    a hundred plays, so its boards are left out here). Built once per position and roll in
    this process: the roll's response, every later read of the state and every spectator's
    share them (frozen values). `first_turn`: long nardy's head rule."""
    return list(_plays_json(position, dice, first_turn))


@lru_cache(maxsize=4096)
def _plays_json(
    position: Position, dice: Dice, first_turn: bool = False
) -> tuple[shapes.LegalPlay, ...]:
    has_gnubg_ids = game_of(position).has_gnubg_ids
    return tuple(play_json(p, has_gnubg_ids) for p in plays_of(position, dice, first_turn))


def gnubg_json(state: rules.MatchState) -> shapes.Gnubg:
    """The state's gnubg Position ID and Match ID (none for a game gnubg does not know).
    Every read of a match at one version shows the same state object (`load_view` keeps the
    view): its IDs are encoded once and kept with it."""
    if not state.game.has_gnubg_ids:
        return shapes.Gnubg(None, None)
    return _gnubg_ids(state)


_gnubg_ids = by_identity(lambda state: shapes.Gnubg(*state.gnubg_ids()), maxsize=4096)


def rules_plays(
    position: Position,
    dice: Dice,
    pid: str | None,
    first_turn: bool = False,
    offset: int = 0,
    limit: int | None = None,
) -> shapes.RulesPlays:
    """The stateless rules service: the legal plays (a page of them) with the board each
    leads to (tavla: and its gnubg Position ID; long nardy has none)."""
    game = game_of(position)
    every = legal_plays(position, dice, first_turn=first_turn)
    page = every[offset:] if limit is None else every[offset : offset + limit]
    plays = [
        shapes.RulesPlay(
            notation=p.notation,
            steps=[step_json(s) for s in p.steps],
            position_id=result_position_id(p.result) if game.has_gnubg_ids else None,
            board=board_json(p.result),
        )
        for p in page
    ]
    return shapes.RulesPlays(
        game=game.name,  # type: ignore[arg-type]
        position_id=pid,
        dice=dice.to_json(),
        plays=plays,
        total=len(every),
    )


def games_json() -> shapes.Games:
    """Every game's board facts, from the rules' own games (GET /rules/games)."""
    return _GAMES


def _game_facts(game: rules.Game) -> shapes.GameFacts:
    return shapes.GameFacts(
        game=game.name,  # type: ignore[arg-type]
        title=game.title,
        bar=game.has_bar,
        heads=list(game.heads) if game.heads is not None else None,
        direction=game.direction,
        start=list(game.starting().board),
        closed_by=game.closing_count,
        head_rule=game.head_rule,
        wall=game.wall,
        cube=game.has_cube,
        backgammons=game.has_backgammons,
        gnubg_ids=game.has_gnubg_ids,
        opening_dice_played=game.plays_opening_dice,
        resign_values=list(game.resign_values),
        results=list(game.results),
    )


_GAMES = shapes.Games(games=[_game_facts(game) for game in rules.GAMES.values()])


def next_steps_json(
    position: Position, dice: Dice, steps: list[Step], first_turn: bool = False
) -> shapes.NextSteps:
    """The steps allowed after a partial play, and whether the partial play is complete."""
    nxt = legal_next_steps(position, dice, steps, first_turn=first_turn)
    plays = plays_of(position, dice, first_turn)
    need = len(plays[0].steps) if plays else 0
    after = apply_steps(position, steps)  # the steps are legal: legal_next_steps judged them
    pips = after.pips()
    return shapes.NextSteps(
        steps_so_far=[step_json(s) for s in steps],
        next_steps=[step_json(s) for s in nxt],
        complete=len(steps) == need,
        dice_to_use=need,
        board=board_json(after),
        pips=shapes.SideCount(pips[0], pips[1]),
    )


def _who(seat: int | None, side: Side) -> Who | None:
    if seat is None:
        return None
    return Who(seat, "you" if seat == side.seat else "opponent")


# -- players and lobby: cached in the process -------------------------------------------------
#
# A match's lobby row (invite code, open challenge, reserved seat, rematch_of) never changes
# after creation, and a player's kind and display name change only when a guest signs up: the
# state of a match reads them from these small caches instead of joining five tables on every
# request. A player's entry is kept PROFILE_TTL seconds (and dropped at once in the process
# that registers a guest), so other processes show a guest's new name and kind within that.
# Only the pointer to a rematch appears later, and it is read only once a match is over.

_CACHE_MAX = 20_000
PROFILE_TTL = 60.0
# cachetools' caches (not thread-safe by themselves: the lock); a player's entry expires
_profiles: TTLCache[int, tuple[str, str]] = TTLCache(maxsize=_CACHE_MAX, ttl=PROFILE_TTL)
_lobbies: LRUCache[Any, LobbyInfo] = LRUCache(maxsize=_CACHE_MAX)
_lock = Lock()


@dataclass(frozen=True)
class LobbyInfo:
    open_challenge: bool = False
    invite_code: str = ""
    reserved_for_id: int | None = None
    reserved_for: str | None = None
    rematch_of: str | None = None
    created_by_id: int | None = None
    imported: bool = False


NO_LOBBY = LobbyInfo()


def _lobby_from_row(row: Any) -> LobbyInfo:
    if row is None:
        return NO_LOBBY
    return LobbyInfo(
        open_challenge=row.open_challenge,
        invite_code=row.invite_code,
        reserved_for_id=row.reserved_for_id,
        reserved_for=row.reserved_for.get_username() if row.reserved_for_id else None,
        rematch_of=str(row.rematch_of_id) if row.rematch_of_id else None,
        created_by_id=row.created_by_id,
        imported=row.imported,
    )


def lobby_info(match: Match) -> LobbyInfo:
    """The lobby data of a match (NO_LOBBY for one made outside the API)."""
    with _lock:
        info = _lobbies.get(match.pk)
    if info is not None:
        return info
    row = MatchLobby.objects.select_related("reserved_for").filter(match_id=match.pk).first()
    info = _lobby_from_row(row)
    if row is not None:
        with _lock:
            _lobbies[match.pk] = info
    return info


def rematch_of_match(match: Match) -> str | None:
    """The id of the rematch of a finished match, if one was offered."""
    found = MatchLobby.objects.filter(rematch_of_id=match.pk).values_list("match_id", flat=True)
    first = found.first()
    return str(first) if first else None


def player_infos(seats: list[tuple[int, str]]) -> dict[int, tuple[str, str]]:
    """(kind, display name) of users given as (user id, username)."""
    out: dict[int, tuple[str, str]] = {}
    missing: dict[int, str] = {}
    with _lock:
        for user_id, name in seats:
            cached = _profiles.get(user_id)
            if cached is not None:
                out[user_id] = cached
            else:
                missing[user_id] = name
    if missing:
        rows = PlayerProfile.objects.filter(user_id__in=list(missing)).values_list(
            "user_id", "kind", "display_name"
        )
        found = {uid: (kind, display or missing[uid]) for uid, kind, display in rows}
        for user_id, name in missing.items():
            out[user_id] = found.get(user_id, (PlayerProfile.without_profile(), name))
        with _lock:
            for user_id in missing:
                _profiles[user_id] = out[user_id]
    return out


def forget_player(user_id: int) -> None:
    """Drop a player's cached kind and name (a guest just signed up)."""
    with _lock:
        _profiles.pop(user_id, None)


def player_kind(user: Any) -> str:
    profile = getattr(user, "tavla_profile", None) if user is not None else None
    if profile is not None:
        return str(profile.kind)
    return PlayerProfile.without_profile()


def _seat_players(view: MatchView, match: Match) -> list[shapes.Player | None]:
    """The players of a match from its events (names at the time they sat down), with their
    ratings now in the match's game (read with the row when it was read with them)."""
    users = [(s.user_id, s.name) for s in view.seats if s is not None and s.user_id is not None]
    infos = player_infos(users)
    game = view.created.game if view.created is not None else "tavla"
    kinds = ((uid, infos[uid][0]) for uid, _ in users)
    ratings = ratings_of(kinds, game, stored_ratings(match))
    out: list[shapes.Player | None] = []
    for seat, occupant in enumerate(view.seats):
        if occupant is None:
            out.append(None)
            continue
        uid = occupant.user_id
        kind, display = infos[uid] if uid is not None else ("named", occupant.name)
        rating = ratings.get(uid) if uid is not None else None
        out.append(shapes.Player(seat, occupant.name, display, kind, rating))  # type: ignore[arg-type]
    return out


def _seat_kinds(view: MatchView, players: list[shapes.Player | None]) -> list[str]:
    """The kinds the seats were played as (recorded when they sat down: a guest who
    registered since is still a guest in his guest matches), else the accounts' now."""
    return [
        seat.kind or player.kind
        for seat, player in zip(view.seats, players, strict=False)
        if seat is not None and player is not None
    ]


def _row_players(
    match: Match, ratings: dict[tuple[int, str], float] | None = None
) -> list[shapes.Player | None]:
    """The players of a match from its row (users and profiles selected related); `ratings`
    of the players in their matches' games (read here when not given)."""
    if ratings is None:
        ratings = ratings_for_rows([match])
    out: list[shapes.Player | None] = []
    for seat in (0, 1):
        user = getattr(match, f"player{seat}")
        if user is None:
            out.append(None)
            continue
        kind = player_kind(user)
        rating = ratings.get((user.pk, match.game), START_RATING) if kind in RATED_KINDS else None
        name = user.get_username()
        out.append(shapes.Player(seat, name, display_name(user), kind, rating))  # type: ignore[arg-type]
    return out


def display_name(user: Any) -> str:
    """The name a player chose (his username when he chose none)."""
    profile = getattr(user, "tavla_profile", None)
    return (profile.display_name if profile is not None else "") or user.get_username()


def clock_settings(clock: dict[str, Any] | None) -> shapes.ClockSettings | None:
    if clock is None:
        return None
    return shapes.ClockSettings(
        delay=clock["delay"],
        reserve=clock["reserve"],
        max_move=clock["max_move"],
        reconnect=clock["reconnect"],
    )


def settings_json(match: Match, kinds: list[str] | None = None) -> shapes.Settings:
    """`kinds`: of the accounts in the seats, as they sat down: `rated` says what will happen,
    false when one of them is not rated (a guest, the computer, a named player)."""
    rated = match.rated and all(k in RATED_KINDS for k in kinds or ())
    return shapes.Settings(
        game=match.game,
        mode=match.mode,
        length=match.length,
        cube=match.cube,
        crawford=match.crawford,
        jacoby=match.jacoby,
        backgammon_value=match.backgammon_value,
        next_game_starter=match.next_game_starter,
        computer_level=match.computer_level or None,
        clock=clock_settings(match.clock),
        public=match.public,
        rated=rated,
        hints=hints_allowed(match),
    )


def lobby_json(match: Match, info: LobbyInfo, rematch: str | None, user: Any) -> shapes.Lobby:
    mine = (
        info is not NO_LOBBY
        and user is not None
        and user.is_authenticated
        and user.pk in (info.created_by_id, match.player0_id, match.player1_id)
    )
    return shapes.Lobby(
        open_challenge=info.open_challenge,
        invite_code=info.invite_code if mine else None,
        reserved_for=info.reserved_for,
        rematch_of=_uuid(info.rematch_of),
        rematch=_uuid(rematch),
        imported=info.imported,
    )


def _uuid(value: Any) -> UUID | None:
    return None if value is None else UUID(str(value))


def caller_actions(view: MatchView, side: Side, user: Any, lobby: LobbyInfo) -> list[str]:
    """What the caller may do now, by endpoint name."""
    state = view.state
    if state is None:
        return []
    actions: list[str] = []
    acting = acting_seat(view, side)
    if acting is not None and view.full and not state.is_over:
        actions += state.actions_for(acting)
    authenticated = user is not None and user.is_authenticated
    if (
        authenticated
        and not side.seats
        and not view.full
        and not state.is_over
        and (lobby.open_challenge or lobby.reserved_for_id == user.pk)
    ):
        actions.append("join")
    if acting is not None and view.full and not state.is_over:
        actions.append("resign-match")
    if side.seats and not state.is_over and view.player_may_abort:
        actions.append("abort")
    if side.seats and state.is_over and state.ended_by != rules.EndedBy.ABORT:
        actions.append("rematch")
    return actions


# -- the state of one match ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StateInputs:
    """What a match's state shows besides its replayed view and the clock's time: the
    caller's side and actions, the players (names, kinds and ratings now), the settings and
    the lobby, gathered from the row, the caches and the caller. The state is a function of
    the view and these alone (`state_of`): at one view, equal inputs give an equal state, so
    a rendered state can be kept by them (matches/api/states.py)."""

    match_id: UUID
    side: Side
    players: tuple[shapes.Player | None, ...]
    settings: shapes.Settings
    lobby: shapes.Lobby
    actions: tuple[str, ...]

    def key(self) -> tuple[Any, ...]:
        """The inputs as one hashable value (a Side holds a list)."""
        side = self.side
        return (
            self.match_id,
            side.seat,
            side.role,
            tuple(side.seats),
            self.players,
            self.settings,
            self.lobby,
            self.actions,
        )


def state_inputs(match: Match, view: MatchView, user: Any, seat: int | None = None) -> StateInputs:
    """The inputs of a match's state from the caller's side: `match` (the plain row) gives
    the settings; the players come from the events and the cached profiles, the lobby from
    its cache."""
    state = view.state
    if state is None:  # every stream starts with match_created
        raise ValueError(f"match {match.pk} has no events")
    side = side_for(view, user, seat)
    lobby = lobby_info(match)
    rematch = rematch_of_match(match) if state.is_over else None
    players = _seat_players(view, match)
    return StateInputs(
        match_id=match.pk,
        side=side,
        players=tuple(players),
        settings=settings_json(match, _seat_kinds(view, players)),
        lobby=lobby_json(match, lobby, rematch, user),
        actions=tuple(caller_actions(view, side, user, lobby)),
    )


def match_state(
    match: Match, view: MatchView, user: Any, *, seat: int | None = None
) -> shapes.MatchState:
    """The whole state of a match from the caller's side (see the module docstring)."""
    return state_of(view, state_inputs(match, view, user, seat))


def state_of(
    view: MatchView, inputs: StateInputs, now: datetime | None = None
) -> shapes.MatchState:
    """The state of a match at `view` with its `inputs`; nothing else is read but the
    clock's time (`now`), and only for the clock."""
    state = view.state
    if state is None:  # every stream starts with match_created
        raise ValueError(f"match {inputs.match_id} has no events")
    side = inputs.side
    me, them = side.seat, 1 - side.seat
    position = state.position_for(me)
    acting = acting_seat(view, side)
    plays: list[shapes.LegalPlay] = []
    if (
        state.phase == rules.Phase.PLAY
        and state.dice is not None
        and acting is not None
        and acting == state.turn
        and me == acting
    ):
        plays = plays_json(position, state.dice, first_turn_of(state))
    s = state.settings
    game = state.game
    pips = position.pips()
    resignation = None
    if state.phase == rules.Phase.RESIGNING and state.turn is not None:
        resignation = shapes.Resignation(
            offered_by=Who(state.turn, "you" if state.turn == me else "opponent"),
            value=state.resign_value,
            points=state.points_for(GameKind(state.resign_value)),
        )
    result = None
    if state.is_over:
        result = shapes.Result(
            winner=_who(state.winner, side),
            ended_by=str(state.ended_by) if state.ended_by else None,  # type: ignore[arg-type]
            score=list(state.score),
        )
    gnubg = gnubg_json(state)
    return shapes.MatchState(
        id=inputs.match_id,
        version=view.version,
        status=status_of(view),  # type: ignore[arg-type]
        settings=inputs.settings,
        players=list(inputs.players),
        side=side,
        lobby=inputs.lobby,
        game=state.game_number,
        phase=str(state.phase),  # type: ignore[arg-type]
        board=board_json(position),
        pips=shapes.SideCount(pips[0], pips[1]),
        dice=state.dice.to_json() if state.dice is not None else None,
        turn=_who(state.turn, side),
        to_act=_who(state.to_act, side),
        actions=list(inputs.actions),  # type: ignore[arg-type]
        legal_plays=plays,
        first_turn=(
            state.first_turn[state.turn] if game.head_rule and state.turn is not None else None
        ),
        cube=shapes.Cube(
            value=state.cube,
            owner=_who(state.cube_owner, side),
            offered=state.phase == rules.Phase.DOUBLED,
            in_use=s.cube and game.has_cube and not state.crawford_game,
        ),
        crawford=shapes.Crawford(
            rule=s.crawford and s.length > 0 and game.has_cube,
            crawford_game=state.crawford_flag,  # as the Match ID says it
            post_crawford=state.post_crawford,
        ),
        score=shapes.Score(
            you=state.score[me],
            opponent=state.score[them],
            seats=list(state.score),
            length=s.length,
        ),
        resignation=resignation,
        clock=clock_json(view, side, now),
        result=result,
        games=[
            shapes.GameResult(
                number=g.number,
                winner=Who(g.winner, "you" if g.winner == me else "opponent"),
                points=g.points,
                kind=g.kind.label,  # type: ignore[arg-type]
                cube=g.cube,
                ended_by=str(g.ended_by),  # type: ignore[arg-type]
            )
            for g in state.games
        ],
        gnubg=gnubg,
        moves=view.moves,
        created_at=view.created_at,
        started_at=view.started_at,
        finished_at=view.finished_at,
    )


def clock_json(
    view: MatchView, side: Side, now: datetime | None = None
) -> shapes.ClockState | None:
    """The clock from the caller's side (README "Clocks"): each side's delay left in the
    running move and reserve left, whose move runs and its deadline, the reconnect grace."""
    clock = view.clock
    if clock is None:
        return None
    now = now or timezone.now()
    state = view.state
    playing = state is not None and not state.is_over and view.full
    left = [shapes.TimeLeft(t["delay"], t["reserve"]) for t in clock.remaining(now)]
    c = clock.settings
    return shapes.ClockState(
        settings=shapes.ClockSettings(c.delay, c.reserve, c.max_move, c.reconnect),
        running=_who(clock.running, side) if playing else None,
        deadline=clock.deadline() if playing else None,
        you=left[side.seat],
        opponent=left[1 - side.seat],
        seats=left,
        reconnect=c.reconnect,
        now=now,
    )


# -- lists ---------------------------------------------------------------------------------------


RELATED = (
    "player0",
    "player1",
    "player0__tavla_profile",
    "player1__tavla_profile",
    "lobby",
    "lobby__reserved_for",
    "rematch_lobby",
)
"""What a state or a summary reads besides the Match row: select these related."""


def _with_relations(qs: QuerySet[Match]) -> QuerySet[Match]:
    return qs.select_related(*RELATED)


def match_summary(
    match: Match, user: Any, ratings: dict[tuple[int, str], float] | None = None
) -> shapes.MatchSummary:
    """A match in a list: settings, players, projected score and status (no replay).
    `ratings`: of a whole page's players (`ratings_for_rows`), to read them once."""
    rematch = getattr(match, "rematch_lobby", None)
    players = _row_players(match, ratings)
    return shapes.MatchSummary(
        id=match.pk,
        status=match.status,
        settings=settings_json(match, [p.kind for p in players if p is not None]),
        players=players,
        score=[match.score0, match.score1],
        to_act=_who(match.turn, row_side(match, user)),
        winner=match.winner,
        ended_by=match.ended_by or None,
        version=match.version,
        lobby=lobby_json(
            match,
            _lobby_from_row(getattr(match, "lobby", None)),
            str(rematch.match_id) if rematch is not None else None,
            user,
        ),
        created_at=match.created_at,
        last_move_at=match.last_move_at,
    )


def matches_of(
    user: Any,
    *,
    status: list[str] | None = None,
    mode: str | None = None,
    my_turn: bool | None = None,
    game: str | None = None,
) -> QuerySet[Match]:
    """The matches the user sits in, newest first."""
    qs = Match.objects.filter(Q(player0=user) | Q(player1=user))
    if game:
        qs = qs.filter(game=game)
    if status:
        qs = qs.filter(status__in=status)
    if mode:
        qs = qs.filter(mode=mode)
    if my_turn is not None:
        mine = Q(turn=0, player0=user) | Q(turn=1, player1=user)
        qs = qs.filter(mine, status=Match.Status.ACTIVE) if my_turn else qs.exclude(mine)
    return _with_relations(qs)


def open_challenges(
    *, length: int | None = None, cube: bool | None = None, game: str | None = None
) -> QuerySet[Match]:
    """Online public matches waiting for an opponent that anyone may accept (a private
    match is never listed: it is joined by its invite)."""
    qs = Match.objects.filter(
        status=Match.Status.WAITING,
        mode=Match.Mode.ONLINE,
        public=True,
        lobby__open_challenge=True,
    )
    if game:
        qs = qs.filter(game=game)
    if length is not None:
        qs = qs.filter(length=length)
    if cube is not None:
        qs = qs.filter(cube=cube)
    return _with_relations(qs)


def live_matches(*, mode: str | None = None, game: str | None = None) -> QuerySet[Match]:
    """Public matches being played now (spectating)."""
    qs = Match.objects.filter(status=Match.Status.ACTIVE, public=True)
    if game:
        qs = qs.filter(game=game)
    if mode:
        qs = qs.filter(mode=mode)
    return _with_relations(qs)
