"""Celery beat keeps the seek queue moving (matches/services/seeks.py decides): seeks whose
owners are gone expire, waiting ones are paired again as their windows widen, and those that
asked for the computer get it when their time comes."""

from __future__ import annotations

from celery import shared_task

from matches.services import seeks

from .clock import TASK_OPTIONS


@shared_task(name="matches.sweep_seeks", soft_time_limit=50, time_limit=60, **TASK_OPTIONS)
def sweep_seeks() -> dict[str, int]:
    """Counts of seeks expired and paired by this sweep."""
    return seeks.sweep()
