"""The command line `python -m games.bots` (levels, play), run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games import bots
from games.bots.__main__ import answer
from games.bots.heuristic import HeuristicPlayer

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "moves-public.jsonl"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.bots", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_levels() -> None:
    result = cli("levels")
    assert result.returncode == 0
    assert result.stdout.split() == bots.levels()


def test_play_answers_each_line_with_a_legal_result() -> None:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()[::40]
    cases = [json.loads(line) for line in lines]
    for level in (*bots.levels(), "pubeval"):
        result = cli("play", "--level", level, stdin="\n".join(lines) + "\n")
        assert result.returncode == 0, result.stderr
        out = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(out) == len(cases)
        for case, answer_ in zip(cases, out, strict=True):
            # The corpus lists every legal result (none: the position stays as it was).
            assert answer_["position"] in (case["plays"] or [case["position"]])


def test_bad_lines_get_errors_and_the_rest_go_on() -> None:
    good = json.dumps(json.loads(CORPUS.read_text(encoding="utf-8").splitlines()[0]))
    stdin = "\n".join(
        [
            "not json",
            '{"dice": [3, 1]}',
            '{"position": {"board": [1]}, "dice": [3, 1]}',
            good.replace('"dice": [6, 6]', '"dice": [7, 1]'),
            good,
        ]
    )
    result = cli("play", "--level", "heuristic", stdin=stdin + "\n")
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [set(o) for o in out] == [{"error"}] * 4 + [{"position"}]


def test_unknown_level() -> None:
    result = cli("play", "--level", "grandmaster", stdin="")
    assert result.returncode == 2 and "random" in result.stderr


def test_unplayable_roll_keeps_the_position() -> None:
    board = [0] * 24
    for i in range(18, 24):
        board[i] = -2
    board[0] = 14
    position = {"board": board, "bar": [1, 3], "off": [0, 0]}
    line = json.dumps({"position": position, "dice": [6, 6]})
    assert answer(HeuristicPlayer(), line) == {"position": position}
