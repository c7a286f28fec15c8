"""A match's record page steps through every play and shows the positions the store replays;
the lobby's lists follow by themselves (an open challenge of another player appears without
a click); finished matches stay in the lobby with a link to their record."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .play import become_guest, start_match, take_turn

pytestmark = pytest.mark.django_db(transaction=True)

SEAT0 = """async () => {
    const id = location.hash.split('/').pop();
    const r = await fetch(`/api/v1/matches/${id}?seat=0`,
        {headers: {Authorization: 'Token ' + localStorage.getItem('tavla.token')}});
    const s = await r.json();
    return [s.version, s.board.points];
}"""

COUNTS = """() => [...Array(24).keys()].map(
    (i) => Number(document.querySelector(`#board .stack[data-point='${i + 1}']`).dataset.count))"""


def frame(page: Any) -> tuple[int, int]:
    svg = page.locator("#board")
    return int(svg.get_attribute("data-frame")), int(svg.get_attribute("data-seq"))


def test_the_record_steps_through_every_play_with_the_stores_positions(open_page) -> None:
    page = open_page()
    become_guest(page)
    match_id = start_match(page, "hotseat", 1)
    stored: dict[int, list[int]] = {}
    while True:
        what = take_turn(page)
        version, points = page.evaluate(SEAT0)
        stored[version] = points
        if what == "over":
            break
    page.click("[data-action=record]")
    page.wait_for_selector(f"section.record[data-match='{match_id}'] #board[data-seq]")
    assert page.locator("[data-action=mat]").count() == 1  # tavla: gnubg's .mat (gnubg_ids)
    assert page.locator("#move-list td[data-seq]").count() >= len(stored) - 1
    page.click("[data-step=first]")
    assert frame(page)[0] == 0
    compared = 0
    seen = set()
    while True:
        index, seq = frame(page)
        seen.add(seq)
        if seq in stored:
            assert page.evaluate(COUNTS) == stored[seq], f"position after event {seq}"
            compared += 1
        if page.is_disabled("[data-step=next]"):
            break
        page.click("[data-step=next]")
        assert frame(page)[0] == index + 1
    print(f"{len(seen)} positions stepped, {compared} compared with the store's")
    assert compared >= len(stored) - 1  # each play's position (the last read may be the end)
    page.keyboard.press("ArrowLeft")
    assert frame(page)[0] == index - 1
    page.keyboard.press("Home")
    assert frame(page)[0] == 0
    # the finished match stays in the lobby, with its record
    page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector(f"#finished li[data-match='{match_id}'] a[href='#/record/{match_id}']")
    assert page.errors == []


def test_an_open_challenge_appears_in_the_lobby_without_a_click(open_page) -> None:
    bora = open_page()
    become_guest(bora, "Bora")
    ana = open_page()
    become_guest(ana, "Ana")
    match_id = start_match(ana, "online", 1, invite="open")
    made = time.monotonic()
    bora.wait_for_selector(f"#challenges li[data-match='{match_id}']", timeout=5_000)
    took = time.monotonic() - made
    print(f"the challenge appeared in the other lobby {took:.2f} s after it was made")
    assert took < 2.0
    assert bora.errors == [] and ana.errors == []
