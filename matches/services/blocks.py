"""Blocking (issue 28): a player who blocked another hears nothing of him again.

Between a blocker and the blocked, either way round: no `say` in a match, no direct challenge,
never paired by quick pairing (matches/services/seeks.py asks `pairs_blocked`), and the blocker
is not seen online nor playing by the blocked. Blocking unfollows both ways.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q

from matches.errors import StoreError
from matches.store.community_models import Block, Follow


class Blocked(StoreError):
    """One of the two players blocked the other."""

    code = "blocked"

    def __init__(self) -> None:
        self._say("blocked")


class CannotBlockYourself(StoreError):
    code = "invalid_request"

    def __init__(self) -> None:
        self._say("self")


def block(user: Any, other: Any) -> None:
    """`user` blocks `other` (again: nothing new); both unfollow each other."""
    if user.pk == other.pk:
        raise CannotBlockYourself()
    with transaction.atomic():
        Block.objects.get_or_create(blocker_id=user.pk, blocked_id=other.pk)
        Follow.objects.filter(
            Q(follower_id=user.pk, followed_id=other.pk)
            | Q(follower_id=other.pk, followed_id=user.pk)
        ).delete()


def unblock(user: Any, other: Any) -> None:
    Block.objects.filter(blocker_id=user.pk, blocked_id=other.pk).delete()


def between(a_id: int, b_id: int) -> bool:
    """Whether either of the two blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def check_between(a_id: int, b_id: int) -> None:
    if between(a_id, b_id):
        raise Blocked()


def pairs_blocked(user_id: int, others: Iterable[int]) -> set[int]:
    """Those of `others` that `user_id` blocked or that blocked him (one query)."""
    ids = list(set(others))
    if not ids:
        return set()
    rows = Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=ids) | Q(blocked_id=user_id, blocker_id__in=ids)
    ).values_list("blocker_id", "blocked_id")
    return {b if a == user_id else a for a, b in rows}
