"""matches.streams.publish.Publisher against a real Redis: what it publishes is what a
channels-redis pub/sub layer receives from group_send, and a Redis that goes away costs the
commands one failed attempt, not one wait each."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from channels_redis.pubsub import RedisPubSubChannelLayer

from matches.streams import hub as hub_module
from matches.streams import publish

from .servers import Redis


def test_a_layer_receives_what_the_publisher_sends(tmp_path: Path) -> None:
    redis = Redis(tmp_path)
    redis.start()
    try:
        layer = RedisPubSubChannelLayer(hosts=[redis.url], prefix="tavla-test")
        publisher = publish.Publisher(layer, redis.url, "tavla-test")
        message = {"type": "match.committed", "match": "m1", "version": 7, "events": [{"seq": 7}]}

        async def listen() -> dict:
            channel = await layer.new_channel()
            await layer.group_add("match.m1", channel)
            await asyncio.sleep(0.1)  # the subscription is in place
            assert await asyncio.to_thread(publisher.publish_all, [("match.m1", message)])
            received = await asyncio.wait_for(layer.receive(channel), 5)
            await layer.flush()
            return received

        assert asyncio.run(listen()) == message
    finally:
        redis.stop()


def test_a_match_message_and_a_notification_go_out_together(tmp_path: Path) -> None:
    """Several messages (the match's, a player's "your turn") in one pipelined round trip:
    each group's listener receives its own."""
    redis = Redis(tmp_path)
    redis.start()
    try:
        layer = RedisPubSubChannelLayer(hosts=[redis.url], prefix="tavla-test")
        publisher = publish.Publisher(layer, redis.url, "tavla-test")
        committed = {"type": "match.committed", "match": "m1", "version": 8, "events": []}
        note = {"type": "user.notification", "user": 5, "notification": {"kind": "your_turn"}}

        async def listen() -> tuple[dict, dict]:
            match_channel, user_channel = await layer.new_channel(), await layer.new_channel()
            await layer.group_add("match.m1", match_channel)
            await layer.group_add("user.5", user_channel)
            await asyncio.sleep(0.1)  # the subscriptions are in place
            sent = [("match.m1", committed), ("user.5", note)]
            assert await asyncio.to_thread(publisher.publish_all, sent)
            got = (
                await asyncio.wait_for(layer.receive(match_channel), 5),
                await asyncio.wait_for(layer.receive(user_channel), 5),
            )
            await layer.flush()
            return got

        assert asyncio.run(listen()) == (committed, note)
    finally:
        redis.stop()


def test_the_loop_is_woken_only_for_a_match_followed_here() -> None:
    """A command's events are handed to the serving loop only when its hub follows the match
    (else the PUBLISH alone goes out): `followed_here` asks the hub's feeds."""

    async def check() -> tuple[bool, bool, bool]:
        loop = asyncio.get_running_loop()
        before = publish.followed_here(loop, "m1")  # no hub on this loop yet
        hub = hub_module.Hub.current()
        hub.feeds["m1"] = hub_module.Feed("m1", 3, False)
        followed = publish.followed_here(loop, "m1")
        other = publish.followed_here(loop, "m2")
        del hub.feeds["m1"]
        return before, followed, other

    assert asyncio.run(check()) == (False, True, False)


def test_an_unreachable_redis_is_tried_once_then_left_alone(tmp_path: Path) -> None:
    redis = Redis(tmp_path)  # never started: its port refuses connections
    layer = RedisPubSubChannelLayer(hosts=[redis.url], prefix="tavla-test")
    publisher = publish.Publisher(layer, redis.url, "tavla-test")
    messages = [("match.m1", {"type": "match.committed", "match": "m1", "version": 1})]
    assert publisher.publish_all(messages) is False
    tried_at = time.monotonic()
    assert publisher.paused_until >= tried_at + publish.PUBLISH_PAUSE - 1
    calls = []
    publisher.client.publish = lambda *a: calls.append(a)  # type: ignore[method-assign]
    assert publisher.publish_all(messages) is False and calls == []  # paused: not even tried
    publisher.paused_until = 0.0
    assert publisher.publish_all(messages) is True and len(calls) == 1  # tries again after
