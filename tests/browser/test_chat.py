"""The chat beside the board, by clicks in two (or three) browser contexts: the players' words
pushed to each other, quick messages worded in each reader's language, a mute of the opponent
kept for the match, kibitz hidden from a player until he switches it on, and hostile text
(markup, script, bidi overrides) shown as text or refused, never run."""

from __future__ import annotations

from typing import Any

import pytest

from .play import become_guest, start_match
from .test_friends import go, sign_up

pytestmark = pytest.mark.django_db(transaction=True)

CHAT = "#chat .chat-messages"


def join(open_page: Any, bora_locale: str = "en-US") -> tuple[Any, Any, str]:
    """Ana (a guest) invites, Bora (a guest, in his language) joins: both on the board."""
    ana = open_page()
    become_guest(ana, "Ana")
    match_id = start_match(ana, "online", 3, invite="link")
    link = ana.input_value("#invite-link")
    bora = open_page(link.split("/", 3)[3], locale=bora_locale)
    bora.fill("form.invite input[name=display_name]", "Bora")
    bora.click("[data-action=join]")
    for page in (ana, bora):
        page.wait_for_selector("section.match[data-status=active]")
        page.wait_for_selector("#chat form.chat-form")
    return ana, bora, match_id


def say(page: Any, text: str) -> None:
    page.fill("#chat input[name=text]", text)
    page.click("#chat [data-action=chat-send]")


def lines(page: Any) -> list[str]:
    return page.locator(f"{CHAT} li[data-id] .text").all_text_contents()


def wait_line(page: Any, text: str) -> None:
    page.wait_for_function(
        """(t) => [...document.querySelectorAll('#chat li[data-id] .text')]
             .some((n) => n.textContent === t)""",
        arg=text,
        timeout=5_000,
    )


def test_players_talk_and_quick_messages_are_worded_in_each_readers_language(open_page) -> None:
    ana, bora, _ = join(open_page, bora_locale="sr-Latn")
    assert bora.inner_text("#chat h2") == "Ćaskanje"
    say(ana, "Good evening, Bora")
    wait_line(bora, "Good evening, Bora")  # pushed: no reload, no click
    wait_line(ana, "Good evening, Bora")
    assert ana.input_value("#chat input[name=text]") == ""
    bora.click("#chat [data-quick=good_luck]")  # a code: each reader sees his own words
    wait_line(ana, "Good luck!")
    wait_line(bora, "Srećno!")
    assert ana.get_attribute(f"{CHAT} li[data-channel=say] .text[data-quick]", "data-quick") == (
        "good_luck"
    )
    assert lines(ana) == ["Good evening, Bora", "Good luck!"]
    ana.select_option("#language", "tr")  # the panel and the codes in the new language
    ana.wait_for_function("document.querySelector('#chat h2').textContent === 'Sohbet'")
    assert lines(ana) == ["Good evening, Bora", "İyi şanslar!"]
    assert ana.input_value("#chat input[name=text]") == ""
    assert ana.errors == [] and bora.errors == []


def test_a_player_mutes_his_opponent_for_this_match(open_page) -> None:
    ana, bora, _ = join(open_page)
    say(bora, "first words")
    wait_line(ana, "first words")
    ana.check("#chat input[data-setting=mute]")
    assert "first words" not in lines(ana)
    say(bora, "more words")
    wait_line(bora, "more words")
    say(ana, "still here")
    wait_line(ana, "still here")  # his own words stay
    assert lines(ana) == ["still here"]
    ana.reload()  # remembered for the match, in this browser
    ana.wait_for_selector(f"{CHAT} li[data-id]")
    assert ana.is_checked("#chat input[data-setting=mute]")
    assert lines(ana) == ["still here"]
    ana.uncheck("#chat input[data-setting=mute]")
    assert lines(ana) == ["first words", "more words", "still here"]
    wait_line(bora, "still here")
    assert ana.errors == [] and bora.errors == []


def unrated_match(open_page: Any) -> tuple[Any, Any, str]:
    """Ana and Bora (registered) in an unrated match: Ana's challenge, friendly, accepted."""
    ana = sign_up(open_page, "ana", "Ana")
    bora = sign_up(open_page, "bora", "Bora")
    go(ana, "#/player/bora")
    ana.click("#player [data-action=challenge]")
    ana.uncheck("#player form.challenge-form input[name=rated]")
    ana.click("#player [data-action=send-challenge]")
    bora.click("#challenge-toast [data-action=accept-direct]")
    for page in (ana, bora):
        page.wait_for_selector("section.match[data-status=active] #chat form.chat-form")
    return ana, bora, bora.url.rsplit("/", 1)[-1]


def test_kibitz_is_hidden_from_a_player_until_he_switches_it_on(open_page) -> None:
    ana, bora, match_id = unrated_match(open_page)
    watcher = open_page()
    become_guest(watcher, "Vera")
    go(watcher, f"#/match/{match_id}")
    watcher.wait_for_selector("#chat form.chat-form")
    assert "spectators" in watcher.inner_text("#chat h2")
    assert watcher.locator("#chat input[data-setting=kibitz]").count() == 0
    say(ana, "players only")
    wait_line(watcher, "players only")  # a spectator reads the players
    say(watcher, "what a blot")
    wait_line(watcher, "what a blot")
    say(ana, "after the kibitz")
    wait_line(bora, "after the kibitz")
    assert "what a blot" not in lines(bora) and "what a blot" not in lines(ana)
    assert bora.is_enabled("#chat input[data-setting=kibitz]")  # a friendly match
    bora.check("#chat input[data-setting=kibitz]")
    wait_line(bora, "what a blot")  # what was said before he switched it on
    assert bora.locator(f"{CHAT} li[data-channel=kibitz]").count() == 1
    say(watcher, "nice roll")
    wait_line(bora, "nice roll")  # and pushed from then on
    wait_line(watcher, "nice roll")
    assert "nice roll" not in lines(ana) and "what a blot" not in lines(ana)  # Ana did not
    for page in (ana, bora, watcher):
        assert page.errors == []


def test_hostile_text_is_shown_as_text_and_no_script_runs(open_page) -> None:
    ana, bora, _ = join(open_page)
    dialogs: list[str] = []
    for page in (ana, bora):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    payloads = [
        "<script>window.pwned = 1; alert(1)</script>",
        '<svg onload="window.pwned = 2; alert(2)"></svg>',
        '<img src=x onerror="window.pwned = 3; alert(3)">',
        "مرحبا Hello שלום",  # right-to-left words: isolated, not turning the line round
    ]
    for text in payloads:
        say(ana, text)
        wait_line(bora, text)
    assert lines(bora) == payloads
    for page in (ana, bora):
        assert page.evaluate("window.pwned") is None
        for tag in ("script", "svg", "img"):
            assert page.locator(f"{CHAT} {tag}").count() == 0
        assert page.get_attribute(f"{CHAT} li[data-id] .text", "dir") == "auto"
    assert bora.locator(f"{CHAT} li[data-id] button.author bdi").first.inner_text() == "Ana"
    # bidi overrides are refused by the server, with its message; nothing is added
    say(ana, "abc\u202edef")
    ana.wait_for_selector("#error:not([hidden])")
    assert ana.inner_text("#error").strip()
    assert ana.input_value("#chat input[name=text]") == "abc\u202edef"  # kept to fix
    assert len(lines(ana)) == len(payloads)
    assert dialogs == []
    assert ana.errors == [] and bora.errors == []
