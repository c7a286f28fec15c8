"""Event schema versions: a stored payload of an older version is upcast on read, one version
at a time, so a stream written before a payload changed replays unchanged."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from matches.store import events
from matches.store.replay import StoredEvent, replay

AT = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def version_2(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, int], Any]:
    """Schema version 2, in which `rolled` stores the dice high first."""
    monkeypatch.setattr(events, "SCHEMA_VERSION", 2)
    registry = dict(events.UPCASTERS)
    monkeypatch.setattr(events, "UPCASTERS", registry)

    @events.upcaster("rolled", 1)
    def rolled_v2(payload: dict[str, Any]) -> dict[str, Any]:
        return {**payload, "dice": sorted(payload["dice"], reverse=True)}

    return registry


def test_a_v1_payload_is_upcast_on_read(version_2: Any) -> None:
    assert events.upcast("rolled", {"v": 1, "seat": 0, "dice": [2, 5]}) == {
        "v": 2,
        "seat": 0,
        "dice": [5, 2],
    }
    assert events.event_from_payload("rolled", {"v": 1, "seat": 1, "dice": [1, 6]}) == (
        events.Rolled(1, [6, 1])
    )
    # types whose payload did not change need no upcaster; only the version moves on
    assert events.upcast("cube_taken", {"v": 1, "seat": 0}) == {"v": 2, "seat": 0}
    # a v2 payload is read as it is, and new events are written as v2
    assert events.upcast("rolled", {"v": 2, "seat": 0, "dice": [1, 4]})["dice"] == [1, 4]
    assert events.Rolled(0, [3, 1]).to_payload()["v"] == 2


def test_a_stored_v1_stream_replays_under_v2(version_2: Any) -> None:
    created = events.MatchCreated(1, False, True, False, 3, "opening_roll", "hotseat")
    rows = [
        ("match_created", {**created.to_payload(), "v": 1}),
        ("player_joined", {"v": 1, "seat": 0, "user_id": None, "name": "ana"}),
        ("player_joined", {"v": 1, "seat": 1, "user_id": None, "name": "bob"}),
        ("opening_roll", {"v": 1, "die0": 3, "die1": 1}),
        ("moved", {"v": 1, "seat": 0, "steps": [[8, 5, 0], [6, 5, 0]], "notation": "8/5 6/5"}),
        ("rolled", {"v": 1, "seat": 1, "dice": [2, 6]}),
    ]
    stored = [StoredEvent(i + 1, t, p, None, AT) for i, (t, p) in enumerate(rows)]
    view = replay(stored)
    assert view.version == 6 and view.state is not None
    assert view.state.dice is not None and view.state.dice.to_json() == [6, 2]


def test_a_newer_payload_than_the_code_is_refused() -> None:
    with pytest.raises(ValueError, match="newer than this code"):
        events.event_from_payload("rolled", {"v": events.SCHEMA_VERSION + 1, "seat": 0})
