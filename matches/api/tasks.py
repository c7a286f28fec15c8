"""The API's periodic housekeeping (Celery beat; settings CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from . import idempotency


@shared_task(name="matches.api.expire_idempotency", ignore_result=True)
def expire_idempotency() -> int:
    """Idempotency records older than TAVLA_IDEMPOTENCY_SECONDS are no longer replayed."""
    ttl = timedelta(seconds=float(settings.TAVLA_IDEMPOTENCY_SECONDS))
    return idempotency.expire(timezone.now() - ttl)
