"""Online play in two browser contexts (two players): an invite link, each seeing the other's
moves pushed over the WebSocket, a lost connection (the network, or the socket cut under the
page) shown and resumed without a reload and without a gap or a repeat, the long-poll when
WebSockets are blocked, a spectator, and a loss on time on a short clock."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .play import become_guest, next_thing, start_match, status, take_turn

pytestmark = pytest.mark.django_db(transaction=True)

ARRIVAL = 1.0  # seconds from the mover's click on "confirm" to the move on the other's board
# the long-poll fallback brings the events, then the page reads the state: one more round
# trip, which on this shared 2-core machine at load 14 once took 1.7 s
FALLBACK_ARRIVAL = 3.0


def version(page: Any) -> int:
    return int(page.get_attribute("section.match", "data-version"))


def to_act(page: Any) -> str:
    return page.get_attribute("section.match", "data-to-act") or ""


def transport(page: Any) -> str:
    """The transport the match page streams on, once it has opened one (the page shows the
    state it fetched before it starts the stream, so the attribute is empty for a moment)."""
    page.wait_for_selector("section.match[data-transport]:not([data-transport=''])")
    return page.get_attribute("section.match", "data-transport") or ""


def stream_seen(page: Any) -> tuple[int, int, int]:
    """What the page's stream delivered: the last seq, how many events, how many out of order."""
    seq, count, gaps = (page.get_attribute("section.match", "data-stream") or "0 0 0").split()
    return int(seq), int(count), int(gaps)


def invite_and_join(
    open_page: Any,
    ana_setup: Any = None,
    bora_setup: Any = None,
    **options: Any,
) -> tuple[Any, Any, str]:
    ana = open_page(setup=ana_setup)
    become_guest(ana, "Ana")
    match_id = start_match(ana, "online", 1, invite="link", **options)
    assert "Waiting for an opponent" in status(ana)
    link = ana.input_value("#invite-link")
    assert "#/invite/" in link
    bora = open_page(link.split("/", 3)[3], setup=bora_setup)  # the link as Bora opens it
    assert "Ana invites you" in bora.inner_text("form.invite")
    bora.fill("form.invite input[name=display_name]", "Bora")
    bora.click("[data-action=join]")
    bora.wait_for_selector("section.match[data-status=active]")
    ana.wait_for_selector("section.match[data-status=active]")  # pushed to Ana, no reload
    assert bora.url.endswith(f"#/match/{match_id}")
    return ana, bora, match_id


def test_an_online_match_through_an_invite_link(open_page) -> None:
    ana, bora, match_id = invite_and_join(open_page)
    assert transport(ana) == transport(bora) == "ws"
    assert "Bora" in ana.inner_text(".player.far")
    assert "Ana" in bora.inner_text(".player.far")
    watcher = open_page()  # anyone may watch a public match: from the live list
    become_guest(watcher)
    watcher.click(f"#live li[data-match='{match_id}'] a")
    watcher.wait_for_selector("section.match[data-status=active]")
    assert "You are watching" in status(watcher)
    assert watcher.locator("#board .spot").count() == 0

    lags = []
    for _ in range(6):
        mover, other = (ana, bora) if to_act(ana) == "you" else (bora, ana)
        assert to_act(other) == "opponent"
        if take_turn(mover, passes=True) == "over":
            break
        moved = version(mover)
        other.wait_for_function(
            "(v) => Number(document.querySelector('section.match').dataset.version) >= v",
            arg=moved,
        )
        lags.append(time.monotonic() - mover.confirmed_at)  # from the click on "confirm"
        watcher.wait_for_function(
            "(v) => Number(document.querySelector('section.match').dataset.version) >= v",
            arg=moved,
        )
    print("the other player saw each move after", ", ".join(f"{x * 1000:.0f} ms" for x in lags))
    assert lags and max(lags) < ARRIVAL, lags
    assert transport(watcher) == "ws"
    for page in (ana, bora, watcher):  # every event once, in order, none missing
        seq, count, gaps = stream_seen(page)
        assert seq == version(page) and gaps == 0, (seq, count, gaps)
    assert ana.errors == [] and bora.errors == [] and watcher.errors == []


def test_a_lost_connection_is_shown_and_play_resumes_without_a_reload(open_page) -> None:
    ana, bora, _ = invite_and_join(open_page)
    mover, other = (ana, bora) if to_act(ana) == "you" else (bora, ana)
    other.context.set_offline(True)
    other.wait_for_selector("#connection:not([hidden])", timeout=5_000)
    assert "Connection lost" in other.inner_text("#connection")
    take_turn(mover, passes=True)
    moved = version(mover)
    assert version(other) < moved
    other.context.set_offline(False)
    other.wait_for_selector("#connection", state="hidden", timeout=10_000)
    other.wait_for_function(
        "(v) => Number(document.querySelector('section.match').dataset.version) >= v", arg=moved
    )
    assert to_act(other) == "you"
    assert next_thing(other) in ("roll", "source")  # and he plays on, same page
    assert other.errors == []


