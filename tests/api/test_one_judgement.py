"""A command is judged once (issue 26): over the real API on PostgreSQL, one play command
generates the legal plays once, resolves the play once, checks the turn once and folds the
play once; no stored payload is parsed back before the append (the decided state is
appended, not re-derived). So for a listed play sent as notation or steps, a play spelled
another way, a refused play, the play that ends the match (written under the row's lock,
on the judgement made before it), an accepted resignation that ends it, and a play sent on
a WebSocket (the same service, called directly)."""

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
import matches.store.events
import matches.store.plays
from matches.streams.commands import run_command
from tests.api.conftest import _race, create

pytestmark = pytest.mark.django_db(transaction=True)

# What is counted: the move searches of both games (each game's `search`), the resolutions of
# a sent play (the listed plays looked up, or the rules' resolution), the rules' turn check,
# the rules' fold of an action into the state, and a stored payload parsed back into an event.
COUNTED = {
    "generations": (games.rules.plays.search, games.rules.nardy.search),
    "resolutions": (matches.store.plays.chosen_play, games.rules.validate.resolve_play),
    "turn checks": (games.rules.match.check_turn,),
    "folds": (games.rules.match.apply,),
    "payloads parsed": (matches.store.events.event_from_payload,),
}
ONCE = {"generations": 1, "resolutions": 1, "turn checks": 1, "folds": 1}


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
    assert dict(counts) == ONCE


def _respelled(play: dict[str, Any]) -> str:
    """The play's notation written another way: its moves in the other order where that is
    still the same play (no checker moves twice), else with the spaces doubled."""
    moves = play["notation"].split()
    steps = [(s["from"], s["to"]) for s in play["steps"]]
    if len(moves) > 1 and not {f for f, _ in steps} & {t for _, t in steps}:
        return " ".join(reversed(moves))
    return "  ".join(moves) + " "


def test_a_play_spelled_another_way_is_resolved_against_the_same_generation(
    make_player, counts
) -> None:
    ana = make_player("ana")
    state = _to_play(ana)
    chosen = state["legal_plays"][-1]
    play = _respelled(chosen)
    assert play not in [p["notation"] for p in state["legal_plays"]]
    matches.store.plays.plays_of.cache_clear()
    counts.clear()
    response = ana.post(
        f"/matches/{state['id']}/play", {"play": play, "expected_version": state["version"]}
    )
    assert response.status_code == 200, response.content
    assert dict(counts) == ONCE
    events = ana.get(f"/matches/{state['id']}/events", data={"after": state["version"]}).json()
    assert events["events"][0]["data"]["notation"] == chosen["notation"]  # the play it meant


def test_a_refused_play_is_judged_once(make_player, counts) -> None:
    """Refused on the process's current view, the refusal is final: the row read for the
    authorisation is at that view's version, so nothing is judged again."""
    ana = make_player("ana")
    state = _to_play(ana)
    matches.store.plays.plays_of.cache_clear()
    counts.clear()
    response = ana.post(
        f"/matches/{state['id']}/play", {"play": "6/off", "expected_version": state["version"]}
    )
    assert response.status_code == 422, response.content
    assert response.json()["code"] == "illegal_play"
    assert dict(counts) == {"generations": 1, "resolutions": 1, "turn checks": 1}
    assert ana.state(state["id"])["version"] == state["version"]


def test_the_play_that_ends_the_match_is_judged_once(make_player, counts) -> None:
    """The end of a match is written under the row's lock (its ratings in the same
    transaction), on the judgement made before the lock at the same version."""
    ana = make_player("ana")
    state = create(ana, mode="hotseat", length=1)
    for _ in range(1000):
        if state["phase"] == "roll":
            response = ana.post(
                f"/matches/{state['id']}/roll", {"expected_version": state["version"]}
            )
            assert response.status_code == 200, response.content
            state = response.json()
            continue
        assert state["phase"] == "play", state["phase"]
        chosen = max(state["legal_plays"], key=_race)
        matches.store.plays.plays_of.cache_clear()
        counts.clear()
        response = ana.post(
            f"/matches/{state['id']}/play",
            {"play": chosen["notation"], "expected_version": state["version"]},
        )
        assert response.status_code == 200, response.content
        state = response.json()
        if state["status"] == "finished":
            assert dict(counts) == ONCE
            return
    raise AssertionError("the match did not end in 1000 commands")  # pragma: no cover


def test_an_accepted_resignation_that_ends_the_match_is_judged_once(make_player, counts) -> None:
    ana = make_player("ana")
    state = create(ana, mode="hotseat", length=1)
    if state["phase"] == "play":  # the opening roll is played first
        response = ana.post(
            f"/matches/{state['id']}/play",
            {"play": state["legal_plays"][0]["notation"], "expected_version": state["version"]},
        )
        assert response.status_code == 200, response.content
        state = response.json()
    response = ana.post(
        f"/matches/{state['id']}/resign", {"value": 1, "expected_version": state["version"]}
    )
    assert response.status_code == 200, response.content
    state = response.json()
    counts.clear()
    response = ana.post(f"/matches/{state['id']}/accept", {"expected_version": state["version"]})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "finished"
    assert dict(counts) == {"folds": 1}  # the rules' own apply judges it (its checks inside)


def test_a_play_sent_on_a_socket_is_judged_once(make_player, counts) -> None:
    ana = make_player("ana")
    state = _to_play(ana)
    chosen = state["legal_plays"][0]
    matches.store.plays.plays_of.cache_clear()
    counts.clear()
    status, body, _ = run_command(
        token=ana.token,
        match_id=state["id"],
        action="play",
        body={"play": chosen["notation"]},
        expected_version=state["version"],
    )
    assert status == 200, body
    assert body["version"] > state["version"]
    assert dict(counts) == ONCE


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
    assert "payloads parsed" not in counts
