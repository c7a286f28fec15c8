"""The JSON of pushed messages (docs/realtime.md lists them all).

An event is shown exactly as the events endpoint shows it: `{"seq", "type", "at", "data"}`
(the payload without its schema version). A batch of events is
`{"type": "events", "match", "version", "events"}`, `version` being the match's version after
the last event of the batch (its seq): the same in a WebSocket message and an SSE `data:` line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from matches.store.replay import StoredEvent


def event_json(event: StoredEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "at": _iso(event.at),
        "data": {k: v for k, v in event.payload.items() if k != "v"},
    }


def _iso(at: datetime) -> str:
    """As the API renders a time (DRF's DateTimeField in UTC: a final `Z`)."""
    text = at.astimezone(UTC).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def events_json(events: Iterable[StoredEvent]) -> list[dict[str, Any]]:
    return [event_json(e) for e in events]


def events_message(match_id: str, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "events",
        "match": match_id,
        "version": events[-1]["seq"],
        "events": list(events),
    }


def dumps(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"))