class SocketCut:
    """Bora's WebSocket goes through Playwright's route to the real server, so the test can
    cut it under the page (a dropped connection, as a proxy or a phone switching networks
    drops it) and refuse new ones for a while: the server is not touched."""

    def __init__(self) -> None:
        self.routes: list[Any] = []
        self.refuse = False
        self.refused = 0

    def setup(self, page: Any) -> None:
        page.route_web_socket("**/ws/v1/live", self.handle)

    def handle(self, ws: Any) -> None:
        if self.refuse:
            self.refused += 1
            ws.close(code=4000, reason="cut by the test")
            return
        ws.connect_to_server()
        self.routes.append(ws)

    def cut(self) -> None:
        self.refuse = True
        for ws in self.routes:
            ws.close(code=4000, reason="cut by the test")
        self.routes.clear()


def test_a_dropped_socket_is_shown_and_resumed_from_the_last_version(open_page) -> None:
    cut = SocketCut()
    ana, bora, _ = invite_and_join(open_page, bora_setup=cut.setup)
    assert transport(bora) == "ws"
    mover = ana if to_act(ana) == "you" else bora
    if mover is bora:  # let Bora move once first: then the cut comes while Ana is to act
        take_turn(bora)
        ana.wait_for_function(
            "(v) => Number(document.querySelector('section.match').dataset.version) >= v",
            arg=version(bora),
        )
    before = version(bora)
    cut.cut()
    bora.wait_for_selector("#connection:not([hidden])", timeout=5_000)
    assert "Connection lost" in bora.inner_text("#connection")
    assert take_turn(ana) == "confirm"  # a 1-point match does not end in two turns
    moved = version(ana)
    time.sleep(1.0)  # the move is stored and pushed; Bora's page cannot hear it
    assert version(bora) == before
    assert cut.refused >= 1  # the page kept trying to reconnect
    assert not bora.is_hidden("#connection")
    cut.refuse = False
    bora.wait_for_selector("#connection", state="hidden", timeout=10_000)
    bora.wait_for_function(
        "(v) => Number(document.querySelector('section.match').dataset.version) >= v", arg=moved
    )
    assert transport(bora) == "ws"  # the socket came back; no fallback was needed
    seq, _, gaps = stream_seen(bora)
    assert (seq, gaps) == (version(bora), 0)  # the missed events once each, in order
    assert to_act(bora) == "you"
    take_turn(bora)  # and he plays on, same page
    ana.wait_for_function(
        "(v) => Number(document.querySelector('section.match').dataset.version) >= v",
        arg=version(bora),
    )
    assert stream_seen(bora)[2] == 0
    assert bora.errors == [] and ana.errors == []


def block_websockets(page: Any) -> None:
    """Every socket the page opens is closed before it reaches the server, as behind a proxy
    that does not pass WebSockets (Chromium's request blocking does not apply to them)."""
    page.blocked_sockets = 0

    def refuse(ws: Any) -> None:
        page.blocked_sockets += 1
        ws.close(code=1011, reason="blocked by the test")

    page.route_web_socket("**/ws/v1/live", refuse)


def test_the_page_falls_back_to_the_long_poll_when_websockets_are_blocked(open_page) -> None:
    ana, bora, _ = invite_and_join(open_page, ana_setup=block_websockets)
    assert transport(ana) == "poll"
    assert ana.blocked_sockets >= 1
    assert transport(bora) == "ws"
    lags = []
    for _ in range(4):
        mover, other = (ana, bora) if to_act(ana) == "you" else (bora, ana)
        if take_turn(mover, passes=True) == "over":
            break
        other.wait_for_function(
            "(v) => Number(document.querySelector('section.match').dataset.version) >= v",
            arg=version(mover),
        )
        lags.append(time.monotonic() - mover.confirmed_at)
    print("moves arrived after", ", ".join(f"{x * 1000:.0f} ms" for x in lags))
    assert lags and max(lags) < FALLBACK_ARRIVAL, lags
    assert ana.is_hidden("#connection")
    assert stream_seen(ana)[2] == 0
    assert ana.errors == [] and bora.errors == []


def test_a_player_who_stops_moving_loses_on_time(open_page) -> None:
    clock = {"delay": 1, "reserve": 1, "max_move": 2, "reconnect": 60}
    ana, bora, _ = invite_and_join(open_page, clock=clock)
    idle, other = (ana, bora) if to_act(ana) == "you" else (bora, ana)
    assert idle.locator(".player.near .clock.running").count() == 1  # my clock runs
    assert other.locator(".player.far .clock.running").count() == 1
    idle.wait_for_selector("section.match[data-status=finished]", timeout=10_000)
    assert status(idle) == "You lost the match. (out of time)"
    other.wait_for_selector("section.match[data-status=finished]", timeout=5_000)
    assert status(other) == "You won the match! (out of time)"
    assert idle.inner_text(".player.near .clock") == "0:00"
