"""Fixtures of the tournament service's tests: the API's players and throttles
(tests/api/conftest.py), a fast clock preset, and staff to create tournaments."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone

from tests.api.conftest import HIGH_RATES, Player, make_player, signup

__all__ = ["make_player"]

FAST = {"delay": 2, "reserve": 40, "max_move": 20, "reconnect": 6}
"""The tournaments' clock in these tests: a player gone 6 s loses by forfeit."""


@pytest.fixture(autouse=True)
def _tournament_settings(settings: Any) -> Iterator[None]:
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = {**rf["DEFAULT_THROTTLE_RATES"], **HIGH_RATES}
    settings.REST_FRAMEWORK = rf
    settings.TAVLA_CLOCK_PRESETS = {"fast": FAST}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def staff() -> Player:
    player = signup("director")
    get_user_model().objects.filter(pk=player.user_id).update(is_staff=True)
    return player


def settings_for(fmt: str, starts_at: datetime | None = None, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": f"Test {fmt}",
        "format": fmt,
        "length": 1,
        "clock": "fast",
        "rated": False,
        "min_players": 4,
        "max_players": 16,
        "starts_at": (starts_at or timezone.now() + timedelta(hours=1)).isoformat(),
    }
    if fmt == "swiss":
        body["rounds"] = 3
    return {**body, **more}


def create(staff: Player, fmt: str, **more: Any) -> dict[str, Any]:
    response = staff.post("/tournaments", settings_for(fmt, **more))
    assert response.status_code == 201, response.content
    return response.json()


MakePlayer = Callable[..., Player]
