"""Django's Redis cache with one connection pool per process.

Django keeps a cache object per context (asgiref's Local): the web processes serve each
ordinary request in a fresh context (tavla_project/asgi.py), so Django's own backend opened a
new Redis connection for every request. Here the pools live in the process, keyed by server
and options, and every cache object of the process shares them.

Django's backend also builds a new `redis.Redis` for every cache call, and its constructor
fills a table of some 170 response callbacks: about a third of a millisecond of CPU per call,
two or three calls per request (the token, the rate limit). A client is only a pool and that
table, and is safe to share between threads: one per pool.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_pools: dict[tuple[str, str], Any] = {}
_clients: dict[int, Any] = {}
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write: bool) -> Any:
        index = self._get_connection_pool_index(write)
        key = (self._servers[index], repr(sorted(self._pool_options.items())))
        pool = _pools.get(key)
        if pool is None:
            with _lock:
                pool = _pools.get(key)
                if pool is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    _pools[key] = pool
        return pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = _clients.get(id(pool))
        if client is None:
            with _lock:
                client = _clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
