"""Players are shown by the names they chose, not by generated usernames: in the admin's list,
its match and board pages, and in .mat exports."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.interop.exporting import match_to_mat
from matches.store.models import PlayerProfile
from matches.store.replay import MatchView
from tests.admin.helpers import online_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def guests(django_user_model: Any) -> tuple[Any, Any]:
    marko = django_user_model.objects.create_user("guest-3f9a1c2b7d")
    PlayerProfile.objects.create(user=marko, kind="guest", display_name="Marko")
    ayse = django_user_model.objects.create_user("guest-77aa00bb11")
    PlayerProfile.objects.create(user=ayse, kind="guest", display_name="Ayşe")
    return marko, ayse


@pytest.fixture
def guest_match(guests: tuple[Any, Any]) -> MatchView:
    return online_match(*guests, length=3, seed=5, turns=4)


def test_the_admin_shows_chosen_names(as_reviewer: Client, guest_match: MatchView) -> None:
    listing = as_reviewer.get(reverse("admin:matches_match_changelist")).content.decode()
    assert "Marko" in listing and "Ayşe" in listing
    assert ">guest-3f9a1c2b7d<" not in listing  # the username is a tooltip only
    found = as_reviewer.get(reverse("admin:matches_match_changelist"), {"q": "Ayş"})
    assert "Ayşe" in found.content.decode()
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[guest_match.match_id]))
    assert "Marko" in page.content.decode()
    board = as_reviewer.get(reverse("admin:matches_match_board", args=[guest_match.match_id, 4]))
    assert "Marko" in board.content.decode() and "guest-3f9a1c2b7d" not in board.content.decode()


def test_mat_exports_use_chosen_names(guest_match: MatchView) -> None:
    assert guest_match.match_id is not None
    text = match_to_mat(guest_match.match_id)
    assert "Marko" in text and "Ayşe" in text and "guest-" not in text
