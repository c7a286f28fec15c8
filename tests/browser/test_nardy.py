"""Long nardy in the page: the game chosen in the new-match form (no cube offered), the board
drawn in nardy terms (heads marked, no bar, no cube, the one direction of travel), its
resignations (oyn, mars), a whole hot-seat match to 1 point played by clicks on the page's own
legal targets, and its record (no .mat: gnubg has no long nardy). All of it from the game's
facts (GET /rules/games), not from its name."""

from __future__ import annotations

import time

import pytest

from .play import become_guest, board_counts, events, next_thing, play_to_end, start_match, status

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hotseat_long_nardy_match_to_the_end_by_clicks(open_page) -> None:
    page = open_page()
    become_guest(page)
    page.check("form.new-match input[name=mode][value=computer]")
    page.check("form.new-match input[name=game][value=long_nardy]")
    page.click("form.new-match details.advanced summary")
    assert page.locator("form.new-match input[name=cube]").is_hidden()  # no cube in nardy
    levels = page.evaluate("fetch('/api/v1/rules/levels?game=long-nardy').then(r => r.json())")
    page.wait_for_function(  # the computer's levels of long nardy, not tavla's
        "(n) => document.querySelectorAll('form.new-match select[name=level] option').length === n",
        arg=len(levels["levels"]),
    )
    options = page.locator("form.new-match select[name=level] option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == levels[
        "levels"
    ]
    start_match(page, "hotseat", 1, game="long_nardy")
    page.wait_for_selector("#board[data-game=long-nardy]")
    label = page.get_attribute("#board", "aria-label")
    assert label.startswith("Long nardy board") and "same way round" in label
    # the start: 15 on each head (mine: my 24, the opponent's: my 12), nothing elsewhere
    if next_thing(page) == "roll":
        counts = board_counts(page)
        assert counts[23] == 15 and counts[11] == -15
        assert sum(abs(n) for n in counts) == 30
    assert page.locator("#board [data-head=you]").count() == 1
    assert page.locator("#board [data-head=opponent]").count() == 1
    assert page.locator("#board .flows .flow").count() == 4  # the direction of travel
    assert page.locator("#board .bar-checkers").count() == 0  # no bar
    assert page.locator("#board .cube").count() == 0  # no cube
    assert page.locator("[data-action=double]").count() == 0
    assert next_thing(page) in ("roll", "source")
    # resigning offers the game's values and words: oyn (1) or mars (2), no backgammon
    page.click("[data-action=resign]")
    options = page.locator("[data-resign-value] option")
    values = [options.nth(i).get_attribute("value") for i in range(options.count())]
    assert values == ["1", "2", "match"], values  # and the whole match
    assert options.nth(0).inner_text().startswith("oyn")
    assert options.nth(1).inner_text().startswith("mars")
    page.click("[data-action=cancel]")
    if next_thing(page) == "roll":
        page.click("[data-action=roll]")
    next_thing(page)  # the first move: only head checkers may move, one unless 6-6, 4-4, 3-3
    sources = page.locator("#board .spot.source")
    assert sources.count() == 1 and sources.first.get_attribute("data-spot") == "24"
    assert "your head" in sources.first.get_attribute("aria-label")

    started = time.monotonic()
    clicks = play_to_end(page, limit=600)
    print(f"hot-seat long nardy: {clicks} clicks in {time.monotonic() - started:.1f} s")
    assert page.get_attribute("section.match", "data-status") == "finished"
    assert "wins the match" in status(page)
    off = [int(page.get_attribute("#board .off", f"data-{who}")) for who in ("you", "opponent")]
    assert max(off) == 15, off  # the winner bore off all fifteen
    moves = [e for e in events(page) if e["type"] == "moved"]
    # a whole race: the winner alone moved 15 checkers 24 points and more, at most 24 a turn
    assert len(moves) >= 15 * 24 // 24, len(moves)
    # the game's result in its words: oyn or mars
    result = page.locator("#game-result")
    assert result.is_visible()
    assert "(oyn)" in result.inner_text() or "(mars)" in result.inner_text(), result.inner_text()
    # the record: the opening position from the game's facts, the direction of travel, and no
    # .mat (gnubg_ids false); stepping to the end reaches the server's last board
    page.click("[data-action=record]")
    page.wait_for_selector("section.record #board[data-game=long-nardy][data-seq]")
    assert page.locator("[data-action=mat]").count() == 0
    assert page.locator("#board .flows .flow").count() == 4
    page.click("[data-step=first]")
    counts = board_counts(page)
    assert counts[23] == 15 and counts[11] == -15 and sum(abs(n) for n in counts) == 30
    assert page.locator("#board [data-head=you]").count() == 1
    page.click("[data-step=last]")
    off = [int(page.get_attribute("#board .off", f"data-{who}")) for who in ("you", "opponent")]
    assert max(off) == 15, off
    assert page.errors == []
