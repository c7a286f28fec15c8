"""Health checks of kept database connections only after they were idle
(matches/dbhealth.py): a busy connection sends no `SELECT 1` per request, an idle one
is checked, and a connection broken under a busy thread is replaced after one failed request."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import connection

from matches import dbhealth

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def health_checks(settings: Any) -> Any:
    old = connection.settings_dict["CONN_HEALTH_CHECKS"], connection.health_check_enabled
    connection.settings_dict["CONN_HEALTH_CHECKS"] = True
    connection.health_check_enabled = True
    connection.ensure_connection()
    connection.close_at = None  # kept (the test settings may close it after each request)
    dbhealth.connect()
    yield
    request_started.disconnect(dispatch_uid="tavla-db-health-started")
    request_finished.disconnect(dispatch_uid="tavla-db-health-finished")
    connection.settings_dict["CONN_HEALTH_CHECKS"], connection.health_check_enabled = old


def request() -> list[str]:
    """One request's database work (a query); the health checks it made."""
    probes: list[str] = []
    original = connection.is_usable

    def is_usable() -> bool:
        probes.append("SELECT 1")
        return original()

    connection.is_usable = is_usable  # type: ignore[method-assign]
    request_started.send(sender=None)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 2")
    finally:
        del connection.is_usable
        request_finished.send(sender=None)
    return probes


def test_busy_connection_is_not_checked_idle_one_is(health_checks: Any, settings: Any) -> None:
    settings.DATABASE_HEALTH_IDLE = 60.0
    request()  # the first request after connecting marks it used
    assert request() == []  # used a moment ago: no SELECT 1
    settings.DATABASE_HEALTH_IDLE = 0.0  # every connection counts as idle now
    assert request() == ["SELECT 1"]


def test_a_connection_with_errors_is_checked(health_checks: Any, settings: Any) -> None:
    settings.DATABASE_HEALTH_IDLE = 60.0
    request()
    connection.errors_occurred = True
    assert request() == ["SELECT 1"]  # Django's own check of a connection that failed


def test_the_streams_threads_skip_the_check_on_a_busy_connection(
    health_checks: Any, settings: Any
) -> None:
    from matches.streams.db import _call

    settings.DATABASE_HEALTH_IDLE = 60.0
    probes: list[str] = []
    original = connection.is_usable

    def is_usable() -> bool:
        probes.append("SELECT 1")
        return original()

    def work() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 2")

    _call(work, (), {})  # the connection's first use marks it used
    connection.is_usable = is_usable  # type: ignore[method-assign]
    try:
        _call(work, (), {})
        _call(work, (), {})
    finally:
        del connection.is_usable
    assert probes == []
