"""`python -m games.bots levels|play --game long-nardy`, run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games import bots

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "nardy-public.jsonl"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.bots", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_levels() -> None:
    result = cli("levels", "--game", "long-nardy")
    assert result.returncode == 0
    assert result.stdout.split() == bots.levels("long-nardy")
    assert cli("levels").stdout.split() == bots.levels()  # tavla without --game


def test_play_answers_each_line_with_a_legal_result() -> None:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()[::30]
    cases = [json.loads(line) for line in lines]
    # The input lines as the rules command reads them: position, dice, first_turn.
    stdin = "".join(
        json.dumps({k: case[k] for k in ("position", "dice", "first_turn")}) + "\n"
        for case in cases
    )
    assert any(not case["plays"] for case in cases)  # a line with nothing to play
    for level in bots.levels("long-nardy"):
        result = cli("play", "--game", "long-nardy", "--level", level, stdin=stdin)
        assert result.returncode == 0, result.stderr
        out = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(out) == len(cases)
        for case, answer in zip(cases, out, strict=True):
            # Every legal result is listed; none: the position stays as it was.
            assert answer["position"] in (case["plays"] or [case["position"]])


def test_bad_lines_get_errors_and_the_rest_go_on() -> None:
    start = {"board": [0] * 11 + [-15] + [0] * 11 + [15], "off": [0, 0]}
    good = json.dumps({"position": start, "dice": [6, 6], "first_turn": True})
    stdin = "\n".join(
        [
            "not json",
            '{"dice": [3, 1]}',
            json.dumps({"position": {"board": [1]}, "dice": [3, 1]}),
            json.dumps({"position": start, "dice": [7, 1]}),
            json.dumps({"position": start, "dice": [3, 1], "first_turn": "yes"}),
            json.dumps({"position": {**start, "bar": [1, 0]}, "dice": [3, 1]}),
            good,
        ]
    )
    result = cli("play", "--game", "long-nardy", "--level", "heuristic", stdin=stdin + "\n")
    assert result.returncode == 0
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 7
    assert all(set(line) == {"error"} and line["error"] for line in out[:6])
    # The first turn's 6-6: two checkers off the head (24/18 24/18; 18/12 is closed).
    board = out[6]["position"]["board"]
    assert board[23] == 13 and board[17] == 2 and out[6]["position"]["off"] == [0, 0]


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    result = cli("play", "--game", "long-nardy", "--level", "pubeval", stdin="")
    assert result.returncode == 2
    assert "levels: random, heuristic" in result.stderr
