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


def test_perft_of_long_nardy():
    run = cli("perft", "3", "--game", "long-nardy")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "35387"
    assert cli("perft", "1", "--game", "tavla").stdout.strip() == "447"


# -- long nardy: plays --jsonl --game long-nardy --------------------------------------------------

NARDY_CORPUS = ROOT / "tests" / "data" / "nardy-public.jsonl"


def nardy_cases() -> list[dict]:
    with NARDY_CORPUS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _nardy_request(case: dict, reverse: bool = False) -> str:
    dice = case["dice"][::-1] if reverse else case["dice"]
    return json.dumps(
        {"position": case["position"], "dice": dice, "first_turn": case["first_turn"]}
    )


def test_nardy_plays_jsonl_equals_the_whole_corpus_in_either_dice_order():
    cases = nardy_cases()
    lines = [_nardy_request(c, reverse=i % 2 == 1) for i, c in enumerate(cases)]
    run = cli("plays", "--jsonl", "--game", "long-nardy", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(cases)
    for case, answer in zip(cases, answers, strict=True):
        assert set(answer) == {"plays"}, (case["id"], answer)
        assert [p["position"] for p in answer["plays"]] == case["plays"], case["id"]
        for play in answer["plays"]:
            assert set(play) == {"notation", "position"} and play["notation"]
            assert set(play["position"]) == {"board", "off"}  # no bar in long nardy
    assert any(a == {"plays": []} for a in answers)


def test_nardy_notation_names_the_steps_with_off():
    start = {"board": [0] * 11 + [-15] + [0] * 11 + [15], "off": [0, 0]}
    home = {"board": [1, 0, 1] + [0] * 9 + [-15] + [0] * 11, "off": [13, 0]}
    lines = [
        json.dumps({"position": start, "dice": [6, 6], "first_turn": True}),
        json.dumps({"position": start, "dice": [3, 3], "first_turn": True}),
        json.dumps({"position": start, "dice": [5, 5], "first_turn": False}),
        json.dumps({"position": home, "dice": [3, 1]}),  # first_turn may be left out
    ]
    run = cli("plays", "--jsonl", "--game", "long-nardy", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [p["notation"] for p in answers[0]["plays"]] == ["24/18(2)"]
    assert sorted(p["notation"] for p in answers[1]["plays"]) == ["24/15 24/21", "24/18(2)"]
    assert [p["notation"] for p in answers[2]["plays"]] == ["24/4"]
    assert [p["notation"] for p in answers[3]["plays"]] == ["3/off 1/off", "3/off"]  # 3/2/off


def test_nardy_plays_jsonl_a_bad_line_gets_an_error_and_later_lines_still_answer():
    good = nardy_cases()[:2]
    lines = [
        _nardy_request(good[0]),
        "{not json",
        json.dumps({"position": {"board": [1] * 24, "off": [0, 0]}, "dice": [3, 1]}),
        json.dumps({"position": {**good[0]["position"], "bar": [1, 0]}, "dice": [3, 1]}),
        json.dumps({"position": good[0]["position"], "dice": [0, 1]}),
        json.dumps({"position": good[0]["position"], "dice": [3, 1], "first_turn": "yes"}),
        json.dumps({"dice": [3, 1]}),
        _nardy_request(good[1]),
    ]
    run = cli("plays", "--jsonl", "--game", "long-nardy", stdin="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert [p["position"] for p in answers[0]["plays"]] == good[0]["plays"]
    for bad in answers[1:7]:
        assert set(bad) == {"error"} and bad["error"]
    assert "bar" in answers[3]["error"] and "first_turn" in answers[5]["error"]
    assert [p["position"] for p in answers[7]["plays"]] == good[1]["plays"]


def test_without_game_or_with_game_tavla_the_command_is_tavla():
    case = corpus_case(OPENING, [3, 1])
    line = _request(case) + "\n"
    plain = cli("plays", "--jsonl", stdin=line)
    tavla = cli("plays", "--jsonl", "--game", "tavla", stdin=line)
    assert plain.returncode == tavla.returncode == 0
    assert plain.stdout == tavla.stdout
    assert [p["notation"] for p in json.loads(plain.stdout)["plays"]] == case["play_notation"]


def test_nardy_needs_jsonl_and_unknown_games_are_refused():
    run = cli("plays", "--game", "long-nardy", OPENING, "31")
    assert run.returncode == 2 and "--jsonl" in run.stderr
    run = cli("plays", "--jsonl", "--game", "plakoto", stdin="")
    assert run.returncode == 2 and "long-nardy" in run.stderr
