"""Direct challenges by clicks: Ana challenges Bora from her friends card, Bora gets the
challenge wherever he is (a toast), accepts, and both land on the board; a declined one is
said to the challenger; a player who blocked her refuses her challenge with a clear message.
On the board, a name opens the player's menu: follow, report."""

from __future__ import annotations

from typing import Any

import pytest

from .test_friends import go, sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def follow(page: Any, name: str) -> None:
    go(page, f"#/player/{name}")
    page.click("#player [data-action=follow]")
    page.wait_for_selector("#player [data-player-actions][data-following=true]")
    go(page, "#/")


def challenge_from_lobby(ana: Any, name: str) -> None:
    ana.click(f"#friends li[data-friend={name}] [data-action=challenge]")
    ana.select_option(f"#friends li[data-friend={name}] select[name=length]", "1")
    ana.click(f"#friends li[data-friend={name}] [data-action=send-challenge]")


def test_a_challenge_accepted_brings_both_to_the_board(open_page) -> None:
    ana = sign_up(open_page, "ana", "Ana")
    bora = sign_up(open_page, "bora", "Bora")
    go(bora, "#/leaderboard")  # he is elsewhere on the site
    follow(ana, "bora")
    ana.wait_for_selector("#friends li[data-friend=bora]")
    challenge_from_lobby(ana, "bora")
    ana.wait_for_selector("#friends form.challenge-form[data-sent], #friends li[data-challenge]")
    bora.wait_for_selector("#challenge-toast:not([hidden]) [data-action=accept-direct]")
    assert "Ana challenges you" in bora.inner_text("#challenge-toast")
    bora.click("#challenge-toast [data-action=accept-direct]")
    bora.wait_for_selector("section.match[data-status=active]")
    ana.wait_for_selector("section.match[data-status=active]")  # the answer pushed to her
    assert ana.url.rsplit("/", 1)[-1] == bora.url.rsplit("/", 1)[-1]
    assert bora.is_hidden("#challenge-toast")
    # a rated match: the spectators' chat stays closed to its players while it is played
    assert ana.is_disabled("#chat input[data-setting=kibitz]")
    assert "once this rated match ends" in ana.inner_text("#chat .chat-options")

    # on the board, his name opens his menu: report him
    ana.click(".player.far [data-player=bora]")
    ana.wait_for_selector(".player-menu[data-menu-for=bora] [data-action=unfollow]")
    ana.click(".player-menu [data-action=report]")
    ana.select_option(".player-menu select[name=reason]", "spam")
    ana.fill(".player-menu textarea[name=text]", "he sends the same words again and again")
    ana.click(".player-menu [data-action=send-report]")
    ana.wait_for_selector(".player-menu [data-reported=bora]")
    # and Bora follows Ana from her name in the chat
    ana.fill("#chat input[name=text]", "hello")
    ana.click("#chat [data-action=chat-send]")
    bora.click("#chat button.author[data-chat-author=ana]")
    bora.click(".player-menu[data-menu-for=ana] [data-action=follow]")
    bora.wait_for_selector(".player-menu [data-player-actions][data-following=true]")
    assert ana.errors == [] and bora.errors == []


def test_a_declined_challenge_is_said_to_the_challenger(open_page) -> None:
    ana = sign_up(open_page, "ana", "Ana")
    bora = sign_up(open_page, "bora", "Bora")
    follow(ana, "bora")
    ana.wait_for_selector("#friends li[data-friend=bora]")
    challenge_from_lobby(ana, "bora")
    bora.wait_for_selector("#challenge-toast:not([hidden]) [data-action=decline-direct]")
    bora.click("#challenge-toast [data-action=decline-direct]")
    bora.wait_for_selector("#challenge-toast", state="hidden")
    ana.wait_for_selector("#challenge-toast:not([hidden]) [data-answer=declined]")
    assert "Bora declined your challenge" in ana.inner_text("#challenge-toast")
    assert "#/match/" not in ana.url and "#/match/" not in bora.url
    # a new one, withdrawn from the card before Bora answers: his toast says so
    go(ana, "#/friends")
    challenge_from_lobby(ana, "bora")
    bora.wait_for_selector("#challenge-toast:not([hidden]) [data-action=accept-direct]")
    ana.click("#friends li[data-challenge] [data-action=withdraw]")
    bora.wait_for_selector("#challenge-toast:not([hidden]) [data-answer=cancelled]")
    assert "Ana withdrew the challenge" in bora.inner_text("#challenge-toast")
    assert ana.errors == [] and bora.errors == []


def test_a_blocked_player_cannot_challenge(open_page) -> None:
    ana = sign_up(open_page, "ana", "Ana")
    bora = sign_up(open_page, "bora", "Bora")
    go(bora, "#/player/ana")
    bora.click("#player [data-action=block]")
    bora.wait_for_selector("#player [data-player-actions][data-blocked=true]")
    go(ana, "#/player/bora")
    ana.click("#player [data-action=challenge]")
    ana.click("#player [data-action=send-challenge]")
    ana.wait_for_selector("#player form.challenge-form [role=status][data-code=blocked]")
    assert ana.inner_text("#player form.challenge-form [role=status]").strip()
    assert bora.is_hidden("#challenge-toast") if bora.locator("#challenge-toast").count() else True
    assert ana.errors == [] and bora.errors == []
