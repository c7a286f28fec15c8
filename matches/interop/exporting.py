"""Exporting a stored match as a gnubg `.mat` file (Jellyfish text format)."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from games.rules import export_mat
from matches.errors import MatchNotFound
from matches.store.events import MatchCreated, PlayerJoined
from matches.store.models import PlayerProfile
from matches.store.streams import stored_events


def _chosen_names(user_ids: Iterable[int | None]) -> dict[int, str]:
    wanted = {i for i in user_ids if i is not None}
    rows = PlayerProfile.objects.filter(user_id__in=wanted).exclude(display_name="")
    return dict(rows.values_list("user_id", "display_name"))


def match_to_mat(match_id: UUID) -> str:
    """The .mat text of a match, seat 0 in the left column, with the names the players chose
    (not generated usernames such as guest-3f9a1c2b7d)."""
    events = [stored.event for stored in stored_events(match_id)]
    if not events or not isinstance(events[0], MatchCreated):
        raise MatchNotFound(match_id)
    chosen = _chosen_names(e.user_id for e in events if isinstance(e, PlayerJoined))
    names = ["Player 1", "Player 2"]
    actions = []
    for event in events:
        if isinstance(event, PlayerJoined):
            name = chosen.get(event.user_id) if event.user_id is not None else None
            names[event.seat] = name or event.name or names[event.seat]
        action = event.to_action()
        if action is not None:
            actions.append(action)
    return export_mat(events[0].settings(), actions, (names[0], names[1]))
