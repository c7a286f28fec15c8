"""Every move seen, controls at hand, honest clocks (issue 25), by clicks in Chromium: the
computer's dice and play drawn and listed as the store recorded them, hits shown, a game's
result announced, the buttons inside the screen at 1280x800 and 390x844 without scrolling,
Resign asking first, auto-roll and one-click play, hot-seat keeping one orientation, and the
running clock never promising more than the server's deadline allows."""

from __future__ import annotations

import itertools
import time
from datetime import datetime
from typing import Any

import pytest

from .conftest import PHONE
from .play import become_guest, events, next_thing, start_match, take_turn
from .test_online import invite_and_join, to_act

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1280, "height": 800}
ARRIVAL = 2.0  # seconds from the store's event to its line in the move list

# Every redraw of the board and every new line of the move list, as the page showed them.
RECORD = """() => {
  window.seen = [];
  window.cells = {};
  for (const td of document.querySelectorAll('#move-list td[data-seq]')) {
    window.cells[td.dataset.seq] = {text: td.textContent, at: 0};
  }
  const section = document.querySelector('section.match');
  const board = document.querySelector('#board');
  new MutationObserver(() => {
    const dice = board.querySelector('.dice');
    const bar = board.querySelector('.bar-checkers');
    window.seen.push({
      anim: section.dataset.animating === 'true',
      dice: dice ? dice.getAttribute('aria-label') : '',
      barYou: bar ? Number(bar.dataset.you) : 0,
      at: Date.now(),
    });
  }).observe(board, {childList: true});
  new MutationObserver(() => {
    for (const td of document.querySelectorAll('#move-list td[data-seq]')) {
      if (td.dataset.seq in window.cells) continue;
      window.cells[td.dataset.seq] = {text: td.textContent, at: Date.now()};
    }
  }).observe(document.querySelector('#move-list'), {childList: true, subtree: true});
}"""


def set_speed(page: Any, speed: str) -> None:
    page.click("#settings summary")
    page.select_option("[data-setting=speed]", speed)


def test_the_computers_dice_and_play_are_seen_listed_and_the_result_announced(open_page) -> None:
    page = open_page()
    become_guest(page, "Mira")
    start_match(page, "computer", 1, level="random")
    set_speed(page, "fast")
    page.evaluate(RECORD)
    over = False
    while not over:
        over = take_turn(page) == "over"
    page.wait_for_selector("section.match[data-animating='']")
    me = page.evaluate("document.querySelector('.player.near .swatch.light') ? 0 : 1")
    stored = events(page)
    seen = page.evaluate("window.seen")
    cells = page.evaluate("window.cells")
    plays = [e for e in stored if e["type"] == "moved"]
    computer = [e for e in plays if e["data"]["seat"] != me]
    assert computer, "the computer never moved"
    late = []
    for e in plays:
        cell = cells.get(str(e["seq"]))
        assert cell is not None, f"the move list lacks {e}"
        assert cell["text"].endswith(e["data"]["notation"]), (cell, e)
        if e in computer and cell["at"]:  # listed after the recording began
            late.append(cell["at"] / 1000 - datetime.fromisoformat(e["at"]).timestamp())
    print(f"computer's plays listed {max(late):.2f} s after the event at worst")
    assert max(late) < ARRIVAL
    # its dice were drawn while its checkers moved, for every roll it played
    rolls = [e for e in stored if e["type"] == "rolled" and e["data"]["seat"] != me]
    shown_dice = {s["dice"] for s in seen if s["anim"]}
    for e in rolls:
        a, b = e["data"]["dice"]
        assert any(f"{a}" in d and f"{b}" in d for d in shown_dice), (e, shown_dice)
    # a hit of one of mine: the page showed it going to the bar while the play was drawn
    hits = [e for e in computer if any(step[2] for step in e["data"]["steps"])]
    if hits:
        rising = [y for x, y in itertools.pairwise(seen) if y["anim"] and y["barYou"] > x["barYou"]]
        assert rising, "a hit was never shown going to the bar"
    print(f"{len(computer)} computer plays, {len(hits)} with a hit")
    # the game's result, who won how many points
    result = page.locator("#game-result")
    assert result.is_visible()
    assert " wins " in result.inner_text() and "point" in result.inner_text()
    assert page.errors == []


