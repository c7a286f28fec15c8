"""What rendering a response through its derived serializer costs (a benchmark, not a test):
`python benchmarks/render_bench.py`.

Builds match states as the API does (`selectors.match_state` needs stored rows, so the shape is
made here from positions of the oracle corpus with their legal plays) and times, side by side
in one run: rendering the shape (`contract.render`, the API's one path: a function compiled from
the derived serializer, the legal plays of a position and roll rendered once), the same through
the DRF serializer itself (`render_with_drf`, what the API did before) and, as the yardstick,
`json.dumps` of the already rendered dict (what any response pays anyway).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavla_project.settings")

import django  # noqa: E402

django.setup()

from games.rules.dice import Dice  # noqa: E402
from games.rules.position import Position  # noqa: E402
from matches.api.contract import render, render_with_drf  # noqa: E402
from matches.selectors import shapes  # noqa: E402
from matches.selectors.state import board_json, plays_json  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "moves-public.jsonl"


def state(position: Position, dice: Dice) -> shapes.MatchState:
    who = shapes.Who(0, "you")
    now = datetime.now(UTC)
    clock = shapes.ClockSettings(12, 120, 60, 60)
    time_left = shapes.TimeLeft(12.0, 120.0)
    return shapes.MatchState(
        id=uuid4(),
        version=40,
        status="active",
        settings=shapes.Settings(
            "tavla", "online", 5, True, True, False, 3, "opening_roll", None, clock, True, True
        ),
        players=[
            shapes.Player(0, "ana", "Ana", "registered", 1523.4),
            shapes.Player(1, "guest-3f9a1c2b7d", "Marko", "guest", None),
        ],
        side=shapes.Side(0, "player", [0]),
        lobby=shapes.Lobby(False, "K7MPQ2XD", None, None, None, False),
        game=2,
        phase="play",
        board=board_json(position),
        pips=shapes.SideCount(*position.pips()),
        dice=dice.to_json(),
        turn=who,
        to_act=who,
        actions=["play", "resign"],
        legal_plays=plays_json(position, dice),
        first_turn=None,
        cube=shapes.Cube(2, who, False, True),
        crawford=shapes.Crawford(True, False, False),
        score=shapes.Score(1, 2, [1, 2], 5),
        resignation=None,
        clock=shapes.ClockState(clock, who, now, time_left, time_left, [time_left] * 2, 60.0, now),
        result=None,
        games=[shapes.GameResult(1, shapes.Who(1, "opponent"), 2, "gammon", 1, "bearoff")],
        gnubg=shapes.Gnubg("4HPwATDgc/ABMA", "cAkKAAAAAAAA"),
        moves=30,
        created_at=now,
        started_at=now,
        finished_at=None,
    )


def main() -> None:
    with CORPUS.open() as f:
        raw = [(row["position"], row["dice"]) for row in map(json.loads, list(f)[:300])]
    cases = [state(Position.from_json(p), Dice.of(*d)) for p, d in raw]
    plays = [len(c.legal_plays) for c in cases]
    drf_ms, render_ms, dumps_ms = [], [], []
    for _ in range(3):
        t = time.perf_counter()
        for c in cases:
            render_with_drf(c)
        drf_ms.append((time.perf_counter() - t) / len(cases) * 1000)
        t = time.perf_counter()
        bodies = [render(c) for c in cases]
        render_ms.append((time.perf_counter() - t) / len(cases) * 1000)
        t = time.perf_counter()
        for body in bodies:
            json.dumps(body)
        dumps_ms.append((time.perf_counter() - t) / len(cases) * 1000)
    assert bodies == [render_with_drf(c) for c in cases]
    drf, r = statistics.median(drf_ms), statistics.median(render_ms)
    d = statistics.median(dumps_ms)
    median = statistics.median(plays)
    print(
        f"{len(cases)} states, legal plays per state: median {median}, max {max(plays)};"
        f" load {os.getloadavg()[0]:.1f}"
    )
    print(f"DRF serializer (render_with_drf): {drf:.3f} ms per state (ratio {drf / d:.1f})")
    print(f"render (compiled):                {r:.3f} ms per state (ratio {r / d:.1f})")
    print(f"json.dumps of the result:         {d:.3f} ms per state (ratio 1.0)")


if __name__ == "__main__":
    main()
