"""Caps on what one process keeps open for waiting clients: long-polls, SSE streams and
WebSockets together.

A client (its account, or its address when anonymous: `clientip.client_ip`, which a forged
`X-Forwarded-For` does not move) may hold `TAVLA_STREAMS_PER_CLIENT` of them in a process, an
address `TAVLA_STREAMS_PER_ADDRESS` whatever accounts it uses (guest accounts are free: ten
guests from one address would otherwise hold ten times the per-client cap), and the process
`TAVLA_STREAMS_MAX` in all. One more is refused at once: 429 `too_many_streams`
with `Retry-After` over HTTP, an `error` then close code 4429 on a WebSocket. A slot is given
back when the stream ends for any reason: the wait is over, the client went away (Django
cancels a long-poll or a stream whose client disconnected), or the socket closed. The counts
are per process (the event loop's), which is what a flood exhausts; the balancer spreads a
client's connections over processes, so its cap over the whole site is at most this times the
number of web processes.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from matches.api.clientip import client_ip, scope_ip
from matches.api.errors import Limited


def client_key(user: Any, address: str) -> str:
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return f"addr:{address}"


def per_client() -> int:
    return int(getattr(settings, "TAVLA_STREAMS_PER_CLIENT", 8))


def per_address() -> int:
    return int(getattr(settings, "TAVLA_STREAMS_PER_ADDRESS", 40))


def total_max() -> int:
    return int(getattr(settings, "TAVLA_STREAMS_MAX", 2000))


def retry_after() -> float:
    return float(getattr(settings, "TAVLA_STREAMS_RETRY_AFTER", 5))


@dataclass
class Slot:
    owner: StreamLimits
    key: str
    address: str = ""
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.owner.release(self.key, self.address)


@dataclass
class StreamLimits:
    """The open streams of this process, by client. (A response's close may run in a
    thread: the counts are changed under a lock.)"""

    open: Counter[str] = field(default_factory=Counter)
    by_address: Counter[str] = field(default_factory=Counter)
    total: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def acquire(self, key: str, address: str = "") -> Slot:
        """A slot for one more stream of `key` from `address`, or `Limited` (429
        too_many_streams)."""
        with self.lock:
            if (
                self.open[key] >= per_client()
                or self.by_address[address] >= per_address()
                or self.total >= total_max()
            ):
                raise Limited("too_many_streams", retry_after())
            self.open[key] += 1
            self.by_address[address] += 1
            self.total += 1
        return Slot(self, key, address)

    def release(self, key: str, address: str = "") -> None:
        with self.lock:
            for counts, name in ((self.open, key), (self.by_address, address)):
                counts[name] -= 1
                if counts[name] <= 0:
                    del counts[name]
            self.total = max(0, self.total - 1)


LIMITS = StreamLimits()  # one per process: streams are served by its one event loop


def acquire_for_request(request: Any) -> Slot:
    """A slot for an HTTP stream or long-poll of this (DRF) request."""
    address = client_ip(request.META)
    return LIMITS.acquire(client_key(request.user, address), address)


def acquire_for_scope(scope: dict[str, Any], user: Any) -> Slot:
    """A slot for a WebSocket."""
    address = scope_ip(scope)
    return LIMITS.acquire(client_key(user, address), address)
