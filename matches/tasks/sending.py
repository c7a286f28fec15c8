"""Sending a task from a command's after-commit hook: one quick attempt, never a wait.

The command has committed already and a player waits for its response, so a broker that is
down must not hold it (kombu would otherwise retry the connection for seconds). What the
message would have done is not lost: the beat's sweepers find it again in the store (the
clock's deadline, the computer's turn) or in the outbox (notices) and send it then.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app

logger = logging.getLogger(__name__)

SEND_TIMEOUT = 2.0  # seconds for the one connection attempt


def send_now(task: Any, args: tuple[Any, ...], **options: Any) -> bool:
    """`task.apply_async(args, **options)` with one quick attempt; False (logged) if the
    broker could not take it."""
    try:
        with current_app.pool.acquire(block=True, timeout=SEND_TIMEOUT) as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=SEND_TIMEOUT
            )
            task.apply_async(args, retry=False, connection=conn, **options)
    except Exception:
        logger.warning("%s%r not sent (broker unreachable): a sweeper will", task.name, args)
        return False
    return True
