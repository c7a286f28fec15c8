"""The site's computer plays under one account per level, always with its profile (kind
computer): what kind an account is, the profile says, never its name (issue 26)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.store.models import PlayerProfile

pytestmark = pytest.mark.django_db


def test_the_computers_account_is_made_with_its_profile() -> None:
    user = PlayerProfile.computer_user("random")
    assert user.get_username() == PlayerProfile.computer_username("random")
    profile = PlayerProfile.objects.get(user=user)
    assert (profile.kind, profile.display_name) == (
        PlayerProfile.Kind.COMPUTER,
        "Computer (random)",
    )
    assert user.tavla_profile == profile
    with CaptureQueriesContext(connection) as queries:
        again = PlayerProfile.computer_user("random")
    assert again.pk == user.pk and len(queries) == 1  # the user and his profile, read at once


def test_an_account_made_without_its_profile_gets_it(django_user_model: Any) -> None:
    bare = django_user_model.objects.create_user(PlayerProfile.computer_username("heuristic"))
    assert PlayerProfile.computer_user("heuristic").pk == bare.pk
    assert PlayerProfile.objects.get(user=bare).kind == PlayerProfile.Kind.COMPUTER
