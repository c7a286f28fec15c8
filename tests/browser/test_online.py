"""Online play in two browser contexts (two players): an invite link, each seeing the other's
moves arrive by themselves, a lost connection shown and resumed without a reload, a
spectator, and a loss on time on a short clock."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .play import become_guest, next_thing, start_match, status, take_turn

pytestmark = pytest.mark.django_db(transaction=True)

ARRIVAL = 1.0  # seconds from the mover's click on "confirm" to the move on the other's board


def version(page: Any) -> int:
    return int(page.get_attribute("section.match", "data-version"))


def to_act(page: Any) -> str:
    return page.get_attribute("section.match", "data-to-act") or ""


def invite_and_join(open_page: Any, **options: Any) -> tuple[Any, Any, str]:
    ana = open_page()
    become_guest(ana, "Ana")
    match_id = start_match(ana, "online", 1, invite="link", **options)
    assert "Waiting for an opponent" in status(ana)
    link = ana.input_value("#invite-link")
    assert "#/invite/" in link
    bora = open_page(link.split("/", 3)[3])  # the link as Bora's browser opens it
    assert "Ana invites you" in bora.inner_text("form.invite")
    bora.fill("form.invite input[name=display_name]", "Bora")
    bora.click("[data-action=join]")
    bora.wait_for_selector("section.match[data-status=active]")
    ana.wait_for_selector("section.match[data-status=active]")  # pushed to Ana, no reload
    assert bora.url.endswith(f"#/match/{match_id}")
    return ana, bora, match_id


def test_an_online_match_through_an_invite_link(open_page) -> None:
    ana, bora, match_id = invite_and_join(open_page)
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
        if take_turn(mover) == "over":
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
    assert ana.errors == [] and bora.errors == [] and watcher.errors == []


def test_a_lost_connection_is_shown_and_play_resumes_without_a_reload(open_page) -> None:
    ana, bora, _ = invite_and_join(open_page)
    mover, other = (ana, bora) if to_act(ana) == "you" else (bora, ana)
    other.context.set_offline(True)
    other.wait_for_selector("#connection:not([hidden])", timeout=5_000)
    assert "Connection lost" in other.inner_text("#connection")
    take_turn(mover)
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
