"""A play command is judged once (issue 26): over the real API on PostgreSQL, one play command
generates the legal plays once, resolves the play once and checks the turn once; nothing is
judged again before the append (the decided state is appended, not re-derived from the
stored payloads)."""

from __future__ import annotations

import functools
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import games.rules.match
import games.rules.nardy
import games.rules.plays
import games.rules.validate
import matches.store.plays
from tests.api.conftest import create

pytestmark = pytest.mark.django_db(transaction=True)

# What is counted: the move searches of both games (each game's `search`), the resolutions of
# a sent play (the listed plays looked up, or the rules' resolution), the rules' turn check.
COUNTED = {
    "generations": (games.rules.plays.search, games.rules.nardy.search),
    "resolutions": (matches.store.plays.chosen_play, games.rules.validate.resolve_play),
    "turn checks": (games.rules.match.check_turn,),
}


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Every binding of the counted functions, in every module of games and matches, wrapped
    with a counter. A call made inside another of the same kind (a resolution that resolves
    again inside, a search that calls a search) is part of it: only the outermost counts."""
    counter: Counter[str] = Counter()
    depth: Counter[str] = Counter()

    def counting(kind: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if depth[kind] == 0:
                counter[kind] += 1
            depth[kind] += 1
            try:
                return fn(*args, **kwargs)
            finally:
                depth[kind] -= 1

        return wrapper

    wrapped = {id(fn): counting(kind, fn) for kind, fns in COUNTED.items() for fn in fns}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(("games", "matches")):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) and id(value) in wrapped:
                monkeypatch.setattr(module, attr, wrapped[id(value)])
    yield counter


def _to_play(player: Any) -> dict[str, Any]:
    """A hot-seat match at a roll with legal plays to choose from."""
    state = create(player, mode="hotseat", length=3)
    for _ in range(50):
        if state["phase"] == "play" and state["legal_plays"]:
            return state
        assert state["phase"] == "roll", state["phase"]
        response = player.post(
            f"/matches/{state['id']}/roll", {"expected_version": state["version"]}
        )
        assert response.status_code == 200, response.content
        state = response.json()
    raise AssertionError("no playable roll in 50 rolls")  # pragma: no cover


@pytest.mark.parametrize("sent", ["notation", "steps"])
def test_one_play_command_is_judged_once(make_player, counts, sent) -> None:
    ana = make_player("ana")
    state = _to_play(ana)
    chosen = state["legal_plays"][-1]
    play = (
        chosen["notation"]
        if sent == "notation"
        else [[s["from"], s["to"]] for s in chosen["steps"]]
    )
    matches.store.plays.plays_of.cache_clear()  # the command's own generation is counted
    counts.clear()
    response = ana.post(
        f"/matches/{state['id']}/play", {"play": play, "expected_version": state["version"]}
    )
    assert response.status_code == 200, response.content
    assert response.json()["version"] > state["version"]
    assert dict(counts) == {"generations": 1, "resolutions": 1, "turn checks": 1}


def test_a_roll_and_its_play_generate_the_legal_plays_once(make_player, counts) -> None:
    """Legal plays are generated once per version: the roll's forced-pass check, the state it
    answers with and the play command that follows share one generation."""
    ana = make_player("ana")
    state = _to_play(ana)
    plays_before = len(state["legal_plays"])
    assert plays_before
    # the next turn: roll (its response lists the plays), then play one of them
    response = ana.post(
        f"/matches/{state['id']}/play",
        {"play": state["legal_plays"][0]["notation"], "expected_version": state["version"]},
    )
    assert response.status_code == 200, response.content
    state = response.json()
    matches.store.plays.plays_of.cache_clear()
    counts.clear()
    response = ana.post(f"/matches/{state['id']}/roll", {"expected_version": state["version"]})
    assert response.status_code == 200, response.content
    state = response.json()
    if state["phase"] != "play":  # the roll could not be played: passed, one generation
        assert counts["generations"] == 1
        return
    response = ana.post(
        f"/matches/{state['id']}/play",
        {"play": state["legal_plays"][0]["notation"], "expected_version": state["version"]},
    )
    assert response.status_code == 200, response.content
    assert counts["generations"] == 1
    assert counts["turn checks"] == 2  # one for the roll, one for the play
