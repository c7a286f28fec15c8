"""Example bodies for the documentation."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from games.rules import SITE_CLOCK

STATE_EXAMPLE = {
    "id": "0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11",
    "version": 5,
    "status": "active",
    "settings": {
        "game": "tavla",
        "mode": "online",
        "length": 5,
        "cube": True,
        "crawford": True,
        "jacoby": False,
        "backgammon_value": 3,
        "next_game_starter": "opening_roll",
        "computer_level": None,
        "clock": SITE_CLOCK.to_json(),
        "public": True,
    },
    "players": [
        {"seat": 0, "username": "ana", "display_name": "Ana", "kind": "registered"},
        {"seat": 1, "username": "guest-3f9a1c2b7d", "display_name": "Marko", "kind": "guest"},
    ],
    "side": {"seat": 0, "role": "player", "seats": [0]},
    "lobby": {
        "open_challenge": True,
        "invite_code": "K7MPQ2XD",
        "reserved_for": None,
        "rematch_of": None,
        "rematch": None,
        "imported": False,
    },
    "game": 1,
    "phase": "play",
    "board": {
        "points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
        "bar": {"you": 0, "opponent": 0},
        "off": {"you": 0, "opponent": 0},
        "heads": None,
    },
    "pips": {"you": 167, "opponent": 167},
    "dice": [3, 1],
    "turn": {"seat": 0, "who": "you"},
    "to_act": {"seat": 0, "who": "you"},
    "actions": ["play", "resign"],
    "legal_plays": [
        {
            "notation": "8/5 6/5",
            "steps": [{"from": 8, "to": 5, "hit": False}, {"from": 6, "to": 5, "hit": False}],
            "position_id": "4HPwATDgc/ABMA",
            "board": None,
        }
    ],
    "first_turn": None,
    "cube": {"value": 1, "owner": None, "offered": False, "in_use": True},
    "crawford": {"rule": True, "crawford_game": False, "post_crawford": False},
    "score": {"you": 0, "opponent": 0, "seats": [0, 0], "length": 5},
    "resignation": None,
    "clock": None,
    "result": None,
    "games": [],
    "gnubg": {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkKAAAAAAAA"},
    "moves": 0,
    "created_at": "2026-05-01T12:00:00+00:00",
    "started_at": "2026-05-01T12:00:05+00:00",
    "finished_at": None,
}


def state_example(name: str = "state", **changes: Any) -> OpenApiExample:
    return OpenApiExample(name, value={**STATE_EXAMPLE, **changes}, response_only=True)
