"""Who may read and who may act on a match.

- Reading: anyone (even without a token) for a public match; for a private one only its
  players (and staff). An unreadable match is reported as not found (404), never 403, so
  private matches do not leak.
- Acting: only a player seated in the match; in hot-seat the one user acts for both seats.
  Anyone else gets 403 `not_a_player` and nothing is written. (The services check the seat
  again inside the transaction: this is the early, cheap refusal.)
- Every write needs a token (401 `not_authenticated` otherwise).
- Every request of a seated player on a clocked online match marks him connected
  (matches/presence.py).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from rest_framework.permissions import BasePermission

from matches.errors import NotAPlayer
from matches.services import presence
from matches.store.models import Match
from matches.store.rows import fetch_match

from .errors import match_not_found


class Authenticated(BasePermission):
    def has_permission(self, request: Any, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)


def is_seated(match: Match, user: Any) -> bool:
    return bool(user and user.is_authenticated and user.pk in (match.player0_id, match.player1_id))


def can_read(match: Match, user: Any) -> bool:
    return match.public or is_seated(match, user) or bool(user and user.is_staff)


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
    """`match` (a row already read, e.g. locked by a command) if the user may read it."""
    if not can_read(match, user):
        raise match_not_found(match.pk)
    presence.touch(match, user)  # a seated player's request: he is connected (README Clocks)
    return match


def check_can_act(match: Match, user: Any) -> None:
    """403 unless the user sits in the match."""
    if not is_seated(match, user):
        raise NotAPlayer("you do not play in this match: spectators can watch, not move")
