"""The API tests' fixtures (players with tokens, throttles out of the way, eager Celery), and
the served schema's components."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from tests.api.conftest import API, _api_settings, eager_celery, make_player  # noqa: F401


@pytest.fixture(scope="module")
def components(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        text = APIClient().get(f"{API}/schema").content
    return yaml.safe_load(text)["components"]["schemas"]
