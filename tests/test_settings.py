"""The test settings keep the suite's side effects out of the development setup."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings


def _messages(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()} if folder.is_dir() else set()


@pytest.mark.django_db
def test_tasks_never_reach_the_development_broker() -> None:
    from tavla_project.celery import app, heartbeat

    assert settings.CELERY_BROKER_URL == "memory://"
    assert app.conf.broker_url == "memory://"
    before = _messages(settings.BROKER_DIR)
    heartbeat.delay()
    assert _messages(settings.BROKER_DIR) == before
