"""Fixtures of the stream tests: our own Redis, two web processes sharing it (A and B), one
web process without it (C, the embedded in-memory layer), and a Celery worker on demand.

A and B watch the store only every 30 s, so anything that reaches B's clients sooner came
through Redis pub/sub; C has no Redis at all, so what reaches its clients came from its store
watcher (every 0.25 s). The tests are transactional: the servers see the rows they commit.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from .harness import Redis, Server, Worker, service_env

if shutil.which("redis-server") is None:  # pragma: no cover - CI installs it
    raise RuntimeError("tests/streams need redis-server (apt-get install redis-server)")


@pytest.fixture(autouse=True)
def _transactional(transactional_db: Any) -> None:
    """Every test commits, so the server processes see its rows (and their rows are seen)."""


class Cluster:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        self.redis.start()
        database = dict(connection.settings_dict)
        shared = {
            "CHANNEL_LAYER_URL": self.redis.url(0),
            "CACHE_URL": self.redis.url(1),
            "CELERY_BROKER_URL": self.redis.url(2),
            "TAVLA_STREAM_WATCH_SECONDS": "30",
        }
        self.env = service_env(database, **shared)
        self.embedded_env = service_env(database, CELERY_BROKER_URL=self.redis.url(2))
        self.a = Server(self.env, tmp / "a.log")
        self.b = Server(self.env, tmp / "b.log")
        self.c = Server(self.embedded_env, tmp / "c.log")
        self.worker: Worker | None = None

    def start_worker(self) -> Worker:
        if self.worker is None:
            self.worker = Worker(self.env, self.tmp / "worker.log")
        return self.worker

    def stop(self) -> None:
        for proc in (self.a, self.b, self.c, self.worker):
            if proc is not None:
                proc.stop()
        self.redis.stop()


@pytest.fixture(scope="module")
def cluster(django_db_setup: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("streams"))
    try:
        yield c
    finally:
        c.stop()
