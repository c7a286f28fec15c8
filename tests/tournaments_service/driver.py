"""Scripted tournament players over HTTP (the API's test client): sign-up, join, and each
round's matches played side by side, a step each in turn, so every seated player is seen well
within the reconnect grace. Each match's loser is chosen by the script: he plays a few turns
(the computer's greedy choice, tests/api/conftest.py `act`) and then resigns the match, or the
match is played to its end and the dice decide."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tests.api.conftest import Player, Policy, act

Loser = Callable[[int, int], int | None]
"""(player a, player b) -> the one who resigns, or None: played to the end."""


@dataclass
class Played:
    """What the script saw of one match: its board and the winner the match recorded."""

    round: int
    board: int
    players: tuple[int, int]
    winner: int | None
    ended_by: str


@dataclass
class Script:
    players: dict[int, Player]
    loser: Loser
    absent: frozenset[int] = frozenset()  # never make a request: lose by forfeit
    computer: frozenset[int] = frozenset()  # the site's computer: the worker plays its turns
    rng: random.Random = field(default_factory=lambda: random.Random(29))
    played: list[Played] = field(default_factory=list)

    def detail(self, tid: str) -> dict[str, Any]:
        anyone = next(iter(self.players.values()))
        response = anyone.get(f"/tournaments/{tid}")
        assert response.status_code == 200, response.content
        return response.json()

    def play_round(self, tid: str, number: int, timeout: float = 90) -> None:
        """Play every match of round `number` to its end."""
        detail = self.detail(tid)
        boards = [b for b in detail["rounds"][number - 1]["boards"] if b["match"]]
        live: dict[str, dict[str, Any]] = {}
        for b in boards:
            a, c = b["players"]
            loser = self.loser(a, c)
            live[b["match"]] = {
                "board": b,
                "seats": (a, c),
                "loser": loser,
                "resign_after": self.rng.randint(0, 3) if loser is not None else None,
                "steps": 0,
            }
        end = time.monotonic() + timeout
        while live:
            assert time.monotonic() < end, f"round {number} did not end: {list(live)}"
            for match_id, m in list(live.items()):
                if not self._step(match_id, m):
                    del live[match_id]
                    self._record(number, match_id, m)

    def _step(self, match_id: str, m: dict[str, Any]) -> bool:
        """One action in the match; False once it is over."""
        seats = m["seats"]
        here = [p for p in seats if p not in self.absent and p not in self.computer]
        states = {p: self.players[p].state(match_id) for p in here}  # both seen, each step
        state = states[here[0]]
        if state["status"] != "active":
            return False
        to_act = seats[state["to_act"]["seat"]]
        if to_act in self.absent or to_act in self.computer:
            time.sleep(0.02)
            return True  # the present player was just seen; the absent one never is, the
            # computer's turn is the worker's
        player = self.players[to_act]
        state = states[to_act]
        if state["status"] != "active":
            return False
        if m["loser"] == to_act and m["steps"] >= m["resign_after"]:
            response = player.post(f"/matches/{match_id}/resign-match", {})
            assert response.status_code == 200, response.content
            return response.json()["status"] == "active"
        m["steps"] += 1
        after = act(player, match_id, state, Policy(self.rng, greedy=True))
        return bool(after["status"] == "active")

    def _record(self, number: int, match_id: str, m: dict[str, Any]) -> None:
        a, c = m["seats"]
        present = [p for p in (a, c) if p not in self.absent and p not in self.computer]
        state = self.players[present[0]].state(match_id)
        result = state["result"]
        seat = result["winner"]["seat"] if result and result["winner"] else None
        winner = (a, c)[seat] if seat is not None else None
        self.played.append(Played(number, m["board"]["index"], (a, c), winner, result["ended_by"]))


def join_all(tid: str, players: Iterable[Player]) -> None:
    for p in players:
        response = p.post(f"/tournaments/{tid}/join", {})
        assert response.status_code == 200, response.content
        assert response.json()["joined"] is True


def wait_status(script: Script, tid: str, status: str, timeout: float) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        detail = script.detail(tid)
        if detail["status"] == status:
            return detail
        assert time.monotonic() < end, f"still {detail['status']}, not {status}"
        time.sleep(0.1)


def wait_round(
    script: Script, tid: str, number: int, timeout: float
) -> tuple[dict[str, Any], float]:
    """The tournament once round `number` is paired (or it finished), and how long it took."""
    started = time.monotonic()
    end = started + timeout
    while True:
        detail = script.detail(tid)
        if len(detail["rounds"]) >= number or detail["status"] == "finished":
            return detail, time.monotonic() - started
        assert time.monotonic() < end, f"round {number} not paired after {timeout} s"
        time.sleep(0.1)
