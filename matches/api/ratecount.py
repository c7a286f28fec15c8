"""Rate counting for the throttles: a sliding window kept as two fixed windows.

A request is allowed when `previous x (the part of the previous window still inside the
sliding one) + current` is below the limit (the approximation Cloudflare and nginx's limit_req
use; exact while a client stays within one window). Only allowed requests are counted, so a
refused client is not held back longer for knocking.

DRF's own throttle keeps every request's timestamp in a list, read, trimmed, pickled and
written back per request: two round trips to Redis and work that grows with the rate (600
timestamps at `API_THROTTLE_WRITE=600/min`). Here it is two small counters: with Redis one
script call (one round trip, atomic across processes); with another cache (the local-memory
default: one process) the same arithmetic under a lock.

Redis out of reach (cacheguard.py) does not stop the service: the counting goes on per
process, in memory, until Redis answers again (a client may then get the limit once per web
process for that while).
"""

from __future__ import annotations

import math
import threading
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from . import cacheguard

# KEYS: current window, previous window. ARGV: weight of the previous window, limit, ttl.
# Returns {allowed (1/0), current count, previous count}.
_SCRIPT = """
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
if previous * tonumber(ARGV[1]) + current >= tonumber(ARGV[2]) then
  return {0, current, previous}
end
current = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1, current, previous}
"""

_scripts: dict[int, Any] = {}
_lock = threading.Lock()
_fallback = LocMemCache("tavla-throttles-fallback", {"OPTIONS": {"MAX_ENTRIES": 100_000}})


def hit(key: str, limit: int, seconds: int, now: float) -> tuple[bool, float]:
    """Count a request under `key` if `limit` per `seconds` allows it: (allowed, seconds to
    wait before the next one is allowed; 0 when allowed)."""
    window = int(now // seconds)
    weight = 1.0 - (now - window * seconds) / seconds  # of the previous window
    keys = (f"{key}:{window}", f"{key}:{window - 1}")
    cache = caches["default"]  # DRF's throttles' cache
    if isinstance(cache, RedisCache):
        counted = cacheguard.guard("default").call(
            lambda c: _redis_hit(c, keys, weight, limit, 2 * seconds), None
        )
        if counted is None:  # Redis is out: this process counts alone meanwhile
            counted = _local_hit(_fallback, keys, weight, limit, 2 * seconds)
        allowed, current, previous = counted
    else:
        allowed, current, previous = _local_hit(cache, keys, weight, limit, 2 * seconds)
    if allowed:
        return True, 0.0
    return False, _wait(now, window, seconds, limit, current, previous)


def _wait(now: float, window: int, seconds: int, limit: int, current: int, previous: int) -> float:
    """Seconds until `previous x weight + current` falls below the limit (at the latest when
    the next window starts and the current one becomes the previous)."""
    end = (window + 1) * seconds
    if previous and current < limit:
        # previous x (1 - (t - start) / seconds) + current < limit
        t = window * seconds + seconds * (1 - (limit - current) / previous)
        return max(1.0, math.ceil(min(t, end) - now))
    if current >= limit:
        # next window: current x (1 - (t - end) / seconds) < limit
        t = end + seconds * (1 - limit / current) if current else end
        return max(1.0, math.ceil(t - now))
    return max(1.0, math.ceil(end - now))


def _redis_hit(
    cache: Any, keys: tuple[str, str], weight: float, limit: int, ttl: int
) -> tuple[bool, int, int]:
    client = cache._cache.get_client(write=True)
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts.setdefault(id(client), client.register_script(_SCRIPT))
    full = [cache.make_and_validate_key(k) for k in keys]
    allowed, current, previous = script(keys=full, args=[weight, limit, ttl])
    return bool(allowed), int(current), int(previous)


def _local_hit(
    cache: Any, keys: tuple[str, str], weight: float, limit: int, ttl: int
) -> tuple[bool, int, int]:
    with _lock:
        counts = cache.get_many(keys)
        current, previous = int(counts.get(keys[0], 0)), int(counts.get(keys[1], 0))
        if previous * weight + current >= limit:
            return False, current, previous
        cache.set(keys[0], current + 1, ttl)
        return True, current + 1, previous
