"""Resigning the whole match from the board (asked first, beside the game's values), and the
player's page listing his recent matches, rated or not, with their records (issue 25), by
clicks in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from .play import become_guest, events, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def _me(page: Any, match_id: str) -> str:
    """The guest's username, as the API names him in the match."""
    return page.evaluate(
        """async (id) => {
            const r = await fetch(`/api/v1/matches/${id}`,
                {headers: {Authorization: 'Token ' + localStorage.getItem('tavla.token')}});
            const s = await r.json();
            return s.players[s.side.seat].username;
        }""",
        match_id,
    )


def test_resign_the_match_then_find_it_on_the_players_page(open_page) -> None:
    page = open_page()
    become_guest(page, "Ana")
    match_id = start_match(page, "computer", 3, level="random")
    page.wait_for_selector("[data-action=resign]:not([disabled])")
    page.click("[data-action=resign]")
    # the game's values, then the whole match; Cancel changes nothing
    values = page.locator("[data-resign-value] option")
    assert values.nth(values.count() - 1).get_attribute("value") == "match"
    assert values.nth(values.count() - 1).inner_text() == "the whole match"
    page.select_option("[data-resign-value]", "match")
    page.click("[data-action=resign-confirm]")
    page.wait_for_selector("section.match[data-status=finished]")
    assert "lost the match" in page.inner_text("#status .what")
    assert [e["type"] for e in events(page)][-1] == "match_resigned"
    page.wait_for_function(
        "() => document.querySelector('#move-list').textContent.includes('Resigns the match')"
    )
    assert page.errors == []

    # his page: the unrated match against the computer, lost 0:3, with its record
    name = _me(page, match_id)
    page.goto(page.url.split("#")[0] + f"#/player/{name}")
    row = page.wait_for_selector(f"#player .recent li[data-match='{match_id}']")
    text = row.inner_text()
    assert text.startswith("\u2717") and "0:3" in text and "3 points" in text, text
    assert "+" not in text  # not rated: no rating change beside it
    assert "Matches played: 1 (0 won, 1 lost)" in page.inner_text("#player")
    page.click(f"#player .recent a[href='#/record/{match_id}']")
    page.wait_for_selector(f"section.record[data-match='{match_id}'] #board[data-seq]")
    assert page.errors == []
