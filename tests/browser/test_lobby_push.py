"""The live lobby in Chromium: an open challenge made by another player appears in the
lobby's list within 2 s, with no click (lobbypush.js on the page's WebSocket)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .play import become_guest, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def subscribed_frames(page: Any) -> list[str]:
    """The WebSocket frames the page receives (filled as they come)."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))
    return frames


def test_an_open_challenge_by_another_player_appears_without_a_click(open_page) -> None:
    bora = open_page()
    frames = subscribed_frames(bora)
    become_guest(bora, "Bora")
    bora.wait_for_selector("#challenges")
    deadline = time.monotonic() + 10
    while not any("lobby_subscribed" in str(f) for f in frames):
        assert time.monotonic() < deadline, "the lobby never subscribed"
        bora.wait_for_timeout(50)
    ana = open_page()
    become_guest(ana, "Ana")
    created: list[tuple[float, int]] = []  # when Ana's page got the answer to its POST
    ana.on(
        "response",
        lambda r: (
            created.append((time.monotonic(), r.status))
            if r.url.endswith("/api/v1/matches") and r.request.method == "POST"
            else None
        ),
    )
    match_id = start_match(ana, "online", 1, invite="open")
    assert [status for _, status in created] == [201]
    made = created[0][0]
    bora.wait_for_selector(f"#challenges li[data-match='{match_id}']", timeout=2_000)
    assert time.monotonic() - made < 2
    # the pushed list works as the first one: Bora takes the challenge from it
    bora.click(f"#challenges li[data-match='{match_id}'] [data-action=accept-challenge]")
    bora.wait_for_selector("section.match[data-status=active]")
    assert not bora.errors