def test_the_last_play_stays_marked_and_the_opening_roll_is_named(open_page) -> None:
    page = open_page()
    become_guest(page, "Mira")
    start_match(page, "computer", 3, level="random")
    notices = page.inner_text("#notices")
    if "Opening roll" not in notices:  # the computer's first play is on its way
        page.wait_for_selector("#notices li[data-notice='notice.opening']", timeout=5_000)
    assert "Mira" in page.inner_text("#notices") and "Computer" in page.inner_text("#notices")
    for _ in range(3):
        take_turn(page)
        next_thing(page)  # the computer played: my turn again
        if page.locator("#board .last-play .mark.to").count():
            break
    assert page.locator("#board .last-play .mark.to").count() >= 1
    assert page.errors == []


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_buttons_are_on_the_screen_without_scrolling(open_page, viewport) -> None:
    page = open_page(viewport=viewport)
    become_guest(page)
    page.check("form.new-match input[name=mode][value=hotseat]")
    page.check("form.new-match input[name=length][value='3']")
    page.click("form.new-match details.advanced summary")
    page.check("form.new-match input[name=cube]")
    started = time.monotonic()
    page.click("[data-action=start]")
    page.wait_for_selector("#board .spot.source")  # a playable board
    print(f"from the click on Start to a playable board: {time.monotonic() - started:.2f} s")
    assert next_thing(page) == "source"

    def on_screen(*actions: str) -> None:
        assert page.evaluate("window.scrollY") == 0
        for a in actions:
            box = None
            for _ in range(5):  # a push of the same state may redraw the buttons meanwhile
                page.locator(f"[data-action={a}]").wait_for(state="visible")
                box = page.locator(f"[data-action={a}]").bounding_box()
                if box is not None:
                    break
            if box is None:
                page.screenshot(path=f"/tmp/webclient-{viewport['width']}.png")
            assert box is not None, a
            assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (a, box)
            assert box["x"] + box["width"] <= viewport["width"], (a, box)

    on_screen("undo", "confirm", "resign")
    take_turn(page)
    page.wait_for_selector("[data-action=double]:not([disabled])")
    on_screen("roll", "double", "resign")
    assert page.errors == []


def test_resign_asks_first(open_page) -> None:
    page = open_page()
    become_guest(page)
    start_match(page, "computer", 3, level="random")
    # his own turn, the computer's play drawn: nothing else changes the page while he is asked
    # (resigning the match is offered on the computer's turn too, while its play may arrive)
    page.wait_for_selector("section.match[data-to-act=you]:not([data-animating=true])")
    page.wait_for_selector("[data-action=resign]:not([disabled])")
    before = page.get_attribute("section.match", "data-version")
    page.click("[data-action=resign]")
    ask = page.get_by_role("group", name="Resign this game?")
    assert ask.is_visible()
    assert "1 point" in page.inner_text("[data-resign-value] option[value='1']")
    options = page.locator("[data-resign-value] option")  # the game's values: tavla's 1, 2, 3
    assert [options.nth(i).get_attribute("value") for i in range(3)] == ["1", "2", "3"]
    assert options.nth(2).inner_text().startswith("backgammon")
    page.click("[data-action=cancel]")
    assert page.get_attribute("section.match", "data-version") == before
    page.click("[data-action=resign]")
    page.select_option("[data-resign-value]", "2")
    page.click("[data-action=resign-confirm]")
    page.wait_for_function(
        "(v) => document.querySelector('section.match').dataset.version !== v", arg=before
    )
    kinds = [e["type"] for e in events(page)]
    assert "resign_offered" in kinds
    assert page.errors == []


