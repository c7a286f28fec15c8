"""The shared cache (`CACHE_URL`, Redis) is an optimisation, never a dependency of a request.

It holds tokens' accounts (authentication.py) and throttle counters (ratecount.py). When it
cannot be reached, a request must not fail and must not wait for it: every use goes through
the cache's `Guard`, a circuit breaker. After a failure the cache is skipped for `PAUSE`
seconds (tokens are read from the database, throttles count per process), then one request
tries it again (the others keep skipping it until that one knows). The outage is logged once
when it starts and once when it ends, not per request; `/healthz` reports it (`state()`).

After an outage, before a process uses the cache again, its `on_recovery` hooks run: a logout
whose cache delete failed while Redis was away must not come back with Redis (the token
cache's entries are dropped, authentication.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

T = TypeVar("T")

PAUSE = 5.0  # seconds without trying the cache after a failure
ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, OSError)


class Guard:
    """The circuit breaker of one cache alias, shared by the threads of the process."""

    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.lock = threading.Lock()
        self.down_since: float | None = None  # time.time() of the first failure
        self.retry_at = 0.0  # monotonic
        self.error = ""
        self.probing = False
        self.recovery: list[Callable[[Any], None]] = []

    @property
    def cache(self) -> Any:
        return caches[self.alias]

    def call(self, op: Callable[[Any], T], default: T) -> T:
        """`op(cache)`, or `default` while the cache is out (at once, without trying it)."""
        probe = self._may_try()
        if probe is None:
            return default
        try:
            if probe:
                for hook in self.recovery:
                    hook(self.cache)
            value = op(self.cache)
        except ERRORS as exc:
            self._failed(exc)
            return default
        if probe:
            self._recovered()
        return value

    def state(self) -> str:
        """ "ok", or what went wrong (for /healthz). A PING when the cache is believed up."""
        self.call(lambda cache: cache._cache.get_client().ping(), None)
        with self.lock:
            return "ok" if self.down_since is None else self.error

    def _may_try(self) -> bool | None:
        """None: skip the cache; False: use it; True: use it to see whether it is back."""
        if self.down_since is None:
            return False
        with self.lock:
            if self.down_since is None:
                return False
            if self.probing or time.monotonic() < self.retry_at:
                return None
            # this thread tries the cache again; until it knows, the others skip it
            self.probing = True
            self.retry_at = time.monotonic() + PAUSE
            return True

    def _failed(self, exc: BaseException) -> None:
        with self.lock:
            first = self.down_since is None
            if first:
                self.down_since = time.time()
            self.error = type(exc).__name__
            self.retry_at = time.monotonic() + PAUSE
            self.probing = False
        if first:
            logger.error(
                "cache %r unreachable (%r): tokens are read from the database and throttles "
                "count per process; trying it again every %g s",
                self.alias,
                exc,
                PAUSE,
            )

    def _recovered(self) -> None:
        with self.lock:
            since, self.down_since, self.probing, self.error = self.down_since, None, False, ""
        if since is not None:
            logger.warning("cache %r back after %.0f s", self.alias, time.time() - since)


_guards: dict[str, Guard] = {}
_lock = threading.Lock()


def guard(alias: str = "default") -> Guard:
    found = _guards.get(alias)
    if found is None:
        with _lock:
            found = _guards.setdefault(alias, Guard(alias))
    return found


def on_recovery(alias: str, hook: Callable[[Any], None]) -> None:
    """Run `hook(cache)` before the cache is used again after an outage (in the process that
    saw it fail); an error in it counts as the cache still out."""
    g = guard(alias)
    if hook not in g.recovery:
        g.recovery.append(hook)


def shared_aliases() -> list[str]:
    """The Redis caches the API uses (throttles' `default`, the token cache)."""
    from django.conf import settings

    aliases = {"default", getattr(settings, "TAVLA_TOKEN_CACHE", "") or "default"}
    return sorted(a for a in aliases if isinstance(caches[a], RedisCache))


def health() -> dict[str, str]:
    """{alias-or-"cache": error} for each shared cache that is out; empty when all are up."""
    out = {}
    for alias in shared_aliases():
        state = guard(alias).state()
        if state != "ok":
            out["cache" if alias == "default" else f"cache:{alias}"] = state
    return out
