"""An event's payload (`Event.to_payload`, copied by hand for speed) is what
`dataclasses.asdict` makes of it, with the schema version and without an absent `lag`, for
every event type and any values its fields may hold."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from matches.store import events

EVENTS = [
    cls
    for cls in vars(events).values()
    if isinstance(cls, type) and issubclass(cls, events.Event) and cls is not events.Event
]


def instances(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    fields = {f.name: st.from_type(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
    return st.builds(cls, **fields)


def expected(event: events.Event) -> dict[str, Any]:
    payload = {"v": events.SCHEMA_VERSION, **dataclasses.asdict(event)}
    if payload["lag"] is None:
        del payload["lag"]
    return payload


def test_every_event_type_is_covered() -> None:
    assert len(EVENTS) >= 18
    assert events.Moved in EVENTS and events.MatchCreated in EVENTS


@given(st.one_of([instances(cls) for cls in EVENTS]))
def test_a_payload_is_what_asdict_makes_of_the_event(event: events.Event) -> None:
    payload = event.to_payload()
    base = expected(event)
    if isinstance(event, events.MatchCreated) and not base["hints"]:
        del base["hints"]  # MatchCreated's own rule, on top of the shared one
    assert payload == base
    assert list(payload) == list(base)  # the same keys in the same order
    for name, value in payload.items():  # copies: changing the payload leaves the event be
        if isinstance(value, list | dict):
            assert value is not getattr(event, name)
