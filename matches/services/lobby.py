"""The lobby: opening matches (with their lobby row), open challenges, invite codes, joining,
rematches. The API's lobby views call these; every write to a match goes through `play`.

A match made here has a `MatchLobby` row: its invite code (a fresh one, retried on the rare
collision), whether it is an open challenge anyone may accept, and for a rematch the old
match and the old opponent it is reserved for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from games.rules import IllegalAction
from matches.errors import InviteNotFound, InviteRequired, MatchFull, refused
from matches.store import MatchView, load_view
from matches.store.models import Match, MatchLobby, PlayerProfile, new_invite_code

from . import play


@dataclass(frozen=True)
class MatchRequest:
    """What a player asks for when he opens a match (the API validated each field)."""

    mode: str = str(Match.Mode.ONLINE)
    game: str = "tavla"
    length: int = 5
    cube: bool = False
    crawford: bool = True
    jacoby: bool = False
    backgammon_value: int = 3
    next_game_starter: str | None = None  # the game's own default
    clock: dict[str, int] | None = None
    level: str = ""
    public: bool = True
    seat: int = 0
    open_challenge: bool = False
    rated: bool | None = None  # the default: online match play is rated
    hints: bool = False  # the players may ask for hints (unrated matches only)


def open_match(
    user: Any,
    request: MatchRequest,
    *,
    rematch_of: Match | None = None,
    reserved_for: Any = None,
) -> MatchView:
    """Create a match and its lobby row in one transaction. Only online matches are listed as
    open challenges; hot-seat and computer matches start at once."""
    computer = request.mode == Match.Mode.COMPUTER
    with transaction.atomic():
        if computer:
            PlayerProfile.computer_user(request.level)
        view = play.match_create(
            user=user,
            mode=request.mode,
            game=request.game,
            length=request.length,
            cube=request.cube,
            crawford=request.crawford,
            jacoby=request.jacoby,
            backgammon_value=request.backgammon_value,
            next_game_starter=request.next_game_starter,
            clock=request.clock,
            computer_level=request.level if computer else "",
            public=request.public,
            seat=request.seat,
            rated=request.rated,
            hints=request.hints,
        )
        online = request.mode == Match.Mode.ONLINE
        create_lobby(
            view.match_id,
            created_by=user,
            open_challenge=request.open_challenge and online,
            rematch_of=rematch_of,
            reserved_for=reserved_for,
        )
    return view


def create_lobby(match_id: Any, **fields: Any) -> MatchLobby:
    """The lobby row of a new match (a fresh invite code; retried on the rare collision)."""
    for _ in range(5):
        try:
            with transaction.atomic():
                return MatchLobby.objects.create(
                    match_id=match_id, invite_code=new_invite_code(), **fields
                )
        except IntegrityError:
            if MatchLobby.objects.filter(match_id=match_id).exists():
                raise
    raise RuntimeError("could not draw a free invite code")  # pragma: no cover


def lobby_by_code(code: str) -> MatchLobby:
    """The lobby row of an invite code (case and spaces do not matter)."""
    lobby = (
        MatchLobby.objects.select_related(
            "match", "match__player0", "match__player1", "reserved_for"
        )
        .filter(invite_code=code.strip().upper()[:16])
        .first()
    )
    if lobby is None:
        raise InviteNotFound(code[:16])
    return lobby


def join(match: Match, user: Any, seat: int | None = None) -> MatchView:
    """Accept an open challenge, or the rematch offered to `user`."""
    lobby = MatchLobby.objects.filter(match=match).first()
    seated = user.pk in (match.player0_id, match.player1_id)
    allowed = lobby is not None and (lobby.open_challenge or lobby.reserved_for_id == user.pk)
    if not allowed and not seated:
        raise InviteRequired.because("invite_only")
    return _join(match, lobby, user, seat)


def join_by_code(code: str, user: Any, seat: int | None = None) -> MatchView:
    lobby = lobby_by_code(code)
    return _join(lobby.match, lobby, user, seat)


def _join(match: Match, lobby: MatchLobby | None, user: Any, seat: int | None) -> MatchView:
    if lobby is not None and lobby.reserved_for_id not in (None, user.pk):
        raise InviteRequired.because("rematch_for_other")
    if match.mode != Match.Mode.ONLINE:
        raise MatchFull.because("online_only")
    return play.match_join(match_id=match.pk, user=user, seat=seat)


def rematch(old: Match, user: Any) -> tuple[MatchView, bool]:
    """The rematch of a finished match, and whether this call created it.

    Hot-seat and computer rematches start at once. Online, the new match waits for the old
    opponent (reserved for him); if he asked first, this joins his."""
    old_view = load_view(old.pk)
    state = old_view.state
    if state is None or not state.is_over or old.status == Match.Status.ABORTED:
        raise refused(IllegalAction, "rematch_when_over")
    existing = MatchLobby.objects.filter(rematch_of=old).select_related("match").first()
    if existing is None:
        try:
            with transaction.atomic():
                return _create_rematch(old, old_view, user), True
        except IntegrityError:
            existing = MatchLobby.objects.filter(rematch_of=old).select_related("match").get()
    new = existing.match
    seated = user.pk in (new.player0_id, new.player1_id)
    if seated or new.status != Match.Status.WAITING:
        return load_view(new.pk), False
    return _join(new, existing, user, None), False


def _create_rematch(old: Match, old_view: MatchView, user: Any) -> MatchView:
    seat = old_view.seats_of(user.pk)[0]
    opponent = old.player1 if seat == 0 else old.player0
    request = MatchRequest(
        mode=old.mode,
        game=old.game,
        level=old.computer_level,
        length=old.length,
        cube=old.cube,
        crawford=old.crawford,
        jacoby=old.jacoby,
        backgammon_value=old.backgammon_value,
        next_game_starter=old.next_game_starter,
        clock=old.clock,
        public=old.public,
        seat=seat,
        # a rated match's rematch is rated as the rules stand now (its clock may be no longer
        # enough); an unrated one stays unrated
        rated=None
        if old_view.created is None or old_view.created.rated or old.mode != Match.Mode.ONLINE
        else False,
        hints=old.hints,
    )
    online = old.mode == Match.Mode.ONLINE
    view = open_match(user, request, rematch_of=old, reserved_for=opponent if online else None)
    if view.match_id is not None:  # always: a created match has its id
        # the old match's stream says where the rematch is (its followers see it at once)
        play.match_offer_rematch(match_id=old.pk, user=user, rematch_id=view.match_id)
    return view
