"""The reads of issue 28 (players among players) and their response shapes: a match's chat,
the players one follows or blocked, direct challenges, the viewer's relation to a player."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from matches.store import community_models as cm
from matches.store.models import Match

from .shapes import Key, Viewer
from .state import display_name

Channel = Literal["say", "kibitz"]
Quick = Literal["good_luck", "well_played", "thanks", "sorry_connection"]
ChallengeStatus = Literal["pending", "accepted", "declined", "expired", "cancelled"]
ONLINE_FOR = timedelta(seconds=15)  # three of the hubs' refreshes (matches/services/follows.py)
CHAT_PAGE = 1000  # lines per read: a client that got this many asks again after the last id


@dataclass(frozen=True, slots=True)
class Person:
    """A player as the community features name him."""

    name: Annotated[str, "His username (what the endpoints take)."]
    display_name: str


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One line of a match's chat: exactly one of `text` and `quick` is set."""

    id: Annotated[int, "Increasing within the match: read on with `?after=` this id."]
    match: UUID
    channel: Annotated[Channel, "say: between the players; kibitz: among the spectators."]
    author: Person
    text: Annotated[str | None, "Plain text (show it as text, never as HTML)."]
    quick: Annotated[Quick | None, "A quick message's code: show it in the reader's language."]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ChatMessages:
    """Lines of a match's chat in id order (at most 1000: ask again after the last)."""

    messages: list[ChatMessage]


@dataclass(frozen=True, slots=True)
class Following:
    """Whether you follow the player now."""

    following: bool


@dataclass(frozen=True, slots=True)
class Blocking:
    """Whether you block the player now."""

    blocked: bool


@dataclass(frozen=True, slots=True)
class Friend:
    """A player you follow: whether he has a socket open now, and the live match he plays."""

    name: str
    display_name: str
    online: bool
    playing: Annotated[UUID | None, "A public online match he plays now."]


@dataclass(frozen=True, slots=True)
class FriendList:
    players: list[Friend]


@dataclass(frozen=True, slots=True)
class PersonList:
    players: list[Person]


@dataclass(frozen=True, slots=True)
class Challenge:
    """A direct challenge: pending for 60 s, then expired."""

    id: UUID
    frm: Annotated[Person, Key("from"), "The challenger (seat 0 of the match)."]
    to: Person
    settings: Annotated[dict[str, Any], "The match's settings, as sent."]
    status: ChallengeStatus
    match: Annotated[UUID | None, "The match made when it was accepted."]
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Challenges:
    """Your pending challenges, newest first."""

    incoming: list[Challenge]
    outgoing: list[Challenge]


@dataclass(frozen=True, slots=True)
class ReportReceipt:
    id: int
    status: Literal["open", "closed"]


def live_rated(match: Match) -> bool:
    """A rated match still being played: its players never read the kibitz then."""
    return match.rated and match.status in (Match.Status.WAITING, Match.Status.ACTIVE)


def seated(match: Match, user: Any) -> bool:
    return bool(user and user.is_authenticated and user.pk in (match.player0_id, match.player1_id))


def may_read_kibitz(match: Match, user: Any, switched_on: bool) -> bool:
    """Spectators always; a player only when he switched the kibitz on, and never while a
    rated match is being played (after it ends he may)."""
    if not seated(match, user):
        return True
    return switched_on and not live_rated(match)


def blocked_by(user_id: int) -> set[int]:
    """The players who blocked `user_id` (he does not see them online nor playing)."""
    return set(cm.Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True))


def hidden_from(user: Any) -> set[int]:
    """The players whose lines a reader does not get: those he blocked or who blocked him."""
    if user is None or not user.is_authenticated:
        return set()
    rows = cm.Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk))
    return {b if a == user.pk else a for a, b in rows.values_list("blocker_id", "blocked_id")}


def online(user_ids: list[int]) -> set[int]:
    """Those of the users with a socket open now (seen within `ONLINE_FOR`)."""
    since = timezone.now() - ONLINE_FOR
    rows = cm.PlayerOnline.objects.filter(user_id__in=user_ids, last_seen__gte=since)
    return set(rows.values_list("user_id", flat=True))


def person(user: Any) -> Person:
    return Person(user.get_username(), display_name(user))


def chat_message(row: cm.ChatMessage) -> ChatMessage:
    return ChatMessage(
        id=row.pk,
        match=row.match_id,
        channel=row.channel,
        author=person(row.author),
        text=row.text,
        quick=row.quick,
        created_at=row.created_at,
    )


def chat_after(match: Match, user: Any, after: int, kibitz: bool) -> ChatMessages:
    """The lines after id `after` the user may read (the match is readable: checked), but
    those of players he blocked or who blocked him."""
    channels = [cm.ChatMessage.Channel.SAY]
    if may_read_kibitz(match, user, kibitz):
        channels.append(cm.ChatMessage.Channel.KIBITZ)
    rows = (
        cm.ChatMessage.objects.select_related("author__tavla_profile")
        .filter(match_id=match.pk, id__gt=after, channel__in=channels)
        .exclude(author_id__in=hidden_from(user))
        .order_by("id")[:CHAT_PAGE]
    )
    return ChatMessages([chat_message(r) for r in rows])


def following(user: Any) -> FriendList:
    """The players `user` follows, by name; those who blocked him are shown offline."""
    rows = list(
        cm.Follow.objects.filter(follower_id=user.pk)
        .select_related("followed__tavla_profile")
        .order_by("followed__username")
    )
    ids = [r.followed_id for r in rows]
    hidden = blocked_by(user.pk)
    online_now = online(ids) - hidden
    playing: dict[int, UUID] = {}
    live = (
        Match.objects.filter(
            Q(player0_id__in=ids) | Q(player1_id__in=ids),
            status=Match.Status.ACTIVE,
            mode=Match.Mode.ONLINE,
            public=True,
        )
        .order_by("created_at")
        .values_list("pk", "player0_id", "player1_id")
    )
    for pk, p0, p1 in live:
        for p in (p0, p1):
            if p in ids and p not in hidden:
                playing[p] = pk
    return FriendList(
        [
            Friend(
                r.followed.get_username(),
                display_name(r.followed),
                r.followed_id in online_now,
                playing.get(r.followed_id),
            )
            for r in rows
        ]
    )


def blocked(user: Any) -> PersonList:
    rows = (
        cm.Block.objects.filter(blocker_id=user.pk)
        .select_related("blocked__tavla_profile")
        .order_by("blocked__username")
    )
    return PersonList([person(r.blocked) for r in rows])


def challenge(row: cm.Challenge) -> Challenge:
    return Challenge(
        id=row.pk,
        frm=person(row.challenger),
        to=person(row.challenged),
        settings=dict(row.settings),
        status=row.status,
        match=row.match_id,
        created_at=row.created_at,
        expires_at=row.expires_at,
    )


def challenges(incoming: list[cm.Challenge], outgoing: list[cm.Challenge]) -> Challenges:
    return Challenges([challenge(c) for c in incoming], [challenge(c) for c in outgoing])


def viewer(user: Any, other: Any) -> Viewer | None:
    if user is None or not user.is_authenticated or user.pk == other.pk:
        return None
    follows = cm.Follow.objects.filter(follower_id=user.pk, followed_id=other.pk).exists()
    blocks = cm.Block.objects.filter(blocker_id=user.pk, blocked_id=other.pk).exists()
    return Viewer(follows, blocks)


def user_named(name: str) -> Any:
    """The account with this username (any case), or None."""
    if not name or "\x00" in name:
        return None
    return get_user_model().objects.filter(username__iexact=name[:150]).first()
