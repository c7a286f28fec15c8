"""Whole matches in a real browser, by clicks only."""

from __future__ import annotations

import time

import pytest

from .play import become_guest, events, play_to_end, start_match, status

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_guest_plays_a_whole_hotseat_match_to_one_point(open_page) -> None:
    page = open_page()
    become_guest(page)
    start_match(page, "hotseat", 1)
    started = time.monotonic()
    clicks = play_to_end(page)
    print(f"hot-seat match: {clicks} clicks in {time.monotonic() - started:.1f} s")
    assert page.get_attribute("section.match", "data-status") == "finished"
    assert "wins the match" in status(page)
    assert_passes_announced(page)
    assert page.locator("[data-action=rematch]").is_visible()
    assert page.errors == []


def test_a_guest_plays_the_computer_to_the_end(open_page) -> None:
    page = open_page()
    become_guest(page, "Mira")
    start_match(page, "computer", 1, level="random")
    started = time.monotonic()
    clicks = play_to_end(page)
    print(f"vs computer: {clicks} clicks in {time.monotonic() - started:.1f} s")
    assert page.get_attribute("section.match", "data-status") == "finished"
    assert status(page) in ("You won the match!", "You lost the match.")
    assert_passes_announced(page)
    assert page.errors == []


def assert_passes_announced(page) -> None:
    """Every roll the server passed (no legal move) was announced on the page (a notice, which
    goes after two plays) and stays written in the move list ("6-5: no move")."""
    passed = [e for e in events(page) if e["type"] == "passed"]
    page.wait_for_selector(f"section.match[data-passes='{len(passed)}']", timeout=5_000)
    for e in passed:
        cell = page.locator(f"#move-list td[data-seq='{e['seq']}']")
        assert "no move" in cell.inner_text(), e
    print(f"{len(passed)} forced passes announced")
