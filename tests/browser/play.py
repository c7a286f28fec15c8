"""What a player does on the page, by clicks only: become a guest, start a match, take turns
by clicking the first highlighted checker and then its first highlighted target."""

from __future__ import annotations

import time
from typing import Any

# What the match screen lets the player do now (or "over"); null while it is busy.
NEXT = """() => {
  const s = document.querySelector('section.match');
  if (!s) return null;
  if (s.dataset.status === 'finished' || s.dataset.status === 'aborted') return 'over';
  if (document.querySelector('#board .spot.source')) return 'source';
  const enabled = (a) => {
    const b = document.querySelector(`[data-action=${a}]`);
    return b && !b.disabled;
  };
  for (const a of ['confirm', 'roll', 'accept', 'take']) if (enabled(a)) return a;
  return null;
}"""


def become_guest(page: Any, name: str = "") -> None:
    if name:
        page.fill("form.welcome input[name=display_name]", name)
    page.click("[data-action=guest]")
    page.wait_for_selector("form.new-match")


def start_match(page: Any, mode: str, length: int = 1, **options: Any) -> str:
    """Fill the new-match form and start; the match's id (from the address)."""
    page.check(f"form.new-match input[name=game][value={options.get('game', 'tavla')}]")
    page.check(f"form.new-match input[name=mode][value={mode}]")
    page.check(f"form.new-match input[name=length][value='{length}']")
    if "level" in options:
        page.select_option("form.new-match select[name=level]", options["level"])
    if "invite" in options:
        page.check(f"form.new-match input[name=invite][value={options['invite']}]")
    if "clock" in options:
        page.click("form.new-match details.advanced summary")
        page.check("form.new-match input[name=custom_clock]")
        for key, value in options["clock"].items():
            page.fill(f"form.new-match input[name={key}]", str(value))
    page.click("[data-action=start]")
    page.wait_for_selector("section.match[data-version]")
    return page.url.rsplit("/", 1)[-1]


def next_thing(page: Any, timeout: float = 15_000) -> str:
    return page.wait_for_function(NEXT, timeout=timeout).json_value()


def act(page: Any) -> str:
    """Do the next thing the page offers (one click, or a checker and its target)."""
    what = next_thing(page)
    if what == "source":
        page.locator("#board .spot.source").first.click()
        page.locator("#board .spot.target").first.click()
    elif what != "over":
        page.confirmed_at = time.monotonic()  # when the last action was clicked
        page.click(f"[data-action={what}]")
    return what


# After a roll: the turn went to the other side (the server passed a roll that cannot be
# played), or the page offers the next thing.
PASSED_OR_NEXT = f"""() => {{
  const s = document.querySelector('section.match');
  if (s && s.dataset.status === 'active' && s.dataset.toAct === 'opponent') return 'passed';
  return ({NEXT})();
}}"""


def take_turn(page: Any, passes: bool = False) -> str:
    """Play until this page has confirmed a move and shows its result (or the match is over).
    `passes` (online, where the turn goes to another page): a roll that cannot be played ends
    the turn too, "passed"; else the page waits for its next turn (the computer's answer)."""
    while True:
        before = page.get_attribute("section.match", "data-version")
        what = act(page)
        if what == "confirm":
            page.wait_for_function(
                "(v) => document.querySelector('section.match').dataset.version !== v", arg=before
            )
        if what in ("confirm", "over"):
            return what
        if what == "roll" and passes:
            after = page.wait_for_function(PASSED_OR_NEXT, timeout=15_000).json_value()
            if after == "passed":
                return "passed"


def play_to_end(page: Any, limit: float = 240) -> int:
    """Act on this page until the match is over; how many clicks it took."""
    end = time.monotonic() + limit
    clicks = 0
    while time.monotonic() < end:
        what = act(page)
        if what == "over":
            return clicks
        clicks += 2 if what == "source" else 1
    raise AssertionError(f"the match did not end in {limit} s ({clicks} clicks)")


def status(page: Any) -> str:
    return page.inner_text("#status .what")


def board_counts(page: Any) -> list[int]:
    return [
        int(page.get_attribute(f"#board .stack[data-point='{p}']", "data-count"))
        for p in range(1, 25)
    ]


def events(page: Any) -> list[dict[str, Any]]:
    """The match's events, from the API as the page's player reads them."""
    return page.evaluate(
        """async () => {
            const id = location.hash.split('/').pop();
            const r = await fetch(`/api/v1/matches/${id}/events?after=0`,
                {headers: {Authorization: 'Token ' + localStorage.getItem('tavla.token')}});
            return (await r.json()).events;
        }"""
    )
