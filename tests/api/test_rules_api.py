"""The stateless rules service agrees with the rules engine."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import bots
from games.rules.dice import Dice
from games.rules.gnubgid import position_from_id, position_id
from games.rules.plays import legal_plays
from games.rules.position import Position

START = position_id(Position.starting())


def get(path: str, **params: str):  # type: ignore[no-untyped-def]
    return APIClient().get(f"/api/v1/rules/{path}", params)


@pytest.mark.parametrize("dice", ["31", "6-6", "5,2", "11"])
def test_legal_plays_match_the_engine(dice: str) -> None:
    r = get("legal-plays", position_id=START, dice=dice)
    assert r.status_code == 200, r.content
    body = r.json()
    roll = Dice.parse(dice)
    expected = legal_plays(Position.starting(), roll)
    assert [p["notation"] for p in body["plays"]] == [p.notation for p in expected]
    for got, play in zip(body["plays"], expected, strict=True):
        assert position_from_id(got["position_id"]) == play.result.flipped()
        assert got["board"]["points"] == list(play.result.board)
        assert [(s["from"], s["to"]) for s in got["steps"]] == [(s.frm, s.to) for s in play.steps]


def test_a_roll_that_cannot_be_played() -> None:
    # the player on roll is on the bar against a closed board
    closed = Position(
        (2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, -2, -2, -2, -2, -2),
        (1, 0),
        (2, 3),
    )
    r = get("legal-plays", position_id=position_id(closed), dice="66")
    assert r.status_code == 200 and r.json()["plays"] == []


def test_legal_next_steps() -> None:
    r = get("legal-next-steps", position_id=START, dice="31", steps="8/5")
    body = r.json()
    assert body["steps_so_far"] == [{"from": 8, "to": 5, "hit": False}]
    assert {"from": 6, "to": 5, "hit": False} in body["next_steps"]
    assert body["complete"] is False and body["dice_to_use"] == 2
    r = get("legal-next-steps", position_id=START, dice="31", steps="8/5 6/5")
    assert r.json()["complete"] is True and r.json()["next_steps"] == []
    r = get("legal-next-steps", position_id=START, dice="31", steps="")
    assert len(r.json()["next_steps"]) > 3


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"position_id": "!!!!", "dice": "31"}, "invalid_id"),
        ({"position_id": START, "dice": "71"}, "invalid_dice"),
        ({"position_id": START}, "invalid_request"),
        ({"dice": "31"}, "invalid_request"),
        ({"position_id": "A" * 15, "dice": "31"}, "invalid_request"),
    ],
)
def test_bad_input(params: dict, code: str) -> None:
    r = get("legal-plays", **params)
    assert r.status_code == 400 and r.json()["code"] == code


def test_bad_partial_plays() -> None:
    r = get("legal-next-steps", position_id=START, dice="31", steps="8/2")
    assert r.status_code == 422 and r.json()["code"] == "illegal_play"
    r = get("legal-next-steps", position_id=START, dice="31", steps="x")
    assert r.status_code == 400 and r.json()["code"] == "invalid_notation"


def test_levels() -> None:
    assert get("levels").json() == {
        "game": "tavla",
        "levels": bots.levels(),
        "default": bots.default_level(),
    }
    assert bots.levels()[-1] == "network-1ply"
