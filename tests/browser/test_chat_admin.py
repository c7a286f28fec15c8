"""Chat lines and reports with markup, an SVG payload and direction overrides are shown as
text in the admin (issue 28), in Chromium: staff sign in by clicks, open the report and the
chat lines, and no script of the payload runs."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from matches.services import chat, reports
from matches.store.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-test-password-9"
LINE = (
    '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">'
    '<svg onload="window.__xss=3">'
)
REPORT = "he wrote \u202eevil\u202c and <svg><script>window.__xss=4</script></svg>"


def test_the_admin_shows_chat_payloads_as_text(open_page, settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the site's
    users = get_user_model().objects
    users.create_superuser("root", "root@example.com", PASSWORD)
    ana, ben = users.create_user("ana"), users.create_user("ben")
    match = Match.objects.create(mode="online", player0=ana, player1=ben, status="active")
    chat.say(user=ana, match_id=match.pk, channel="say", text="hello")
    bad = chat.say(user=ben, match_id=match.pk, channel="say", text=LINE)
    found = reports.report(reporter=ana, player=ben, reason="abuse", message_id=bad.pk, text=REPORT)

    page = open_page("admin/login/")
    dialogs: list[Any] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    page.click("a[href$='/admin/matches/report/']")
    page.wait_for_selector("#result_list")
    page.click(f"#result_list a[href*='/report/{found.pk}/']")
    lines = page.locator(".field-lines_around .readonly")
    lines.wait_for()
    assert LINE in lines.inner_text() and "hello" in lines.inner_text()
    assert REPORT in page.locator(".field-text .readonly").inner_text()  # overrides kept as text
    page.goto(page.url.split("/admin/")[0] + "/admin/matches/chatmessage/")
    page.wait_for_selector("#result_list")
    assert LINE in page.locator("#result_list").inner_text()
    page.wait_for_timeout(300)  # an onerror of the <img> would have fired by now
    assert page.evaluate("window.__xss") is None
    assert page.locator("svg[onload], img[onerror]").count() == 0
    assert dialogs == [] and page.errors == []
