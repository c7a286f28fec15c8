"""The post-game analysis (games/bots/analysis.py): its command line's JSON, best plays,
forced plays, marks, and long nardy's soundness over matches between the levels."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from games.bots import player_for
from games.bots.analysis import Analysis, analyse_mat, analyse_match, mark, stakes_for
from games.bots.analysis_eval import Judge
from games.bots.matchplay import play_match
from games.rules import (
    TAVLA,
    MatchSettings,
    MatchState,
    Move,
    Variant,
    apply,
    board_array,
    mat_actions,
    parse_mat,
    resolve_play,
)

ROOT = Path(__file__).resolve().parent.parent.parent
PUBLIC = ROOT / "tests" / "data" / "analysis-public"
SMALL = PUBLIC / "an_09_len1_nocube_n000_030.mat"
CUBE = PUBLIC / "an_10_len3_cube_n020_010.mat"
STUCK = PUBLIC / "an_04_len7_cube_n030_030.mat"  # has rolls that cannot be played

DECISION_KEYS = {"player", "action", "dice", "played", "best", "error", "mark", "luck"}
PLAYER_KEYS = {
    "name",
    "unforced",
    "error_rate",
    "pr",
    "luck",
    # added beside the issue's: docs/analysis.md
    "checker_unforced",
    "checker_error_rate",
    "marks",
    "result",
    "luck_adjusted",
}


@cache
def analysed(path: Path) -> Analysis:
    return analyse_mat(path.read_text())


def test_cli_prints_the_documented_json() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "games.bots", "analyse", str(CUBE)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert set(doc) == {"games", "players"}
    oracle = json.loads(CUBE.with_suffix(".json").read_text())
    assert len(doc["games"]) == len(oracle["games"])
    for game, theirs in zip(doc["games"], oracle["games"], strict=True):
        assert set(game) == {"decisions"}
        # The file's decisions in its order: the same player and action as gnubg's.
        steps = [(d["player"], d["action"]) for d in game["decisions"]]
        assert steps == [(d["player"], d["action"]) for d in theirs["decisions"]]
        for d in game["decisions"]:
            assert set(d) == DECISION_KEYS
            assert d["player"] in (0, 1)
            assert d["action"] in ("move", "double", "take", "drop")
            assert isinstance(d["error"], float) and d["error"] >= 0.0
            assert d["mark"] == mark(d["error"])
            if d["action"] == "move":
                assert len(d["dice"]) == 2 and all(1 <= x <= 6 for x in d["dice"])
                assert d["played"] is None or isinstance(d["played"], str)
                assert isinstance(d["luck"], float)
            else:
                assert d["dice"] is None and d["played"] is None and d["luck"] is None
    assert [p["name"] for p in doc["players"]] == oracle["players"]
    for p in doc["players"]:
        assert set(p) == PLAYER_KEYS
        assert isinstance(p["unforced"], int) and p["unforced"] > 0
        assert p["pr"] == pytest.approx(p["error_rate"] / 2, abs=1e-3)
        assert set(p["marks"]) == {"doubtful", "bad", "very bad"}
    assert doc["players"][0]["result"] == -doc["players"][1]["result"]


def test_cli_plies_and_bad_files(tmp_path: Path) -> None:
    one = subprocess.run(
        [sys.executable, "-m", "games.bots", "analyse", str(SMALL), "--plies", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert one.returncode == 0, one.stderr
    assert len(json.loads(one.stdout)["games"]) == 1
    bad = tmp_path / "bad.mat"
    bad.write_text("not a match\n")
    result = subprocess.run(
        [sys.executable, "-m", "games.bots", "analyse", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "bad.mat" in result.stderr and not result.stdout


def test_marks_at_gnubgs_thresholds() -> None:
    assert mark(0.0) is None
    assert mark(0.0399) is None
    assert mark(0.04) == "doubtful"
    assert mark(0.0799) == "doubtful"
    assert mark(0.08) == "bad"
    assert mark(0.1599) == "bad"
    assert mark(0.16) == "very bad"
    assert mark(1.5) == "very bad"


def _replay_moves(path: Path) -> list[tuple[MatchState, Move]]:
    settings, actions = mat_actions(parse_mat(path.read_text()))
    state = MatchState.new(settings)
    found = []
    for action in actions:
        if isinstance(action, Move):
            found.append((state, action))
        state = apply(state, action)
    return found


@pytest.mark.parametrize("plies", [0, 1])
def test_the_best_play_has_no_error_and_the_same_equity_again(plies: int) -> None:
    analysis = analysed(CUBE) if plies == 0 else analyse_mat(SMALL.read_text(), plies)
    moves = _replay_moves(CUBE if plies == 0 else SMALL)
    decisions = [d for g in analysis.games for d in g if d.action == "move"]
    assert len(decisions) == len(moves)
    judge = Judge(TAVLA, plies)
    checked = 0
    for d, (state, _) in zip(decisions, moves, strict=True):
        if d.best is None:
            continue
        if d.played == d.best:
            assert d.error == 0.0
        best = resolve_play(state.position_for(d.player), state.dice, d.best)  # type: ignore[arg-type]
        stakes = stakes_for(state, d.player)
        again = judge.after_play(np.array([board_array(best.result)]), stakes, must=[0])
        assert float(stakes.emg(again[0])) == pytest.approx(d.best_equity, abs=1e-9)
        assert d.equity is not None and d.best_equity is not None
        assert d.best_equity >= d.equity - 1e-12
        assert d.error == pytest.approx(max(0.0, d.best_equity - d.equity), abs=1e-9)
        checked += 1
    assert checked > 20


def test_forced_plays_have_no_error_and_are_not_unforced() -> None:
    analysis = analysed(STUCK)
    forced = [d for g in analysis.games for d in g if d.forced]
    assert any(d.played is None for d in forced)  # rolls that could not be played
    assert any(d.played is not None for d in forced)  # one legal play only
    assert all(d.error == 0.0 and d.mark is None for d in forced)
    assert all(d.luck is not None for d in forced)  # a forced roll is still lucky or not
    oracle = json.loads(STUCK.with_suffix(".json").read_text())
    for seat, player in enumerate(analysis.players):
        assert player.unforced == sum(1 for d in player.decisions if not d.forced)
        # gnubg counts a checker play as unforced when it has more than one legal play.
        assert player.checker_unforced == oracle["stats"][seat]["moves"]["unforced-moves"]


def test_cube_decisions_are_judged() -> None:
    analysis = analysed(CUBE)
    cube = [d for g in analysis.games for d in g if d.action != "move"]
    assert [d.action for d in cube] == ["double", "drop"]  # as the file has them
    assert cube[0].best in ("double", "no double")
    assert cube[1].best in ("take", "drop")
    assert all(d.error >= 0.0 and not d.forced for d in cube)


# -- long nardy: no outside reference, so soundness ------------------------------------------


NARDY = MatchSettings(length=3, game=Variant.LONG_NARDY)


@cache
def nardy_self_play(level: str, seeds: tuple[int, ...]) -> list[Analysis]:
    """Matches of a long nardy level against itself (the positions stay even), analysed."""
    out = []
    for seed in seeds:
        players = (player_for(level, "long-nardy"), player_for(level, "long-nardy"))
        _, actions = play_match(players, NARDY, seed)
        out.append(analyse_match(NARDY, actions, (level, level)))
    return out


def _rate(analyses: list[Analysis]) -> float:
    error = sum(p.total_error for a in analyses for p in a.players)
    unforced = sum(p.unforced for a in analyses for p in a.players)
    return 1000.0 * error / unforced


def test_nardy_error_rates_order_the_levels() -> None:
    seeds = (1, 2)
    rates = {level: _rate(nardy_self_play(level, seeds)) for level in ("random", "heuristic")}
    network = _rate(nardy_self_play("network", seeds))
    # The analysis judges by the network at 0 plies: the network level's plays are its best.
    assert network == 0.0
    assert rates["random"] > 2 * rates["heuristic"] > 0.0
    assert rates["heuristic"] > 20.0  # mEMG: the hand-written level errs, clearly


def test_nardy_best_play_and_forced_play() -> None:
    analyses = nardy_self_play("heuristic", (1, 2))
    decisions = [d for a in analyses for g in a.games for d in g]
    assert all(d.action == "move" for d in decisions)  # no cube in long nardy
    assert all(d.error == 0.0 for d in decisions if d.forced or d.played == d.best)
    assert any(d.error > 0.0 for d in decisions)
    for a in analyses:
        for p in a.players:
            assert p.unforced == sum(1 for d in p.decisions if not d.forced)


def test_nardy_luck_sums_to_about_zero() -> None:
    lucks = np.array(
        [
            d.luck
            for level in ("random", "heuristic", "network")
            for a in nardy_self_play(level, (1, 2))
            for g in a.games
            for d in g
            if d.luck is not None
        ]
    )
    assert len(lucks) > 500
    # The luck of a roll is its value less the average roll's: zero on average. The sum
    # stays within four standard errors of zero.
    assert abs(lucks.sum()) < 4 * lucks.std() * np.sqrt(len(lucks))
    assert abs(lucks.mean()) < 0.03


# -- the cube maths against gnubg's own numbers ----------------------------------------------

# gnubg 1.07's 0-ply chances of these positions (the player on roll's, gnubg.evaluate) and
# its cubeful equity of not doubling (gnubg.cfevaluate, its second value), 7-point match,
# Kazaross-XG2 table; owner -1 centred, 0 the player on roll, 1 his opponent.
GNUBG_CUBEFUL = [
    (
        "mxtgAE5zrzEAAQ",
        1,
        -1,
        (4, 0),
        (0.7960707, 0.4424581, 0.017613, 0.0193639, 0.0001716),
        1.072965,
    ),
    (
        "mxtgAE5zrzEAAQ",
        2,
        1,
        (4, 0),
        (0.7960707, 0.4424581, 0.017613, 0.0193639, 0.0001716),
        0.716971,
    ),
    (
        "mxtgAE5zrzEAAQ",
        2,
        0,
        (4, 0),
        (0.7960707, 0.4424581, 0.017613, 0.0193639, 0.0001716),
        0.787798,
    ),
    (
        "4HPwATDgc/ABMA",
        1,
        -1,
        (0, 0),
        (0.5214831, 0.1539093, 0.0075635, 0.1298667, 0.0075485),
        0.092660,
    ),
    (
        "cDODkSHEjByDDQ",
        1,
        -1,
        (4, 0),
        (0.4377013, 0.0972788, 0.0037461, 0.2228469, 0.0124679),
        -0.537479,
    ),
    (
        "KsEj4CZwM4MtQA",
        1,
        -1,
        (4, 0),
        (0.610614, 0.4006015, 0.0366678, 0.10103, 0.0019209),
        0.369609,
    ),
    (
        "KsEj4CZwM4MtQA",
        1,
        -1,
        (0, 0),
        (0.610614, 0.4006015, 0.0366678, 0.10103, 0.0019209),
        0.711278,
    ),
    (
        "KsEj4CZwM4MtQA",
        2,
        1,
        (2, 3),
        (0.610614, 0.4006015, 0.0366678, 0.10103, 0.0019209),
        0.547947,
    ),
]


@pytest.mark.parametrize(
    ("position_id", "cube", "owner", "score", "chances", "equity"), GNUBG_CUBEFUL
)
def test_cubeful_equity_is_gnubgs_for_gnubgs_chances(
    position_id: str,
    cube: int,
    owner: int,
    score: tuple[int, int],
    chances: tuple[float, ...],
    equity: float,
) -> None:
    from games.bots.analysis_equity import Stakes, cubeful

    who = {-1: None, 0: "me", 1: "them"}[owner]
    stakes = Stakes(7, 7 - score[0], 7 - score[1], cube, who, cube_live=True)
    value = cubeful(stakes, np.array([chances]))  # contact: gnubg's efficiency 0.68
    assert float(stakes.emg(value)[0]) == pytest.approx(equity, abs=2e-4)


def test_nardy_one_ply_tells_the_network_from_the_heuristic() -> None:
    # One roll deeper the network's own plays are no longer best by construction.
    settings = MatchSettings(length=1, game=Variant.LONG_NARDY)
    players = (player_for("heuristic", "long-nardy"), player_for("network", "long-nardy"))
    _, actions = play_match(players, settings, 3)
    heuristic, network = analyse_match(settings, actions, ("h", "n"), plies=1).players
    assert heuristic.error_rate > 3 * network.error_rate > 0.0


def test_hints_rank_the_legal_plays() -> None:
    """(Their speed is measured by benchmarks/analysis_bench.py, not here.)"""
    from games.bots.analysis import hints

    moves = _replay_moves(CUBE)
    analysis = analysed(CUBE)
    decisions = [d for g in analysis.games for d in g if d.action == "move"]
    for d, (state, _) in list(zip(decisions, moves, strict=True))[:40]:
        ranked = hints(state)
        if d.best is None:
            assert ranked == []
            continue
        assert 1 <= len(ranked) <= 5
        assert ranked[0].play == d.best and ranked[0].error == 0.0
        assert ranked[0].equity == pytest.approx(d.best_equity, abs=1e-9)
        errors = [h.error for h in ranked]
        assert errors == sorted(errors)


def test_every_corpus_match_is_analysed() -> None:
    # The rules' .mat corpus (resignations, dropped doubles, Crawford games, no cube): its
    # 1- and 3-point matches, the longer ones cost time and add nothing new to the replay.
    corpus = ROOT / "tests" / "data" / "matches-public"
    for path in sorted([*corpus.glob("*_len1_*.mat"), *corpus.glob("*_len3_*.mat")]):
        mat = parse_mat(path.read_text())
        analysis = analyse_mat(path.read_text())
        assert len(analysis.games) == len(mat.games), path.name
        assert sorted(p.result for p in analysis.players) == [-0.5, 0.5], path.name
        for game in analysis.games:
            assert all(d.error >= 0.0 for d in game)
