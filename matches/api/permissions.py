"""Who may read and who may act on a match, at the API's edge (the rules themselves are
matches/services/access.py, which the command path asks too).

- Reading: anyone (even without a token) for a public match; for a private one only its
  players (and staff). An unreadable match is reported as not found (404), never 403, so
  private matches do not leak.
- Acting: only a player seated in the match; in hot-seat the one user acts for both seats.
  Anyone else gets 403 `not_a_player` and nothing is written.
- Every write needs a token (401 `not_authenticated` otherwise).

These checks write nothing: a seated player's request marking him connected is the views'
own step (`presence.touch`, matches/services/presence.py; README "Clocks").
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from rest_framework.permissions import BasePermission

from matches.services.access import can_read, is_seated
from matches.services.access import check_can_act as _check_can_act
from matches.store.models import Match
from matches.store.rows import fetch_match

from .errors import match_not_found

__all__ = ["Authenticated", "can_read", "check_can_act", "is_seated", "load_match", "readable"]


class Authenticated(BasePermission):
    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)


def load_match(match_id: Any) -> Match:
    """The Match row (players and lobby come from `selectors`' caches); 404 if none."""
    try:
        pk = match_id if isinstance(match_id, UUID) else UUID(str(match_id))
    except (ValueError, TypeError):
        raise match_not_found(match_id) from None
    match = fetch_match(pk)  # SQL compiled once: the hottest read of the API
    if match is None:
        raise match_not_found(match_id)
    return match


def readable_match(match_id: Any, user: Any) -> Match:
    """The match if the user may read it; 404 `match_not_found` otherwise."""
    return readable(load_match(match_id), user)


def readable(match: Match, user: Any) -> Match:
    """`match` (a row already read) if the user may read it."""
    if not can_read(match, user):
        raise match_not_found(match.pk)
    return match


def check_can_act(match: Match, user: Any) -> None:
    """403 unless the user sits in the match."""
    _check_can_act(match, user)