def test_auto_roll_one_click_and_one_orientation_in_hotseat(open_page) -> None:
    page = open_page()
    become_guest(page)
    start_match(page, "hotseat", 3)
    assert next_thing(page) == "source"
    near = page.get_attribute(".player.near .swatch", "class")
    page.click("#settings summary")
    page.check("[data-setting=autoRoll]")
    page.check("[data-setting=oneClick]")
    assert page.locator("[data-action=undo]").count() == 0  # no undo under one-click
    before = int(page.get_attribute("section.match", "data-version"))
    sent = """(v) => Number(document.querySelector('section.match').dataset.version) > v
        || document.querySelector('#board .spot.source')"""
    for _ in range(4):  # a checker and its target per die, no Confirm
        page.locator("#board .spot.source").first.click()
        page.locator("#board .spot.target").first.click()
        page.wait_for_function(sent, arg=before)
        if int(page.get_attribute("section.match", "data-version")) > before:
            break
    # sent without Confirm (the play), and the next player's dice rolled by themselves
    page.wait_for_selector(f"section.match[data-version='{before + 2}']")
    assert next_thing(page) == "source"
    assert [e["type"] for e in events(page)][before:] == ["moved", "rolled"]
    # one orientation: the first player's colour stays on the near side
    assert page.get_attribute(".player.near .swatch", "class") == near
    assert page.locator("#board .last-play .mark").count() >= 1  # what was just played
    assert page.errors == []


def test_the_clock_never_shows_more_than_the_server_allows(open_page) -> None:
    clock = {"delay": 3, "reserve": 30, "max_move": 8, "reconnect": 60}
    ana, bora, _ = invite_and_join(open_page, clock=clock)
    mover = ana if to_act(ana) == "you" else bora
    watcher = bora if mover is ana else ana
    read = """async () => {
        const id = location.hash.split('/').pop();
        const r = await fetch(`/api/v1/matches/${id}`,
            {headers: {Authorization: 'Token ' + localStorage.getItem('tavla.token')}});
        const s = await r.json();
        const left = (Date.parse(s.clock.deadline) - Date.parse(s.clock.now)) / 1000;
        const shown = (who) => {
          const n = document.querySelector(`[data-clock=${who}]`);
          const low = n.classList.contains('low');
          return {left: Number(n.dataset.left), text: n.textContent, low};
        };
        return {left, you: shown('you'), opponent: shown('opponent')};
    }"""
    samples = []
    started = time.monotonic()
    while time.monotonic() - started < 4.5:
        for page, who in ((mover, "you"), (watcher, "opponent")):
            r = page.evaluate(read)
            shown = r[who]
            samples.append((round(r["left"], 2), shown["left"], shown["text"]))
            # never more than the deadline allows
            assert shown["left"] <= r["left"] + 0.02, (r, shown)
            assert "+" not in shown["text"], shown  # the cap ends this move: no "0:05 +3s"
            assert shown["low"]  # 8 s a move: under 10 s from the start
        time.sleep(1.2)
    print("deadline vs shown:", samples)
    assert "this move" in mover.inner_text("[data-clock=you]")
    assert mover.errors == [] and watcher.errors == []


def test_counts_follow_each_languages_grammar(open_page) -> None:
    page = open_page()
    words = page.evaluate(
        """async () => {
            const m = await import('/static/web/i18n.js');
            const out = {};
            for (const tag of ['sr-Latn', 'en', 'tr']) {
              await m.setLanguage(tag);
              out[tag] = [1, 2, 4, 5, 11, 21].map((n) => m.tn('points', n));
            }
            return out;
        }"""
    )
    assert words["sr-Latn"] == ["1 poen", "2 poena", "4 poena", "5 poena", "11 poena", "21 poen"]
    assert words["en"] == ["1 point", "2 points", "4 points", "5 points", "11 points", "21 points"]
    assert words["tr"][0] == "1 say\u0131" and words["tr"][2] == "4 say\u0131"


