"""Database health checks only on connections that were idle.

With `CONN_HEALTH_CHECKS` Django sends a `SELECT 1` before the first query of every request on a
kept connection: one round trip per request, about a tenth of a state read's CPU, to turn the
first request after a database restart into a working one. A connection that served a request
less than `DATABASE_HEALTH_IDLE` seconds ago (default 2) is not checked: a restart within that
window costs that thread one failed request, after which Django drops the broken connection
(`errors_occurred`) and the next request reconnects. Longer idle connections are checked as
before. The web entry points connect these to Django's request signals; the streams' database
threads (matches/streams/db.py) call them around each piece of work.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import connections


def _idle_limit() -> float:
    return float(getattr(settings, "DATABASE_HEALTH_IDLE", 2.0))


def skip_check_if_busy(**kwargs: Any) -> None:
    """request_started, after Django's own receiver armed the check: disarm it on connections
    used a moment ago."""
    now = time.monotonic()
    limit = _idle_limit()
    for conn in connections.all(initialized_only=True):
        used = getattr(conn, "tavla_used_at", None)
        if (
            conn.connection is not None
            and used is not None
            and now - used < limit
            and not conn.errors_occurred
        ):
            conn.health_check_done = True


def mark_used(**kwargs: Any) -> None:
    """request_finished: the connection worked for this request."""
    now = time.monotonic()
    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and not conn.errors_occurred:
            conn.tavla_used_at = now


def connect() -> None:
    request_started.connect(skip_check_if_busy, dispatch_uid="tavla-db-health-started")
    request_finished.connect(mark_used, dispatch_uid="tavla-db-health-finished")
