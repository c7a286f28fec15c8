"""Celery beat delivers the notices a dying process left in the outbox
(matches/services/notices.py decides what is owed)."""

from __future__ import annotations

from celery import shared_task

from matches.services import notices


@shared_task(name="matches.sweep_notices", ignore_result=True, soft_time_limit=50, time_limit=60)
def sweep_notices() -> dict[str, int]:
    """Counts of notices delivered late and of sent ones pruned."""
    return notices.sweep()
