"""Blocking work (the ORM) off the event loop, in a small pool of threads of its own.

Async views and consumers never touch the database on the loop (DESIGN "Real-time"). These
threads live as long as the process and keep their connection between calls
(`DATABASE_CONN_MAX_AGE`); with a connection pool (`DATABASE_POOL_SIZE`) each call takes a
connection from the pool and gives it back. A connection that broke is dropped before the
next call (Django's own health check, `CONN_HEALTH_CHECKS`, armed by `close_old_connections`).

`TAVLA_STREAM_DB_THREADS = 0` (the test settings) runs the work where Django runs synchronous
code of the request instead (`sync_to_async`, thread-sensitive): in a test that is the test's
own thread and connection, so a test's uncommitted rows are seen.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None


def executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        threads = int(getattr(settings, "TAVLA_STREAM_DB_THREADS", 8))
        _executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="tavla-stream-db")
    return _executor


def _call(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        close_old_connections()


async def in_thread(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` in a database thread, awaited."""
    if not getattr(settings, "TAVLA_STREAM_DB_THREADS", 8):
        return await sync_to_async(fn, thread_sensitive=True)(*args, **kwargs)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), functools.partial(_call, fn, args, kwargs))
