"""Helpers of the ratings and pairing tests: accounts of each kind, matches played to their end
through the services, and the ratings projection as comparable values."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.utils import timezone

from matches import services
from matches.store.dice import ScriptedDice
from matches.store.models import Match, PlayerProfile, PlayerRating, RatingChange
from matches.store.replay import MatchView

CLOCK = {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60}  # the site's: rated


def account(name: str, kind: str = "registered") -> Any:
    user = get_user_model().objects.create_user(name)
    PlayerProfile.objects.create(user=user, kind=kind, display_name=name.title())
    return user


def opening_won_by(seat: int) -> ScriptedDice:
    """Dice whose opening roll seat `seat` wins (then a few rolls to spare)."""
    return ScriptedDice([(6, 1) if seat == 0 else (1, 6), *[(3, 1)] * 10])


def started(a: Any, b: Any, *, length: int = 3, first: int = 0, **settings: Any) -> UUID:
    """An online match, `a` on seat 0 and `b` joining seat 1, seat `first` to play."""
    dice = opening_won_by(first)
    view = services.match_create(user=a, length=length, dice=dice, **settings)
    assert view.match_id is not None
    services.match_join(match_id=view.match_id, user=b, dice=dice)
    return view.match_id


def forfeit(match_id: UUID, loser_seat: int, *, now: datetime | None = None) -> MatchView:
    return services.match_forfeit(match_id=match_id, seat=loser_seat, now=now)


def resign(match_id: UUID, resigner: Any, winner: Any, value: int = 3) -> MatchView:
    """The player on turn resigns (a backgammon: 3 points times the cube), the other accepts."""
    services.match_resign(match_id=match_id, user=resigner, value=value)
    return services.match_accept_resign(match_id=match_id, user=winner)


def played(a: Any, b: Any, winner: Any, *, length: int = 3, how: str = "forfeit") -> UUID:
    """A rated-looking online match between a and b that `winner` wins."""
    loser_seat = 1 if winner == a else 0
    match_id = started(a, b, length=length, first=loser_seat)
    if how == "forfeit":
        forfeit(match_id, loser_seat)
    elif how == "resign":  # the loser is on turn (he won the opening roll): he gives up
        assert length <= 3, "one resigned backgammon ends matches of up to 3 points"
        resign(match_id, b if winner == a else a, winner)
    else:
        raise ValueError(how)
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    return match_id


def timed_out(a: Any, b: Any, *, loser_seat: int, length: int = 3) -> UUID:
    """A clocked online match the seat on turn loses on time."""
    match_id = started(a, b, length=length, first=loser_seat, clock=CLOCK)
    later = timezone.now() + timedelta(seconds=CLOCK["delay"] + CLOCK["reserve"] + 5)
    services.match_timeout(match_id=match_id, seat=loser_seat, now=later)
    return match_id


def table() -> dict[tuple[int, str], tuple[float, int, int, int]]:
    """The stored ratings: (user, game) -> (rating, experience, matches, wins)."""
    return {
        (r.user_id, r.game): (r.rating, r.experience, r.matches, r.wins)
        for r in PlayerRating.objects.all()
    }


def history() -> list[tuple[Any, ...]]:
    """Every stored rating change, in a fixed order, every field that matters."""
    return list(
        RatingChange.objects.order_by("order", "user_id").values_list(
            "match_id",
            "user_id",
            "opponent_id",
            "game",
            "order",
            "length",
            "won",
            "rating_before",
            "rating_after",
            "opponent_rating",
            "experience_before",
            "finished_at",
        )
    )
