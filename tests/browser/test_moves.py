"""Moving one checker at a time: only legal targets, each step undoable until confirmed, by
mouse, drag and keyboard; a reload in the middle of a match restores it."""

from __future__ import annotations

from typing import Any

import pytest

from .play import act, become_guest, board_counts, next_thing, start_match, status, take_turn

pytestmark = pytest.mark.django_db(transaction=True)


def used_dice(page: Any) -> int:
    return page.locator("#board .die.used").count()


def steps(page: Any) -> int:
    return int(page.get_attribute("section.match", "data-steps"))


def hotseat_to_move(open_page: Any) -> Any:
    page = open_page()
    become_guest(page)
    start_match(page, "hotseat", 3)
    assert next_thing(page) == "source"  # the opening roll is played at once
    return page


def test_undo_a_step_before_confirming(open_page) -> None:
    page = hotseat_to_move(open_page)
    before = board_counts(page)
    assert used_dice(page) == 0
    assert page.is_disabled("[data-action=undo]")
    assert page.is_disabled("[data-action=confirm]")

    source = int(page.locator("#board .spot.source").first.get_attribute("data-spot"))
    page.locator("#board .spot.source").first.click()
    page.locator("#board .spot.target").first.click()
    page.wait_for_selector("section.match[data-steps='1']")
    after = board_counts(page)
    assert after != before
    assert after[source - 1] == before[source - 1] - 1  # the checker left its point
    assert used_dice(page) == 1
    assert page.is_enabled("[data-action=undo]")

    page.click("[data-action=undo]")
    assert steps(page) == 0
    assert board_counts(page) == before
    assert used_dice(page) == 0
    assert page.is_disabled("[data-action=undo]")
    assert page.errors == []


def test_keyboard_moves_and_undoes(open_page) -> None:
    page = hotseat_to_move(open_page)
    before = board_counts(page)
    source = page.locator("#board .spot.source").first
    assert source.get_attribute("role") == "button"
    assert "Move a checker from here" in source.get_attribute("aria-label")
    source.focus()
    page.keyboard.press("Enter")
    target = page.locator("#board .spot.target").first
    assert target.get_attribute("aria-label").startswith(("Move to point", "Bear off"))
    target.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("section.match[data-steps='1']")
    page.locator("body").focus()
    page.keyboard.press("u")
    page.wait_for_selector("section.match[data-steps='0']")
    assert board_counts(page) == before


def test_an_illegal_target_cannot_be_chosen(open_page) -> None:
    page = hotseat_to_move(open_page)
    match_id = page.url.rsplit("/", 1)[-1]
    before = board_counts(page)
    first = page.locator("#board .spot.source").first
    source = int(first.get_attribute("data-spot"))
    first.click()
    shown = {
        int(t)
        for t in page.locator("#board .spot.target").evaluate_all(
            "(nodes) => nodes.map((n) => n.dataset.spot)"
        )
    }
    # exactly what the API's legal-next-steps allows from that point
    legal = page.evaluate(
        """async (id) => {
            const r = await fetch(`/api/v1/matches/${id}/legal-next-steps?steps=`,
                {headers: {Authorization: 'Token ' + localStorage.getItem('tavla.token')}});
            return (await r.json()).next_steps;
        }""",
        match_id,
    )
    assert shown == {s["to"] for s in legal if s["from"] == source}
    # a closed point (two or more of the opponent's) is not offered, and clicking it does nothing
    closed = next(p for p in range(1, 25) if before[p - 1] <= -2 and p not in shown)
    assert page.locator(f"#board .spot[data-spot='{closed}']").count() == 0
    box = page.locator(f"#board .stack[data-point='{closed}']").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert steps(page) == 0 and board_counts(page) == before
    # nor can a checker be dragged there
    start = page.locator(f"#board .spot[data-spot='{source}']").bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    assert steps(page) == 0 and board_counts(page) == before
    # dragged to a legal target it moves (the press picks it up, the targets light up)
    page.click("#board .spot.selected")  # put it down
    assert page.locator("#board .spot.target").count() == 0
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    spot = page.locator(f"#board .spot.target[data-spot='{min(shown)}']").bounding_box()
    page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2, steps=5)
    page.mouse.up()
    page.wait_for_selector("section.match[data-steps='1']")
    assert board_counts(page)[source - 1] == before[source - 1] - 1
    assert page.errors == []


def test_a_reload_in_the_middle_of_a_match_restores_it(open_page) -> None:
    page = hotseat_to_move(open_page)
    take_turn(page)
    while next_thing(page) != "source":  # the next player's roll (a pass gives another)
        act(page)
    url = page.url
    version = page.get_attribute("section.match", "data-version")
    counts, text = board_counts(page), status(page)
    dice = page.locator("#board .die").count()
    page.reload()
    page.wait_for_selector(f"section.match[data-version='{version}']")
    assert next_thing(page) == "source"
    assert page.url == url
    assert board_counts(page) == counts
    assert status(page) == text
    assert page.locator("#board .die").count() == dice
    take_turn(page)  # and play goes on
    assert page.errors == []


def test_the_cube_double_and_take(open_page) -> None:
    page = open_page()
    become_guest(page)
    page.click("form.new-match details.advanced summary")
    page.check("form.new-match input[name=cube]")
    start_match(page, "hotseat", 5)
    assert page.locator("#board .cube").get_attribute("aria-label") == "Cube 1"
    take_turn(page)  # the opening move; now the other seat may double before rolling
    page.wait_for_selector("[data-action=double]:not([disabled])")
    doubler = page.inner_text(".player.near .name")
    page.click("[data-action=double]")
    page.wait_for_selector("[data-action=take]:not([disabled])")
    assert page.locator("#board .cube.offered").count() == 1
    assert "take or drop the double to 2" in status(page)
    page.click("[data-action=take]")
    page.wait_for_selector("[data-action=roll]:not([disabled])")
    assert page.inner_text(".player.near .name") == doubler  # back to the doubler's roll
    assert page.locator("#board .cube").get_attribute("aria-label") == "Cube 2"
    assert page.locator("#board .cube.offered").count() == 0
    assert "double" not in page.locator("#actions").inner_text().lower()  # the taker owns it
    assert page.errors == []
