"""The main screens at desktop and phone sizes: the board fits the screen (nothing to scroll
sideways), and the screenshots of docs/web.md. Set TAVLA_SCREENSHOTS=docs/screenshots to
write them there (they are committed); otherwise they go to the test's temporary folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE
from .play import become_guest, next_thing, start_match, take_turn

pytestmark = pytest.mark.django_db(transaction=True)

FITS = """() => {
  const board = document.querySelector('#board') || document.querySelector('main');
  const r = board.getBoundingClientRect();
  return document.documentElement.scrollWidth <= window.innerWidth && r.right <= window.innerWidth;
}"""


def shots_dir(tmp_path: Path) -> Path:
    target = Path(os.environ.get("TAVLA_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    return target


def shoot(page: Any, folder: Path, name: str) -> None:
    assert page.evaluate(FITS), f"{name}: the page is wider than the screen"
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.mark.parametrize(("size", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_main_screens_fit_desktop_and_phone(open_page, tmp_path, size, viewport) -> None:
    folder = shots_dir(tmp_path)
    page = open_page(locale="sr-RS", viewport=viewport)
    page.wait_for_selector("form.welcome")
    shoot(page, folder, f"{size}-welcome")
    become_guest(page, "Jelena")
    shoot(page, folder, f"{size}-lobby")
    page.click("[data-action=seek]")  # quick pairing: waiting for an opponent
    page.wait_for_selector("form.seek[data-seek=waiting]")
    page.locator("form.seek").scroll_into_view_if_needed()
    shoot(page, folder, f"{size}-seek")
    page.click("[data-action=cancel-seek]")
    page.wait_for_selector("form.seek[data-seek=cancelled]")
    start_match(page, "hotseat", 5)
    assert next_thing(page) == "source"
    page.locator("#board .spot.source").first.click()
    page.wait_for_selector("#board .spot.target")
    board = page.locator("#board").bounding_box()
    assert board["width"] <= viewport["width"]
    shoot(page, folder, f"{size}-move")
    page.goto(page.url.split("#")[0])
    page.wait_for_selector("form.new-match")
    page.select_option("#language", "en")
    page.wait_for_selector("[data-action=start]:has-text('Start')")
    start_match(page, "online", 3, invite="link")
    page.wait_for_selector("#invite-link")
    shoot(page, folder, f"{size}-invite")
    page.goto(page.url.split("#")[0])  # long nardy on one screen: the first move picked
    page.wait_for_selector("form.new-match")
    start_match(page, "hotseat", 3, game="long_nardy")
    if next_thing(page) == "roll":
        page.click("[data-action=roll]")
    assert next_thing(page) == "source"
    page.locator("#board .spot.source").first.click()
    page.wait_for_selector("#board .spot.target")
    shoot(page, folder, f"{size}-nardy")
    page.goto(page.url.split("#")[0])  # against the computer: its last play marked, the list
    page.wait_for_selector("form.new-match")
    start_match(page, "computer", 3, level="random")
    for _ in range(4):
        take_turn(page)
        next_thing(page)
        if page.locator("#board .last-play .mark").count():
            break
    shoot(page, folder, f"{size}-computer")
    assert page.errors == []
