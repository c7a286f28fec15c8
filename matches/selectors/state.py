"""Reads: a match from a caller's side, and the lists of matches (mine, open challenges, live).

Nothing here writes. The state of one match is rebuilt from its events (`store.load_view`,
cached); lists read the projected `Match` rows only, never replaying a stream.

A caller sees the board from a side (`Side`): a seated player from his own seat; a hot-seat
user from the seat whose move it is (or the one he asks for); a spectator from seat 0 (or the
one he asks for). "you" and "opponent" in a state are relative to that side.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from threading import Lock
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.rules import match as rules
from games.rules.dice import Dice
from games.rules.gnubgid import GameState, MatchId, match_id, position_id
from games.rules.plays import Play, Step, legal_next_steps, legal_plays
from games.rules.position import Position
from games.rules.scoring import GameKind
from matches.store.models import Match, MatchLobby, PlayerProfile
from matches.store.replay import MatchView

COMPUTER_PREFIX = "computer-"
GUEST_PREFIX = "guest-"


@dataclass(frozen=True)
class Side:
    """Whose eyes a state is shown through: `seat`, and the caller's `role` in the match."""

    seat: int
    role: str  # "player", "hotseat" (both seats) or "spectator"
    seats: tuple[int, ...]  # the caller's own seats


def side_for(view: MatchView, user: Any, requested: int | None = None) -> Side:
    seats = tuple(view.seats_of(user.pk)) if user is not None and user.is_authenticated else ()
    state = view.state
    if len(seats) == 1:
        return Side(seats[0], "player", seats)
    if len(seats) == 2:
        if requested is not None:
            return Side(requested, "hotseat", seats)
        acting = state.to_act if state is not None else None
        if acting is None and state is not None:
            acting = state.turn
        return Side(acting or 0, "hotseat", seats)
    return Side(requested or 0, "spectator", seats)


def acting_seat(view: MatchView, side: Side) -> int | None:
    """The seat the caller acts for now, or None (spectators; the other player's turn)."""
    state = view.state
    if state is None or not side.seats:
        return None
    if side.role == "hotseat":
        return state.to_act
    return side.seats[0]


# -- pieces of a state ---------------------------------------------------------------------


def board_json(position: Position) -> dict[str, Any]:
    """A position from its mover's side: points[i] is his point i+1 (positive: his checkers)."""
    return {
        "points": list(position.board),
        "bar": {"you": position.bar[0], "opponent": position.bar[1]},
        "off": {"you": position.off[0], "opponent": position.off[1]},
    }


def step_json(step: Step) -> dict[str, Any]:
    return {"from": step.frm, "to": step.to, "hit": step.hit}


def play_json(play: Play, *, board: bool = False) -> dict[str, Any]:
    """A legal play: its notation, its single-die steps and the position it leads to as the
    gnubg Position ID with the opponent on roll (as gnubg shows it); with `board`, also that
    position from the mover's side (the stateless rules service gives it; a match state
    leaves it out: a roll can have a hundred plays and the next state has the board)."""
    out: dict[str, Any] = {
        "notation": play.notation,
        "steps": [step_json(s) for s in play.steps],
        "position_id": position_id(play.result.flipped()),
    }
    if board:
        out["board"] = board_json(play.result)
    return out


def plays_json(position: Position, dice: Dice, *, board: bool = False) -> list[dict[str, Any]]:
    return [play_json(p, board=board) for p in legal_plays(position, dice)]


def next_steps_json(position: Position, dice: Dice, steps: list[Step]) -> dict[str, Any]:
    """The steps allowed after a partial play, and whether the partial play is complete."""
    nxt = legal_next_steps(position, dice, steps)
    plays = legal_plays(position, dice)
    need = len(plays[0].steps) if plays else 0
    return {
        "steps_so_far": [step_json(s) for s in steps],
        "next_steps": [step_json(s) for s in nxt],
        "complete": len(steps) == need,
        "dice_to_use": need,
    }


