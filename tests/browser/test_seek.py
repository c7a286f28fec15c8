"""Quick pairing and ratings in the page: two players click "Play online now", the first
waits, the second is paired at once and the first is brought to the same match by the
`seek_paired` push; cancelling a seek; the ratings beside the names and on the leaderboard
after a rated match, and again after staff mark it unrated."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .play import become_guest

pytestmark = pytest.mark.django_db(transaction=True)

PUSHED = 3.0  # seconds: the seek's own poll runs every 10 s while the socket is open


def seek(page: Any, length: int = 1) -> None:
    page.select_option("form.seek select[name=seek-length]", str(length))
    page.click("[data-action=seek]")


def sign_up(open_page: Any, username: str) -> Any:
    page = open_page("#/signup")
    page.fill("form.auth input[name=username]", username)
    page.fill("form.auth input[name=password]", "a long enough password 1")
    page.click("form.auth button[type=submit]")
    page.wait_for_selector("form.seek")
    return page


def test_two_players_seek_and_land_in_the_same_match(open_page) -> None:
    ana = open_page()
    become_guest(ana, "Ana")
    bora = open_page()
    become_guest(bora, "Bora")
    seek(ana)
    ana.wait_for_selector("form.seek[data-seek=waiting]")
    assert "Looking for an opponent" in ana.inner_text(".seek-status")
    assert ana.locator("[data-action=cancel-seek]").is_visible()
    assert ana.locator("[data-action=seek]").is_hidden()
    clicked = time.monotonic()
    seek(bora)
    bora.wait_for_selector("section.match[data-status=active]")  # paired by its own POST
    ana.wait_for_selector("section.match[data-status=active]", timeout=PUSHED * 1000)
    lag = time.monotonic() - clicked
    print(f"the waiting player was in the match {lag * 1000:.0f} ms after the other's click")
    assert ana.url.rsplit("/", 1)[-1] == bora.url.rsplit("/", 1)[-1]
    assert "Bora" in ana.inner_text(".player.far") and "Ana" in bora.inner_text(".player.far")
    assert "Unrated" in ana.inner_text("#status .scoreline")  # guests are not rated
    assert ana.errors == [] and bora.errors == []


def test_a_seek_can_be_cancelled_by_keyboard_with_labelled_controls(open_page) -> None:
    page = open_page()
    become_guest(page)
    for name in ("Game", "Match to", "Clock"):  # every new control has a name for readers
        assert page.get_by_role("combobox", name=name).first.is_visible(), name
    page.get_by_role("combobox", name="Match to").first.select_option("3")
    page.get_by_role("button", name="Play online now").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("form.seek[data-seek=waiting]")
    assert (
        "Looking for an opponent"
        in page.get_by_role("status").filter(has_text="Looking").inner_text()
    )
    page.get_by_role("button", name="Stop looking").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("form.seek[data-seek=cancelled]")
    assert page.get_by_role("button", name="Play online now").is_visible()
    assert page.inner_text(".seek-status") == ""
    mine = page.evaluate(
        """async () => {
            const r = await fetch('/api/v1/seeks', {method: 'POST',
              headers: {'Content-Type': 'application/json',
                        Authorization: 'Token ' + localStorage.getItem('tavla.token')},
              body: JSON.stringify({length: 3})});
            return (await r.json()).status;
        }"""
    )
    assert mine == "waiting"  # nobody else waits in that pool: the cancelled one is gone
    assert page.errors == []


def test_ratings_beside_the_names_and_on_the_leaderboard(open_page) -> None:
    ana = sign_up(open_page, "ana")
    bora = sign_up(open_page, "bora")
    assert ana.inner_text("#my-rating .rating-value") == "1500"
    seek(ana)
    ana.wait_for_selector("form.seek[data-seek=waiting]")
    seek(bora)
    for page in (ana, bora):
        page.wait_for_selector("section.match[data-status=active]")
        assert page.inner_text(".player.near .rating") == "1500"
        assert page.inner_text(".player.far .rating") == "1500"
        assert "Rated" in page.inner_text("#status .scoreline")
    # the player to act resigns the single game; the other accepts: a rated 1-point match
    loser, winner = (
        (ana, bora) if ana.get_attribute("section.match", "data-to-act") == "you" else (bora, ana)
    )
    loser.wait_for_selector("[data-action=resign]:not([disabled])")
    loser.click("[data-action=resign]")  # it asks first: what, and are you sure
    loser.select_option("[data-resign-value]", "1")
    loser.click("[data-action=resign-confirm]")
    winner.click("[data-action=accept]")
    for page in (ana, bora):
        page.wait_for_selector("section.match[data-status=finished]")
    match_id = ana.url.rsplit("/", 1)[-1]
    assert "You won the match" in winner.inner_text("#status .what")
    # two newcomers over 1 point: 4 * K(5) * sqrt(1) * 0.5 = 10 points each way
    winner.get_by_role("link", name="Leaderboard").first.click()
    winner.get_by_role("table", name="Tavla: players by rating").wait_for()
    rows = winner.locator("#leaderboard tbody tr")
    assert rows.count() == 2
    top = rows.nth(0).inner_text().split("\t")
    second = rows.nth(1).inner_text().split("\t")
    won_name = "ana" if winner is ana else "bora"
    lost_name = "bora" if winner is ana else "ana"
    assert top == ["1", won_name, "1510.00", "1", "1\u20130"], top
    assert second == ["2", lost_name, "1490.00", "1", "0\u20131"], second
    # his own page: the rating over time drawn, the match with its change and its record
    winner.click(f"#leaderboard tbody tr[data-player={won_name}] a")
    winner.wait_for_selector("#player svg.rating-chart")
    dots = winner.locator("#player svg.rating-chart circle.dot")
    assert [dots.nth(i).get_attribute("data-rating") for i in range(dots.count())] == [
        "1500.00",
        "1510.00",
    ]
    assert "+10.00" in winner.inner_text("#player .recent")
    assert winner.locator(f"#player .recent a[href='#/record/{match_id}']").count() == 1
    winner.goto(winner.url.split("#")[0] + "#/")
    winner.wait_for_selector("#my-rating .rating-value")
    assert winner.inner_text("#my-rating .rating-value") == "1510"

    # staff mark the match unrated (the admin's service, in this process): the loser's page,
    # still on the finished match, hears the marked_unrated event and says so
    from django.contrib.auth import get_user_model

    from matches.services import ratings

    staff = get_user_model().objects.create_user("staff", is_staff=True)
    ratings.mark_unrated(match_id=match_id, by=staff, reason="a test")
    loser.wait_for_selector("#notices li:has-text('marked unrated')", timeout=10_000)
    loser.wait_for_selector("#status .scoreline:has-text('Unrated')")
    winner.reload()
    winner.wait_for_selector("#my-rating .rating-value")
    assert winner.inner_text("#my-rating .rating-value") == "1500"  # rebuilt without it
    assert ana.errors == [] and bora.errors == []
