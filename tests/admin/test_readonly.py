"""Events can be neither added, changed nor deleted from the admin, not even by a superuser;
matches change only through commands."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from matches.store.models import Match, MatchEvent, PlayerSuspension

pytestmark = pytest.mark.django_db


def _snapshot(match: Match) -> list[tuple]:
    return list(
        MatchEvent.objects.filter(match=match)
        .order_by("seq")
        .values_list("seq", "type", "payload", "actor_id", "created_at")
    )


@pytest.mark.parametrize("model", [Match, MatchEvent, PlayerSuspension])
def test_no_add_change_or_delete_permission_even_for_a_superuser(
    model: type, superuser, rf
) -> None:
    request = rf.get("/")
    request.user = superuser
    model_admin = admin.site._registry[model]
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert model_admin.has_view_permission(request)
    assert "delete_selected" not in model_admin.get_actions(request)


def test_event_add_page_is_refused(as_superuser: Client) -> None:
    assert as_superuser.get(reverse("admin:matches_matchevent_add")).status_code == 403
    page = as_superuser.post(
        reverse("admin:matches_matchevent_add"),
        {"seq": 99, "type": "rolled", "payload": '{"v": 1}'},
    )
    assert page.status_code == 403


def test_event_cannot_be_changed_or_deleted(as_superuser: Client, imported: Match) -> None:
    before = _snapshot(imported)
    event = MatchEvent.objects.get(match=imported, seq=10)
    change = reverse("admin:matches_matchevent_change", args=[event.pk])
    page = as_superuser.post(change, {"type": "moved", "payload": '{"v": 1, "seat": 0}'})
    assert page.status_code == 403
    delete = reverse("admin:matches_matchevent_delete", args=[event.pk])
    assert as_superuser.get(delete).status_code == 403
    assert as_superuser.post(delete, {"post": "yes"}).status_code == 403
    changelist = reverse("admin:matches_matchevent_changelist")
    page = as_superuser.post(
        changelist, {"action": "delete_selected", "_selected_action": [event.pk], "post": "yes"}
    )
    assert page.status_code in (200, 302)  # "no action selected": nothing happens
    assert _snapshot(imported) == before


def test_match_cannot_be_added_changed_or_deleted(as_superuser: Client, imported: Match) -> None:
    before = _snapshot(imported)
    assert as_superuser.get(reverse("admin:matches_match_add")).status_code == 403
    change = reverse("admin:matches_match_change", args=[imported.pk])
    page = as_superuser.post(change, {"status": "aborted", "score0": 0, "length": 1})
    assert page.status_code == 403
    delete = reverse("admin:matches_match_delete", args=[imported.pk])
    assert as_superuser.post(delete, {"post": "yes"}).status_code == 403
    imported.refresh_from_db()
    assert (imported.status, imported.score0, imported.score1) == ("finished", 7, 2)
    assert _snapshot(imported) == before


def test_match_page_has_no_inline_formset_for_events(as_superuser: Client, imported: Match) -> None:
    page = as_superuser.get(reverse("admin:matches_match_change", args=[imported.pk]))
    assert page.context["inline_admin_formsets"] == []
    assert "<textarea" not in page.content.decode()
