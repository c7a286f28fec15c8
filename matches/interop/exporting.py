"""Exporting a stored match as a gnubg `.mat` file (Jellyfish text format)."""

from __future__ import annotations

from uuid import UUID

from games.rules.matfile import export_mat
from matches.errors import MatchNotFound
from matches.store.events import MatchCreated, PlayerJoined
from matches.store.streams import stored_events


def match_to_mat(match_id: UUID) -> str:
    """The .mat text of a match, seat 0 in the left column."""
    events = [stored.event for stored in stored_events(match_id)]
    if not events or not isinstance(events[0], MatchCreated):
        raise MatchNotFound(match_id)
    names = ["Player 1", "Player 2"]
    actions = []
    for event in events:
        if isinstance(event, PlayerJoined):
            names[event.seat] = event.name or names[event.seat]
        action = event.to_action()
        if action is not None:
            actions.append(action)
    return export_mat(events[0].settings(), actions, (names[0], names[1]))
