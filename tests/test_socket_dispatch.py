"""A WebSocket frame reaches its handler without a hop to the process's sync thread.

Channels' `AsyncConsumer.dispatch` awaits `aclose_old_connections()` before every handler,
and its `websocket_disconnect` once more after `disconnect`: a `sync_to_async` call, on the
one thread-sensitive thread of the process, per frame a client sends. `LiveConsumer` never
uses that thread's connection (its database work runs in matches/streams/db.py's threads,
which close their own), so it leaves the hops out.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from matches.streams.consumers import LiveConsumer


def dispatched(consumer: AsyncWebsocketConsumer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Dispatch a ping frame and a disconnect (which stops the consumer); what reached the
    consumer's `receive` and `disconnect`, and any hops (the calls of channels'
    `close_old_connections`), in order."""
    seen: list[str] = []
    monkeypatch.setattr("channels.db.close_old_connections", lambda: seen.append("hop"))

    async def receive(text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        seen.append(str(text_data))

    async def disconnect(code: int) -> None:
        seen.append(f"closed {code}")

    consumer.receive = receive  # type: ignore[method-assign]
    consumer.disconnect = disconnect  # type: ignore[method-assign]

    async def frames() -> None:
        await consumer.dispatch({"type": "websocket.receive", "text": '{"type": "ping"}'})
        with pytest.raises(StopConsumer):
            await consumer.dispatch({"type": "websocket.disconnect", "code": 1000})

    asyncio.run(frames())
    return seen


def test_frames_reach_their_handlers_without_a_hop(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not LiveConsumer().groups  # its websocket_disconnect discards none
    assert dispatched(LiveConsumer(), monkeypatch) == ['{"type": "ping"}', "closed 1000"]


def test_channels_own_dispatch_hops_before_each_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the override saves (and that the test above would see a hop)."""

    class Plain(AsyncWebsocketConsumer):
        pass

    seen = dispatched(Plain(), monkeypatch)
    assert seen == ["hop", '{"type": "ping"}', "hop", "closed 1000", "hop"]


def test_an_unknown_message_type_is_refused() -> None:
    with pytest.raises(ValueError, match=re.escape("No handler for message type websocket.shout")):
        asyncio.run(LiveConsumer().dispatch({"type": "websocket.shout"}))