def gnubg_ids(state: rules.MatchState) -> dict[str, str]:
    """gnubg's Position ID (player on roll to move) and Match ID of a state."""
    roller = state.turn if state.turn is not None else 0
    to_act = state.to_act if state.to_act is not None else roller
    if state.phase == rules.Phase.OPENING:
        game_state = GameState.NONE
    elif state.is_over:
        last = state.games[-1].ended_by if state.games else None
        game_state = {
            rules.EndedBy.RESIGN: GameState.RESIGNED,
            rules.EndedBy.DROP: GameState.DROPPED,
        }.get(last, GameState.OVER)  # type: ignore[arg-type]
    else:
        game_state = GameState.PLAYING
    s = state.settings
    mid = MatchId(
        cube_value=state.cube,
        cube_owner=state.cube_owner,
        player_on_roll=roller,
        crawford=state.crawford_game and s.length > 0,
        game_state=game_state,
        turn=to_act,
        double_offered=state.phase == rules.Phase.DOUBLED,
        resignation=state.resign_value if state.phase == rules.Phase.RESIGNING else 0,
        dice=(state.dice.high, state.dice.low) if state.dice is not None else None,
        match_length=s.length,
        score=state.score,
        jacoby=s.jacoby and s.is_money,
    )
    return {"position_id": position_id(state.position_for(roller)), "match_id": match_id(mid)}


def _who(seat: int | None, side: Side) -> dict[str, Any] | None:
    if seat is None:
        return None
    return {"seat": seat, "who": "you" if seat == side.seat else "opponent"}


# -- players and lobby: immutable once written, so cached in the process ------------------------
#
# A player's kind and display name never change after sign-up, and a match's lobby row (invite
# code, open challenge, reserved seat, rematch_of) never changes after creation: the state of a
# match reads them from these small caches instead of joining five tables on every request.
# Only the pointer to a rematch appears later, and it is read only once a match is over.

_CACHE_MAX = 20_000
_profiles: OrderedDict[int, tuple[str, str]] = OrderedDict()
_lobbies: OrderedDict[Any, LobbyInfo] = OrderedDict()
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


def _remember(cache: OrderedDict, key: Any, value: Any) -> None:
    with _lock:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > _CACHE_MAX:
            cache.popitem(last=False)


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
        _remember(_lobbies, match.pk, info)
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
            if user_id in _profiles:
                out[user_id] = _profiles[user_id]
            else:
                missing[user_id] = name
    if missing:
        rows = PlayerProfile.objects.filter(user_id__in=list(missing)).values_list(
            "user_id", "kind", "display_name"
        )
        found = {uid: (kind, display or missing[uid]) for uid, kind, display in rows}
        for user_id, name in missing.items():
            kind = "computer" if name.startswith(COMPUTER_PREFIX) else "registered"
            out[user_id] = found.get(user_id, (kind, name))
            _remember(_profiles, user_id, out[user_id])
    return out


def player_kind(user: Any) -> str:
    profile = getattr(user, "tavla_profile", None) if user is not None else None
    if profile is not None:
        return str(profile.kind)
    name = user.get_username() if user is not None else ""
    return "computer" if name.startswith(COMPUTER_PREFIX) else "registered"


def _seat_players(view: MatchView) -> list[dict[str, Any] | None]:
    """The players of a match from its events (names at the time they sat down)."""
    users = [(s.user_id, s.name) for s in view.seats if s is not None and s.user_id is not None]
    infos = player_infos(users)
    out: list[dict[str, Any] | None] = []
    for seat, occupant in enumerate(view.seats):
        if occupant is None:
            out.append(None)
            continue
        kind, display = (
            infos[occupant.user_id] if occupant.user_id is not None else ("named", occupant.name)
        )
        out.append({"seat": seat, "username": occupant.name, "display_name": display, "kind": kind})
    return out


def _row_players(match: Match) -> list[dict[str, Any] | None]:
    """The players of a match from its row (users and profiles selected related)."""
    out: list[dict[str, Any] | None] = []
    for seat in (0, 1):
        user = getattr(match, f"player{seat}")
        if user is None:
            out.append(None)
            continue
        profile = getattr(user, "tavla_profile", None)
        name = user.get_username()
        out.append(
            {
                "seat": seat,
                "username": name,
                "display_name": (profile.display_name if profile else "") or name,
                "kind": player_kind(user),
            }
        )
    return out


