"""Moderation by staff: suspending and reinstating players, aborting a match with a reason.

The admin's review (matches/review/views.py) checks who may do these and calls them; the
records they write (`PlayerSuspension`, the `aborted` event) are the moderation history.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from matches.store import MatchView
from matches.store.models import Match, PlayerSuspension

from .play import match_abort


def suspend(*, user: Any, by: Any, reason: str, match: Match | None = None) -> PlayerSuspension:
    """Deactivate `user` and record who suspended him, when and why, in one transaction."""
    with transaction.atomic():
        locked = type(user).objects.select_for_update().get(pk=user.pk)
        locked.is_active = False
        locked.save(update_fields=["is_active"])
        return PlayerSuspension.objects.create(
            user=locked, reason=reason, suspended_by=by, match=match
        )


def lift(*, suspension: PlayerSuspension, by: Any, reason: str = "") -> None:
    """Reactivate the player (unless another suspension of his is still in force)."""
    with transaction.atomic():
        record = PlayerSuspension.objects.select_for_update().get(pk=suspension.pk)
        if record.lifted_at is not None:
            return
        record.lifted_at = timezone.now()
        record.lifted_by = by
        record.lift_reason = reason
        record.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        others = PlayerSuspension.objects.filter(user=record.user_id, lifted_at__isnull=True)
        if not others.exists():
            user = get_user_model().objects.select_for_update().get(pk=record.user_id)
            user.is_active = True
            user.save(update_fields=["is_active"])


def staff_abort(*, match_id: UUID, by: Any, reason: str) -> MatchView:
    """End a match with no winner at any point (staff only: the caller checked); the reason
    and the staff member are recorded in the `aborted` event."""
    return match_abort(match_id=match_id, user=by, reason=reason)