def test_sign_up_shows_the_field_errors_beside_the_fields_and_then_the_name(open_page) -> None:
    page = open_page()
    become_guest(page, "Ana")
    page.click("[data-action=signup]")
    page.fill("form.auth input[name=username]", "no spaces allowed")
    page.fill("form.auth input[name=password]", "a long enough password 1")
    page.click("form.auth button[type=submit]")
    error = page.locator("form.auth #error-username")
    error.wait_for()
    assert "letters, digits" in error.inner_text()
    assert page.get_attribute("form.auth input[name=username]", "aria-invalid") == "true"
    assert page.locator("#error").is_hidden()  # beside the field, not a line about "detail"
    page.fill("form.auth input[name=username]", "ana")
    page.click("form.auth button[type=submit]")
    page.wait_for_selector("form.seek")
    header = page.inner_text("#account")
    assert "Ana" in header and "null" not in header, header
    assert page.errors == []


def test_a_lost_server_is_said_in_the_pages_words_and_tried_again(open_page) -> None:
    page = open_page()
    become_guest(page)
    page.context.set_offline(True)
    page.click("button:has-text('Refresh')")
    page.wait_for_selector("#error:has-text('The server cannot be reached')", timeout=12_000)
    assert "fetch" not in page.inner_text("#error")  # never the browser's "Failed to fetch"
    page.context.set_offline(False)
    page.wait_for_selector("#error", state="hidden", timeout=12_000)  # tried again by itself
    page.wait_for_selector("form.new-match")
    assert page.errors == []


def test_notices_on_screen_change_language(open_page) -> None:
    page = open_page()
    become_guest(page, "Ana")
    start_match(page, "hotseat", 3)
    page.wait_for_selector("#notices li[data-notice='notice.opening']:has-text('Opening roll')")
    page.select_option("#language", "tr")
    turkish = "Ba\u015flang\u0131\u00e7 zar\u0131"  # the opening roll
    page.wait_for_selector(f"#notices li[data-notice='notice.opening']:has-text('{turkish}')")
    assert page.inner_text("#move-list .log caption").startswith("Oyun 1")
    assert page.errors == []


BARS = """() => {
  window.bars = [];
  const section = document.querySelector('section.match');
  const board = document.querySelector('#board');
  new MutationObserver(() => {
    const bar = board.querySelector('.bar-checkers');
    window.bars.push({anim: section.dataset.animating === 'true',
      you: bar ? Number(bar.dataset.you) : 0, opponent: bar ? Number(bar.dataset.opponent) : 0});
  }).observe(board, {childList: true});
}"""


def step_hitting(page: Any) -> None:
    """One step, a hit when the dice allow one (each checker that may move is tried)."""
    sources = page.locator("#board .spot.source")
    for i in range(sources.count()):
        sources.nth(i).click()
        hitting = page.locator("#board .spot.target[aria-label*='hitting']")
        if hitting.count():
            hitting.first.click()
            return
        page.locator("#board .spot.source.selected").click()  # put it back
    page.locator("#board .spot.source").first.click()
    page.locator("#board .spot.target").first.click()


def test_a_hit_is_shown_going_to_the_bar(open_page) -> None:
    """A spectator sees both seats' plays drawn: the hot-seat player hits when he can."""
    page = open_page()
    become_guest(page, "Ana")
    match_id = start_match(page, "hotseat", 5)
    watcher = open_page(f"#/match/{match_id}")
    watcher.wait_for_selector("section.match[data-status=active]")
    set_speed(watcher, "fast")
    watcher.evaluate(BARS)
    hits: list[dict[str, Any]] = []
    for _ in range(300):
        what = next_thing(page)
        if what == "source":
            step_hitting(page)
        elif what == "over":
            break
        else:
            page.click(f"[data-action={what}]")
        hits = [
            e
            for e in events(page)
            if e["type"] == "moved" and any(s[2] for s in e["data"]["steps"])
        ]
        if hits:
            break
    assert hits, "no hit in the whole match"
    version = max(e["seq"] for e in events(page))
    watcher.wait_for_function(
        "(v) => Number(document.querySelector('section.match').dataset.shown) >= v", arg=version
    )
    bars = watcher.evaluate("window.bars")
    side = "you" if hits[0]["data"]["seat"] == 1 else "opponent"  # the watcher sees seat 0's side
    rising = [y for x, y in itertools.pairwise(bars) if y["anim"] and y[side] > x[side]]
    assert rising, bars
    assert page.errors == [] and watcher.errors == []
