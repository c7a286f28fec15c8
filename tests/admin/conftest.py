"""Fixtures of the admin tests: staff and players, and real matches in the store.

Run them on your own PostgreSQL database, e.g.
    TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tavla_admin .venv/bin/pytest tests/admin
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from matches import store
from matches.store.models import Match
from matches.store.replay import MatchView

from .helpers import imported_match, online_match

PASSWORD = "a-long-test-password-9"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    """Cached views are per process; a rolled-back test must not leave any behind."""
    store.forget()
    yield
    store.forget()


@pytest.fixture
def superuser(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)


@pytest.fixture
def reviewer(django_user_model: Any) -> Any:
    """Staff who may look at matches and events but change nothing."""
    user = django_user_model.objects.create_user("reviewer", password=PASSWORD, is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="matches",
            codename__in=["view_match", "view_matchevent", "view_playersuspension"],
        )
    )
    return user


@pytest.fixture
def moderator(django_user_model: Any) -> Any:
    """Staff who may also abort matches and suspend players."""
    user = django_user_model.objects.create_user("moderator", password=PASSWORD, is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="matches",
            codename__in=[
                "view_match",
                "change_match",
                "view_matchevent",
                "view_playersuspension",
                "add_playersuspension",
            ],
        ),
        Permission.objects.get(content_type__app_label="auth", codename="change_user"),
    )
    return user


@pytest.fixture
def ana(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bob", password=PASSWORD)


def login(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.get_username(), password=PASSWORD)
    return client


@pytest.fixture
def as_superuser(superuser: Any) -> Client:
    return login(superuser)


@pytest.fixture
def as_reviewer(reviewer: Any) -> Client:
    return login(reviewer)


@pytest.fixture
def as_moderator(moderator: Any) -> Client:
    return login(moderator)


@pytest.fixture
def live(ana: Any, bob: Any) -> MatchView:
    """An online 3-point match between ana and bob, twelve turns in, still going."""
    return online_match(ana, bob, length=3, seed=11, turns=12)


@pytest.fixture
def clocked(ana: Any, bob: Any) -> MatchView:
    """An online 5-point match with the site's clock, eight turns in (7 s per command)."""
    clock = {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60}
    return online_match(ana, bob, length=5, seed=12, turns=8, clock=clock)


@pytest.fixture
def imported() -> Match:
    """gnubg's match_08 (3 points, cube: a dropped double, a Crawford game, a resigned
    backgammon), imported through the services."""
    return imported_match("match_08_len3_cube")
