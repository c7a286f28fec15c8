"""Friends by clicks: a player follows another from his page and sees him online in the
lobby's friends card and on #/friends, and offline once his page is closed; follow, block and
report from a name on the match screen."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def sign_up(open_page: Any, username: str, shown: str) -> Any:
    page = open_page("#/signup")
    page.fill("form.auth input[name=username]", username)
    page.fill("form.auth input[name=password]", "a long enough password 1")
    page.fill("form.auth input[name=display_name]", shown)
    page.click("form.auth button[type=submit]")
    page.wait_for_selector("form.seek")
    return page


def go(page: Any, hash_: str) -> None:
    page.evaluate("(h) => { location.hash = h; }", hash_)


def test_follow_a_player_and_see_him_online(open_page) -> None:
    ana = sign_up(open_page, "ana", "Ana")
    bora = sign_up(open_page, "bora", "Bora")
    ana.wait_for_selector("#friends")
    assert "You follow no one yet" in ana.inner_text("#friends")
    go(ana, "#/player/bora")
    ana.click("#player [data-action=follow]")
    ana.wait_for_selector("#player [data-following=true] [data-action=unfollow]")
    go(ana, "#/")
    ana.wait_for_selector("#friends li[data-friend=bora][data-presence=online]")  # his page is open
    assert "Bora" in ana.inner_text("#friends li[data-friend=bora]")
    bora.close()
    go(ana, "#/friends")
    # offline once his socket has been gone 15 s (the server), read every 10 s (the card)
    ana.wait_for_selector("#friends li[data-friend=bora][data-presence=offline]", timeout=40_000)
    ana.click("#friends li[data-friend=bora] [data-action=unfollow]")
    ana.wait_for_selector("#friends li[data-friend=bora]", state="detached")
    assert ana.errors == []


def test_follow_by_name_and_unblock_on_the_friends_screen(open_page) -> None:
    ana = sign_up(open_page, "ana", "Ana")
    sign_up(open_page, "bora", "Bora")
    go(ana, "#/friends")
    ana.fill("#friends input[name=player]", "bora")
    ana.click("#friends [data-action=follow-by-name]")
    ana.wait_for_selector("#friends li[data-friend=bora]")
    go(ana, "#/player/bora")
    ana.click("#player [data-action=block]")  # blocking unfollows
    ana.wait_for_selector("#player [data-player-actions][data-blocked=true]")
    assert ana.locator("#player [data-action=follow]").count() == 0
    go(ana, "#/friends")
    ana.wait_for_selector("#friends li[data-blocked=bora]")
    assert ana.locator("#friends li[data-friend=bora]").count() == 0
    ana.click("#friends li[data-blocked=bora] [data-action=unblock]")
    ana.wait_for_selector("#friends li[data-blocked=bora]", state="detached")
    assert ana.errors == []
