"""The boards a client draws instead of applying steps (issue 26, item 4): the board after
the steps so far in legal-next-steps, and GET /matches/{id}/boards, every play drawn step by
step from a seat's side. Both come from the server; these tests play matches through the API
and hold the two against each other and against the state read after every play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api.conftest import Player, create
from tests.api.test_contract import components, conforms

__all__ = ["components"]  # the served schema's components: a fixture

pytestmark = pytest.mark.django_db


def _step_by_step(player: Player, match_id: str, play: dict[str, Any]) -> list[dict]:
    """legal-next-steps after each step of a legal play: its boards, from the mover's side."""
    boards = []
    for n in range(1, len(play["steps"]) + 1):
        notation = " ".join(
            f"{'bar' if s['from'] == 25 else s['from']}/{'off' if s['to'] == 0 else s['to']}"
            for s in play["steps"][:n]
        )
        r = player.get(f"/matches/{match_id}/legal-next-steps", data={"steps": notation})
        assert r.status_code == 200, r.content
        body = r.json()
        assert body["complete"] is (n == len(play["steps"]))
        boards.append(body["board"])
    return boards


@pytest.mark.parametrize("game", ["tavla", "long-nardy"])
def test_the_boards_of_every_play_are_the_boards_the_player_saw(
    make_player, components, game: str
) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1, game=game)["id"]
    rng = random.Random(7)
    seen: dict[int, tuple[int, list[dict], dict]] = {}  # seq -> mover, his boards, seat 0's
    for _ in range(60):
        state = ana.state(match_id)
        if state["status"] != "active":
            break
        if "roll" in state["actions"]:
            state = ana.post(f"/matches/{match_id}/roll", {}).json()
            continue
        if "play" not in state["actions"]:
            break
        mover = state["side"]["seat"]
        play = rng.choice(state["legal_plays"])
        boards = _step_by_step(ana, match_id, play)
        r = ana.post(
            f"/matches/{match_id}/play",
            {"play": play["notation"], "expected_version": state["version"]},
        )
        assert r.status_code == 200, r.content
        after = r.json()
        seat0 = ana.state(match_id, seat=0)["board"]
        seen[after["version"]] = (mover, boards, seat0)
    assert len(seen) >= 10

    for seat in (0, 1):
        r = ana.get(f"/matches/{match_id}/boards", data={"seat": seat})
        assert r.status_code == 200, r.content
        body = r.json()
        conforms(body, "Boards", components)
        assert body["seat"] == seat and body["version"] == ana.state(match_id)["version"]
        plays = {p["seq"]: p for p in body["plays"]}
        assert set(plays) == set(seen)
        for seq, (mover, boards, seat0) in seen.items():
            assert plays[seq]["seat"] == mover
            if seat == mover:  # what legal-next-steps showed him, step by step
                assert plays[seq]["boards"] == boards
            if seat == 0:  # and after the play, the board the state shows
                assert plays[seq]["boards"][-1] == seat0

    last = max(seen)
    later = ana.get(f"/matches/{match_id}/boards", data={"after": last - 1}).json()
    assert [p["seq"] for p in later["plays"]] == [last]
    assert ana.get(f"/matches/{match_id}/boards", data={"after": last}).json()["plays"] == []


def test_a_player_sees_the_boards_from_his_own_seat(make_player) -> None:
    ana, ben = make_player(), make_player()
    created = create(ana, mode="online", length=1, open_challenge=True)
    match_id = created["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    for player in (ana, ben):
        state = player.state(match_id)
        if state["to_act"] and state["to_act"]["who"] == "you" and "play" in state["actions"]:
            r = player.post(
                f"/matches/{match_id}/play",
                {"play": state["legal_plays"][0]["notation"], "expected_version": state["version"]},
            )
            assert r.status_code == 200, r.content
            break
    for player, seat in ((ana, 0), (ben, 1)):
        body = player.get(f"/matches/{match_id}/boards").json()
        assert body["seat"] == seat and len(body["plays"]) == 1
        assert body["plays"][0]["boards"][-1] == player.state(match_id)["board"]
    r = ana.get(f"/matches/{match_id}/boards", data={"seat": 2})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"


def test_next_steps_give_the_board_and_pips_after_the_steps(make_player, components) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    state = ana.state(match_id)
    first = ana.get(f"/matches/{match_id}/legal-next-steps").json()
    conforms(first, "NextSteps", components)
    assert first["board"] == state["board"] and first["pips"] == state["pips"]
    step = first["next_steps"][0]
    body = ana.get(
        f"/matches/{match_id}/legal-next-steps", data={"steps": f"{step['from']}/{step['to']}"}
    ).json()
    points = list(state["board"]["points"])
    points[step["from"] - 1] -= 1
    points[step["to"] - 1] += 1
    assert body["board"]["points"] == points
    assert body["pips"] == {
        "you": state["pips"]["you"] - (step["from"] - step["to"]),
        "opponent": state["pips"]["opponent"],
    }
