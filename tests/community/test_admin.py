"""Reports and staff actions in the admin: the report with the lines around it (as text),
sanctions given with a note through the form, lifting and closing, and the audit log that
nobody may change or delete (the admin refuses, the model refuses, the table refuses)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from matches.errors import EventsAreImmutable
from matches.services import chat, reports
from matches.store.community_models import ModerationAction, Report, Sanction
from matches.store.models import Match
from tests.admin.conftest import PASSWORD, login

pytestmark = pytest.mark.django_db

PAYLOAD = '<script>alert("x")</script><svg onload="alert(1)"></svg>\u202b'
SHOWN = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;svg onload=&quot;alert(1)&quot;&gt;"


@pytest.fixture
def staff() -> Any:
    return get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)


@pytest.fixture
def reported() -> Report:
    """ben says a line with markup in an online match (among other lines); ana reports it."""
    users = get_user_model().objects
    ana, ben = users.create_user("ana"), users.create_user("ben")
    match = Match.objects.create(mode="online", player0=ana, player1=ben, status="active")
    for text in ("hello", "good luck"):
        chat.say(user=ana, match_id=match.pk, channel="say", text=text)
    bad = chat.say(user=ben, match_id=match.pk, channel="say", text=PAYLOAD.rstrip("\u202b"))
    chat.say(user=ana, match_id=match.pk, channel="say", text="please stop")
    return reports.report(reporter=ana, player=ben, reason="abuse", message_id=bad.pk, text=PAYLOAD)


def test_the_report_shows_the_lines_around_it_as_text(staff, reported) -> None:
    client = login(staff)
    listing = client.get(reverse("admin:matches_report_changelist"))
    assert listing.status_code == 200 and b"abuse" in listing.content
    page = client.get(reverse("admin:matches_report_change", args=[reported.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for line in ("hello", "good luck", "please stop"):
        assert line in html
    assert SHOWN in html  # the reported line and the report's text, escaped
    assert "<script>alert" not in html and "<svg onload" not in html
    assert str(reported.match_id) in html
    assert f"?user={reported.player_id}&amp;report={reported.pk}" in html
    lines = client.get(reverse("admin:matches_chatmessage_changelist")).content.decode()
    assert SHOWN in lines and "<script>alert" not in lines


def test_a_mute_given_in_the_admin_is_logged_and_refuses_the_player(staff, reported) -> None:
    client = login(staff)
    add = reverse("admin:matches_sanction_add")
    form = client.get(add, {"user": reported.player_id, "report": reported.pk})
    assert form.status_code == 200 and b"duration" in form.content
    r = client.post(
        add,
        {
            "user": reported.player_id,
            "kind": "mute",
            "duration": "0",
            "note": "insults",
            "report": reported.pk,
        },
    )
    assert r.status_code == 200 and b"A mute is for a time" in r.content  # refused
    r = client.post(
        add,
        {
            "user": reported.player_id,
            "kind": "mute",
            "duration": "60",
            "note": "insults",
            "report": reported.pk,
        },
    )
    assert r.status_code == 302, r.content
    given = Sanction.objects.get()
    assert given.by == staff and given.until is not None and given.report == reported
    logged = ModerationAction.objects.get()
    assert (logged.kind, logged.staff, logged.player_id, logged.note) == (
        "mute",
        staff,
        reported.player_id,
        "insults",
    )
    with pytest.raises(reports.ChatMuted):
        chat.say(user=reported.player, match_id=reported.match_id, channel="say", text="hi")
    # a ban from play, then lifting it and closing the report: all in the log
    client.post(
        add,
        {
            "user": reported.player_id,
            "kind": "play_ban",
            "duration": "0",
            "note": "bot",
            "report": "",
        },
    )
    ban = Sanction.objects.get(kind="play_ban")
    assert ban.until is None
    r = client.post(
        reverse("admin:matches_sanction_changelist"),
        {"action": "lift", "_selected_action": [ban.pk]},
    )
    assert r.status_code == 302
    client.post(
        reverse("admin:matches_report_changelist"),
        {"action": "close_reports", "_selected_action": [reported.pk]},
    )
    reported.refresh_from_db()
    assert reported.status == "closed"
    kinds = list(ModerationAction.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["mute", "play_ban", "lift", "close_report"]
    log = client.get(reverse("admin:matches_moderationaction_changelist")).content.decode()
    assert "insults" in log and "bot" in log and "close_report" in log
    page = client.get(reverse("admin:matches_report_change", args=[reported.pk])).content
    assert b"mute: insults" in page  # the report's own history


def test_nobody_changes_or_deletes_the_audit_log(staff, reported) -> None:
    reports.sanction(user=reported.player, kind="chat_ban", by=staff, note="spam")
    entry = ModerationAction.objects.get()
    client = login(staff)  # a superuser
    change = reverse("admin:matches_moderationaction_change", args=[entry.pk])
    page = client.get(change)
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert client.post(change, {"note": "nothing happened"}).status_code == 403
    delete = reverse("admin:matches_moderationaction_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:matches_moderationaction_add")).status_code == 403
    with pytest.raises(EventsAreImmutable):
        entry.save()
    with pytest.raises(EventsAreImmutable):
        ModerationAction.objects.filter(pk=entry.pk).update(note="changed")
    with pytest.raises(EventsAreImmutable):
        entry.delete()
    for sql in (
        "UPDATE matches_moderationaction SET note = 'changed'",
        "DELETE FROM matches_moderationaction",
    ):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)
    assert ModerationAction.objects.get().note == "spam"
    sanction_page = reverse("admin:matches_sanction_delete", args=[Sanction.objects.get().pk])
    assert client.post(sanction_page, {"post": "yes"}).status_code == 403


def test_staff_without_the_permission_see_nothing(reported, django_user_model) -> None:
    plain = django_user_model.objects.create_user("helper", password=PASSWORD, is_staff=True)
    client = login(plain)
    assert client.get(reverse("admin:matches_report_changelist")).status_code == 403
    assert client.get(reverse("admin:matches_sanction_add")).status_code == 403
