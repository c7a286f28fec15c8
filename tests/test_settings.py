"""The test settings keep the suite's side effects out of the development setup."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from django.conf import settings


def _messages(path: Path) -> int:
    """Messages ever put in the embedded broker's file (the transport keeps delivered ones)."""
    if not path.exists():
        return 0
    with closing(sqlite3.connect(path)) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "kombu_message" not in tables:
            return 0
        return int(db.execute("SELECT coalesce(max(id), 0) FROM kombu_message").fetchone()[0])


@pytest.mark.django_db
def test_tasks_never_reach_the_development_broker() -> None:
    from tavla_project.celery import app, heartbeat

    assert settings.CELERY_BROKER_URL == "memory://"
    assert app.conf.broker_url == "memory://"
    assert app.conf.broker_transport is None  # not the embedded broker's transport
    development = settings.VAR_DIR / "broker.sqlite3"
    before = _messages(development)
    heartbeat.delay()
    assert _messages(development) == before
