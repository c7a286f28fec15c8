"""The Celery app. Configuration comes from Django settings (the CELERY_* names).

Run a worker with `celery -A tavla_project worker` and the scheduler with
`celery -A tavla_project beat`; tasks are found in every installed app's `tasks.py`.
"""

import logging
import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavla_project.settings")

app = Celery("tavla")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@app.task(name="tavla.heartbeat", ignore_result=True)
def heartbeat() -> str:
    """Scheduled by beat (CELERY_HEARTBEAT_SECONDS): proves scheduler, broker and worker work."""
    logger.info("heartbeat")
    return "ok"


@app.task(name="tavla.prune_broker", ignore_result=True)
def prune_broker() -> int:
    """Scheduled by beat with the embedded broker: delete the messages it delivered over an
    hour ago (the transport keeps them); how many went."""
    from django.conf import settings

    from .broker import prune

    path = getattr(settings, "BROKER_FILE", None)
    return prune(path) if path is not None else 0


@worker_init.connect
def load_computer_players(**_: object) -> None:
    """Load the computer's network before the first task, so its first move does not wait
    (a prefork worker loads it once, in the parent, before its children fork)."""
    from games import bots

    bots.preload()
