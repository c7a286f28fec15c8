"""The API tests' fixtures (players with tokens, throttles out of the way), eager Celery on a
fresh producer pool, and the served schema's components."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from tests.api.conftest import API, _api_settings, make_player  # noqa: F401


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Celery tasks run on commit in this process. An eager task still takes a producer from
    the app's pool: forget pools that an earlier module's broker left closed (the clock and
    worker tests stop their Redis), so this does not depend on the order of the modules."""
    from kombu import pools

    from tavla_project.celery import app

    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    pools.reset()
    old = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = old


@pytest.fixture(scope="module")
def components(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        text = APIClient().get(f"{API}/schema").content
    return yaml.safe_load(text)["components"]["schemas"]