def settings_json(match: Match) -> dict[str, Any]:
    return {
        "mode": match.mode,
        "length": match.length,
        "cube": match.cube,
        "crawford": match.crawford,
        "jacoby": match.jacoby,
        "backgammon_value": match.backgammon_value,
        "next_game_starter": match.next_game_starter,
        "computer_level": match.computer_level or None,
        "clock": match.clock,
        "public": match.public,
    }


def lobby_json(match: Match, info: LobbyInfo, rematch: str | None, user: Any) -> dict[str, Any]:
    mine = (
        info is not NO_LOBBY
        and user is not None
        and user.is_authenticated
        and user.pk in (info.created_by_id, match.player0_id, match.player1_id)
    )
    return {
        "open_challenge": info.open_challenge,
        "invite_code": info.invite_code if mine else None,
        "reserved_for": info.reserved_for,
        "rematch_of": info.rematch_of,
        "rematch": rematch,
        "imported": info.imported,
    }


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
    if side.seats and not state.is_over and view.moves == 0:
        actions.append("abort")
    if side.seats and state.is_over and state.ended_by != rules.EndedBy.ABORT:
        actions.append("rematch")
    return actions


# -- the state of one match ------------------------------------------------------------------


def status_of(view: MatchView) -> str:
    """The match's status as the store projects it (`store.project`), from the view."""
    state = view.state
    if state is not None and state.is_over:
        aborted = state.ended_by == rules.EndedBy.ABORT
        return str(Match.Status.ABORTED if aborted else Match.Status.FINISHED)
    return str(Match.Status.ACTIVE if view.full else Match.Status.WAITING)


def match_state(
    match: Match, view: MatchView, user: Any, *, seat: int | None = None
) -> dict[str, Any]:
    """The whole state of a match from the caller's side (see the module docstring).

    `match` (the plain row) gives the settings; the players come from the events and the
    cached profiles, the lobby from its cache, the rest from the replayed `view`."""
    state = view.state
    assert state is not None
    side = side_for(view, user, seat)
    me, them = side.seat, 1 - side.seat
    position = state.position_for(me)
    acting = acting_seat(view, side)
    plays: list[dict[str, Any]] = []
    if (
        state.phase == rules.Phase.PLAY
        and state.dice is not None
        and acting is not None
        and acting == state.turn
        and me == acting
    ):
        plays = plays_json(position, state.dice)
    s = state.settings
    pips = position.pips()
    resignation = None
    if state.phase == rules.Phase.RESIGNING:
        resignation = {
            "offered_by": _who(state.turn, side),
            "value": state.resign_value,
            "points": state.points_for(GameKind(state.resign_value)),
        }
    result = None
    if state.is_over:
        result = {
            "winner": _who(state.winner, side),
            "ended_by": str(state.ended_by) if state.ended_by else None,
            "score": list(state.score),
        }
    lobby = lobby_info(match)
    rematch = rematch_of_match(match) if state.is_over else None
    return {
        "id": str(match.pk),
        "version": view.version,
        "status": status_of(view),
        "settings": settings_json(match),
        "players": _seat_players(view),
        "side": {"seat": me, "role": side.role, "seats": list(side.seats)},
        "lobby": lobby_json(match, lobby, rematch, user),
        "game": state.game_number,
        "phase": str(state.phase),
        "board": board_json(position),
        "pips": {"you": pips[0], "opponent": pips[1]},
        "dice": state.dice.to_json() if state.dice is not None else None,
        "turn": _who(state.turn, side),
        "to_act": _who(state.to_act, side),
        "actions": caller_actions(view, side, user, lobby),
        "legal_plays": plays,
        "cube": {
            "value": state.cube,
            "owner": _who(state.cube_owner, side),
            "offered": state.phase == rules.Phase.DOUBLED,
            "in_use": s.cube and not state.crawford_game,
        },
        "crawford": {
            "rule": s.crawford and s.length > 0,
            "crawford_game": state.crawford_game,
            "post_crawford": state.post_crawford,
        },
        "score": {
            "you": state.score[me],
            "opponent": state.score[them],
            "seats": list(state.score),
            "length": s.length,
        },
        "resignation": resignation,
        "clock": clock_json(view, side),
        "result": result,
        "games": [
            {
                "number": g.number,
                "winner": _who(g.winner, side),
                "points": g.points,
                "kind": g.kind.label,
                "cube": g.cube,
                "ended_by": str(g.ended_by),
            }
            for g in state.games
        ],
        "gnubg": gnubg_ids(state),
        "moves": view.moves,
        "created_at": view.created_at.isoformat() if view.created_at else None,
        "started_at": view.started_at.isoformat() if view.started_at else None,
        "finished_at": view.finished_at.isoformat() if view.finished_at else None,
    }


