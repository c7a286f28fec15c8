"""Reads about players: a player's page, his rating history, the leaderboard, ratings shown
with matches, a seek's state, and the pairs of players the admin looks at for manipulation.

The ratings are the projection written by matches/services/ratings.py (docs/ratings.md).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Case, Count, F, Q, QuerySet, Sum, Value, When
from django.utils import timezone

from matches.store.models import EarlyExit, Match, PlayerProfile, PlayerRating, RatingChange, Seek

from . import shapes
from .analysis import performance
from .ratings import RATED_KINDS
from .state import display_name, matches_of, player_kind


class PlayerNotFound(LookupError):
    pass


def player(username: str) -> Any:
    """The account with this username (case does not matter), or PlayerNotFound."""
    if not username or "\x00" in username:  # PostgreSQL text holds no NUL
        raise PlayerNotFound(username)
    found = (
        get_user_model()
        .objects.select_related("tavla_profile")
        .filter(username__iexact=username[:150])
        .first()
    )
    if found is None:
        raise PlayerNotFound(username)
    return found


def player_ref(user: Any) -> shapes.PlayerRef:
    return shapes.PlayerRef(user.get_username(), display_name(user), player_kind(user))  # type: ignore[arg-type]


# -- a player's page -----------------------------------------------------------------------------


def game_rating(row: PlayerRating) -> shapes.GameRating:
    return shapes.GameRating(
        game=row.game,
        rating=row.rating,
        experience=row.experience,
        matches=row.matches,
        wins=row.wins,
        losses=row.losses,
        last_match_at=row.last_match_at,
    )


def match_counts(user: Any) -> shapes.MatchCounts:
    mine = Match.objects.filter(Q(player0=user) | Q(player1=user))
    won = Q(winner=0, player0=user) | Q(winner=1, player1=user)
    counts = mine.aggregate(
        finished=Count("pk", filter=Q(status=Match.Status.FINISHED)),
        won=Count("pk", filter=Q(status=Match.Status.FINISHED) & won),
        aborted=Count("pk", filter=Q(status=Match.Status.ABORTED)),
        playing=Count("pk", filter=Q(status=Match.Status.ACTIVE)),
    )
    return shapes.MatchCounts(
        finished=counts["finished"],
        won=counts["won"],
        lost=counts["finished"] - counts["won"],
        aborted=counts["aborted"],
        playing=counts["playing"],
    )


def early_exits(user: Any, recent: int, refused_until: datetime | None) -> shapes.EarlyExits:
    """His early exits of each kind; `recent` and `refused_until` are the seek queue's rule
    applied now (matches/services/conduct.py)."""
    rows = dict(
        EarlyExit.objects.filter(user=user).values_list("kind").annotate(n=Count("pk")).order_by()
    )
    return shapes.EarlyExits(
        aborted=rows.get(EarlyExit.Kind.ABORTED, 0),
        timeout=rows.get(EarlyExit.Kind.TIMEOUT, 0),
        forfeit=rows.get(EarlyExit.Kind.FORFEIT, 0),
        recent=recent,
        seek_refused_until=refused_until,
    )


def player_card(user: Any, exits: shapes.EarlyExits) -> shapes.PlayerCard:
    kind = player_kind(user)
    profile = getattr(user, "tavla_profile", None)
    ratings = PlayerRating.objects.filter(user=user).order_by("game")
    return shapes.PlayerCard(
        username=user.get_username(),
        display_name=display_name(user),
        kind=kind,  # type: ignore[arg-type]
        rated=kind in RATED_KINDS,
        ratings=[game_rating(r) for r in ratings],
        matches=match_counts(user),
        early_exits=exits,
        joined=profile.created_at if profile is not None else user.date_joined,
        performance=performance(user),
    )


# -- history and leaderboard -----------------------------------------------------------------------


def finished_matches(user: Any, game: str | None = None, viewer: Any = None) -> QuerySet[Match]:
    """His finished matches, rated or not, newest first: online and against the computer (a
    hot-seat match is one person playing himself). A private match is listed only to its
    players and staff, as in his rating history."""
    rows = matches_of(user, status=[str(Match.Status.FINISHED)], game=game).exclude(
        mode=Match.Mode.HOTSEAT
    )
    if getattr(viewer, "is_staff", False):
        return rows
    visible = Q(public=True)
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        visible |= Q(player0=viewer) | Q(player1=viewer)
    return rows.filter(visible)


def rating_history(
    user: Any, game: str | None = None, viewer: Any = None
) -> QuerySet[RatingChange]:
    """His rated matches, latest first (page through with the `order` cursor). A private
    match is listed only to its players and staff: a public list never shows one."""
    rows = RatingChange.objects.filter(user=user).select_related(
        "opponent", "opponent__tavla_profile"
    )
    if not getattr(viewer, "is_staff", False):
        visible = Q(match__public=True)
        if viewer is not None and getattr(viewer, "is_authenticated", False):
            visible |= Q(user=viewer) | Q(opponent=viewer)
        rows = rows.filter(visible)
    return rows.filter(game=game) if game else rows


def rating_entry(row: RatingChange) -> shapes.RatingEntry:
    return shapes.RatingEntry(
        match=row.match_id,
        game=row.game,
        finished_at=row.finished_at,
        opponent=player_ref(row.opponent),
        opponent_rating=row.opponent_rating,
        length=row.length,
        won=row.won,
        rating_before=row.rating_before,
        rating_after=row.rating_after,
        change=row.rating_after - row.rating_before,
        experience_before=row.experience_before,
    )


def leaderboard(game: str) -> QuerySet[PlayerRating]:
    """Registered players with at least one rated match in `game`, highest rating first."""
    return (
        PlayerRating.objects.filter(
            game=game,
            matches__gte=1,
            user__tavla_profile__kind=PlayerProfile.Kind.REGISTERED,
            user__is_active=True,
        )
        .select_related("user", "user__tavla_profile")
        .order_by("-rating", "user_id")
    )


def leaderboard_entry(row: PlayerRating, rank: int) -> shapes.LeaderboardEntry:
    return shapes.LeaderboardEntry(
        rank=rank,
        player=player_ref(row.user),
        rating=row.rating,
        experience=row.experience,
        matches=row.matches,
        wins=row.wins,
        losses=row.losses,
    )


# -- quick pairing ---------------------------------------------------------------------------------


def seek_state(
    seek: Seek, window: float | None, now: datetime, expires_at: datetime | None
) -> shapes.Seek:
    """A seek from its owner's side (`window`: the services' schedule now; None: anyone)."""
    opponent = None
    if seek.match_id is not None:
        match = Match.objects.select_related(
            "player0", "player1", "player0__tavla_profile", "player1__tavla_profile"
        ).get(pk=seek.match_id)
        other = match.player1 if match.player0_id == seek.user_id else match.player0
        if other is not None and player_kind(other) != PlayerProfile.Kind.COMPUTER:
            opponent = player_ref(other)
    waiting = seek.status == Seek.Status.WAITING
    computer = None
    if seek.computer_after is not None:
        computer = shapes.SeekComputer(seek.computer_level, seek.computer_after)
    return shapes.Seek(
        id=seek.pk,
        status=seek.status,
        game=seek.game,
        length=seek.length,
        cube=seek.cube,
        clock=seek.clock_preset,
        rating=seek.rating,
        rating_min=seek.rating_min,
        rating_max=seek.rating_max,
        window=None if not waiting or window is None or math.isinf(window) else window,
        waited=max(0.0, ((seek.ended_at or now) - seek.created_at).total_seconds()),
        expires_at=expires_at if waiting else None,
        match=seek.match_id,
        opponent=opponent,
        computer=computer,
        created_at=seek.created_at,
    )


# -- for the admin: pairs of players -------------------------------------------------------------


def pair_flag() -> tuple[int, timedelta]:
    """When the admin flags a pair: this many rated matches within this long (settings
    TAVLA_RATING_PAIR_FLAG_MATCHES, TAVLA_RATING_PAIR_FLAG_DAYS; 0 matches: never)."""
    matches = int(getattr(settings, "TAVLA_RATING_PAIR_FLAG_MATCHES", 6))
    days = float(getattr(settings, "TAVLA_RATING_PAIR_FLAG_DAYS", 7.0))
    return matches, timedelta(days=days)


def rating_pairs(
    user: Any | None = None, *, game: str | None = None, now: datetime | None = None
) -> QuerySet[Any]:
    """Pairs of players by rated matches between them: how many, how many each won, and the
    rating the first gained from the second in them (the data to spot manipulation between
    two accounts). With `user`: his opponents; without: every pair. `recent`: their rated
    matches within the flag's period; `flagged`: as many as `pair_flag` says two accounts
    trading rating have (flagged pairs first, then most matches)."""
    threshold, period = pair_flag()
    since = (now or timezone.now()) - period
    rows = RatingChange.objects.all()
    if game:
        rows = rows.filter(game=game)
    mine = Q(user=user) if user is not None else Q(user_id__lt=F("opponent_id"))
    rows = rows.filter(mine)
    recent = Count("pk", filter=Q(finished_at__gte=since))
    flagged = (
        Case(When(recent__gte=threshold, then=Value(True)), default=Value(False))
        if threshold > 0
        else Value(False)
    )
    return (
        rows.values("user_id", "user__username", "opponent_id", "opponent__username")
        .annotate(
            matches=Count("pk"),
            wins=Count("pk", filter=Q(won=True)),
            losses=Count("pk", filter=Q(won=False)),
            gained=Sum(F("rating_after") - F("rating_before")),
            recent=recent,
        )
        .annotate(flagged=flagged)
        .order_by("-flagged", "-matches", "user_id", "opponent_id")
    )
