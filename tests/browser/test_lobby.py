"""The lobby: the language from the browser (switchable, sent to the API), the API's errors
in its own words, a guest who signs up and keeps his matches, an open challenge accepted
from the list, a rematch."""

from __future__ import annotations

import pytest

from .play import become_guest, next_thing, start_match, status

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_language_comes_from_the_browser_and_can_be_switched(open_page) -> None:
    page = open_page(locale="sr-RS")
    assert page.get_attribute("html", "lang") == "sr-Latn"
    assert page.inner_text("[data-action=guest]") == "Igraj kao gost"
    page.select_option("#language", "tr")
    page.wait_for_selector("[data-action=guest]:has-text('Misafir olarak oyna')")
    with page.expect_request(lambda r: r.url.endswith("/api/v1/auth/guest")) as request:
        become_guest(page)
    assert request.value.headers["accept-language"] == "tr"
    assert page.inner_text("[data-action=start]") == "Başla"
    page.reload()  # the choice is kept
    page.wait_for_selector("form.new-match")
    assert page.inner_text("[data-action=start]") == "Başla"


def test_the_apis_error_is_shown_as_the_api_words_it(open_page) -> None:
    page = open_page(locale="tr-TR")
    page.evaluate("location.hash = '#/invite/NOSUCHCODE'")
    page.wait_for_selector("#error:not([hidden])")
    expected = page.evaluate(
        """async () => (await (await fetch('/api/v1/invites/NOSUCHCODE',
            {headers: {'Accept-Language': 'tr', Accept: 'application/json'}})).json()).message"""
    )
    assert page.inner_text("#error") == expected


def test_a_guest_signs_up_and_keeps_his_matches(open_page) -> None:
    page = open_page()
    become_guest(page, "Vesna")
    assert page.get_attribute(".me", "data-kind") == "guest"
    match_id = start_match(page, "hotseat", 3)
    page.click("[data-action=signup]")
    page.fill("form.auth input[name=username]", "vesna")
    page.fill("form.auth input[name=password]", "tavla-secret-42")
    page.click("form.auth button[type=submit]")
    page.wait_for_selector(".me[data-kind=registered]")
    assert page.inner_text(".me") == "Vesna"
    page.wait_for_selector(f"#mine li[data-match='{match_id}']")
    page.click(f"#mine li[data-match='{match_id}'] a")
    page.wait_for_selector("section.match[data-status=active]")
    assert next_thing(page) in ("roll", "source")  # his to play, as before


def test_an_open_challenge_accepted_from_the_list_and_a_rematch(open_page) -> None:
    ana = open_page()
    become_guest(ana, "Ana")
    match_id = start_match(ana, "online", 1, invite="open")
    bora = open_page()
    become_guest(bora, "Bora")
    bora.click(f"#challenges li[data-match='{match_id}'] [data-action=accept-challenge]")
    bora.wait_for_selector("section.match[data-status=active]")
    ana.wait_for_selector("section.match[data-status=active]")
    # Ana resigns at her first chance (a gammon offered: the opponent accepts it)
    loser, winner = (
        (ana, bora) if ana.get_attribute("section.match", "data-to-act") == "you" else (bora, ana)
    )
    loser.wait_for_selector("[data-action=resign]:not([disabled])")
    loser.click("[data-action=resign]")
    loser.click("[data-action=resign-confirm]")  # Resign asks first
    winner.wait_for_selector("[data-action=accept]:not([disabled])")
    assert "resigns" in status(winner)
    winner.click("[data-action=accept]")
    loser.wait_for_selector("section.match[data-status=finished]")
    assert status(loser) == "You lost the match. (by resignation)"
    # rematch: the first asks, the other sees it offered and joins it
    loser.click("[data-action=rematch]")
    loser.wait_for_selector("section.match[data-status=waiting]")
    rematch = loser.url.rsplit("/", 1)[-1]
    assert rematch != match_id
    winner.wait_for_selector(f"[data-rematch-offered='{rematch}']", timeout=10_000)
    assert "offers a rematch" in winner.inner_text(".lobby-box")
    winner.click("[data-action=rematch]")
    winner.wait_for_selector("section.match[data-status=active]")
    assert winner.url.endswith(rematch)
    loser.wait_for_selector("section.match[data-status=active]")
