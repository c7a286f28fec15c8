"""Playing long nardy matches over HTTP: a driver that picks plays from the state's boards
(long nardy has no gnubg Position IDs), and the schema check of each body."""

from __future__ import annotations

import random
from typing import Any

from jsonschema import Draft4Validator

from tests.api.conftest import Player


def conforms(body: Any, component: str, components: dict[str, Any]) -> None:
    """Validate a body against a component of the served schema (OpenAPI 3.0 nullable)."""
    root = {"$ref": f"#/components/schemas/{component}", "components": {"schemas": components}}
    errors = [e.message for e in Draft4Validator(_nullable(root)).iter_errors(body)]
    assert not errors, errors[:3]


def _nullable(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _nullable(v) for k, v in node.items() if k != "nullable"}
        if node.get("nullable"):
            return {"anyOf": [out, {"type": "null"}]}
        return out
    if isinstance(node, list):
        return [_nullable(v) for v in node]
    return node


def race_key(play: dict[str, Any]) -> tuple[int, int]:
    """Checkers off, then fewest pips of the mover's own left: a quick way to finish."""
    board = play["board"]
    pips = sum((i + 1) * n for i, n in enumerate(board["points"]) if n > 0)
    return board["off"]["you"], -pips


def check_nardy_state(state: dict[str, Any]) -> None:
    """What every long nardy state shows: the game, no bar, the heads, no gnubg IDs, no cube."""
    assert state["settings"]["game"] == "long-nardy"
    assert state["board"]["bar"] is None
    heads = state["board"]["heads"]
    points = state["board"]["points"]
    assert heads["you"]["point"] == 24 and heads["opponent"]["point"] == 12
    assert heads["you"]["checkers"] == max(points[23], 0)
    assert heads["opponent"]["checkers"] == max(-points[11], 0)
    assert state["gnubg"] == {"position_id": None, "match_id": None}
    assert state["cube"]["in_use"] is False and "double" not in state["actions"]
    assert state["crawford"]["rule"] is False
    assert sum(n for n in points if n > 0) + state["board"]["off"]["you"] == 15
    assert -sum(n for n in points if n < 0) + state["board"]["off"]["opponent"] == 15
    for play in state["legal_plays"]:
        assert play["position_id"] is None and play["board"]["bar"] is None
        assert not any(step["hit"] for step in play["steps"])


def act(player: Player, match_id: str, state: dict[str, Any], rng: random.Random) -> Any:
    """One action of the player to act: roll, or a play (greedy, else random); the response."""
    version = state["version"]
    if "roll" in state["actions"]:
        return player.post(f"/matches/{match_id}/roll", {"expected_version": version})
    plays = state["legal_plays"]
    assert "play" in state["actions"] and plays, state["actions"]
    chosen = max(plays, key=race_key) if rng.random() < 0.8 else rng.choice(plays)
    body: dict[str, Any] = {"expected_version": version}
    if rng.random() < 0.5:
        body["play"] = chosen["notation"]
    else:
        body["play"] = [[s["from"], s["to"]] for s in chosen["steps"]]
    return player.post(f"/matches/{match_id}/play", body)


def play_out(
    match_id: str,
    seats: dict[int, Player],
    rng: random.Random,
    *,
    components: dict[str, Any] | None = None,
    max_steps: int = 6000,
) -> dict[str, Any]:
    """Drive a long nardy match to its end over HTTP; `seats` maps each seat to its player
    (hot-seat: the same player twice). Every state is checked; every 25th against the schema."""
    anyone = next(iter(seats.values()))
    state = anyone.state(match_id)
    for step in range(max_steps):
        check_nardy_state(state)
        if components is not None and step % 25 == 0:
            conforms(state, "MatchState", components)
        if state["status"] != "active":
            return state
        player = seats[state["to_act"]["seat"]]
        if state["side"]["seat"] != state["to_act"]["seat"] or state["side"]["role"] == "spectator":
            state = player.state(match_id)
            continue
        response = act(player, match_id, state, rng)
        assert response.status_code == 200, response.content
        state = response.json()
    raise AssertionError("the match did not end")
