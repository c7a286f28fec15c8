"""What a committed append to a match's stream sets off outside the store: the clock's task, the
computer's turn, the push to connected clients.

The core never imports the layers that deliver these (Celery tasks, streams): they are named
in the setting `TAVLA_AFTER_COMMIT` (dotted paths of functions taking a `Committed`) and called
once the transaction that appended the events has committed, so they only ever see stored
facts. A hook that fails is logged; the command has already succeeded.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from .replay import MatchView, StoredEvent

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Committed:
    """Events just stored for one match, and the view they lead to."""

    view: MatchView
    events: tuple[StoredEvent, ...]
    actor_id: int | None


Hook = Callable[[Committed], object]


@cache
def hooks() -> tuple[Hook, ...]:
    return tuple(import_string(path) for path in getattr(settings, "TAVLA_AFTER_COMMIT", ()))


def after_commit(committed: Committed) -> None:
    """Run every hook once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: run_hooks(committed))


def run_hooks(committed: Committed) -> None:
    _test_pause(committed)
    for hook in hooks():
        try:
            hook(committed)
        except Exception:
            logger.exception(
                "after-commit hook %s failed for match %s", hook, committed.view.match_id
            )


def _test_pause(committed: Committed) -> None:
    """Tests only (TAVLA_AFTER_COMMIT_TEST_PAUSE seconds, default 0): after a committed move,
    wait before the hooks, so a test can kill the process there and see the sweepers make up
    for what the hooks would have sent."""
    pause = float(getattr(settings, "TAVLA_AFTER_COMMIT_TEST_PAUSE", 0) or 0)
    if pause > 0 and any(event.type == "moved" for event in committed.events):
        logger.warning(
            "TAVLA_AFTER_COMMIT_TEST_PAUSE: match %s v%s committed, hooks wait %.1f s",
            committed.view.match_id,
            committed.view.version,
            pause,
        )
        time.sleep(pause)
