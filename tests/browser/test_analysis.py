"""The post-game analysis and the hint in the browser, by clicks (docs/analysis.md): a
finished match against the computer analysed by the site's Celery worker from its record
page (the equity graph, the marks in the move list, the players' PR); the hint button shows
the best plays of the dice out."""

from __future__ import annotations

from typing import Any

import pytest

from .play import become_guest, next_thing, play_to_end, start_match

pytestmark = pytest.mark.django_db(transaction=True)

ANALYSIS = """async (id) => {
    const r = await fetch(`/api/v1/matches/${id}/analysis`);
    return await r.json();
}"""


def test_a_finished_match_is_analysed_from_its_record(open_page) -> None:
    page = open_page()
    become_guest(page, "Ana")
    match_id = start_match(page, "computer", 1, level="random")
    play_to_end(page)
    page.click("[data-action=record]")
    page.wait_for_selector(f"section.record[data-match='{match_id}'] #board[data-seq]")
    page.click("[data-action=analyse]", timeout=15_000)
    page.wait_for_selector("#analysis svg.equity-graph polyline", timeout=90_000)
    body: dict[str, Any] = page.evaluate(ANALYSIS, match_id)
    assert body["status"] == "done"  # made by the site's worker
    decisions = [d for g in body["games"] for d in g["decisions"]]
    drawn = page.locator("#analysis svg.equity-graph polyline").get_attribute("points").split()
    assert len(drawn) == sum(1 for d in decisions if d["equity"] is not None)
    marked = [d for d in decisions if d["mark"]]
    assert page.locator("#analysis svg circle[data-mark]").count() == len(marked)
    assert page.locator("#move-list td[data-mark]").count() == len(marked)
    assert marked, "the computer's random level errs: some plays are marked"
    cell = page.locator("#move-list td[data-mark]").first
    assert "best:" in cell.get_attribute("title")
    rows = page.locator("table.analysis-players tbody tr")
    assert rows.count() == 2
    pr = f"{body['players'][1]['pr']:.1f}"
    assert pr in rows.nth(1).inner_text()
    assert page.errors == []


def test_the_hint_button_shows_the_best_plays(open_page) -> None:
    page = open_page()
    become_guest(page)
    start_match(page, "hotseat", 1)
    for _ in range(20):
        what = next_thing(page)
        if what == "source":
            break
        page.click(f"[data-action={what}]")
    page.click("[data-action=hint]")
    page.wait_for_selector("[data-hints] li[data-play]")
    shown = page.locator("[data-hints] li[data-play]")
    assert 1 <= shown.count() <= 5
    legal = page.evaluate(
        """async () => {
            const id = location.hash.split('/').pop();
            const r = await fetch(`/api/v1/matches/${id}`,
                {headers: {Authorization: 'Token ' + localStorage.getItem('tavla.token')}});
            return (await r.json()).legal_plays.map((p) => p.notation);
        }"""
    )
    for i in range(shown.count()):
        assert shown.nth(i).get_attribute("data-play") in legal
    assert page.errors == []
