"""Replay reads a stored stream as it was recorded: settings and a clock that the rules would
refuse today (a longer match, fractions of a second) still replay, and so do the actions."""

from __future__ import annotations

from datetime import UTC, datetime

from matches.store import events
from matches.store.replay import StoredEvent, replay

AT = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_stream_recorded_under_other_limits_replays() -> None:
    clock = {"delay": 0.5, "reserve": 1.5, "max_move": 2.5, "reconnect": 1.5}
    created = events.MatchCreated(40, False, True, False, 3, "opening_roll", "online", clock)
    rows = [
        created,
        events.PlayerJoined(0, None, "ana"),
        events.PlayerJoined(1, None, "bob"),
        events.OpeningRolled(3, 1),
        events.Moved(0, [[8, 5, 0], [6, 5, 0]], "8/5 6/5"),
    ]
    stored = [StoredEvent(i + 1, e.type, e.to_payload(), None, AT) for i, e in enumerate(rows)]
    view = replay(stored)
    assert view.version == 5 and view.state is not None
    assert view.state.settings.length == 40
    assert view.clock is not None and view.clock.settings.reserve == 1.5
    assert view.moves == 1
