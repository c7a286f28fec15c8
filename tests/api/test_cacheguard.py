"""The cache's circuit breaker (matches/api/cacheguard.py) against a real redis-server of the
test's own, stopped and started under it."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.test import override_settings

from matches.api import cacheguard
from matches.api.authentication import drop_cached_tokens
from tests.servers import Redis

ALIAS = "guarded-test"


@pytest.fixture
def redis_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Redis, Any]]:
    server = Redis(tmp_path)
    server.start()
    monkeypatch.setattr(cacheguard, "PAUSE", 0.5)
    settings = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        ALIAS: {
            "BACKEND": "tavla_project.cache.RedisCache",
            "LOCATION": server.url,
            "OPTIONS": {"socket_timeout": 0.3, "socket_connect_timeout": 0.3},
        },
    }
    with override_settings(CACHES=settings):
        cacheguard._guards.pop(ALIAS, None)
        try:
            yield server, caches[ALIAS]
        finally:
            cacheguard._guards.pop(ALIAS, None)
            if server.up():
                server.stop()


def test_an_outage_is_skipped_logged_once_and_recovered_from(
    redis_cache: tuple[Redis, Any], caplog: pytest.LogCaptureFixture
) -> None:
    server, cache = redis_cache
    guard = cacheguard.guard(ALIAS)
    recovered: list[Any] = []
    cacheguard.on_recovery(ALIAS, lambda c: recovered.append(c.get("k", c)))  # uses Redis
    assert guard.call(lambda c: c.set("k", 1) or c.get("k"), None) == 1
    assert guard.state() == "ok"
    server.stop()
    with caplog.at_level(logging.WARNING, logger="matches.api.cacheguard"):
        assert guard.call(lambda c: c.get("k"), "fallback") == "fallback"
        start = time.monotonic()
        for _ in range(200):  # skipped without trying: no connection attempt, no wait
            assert guard.call(lambda c: c.get("k"), "fallback") == "fallback"
        skipped = time.monotonic() - start
        assert guard.state() == "ConnectionError"
        time.sleep(0.6)  # past the pause: one more try, still down, not logged again
        assert guard.call(lambda c: c.get("k"), "fallback") == "fallback"
        assert [r.levelname for r in caplog.records] == ["ERROR"]
        assert recovered == []
        server.start()
        time.sleep(0.6)
        assert guard.call(lambda c: c.set("k", 2) or c.get("k"), None) == 2
    assert recovered == [cache]  # before the cache was used again
    assert [r.levelname for r in caplog.records] == ["ERROR", "WARNING"]
    assert "back after" in caplog.records[-1].getMessage()
    assert guard.state() == "ok"
    assert skipped < 0.05, skipped


def test_after_an_outage_every_cached_token_is_dropped(redis_cache: tuple[Redis, Any]) -> None:
    _, cache = redis_cache
    cache.set_many({f"tavla:token:{n}": n for n in range(1200)})
    cache.set("throttle_rules_1:99", 3)
    drop_cached_tokens(cache)
    assert cache.get_many([f"tavla:token:{n}" for n in range(1200)]) == {}
    assert cache.get("throttle_rules_1:99") == 3
