"""Following players and seeing them online (issue 28).

"Online" is a WebSocket open now: the hub of every web process refreshes `PlayerOnline` for
the users with a socket there every few seconds (`seen_online`, from matches/streams/hub.py),
so a player counts as online while his row is at most 15 s old (a socket closed is seen
offline within that time: matches/selectors/community.py). A player who blocked you is
never shown online to you.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.utils import timezone

from matches.store.community_models import Follow, PlayerOnline

from .blocks import CannotBlockYourself, check_between


def follow(user: Any, other: Any) -> None:
    """`user` follows `other` (again: nothing new). Refused between blocked players."""
    if user.pk == other.pk:
        raise CannotBlockYourself()
    check_between(user.pk, other.pk)
    Follow.objects.get_or_create(follower_id=user.pk, followed_id=other.pk)


def unfollow(user: Any, other: Any) -> None:
    Follow.objects.filter(follower_id=user.pk, followed_id=other.pk).delete()


def seen_online(user_ids: Iterable[int], now: datetime | None = None) -> int:
    """These users have a socket open now: one upsert for all of them."""
    now = now or timezone.now()
    rows = [PlayerOnline(user_id=u, last_seen=now) for u in set(user_ids)]
    if not rows:
        return 0
    PlayerOnline.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["user"], update_fields=["last_seen"]
    )
    return len(rows)
