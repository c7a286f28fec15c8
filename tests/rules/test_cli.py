"""The command line `python -m games.rules` (plays, plays --jsonl, perft), run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.rules.gnubgid import position_id
from games.rules.position import Position

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "moves-public.jsonl"
OPENING = "4HPwATDgc/ABMA"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def corpus_cases(ids: set[int] | None = None) -> list[dict]:
    with CORPUS.open(encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    return [c for c in cases if ids is None or c["id"] in ids]


def corpus_case(pid: str, dice: list[int]) -> dict:
    return next(c for c in corpus_cases() if c["gnubg_position_id"] == pid and c["dice"] == dice)


# -- plays POSITION_ID DICE ------------------------------------------------------------------


def test_plays_of_the_opening_31():
    run = cli("plays", OPENING, "31")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"Position {OPENING}, pips 167-167, roll 3-1"
    assert lines[1] == "16 legal plays:"
    rows = [line.split("->") for line in lines[2:]]
    assert len(rows) == 16
    notations = [r[0].strip() for r in rows]
    ids = [r[1].strip() for r in rows]
    case = corpus_case(OPENING, [3, 1])
    assert notations == case["play_notation"]
    assert ids == [position_id(Position.from_json(p)) for p in case["plays"]]
    assert "8/5 6/5" in notations and "24/23 24/21" in notations and "6/2" in notations
    assert len(set(ids)) == 16


@pytest.mark.parametrize("dice", ["3-1", "13", "3 1"])
def test_plays_reads_dice_in_several_spellings(dice):
    run = cli("plays", OPENING, dice)
    assert run.returncode == 0, run.stderr
    assert "16 legal plays:" in run.stdout


def test_plays_with_no_legal_play():
    case = next(c for c in corpus_cases() if c["family"] == "no_play")
    high, low = case["dice"]
    run = cli("plays", case["gnubg_position_id"], f"{high}{low}")
    assert run.returncode == 0, run.stderr
    assert "No legal play: the turn passes." in run.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("plays", "bad", "31"), "Position ID"),
        (("plays", OPENING, "71"), "dice"),
        (("plays", OPENING), "give a Position ID and dice"),
        (("plays",), "give a Position ID and dice"),
    ],
)
def test_plays_errors(args, words):
    run = cli(*args)
    assert run.returncode == 2
    assert words in run.stderr
    assert run.stdout == ""


# -- plays --jsonl -----------------------------------------------------------------------------


def _request(case: dict) -> str:
    return json.dumps({"position": case["position"], "dice": case["dice"]})


def test_plays_jsonl_equals_the_corpus():
    # One case of every family, plus a few more.
    cases: dict[str, dict] = {}
    for case in corpus_cases():
        cases.setdefault(case["family"], case)
    chosen = [*cases.values(), *corpus_cases({0, 1, 2, 100, 500, 1000})]
    run = cli("plays", "--jsonl", stdin="".join(_request(c) + "\n" for c in chosen))
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(chosen)
    for case, answer in zip(chosen, answers, strict=True):
        assert "error" not in answer, (case["id"], answer)
        assert [p["position"] for p in answer["plays"]] == case["plays"], case["id"]
        assert [p["notation"] for p in answer["plays"]] == case["play_notation"], case["id"]


def test_plays_jsonl_a_bad_line_gets_an_error_and_later_lines_still_answer():
    good = corpus_cases({0, 1})
    lines = [
        _request(good[0]),
        "this is not json",
        json.dumps({"position": {"board": [1, 2, 3]}, "dice": [3, 1]}),
        json.dumps({"dice": [3, 1]}),
        json.dumps([1, 2]),
        json.dumps({"position": good[0]["position"], "dice": [7, 1]}),
        _request(good[1]),
    ]
    run = cli("plays", "--jsonl", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    assert len(out) == len(lines)
    answers = [json.loads(line) for line in out]
    assert [p["notation"] for p in answers[0]["plays"]] == good[0]["play_notation"]
    for bad in answers[1:6]:
        assert set(bad) == {"error"} and isinstance(bad["error"], str) and bad["error"]
    assert "JSON" in answers[1]["error"]
    assert "board" in answers[2]["error"]
    assert "position" in answers[3]["error"] and "position" in answers[4]["error"]
    assert "die" in answers[5]["error"]
    assert [p["notation"] for p in answers[6]["plays"]] == good[1]["play_notation"]


def test_plays_jsonl_accepts_dice_as_text_and_answers_no_play_with_an_empty_list():
    no_play = next(c for c in corpus_cases() if c["family"] == "no_play")
    high, low = no_play["dice"]
    opening = corpus_case(OPENING, [3, 1])
    lines = [
        json.dumps({"position": no_play["position"], "dice": f"{high}{low}"}),
        json.dumps({"position": opening["position"], "dice": "3-1"}),
    ]
    run = cli("plays", "--jsonl", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert answers[0] == {"plays": []}
    assert [p["notation"] for p in answers[1]["plays"]] == opening["play_notation"]


# -- perft -----------------------------------------------------------------------------------


def test_perft_1():
    run = cli("perft", "1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "447"


def test_perft_0():
    assert cli("perft", "0").stdout.strip() == "1"