def clock_json(view: MatchView, side: Side, now: datetime | None = None) -> dict[str, Any] | None:
    """The clock from the caller's side (README "Clocks"): each side's delay left in the
    running move and reserve left, whose move runs and its deadline, the reconnect grace."""
    clock = view.clock
    if clock is None:
        return None
    now = now or timezone.now()
    state = view.state
    playing = state is not None and not state.is_over and view.full
    left = clock.remaining(now)
    deadline = clock.deadline() if playing else None
    return {
        "settings": clock.settings.to_json(),
        "running": _who(clock.running, side) if playing else None,
        "deadline": deadline.isoformat() if deadline else None,
        "you": left[side.seat],
        "opponent": left[1 - side.seat],
        "seats": left,
        "reconnect": clock.settings.reconnect,
        "now": now.isoformat(),
    }


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


def match_summary(match: Match, user: Any) -> dict[str, Any]:
    """A match in a list: settings, players, projected score and status (no replay)."""
    return {
        "id": str(match.pk),
        "status": match.status,
        "settings": settings_json(match),
        "players": _row_players(match),
        "score": [match.score0, match.score1],
        "to_act": match.turn,
        "winner": match.winner,
        "ended_by": match.ended_by or None,
        "version": match.version,
        "lobby": lobby_json(
            match,
            _lobby_from_row(getattr(match, "lobby", None)),
            str(rematch.match_id) if (rematch := getattr(match, "rematch_lobby", None)) else None,
            user,
        ),
        "created_at": match.created_at.isoformat(),
        "last_move_at": match.last_move_at.isoformat() if match.last_move_at else None,
    }


def matches_of(
    user: Any,
    *,
    status: list[str] | None = None,
    mode: str | None = None,
    my_turn: bool | None = None,
) -> QuerySet[Match]:
    """The matches the user sits in, newest first."""
    qs = Match.objects.filter(Q(player0=user) | Q(player1=user))
    if status:
        qs = qs.filter(status__in=status)
    if mode:
        qs = qs.filter(mode=mode)
    if my_turn is not None:
        mine = Q(turn=0, player0=user) | Q(turn=1, player1=user)
        qs = qs.filter(mine, status=Match.Status.ACTIVE) if my_turn else qs.exclude(mine)
    return _with_relations(qs)


def open_challenges(*, length: int | None = None, cube: bool | None = None) -> QuerySet[Match]:
    """Online matches waiting for an opponent that anyone may accept."""
    qs = Match.objects.filter(
        status=Match.Status.WAITING, mode=Match.Mode.ONLINE, lobby__open_challenge=True
    )
    if length is not None:
        qs = qs.filter(length=length)
    if cube is not None:
        qs = qs.filter(cube=cube)
    return _with_relations(qs)


def live_matches(*, mode: str | None = None) -> QuerySet[Match]:
    """Public matches being played now (spectating)."""
    qs = Match.objects.filter(status=Match.Status.ACTIVE, public=True)
    if mode:
        qs = qs.filter(mode=mode)
    return _with_relations(qs)
