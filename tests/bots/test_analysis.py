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
from games.bots.analysis import (
    DEFAULT_PLIES,
    Analysis,
    analyse_mat,
    analyse_match,
    mark,
    stakes_for,
)
from games.bots.analysis_equity import Stakes
from games.bots.analysis_eval import Judge
from games.bots.matchplay import play_match
from games.rules import (
    TAVLA,
    MatchSettings,
    MatchState,
    Move,
    Variant,
    apply,
    apply_steps,
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

# The networks evaluate in float32 (games/bots/network.py): the same position evaluated in
# another batch may differ in the 7th digit (the BLAS sums in another order). Equities agree
# to this, far below the 0.001 the player sees.
AGAIN = 1e-6
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
        [sys.executable, "-m", "games.bots", "analyse", str(SMALL), "--plies", "0"],
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
    analysis = analysed(CUBE) if plies == DEFAULT_PLIES else analyse_mat(SMALL.read_text(), plies)
    moves = _replay_moves(CUBE if plies == DEFAULT_PLIES else SMALL)
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
        again = judge.after_play(
            np.array([board_array(best.result)]),
            stakes,
            reply_first_turn=state.first_turn[1 - d.player],
        )
        assert float(stakes.emg(again[0])) == pytest.approx(d.best_equity, abs=AGAIN)
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
    # The analysis's best is the network's choice at 0 plies (at 1 ply only weighed again
    # against the play made, which is the same play here): the network level's plays are
    # its best.
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


def test_nardy_both_lookaheads_tell_the_network_from_the_heuristic() -> None:
    settings = MatchSettings(length=1, game=Variant.LONG_NARDY)
    players = (player_for("heuristic", "long-nardy"), player_for("network", "long-nardy"))
    _, actions = play_match(players, settings, 3)
    for plies in (0, 1):
        heuristic, network = analyse_match(settings, actions, ("h", "n"), plies=plies).players
        assert heuristic.error_rate > 20.0
        assert network.error_rate == 0.0


def _first_errors(path: Path, count: int) -> list[tuple[MatchState, Move]]:
    """The first `count` checker plays of `path` that were not the network's choice."""
    judge = Judge(TAVLA, 0)
    found = []
    for state, move in _replay_moves(path):
        plays = state.legal_plays()
        if len(plays) < 2:
            continue
        stakes = stakes_for(state, move.player)
        results = np.array([board_array(p.result) for p in plays], dtype=np.int64)
        played = apply_steps(state.position_for(move.player), move.steps)
        index = next(i for i, p in enumerate(plays) if p.result == played)
        if int(np.argmax(judge.after_play0(results, stakes))) != index:
            found.append((state, move))
        if len(found) == count:
            break
    return found


def test_one_ply_weighs_the_networks_choice_against_the_play_made() -> None:
    zero, one = Judge(TAVLA, 0), Judge(TAVLA, 1)
    flipped_once = 0
    for state, move in _first_errors(CUBE, 12):
        stakes = stakes_for(state, move.player)
        plays = state.legal_plays()
        results = np.array([board_array(p.result) for p in plays], dtype=np.int64)
        played = apply_steps(state.position_for(move.player), move.steps)
        index = next(i for i, p in enumerate(plays) if p.result == played)
        reply = state.first_turn[1 - move.player]
        choice, choice_value, played_value = zero.judge_play(results, stakes, index, reply)
        assert choice != index and choice_value > played_value
        # At 1 ply the same two plays, each the mean of its 0- and 1-ply values.
        best, best_value, value = one.judge_play(results, stakes, index, reply)
        pair = results[[choice, index]]
        mean = (zero.after_play0(pair, stakes) + one.after_play1(pair, stakes, reply)) / 2
        assert value == pytest.approx(mean[1], abs=AGAIN)
        if best == index:  # one roll deeper the play made was the better
            flipped_once += 1
            assert best_value == value and mean[1] >= mean[0]
        else:
            assert best == choice and best_value == pytest.approx(mean[0], abs=AGAIN)
            assert best_value > value
    assert flipped_once < 12


def test_one_ply_lets_the_opponent_turn_the_cube_first() -> None:
    # Three checkers each on the ace point, the opponent on roll, money: he wins at once with
    # a double, else after the mover's next roll unless that is a double (86 %). With the
    # cube centred he doubles and the mover passes: the mover's value is the cube lost.
    judge = Judge(TAVLA, 1)
    board = [0] * 26
    board[1] = 3  # the mover's ace point (12 of his checkers borne off)
    board[24] = -3  # the opponent's ace point, from the mover's side
    results = np.array([board], dtype=np.int64)
    live = Stakes(0, 0, 0, cube=1, owner=None, cube_live=True)
    assert float(judge.after_play1(results, live)[0]) == pytest.approx(-1.0)
    # Without the cube he plays on: the mover loses about 0.72 on average, not a whole 1.
    dead = Stakes(0, 0, 0, cube=1, owner=None, cube_live=False)
    assert -0.9 < float(judge.after_play1(results, dead)[0]) < -0.5
    # His cube at 2: he redoubles and the mover passes, 2 lost; the mover's cube at 2: he
    # cannot double, and loses less than the 2 at stake.
    his = Stakes(0, 0, 0, cube=2, owner="them", cube_live=True)
    assert float(judge.after_play1(results, his)[0]) == pytest.approx(-2.0)
    mine = Stakes(0, 0, 0, cube=2, owner="me", cube_live=True)
    assert -1.9 < float(judge.after_play1(results, mine)[0]) < -1.0


def test_hints_rank_the_legal_plays() -> None:
    """(Their speed is measured by benchmarks/analysis_bench.py, not here.)"""
    from games.bots.analysis import hints

    moves = _replay_moves(SMALL)
    analysis = analyse_mat(SMALL.read_text(), 0)  # the hints' own lookahead
    decisions = [d for g in analysis.games for d in g if d.action == "move"]
    for d, (state, _) in zip(decisions, moves, strict=True):
        ranked = hints(state)
        if d.best is None:
            assert ranked == []
            continue
        assert 1 <= len(ranked) <= min(5, len(state.legal_plays()))
        assert ranked[0].play == d.best and ranked[0].error == 0.0
        assert ranked[0].equity == pytest.approx(d.best_equity, abs=AGAIN)
        errors = [h.error for h in ranked]
        assert errors == sorted(errors)
        # One roll deeper: the same plays, ranked by the 1-ply standard.
        deeper = hints(state, plies=1)
        assert {h.play for h in deeper} == {h.play for h in ranked}
        assert [h.error for h in deeper] == sorted(h.error for h in deeper)
        assert deeper[0].error == 0.0


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


def test_the_networks_use_one_blas_thread_in_a_fresh_process() -> None:
    """games.bots sets the BLAS thread count before numpy loads (games/bots/__init__.py): the
    networks' small matrices only pay for more threads (2.6 times the CPU, measured)."""
    import subprocess
    import sys

    code = (
        "import sys, os; before = 'numpy' in sys.modules; import games.bots;"
        "print(os.environ['OPENBLAS_NUM_THREADS'], before, 'numpy' in sys.modules)"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.endswith("NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "False", "True"]  # set, then numpy loaded
