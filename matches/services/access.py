"""Who may read and who may act on a match: decided on the Match row, with no side effect.

- Reading: anyone (even without a token) for a public match; for a private one only its
  players (and staff). An unreadable match is reported as not found, never as forbidden, so
  private matches do not leak.
- Acting: only a player seated in the match (in hot-seat the one user acts for both seats);
  staff too where a command says so (an abort). Anyone else is refused `not_a_player`.

The API's permissions (matches/api/permissions.py) and the command path
(matches/services/play.py) both ask here. Presence (who is connected) is not decided here:
matches/services/presence.py.
"""

from __future__ import annotations

from typing import Any

from matches.errors import MatchNotFound, NotAPlayer
from matches.store.models import Match


def is_seated(match: Match, user: Any) -> bool:
    return bool(user and user.is_authenticated and user.pk in (match.player0_id, match.player1_id))


def can_read(match: Match, user: Any) -> bool:
    return match.public or is_seated(match, user) or bool(user and user.is_staff)


def check_can_read(match: Match, user: Any) -> None:
    """Refused as not found unless the user may read the match."""
    if not can_read(match, user):
        raise MatchNotFound(match.pk)


def check_can_act(match: Match, user: Any, *, staff_may: bool = False) -> None:
    """Refused unless the user may read the match and sits in it (or is staff, `staff_may`)."""
    check_can_read(match, user)
    if staff_may and user is not None and user.is_staff:
        return
    if not is_seated(match, user):
        raise NotAPlayer.because("spectator")
