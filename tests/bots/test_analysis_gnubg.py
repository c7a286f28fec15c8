"""The analysis against GNU Backgammon's own analysis of the public set (issue 27's figures).

tests/data/analysis-public holds 10 matches gnubg played against itself with noise and its
0-ply cubeful analysis of each; benchmarks/analysis_bench.py computes the figures. The
analysis at its default lookahead (the network of the top level, distilled from gnubg's
0-ply evaluations, with the best and the played play valued one roll deeper too:
docs/analysis.md) meets the issue's five targets; the figures reached today are a floor
that a change of the analysis must not fall below.
"""

from __future__ import annotations

from functools import cache

from benchmarks.analysis_bench import TARGETS, Compared, compare_all, figures


@cache
def public() -> tuple[list[Compared], dict[str, float]]:
    matches = compare_all()
    return matches, figures(matches)


def test_every_match_lines_up_with_gnubgs_analysis() -> None:
    matches, found = public()
    assert len(matches) == 10
    assert found["plays"] == 1319  # gnubg's unforced checker plays, all of them paired
    for m in matches:
        assert len(m.ours) == len(m.theirs) > 0


def test_the_figures_reached_today() -> None:
    _, f = public()
    assert f["ratio"] < 1.15  # 1.12
    assert f["correlation"] > 0.975  # 0.980
    assert f["recall"] > 0.96  # 96.4 %
    assert f["precision"] > 0.85  # 85.8 %
    assert f["within"] > 0.83  # 83.9 %


def test_the_issues_targets_met() -> None:
    _, f = public()
    assert f["correlation"] >= TARGETS["correlation"]
    assert f["recall"] >= TARGETS["recall"]
    assert f["within"] >= TARGETS["within"]
    assert f["precision"] >= TARGETS["precision"]


def test_the_issues_ratio_target() -> None:
    _, f = public()
    low, high = TARGETS["ratio"]
    assert low <= f["ratio"] <= high


def test_cube_values_are_close_to_gnubgs() -> None:
    import numpy as np

    from benchmarks.analysis_bench import PUBLIC, cube_pairs

    pairs = np.array([p for mat in sorted(PUBLIC.glob("*.mat")) for p in cube_pairs(mat)])
    assert len(pairs) == 16  # every double of the set
    no_double = np.abs(pairs[:, 0] - pairs[:, 2])
    double_take = np.abs(pairs[:, 1] - pairs[:, 3])
    # Match winning chances; measured 0.009 and 0.016 on average, 0.04 and 0.065 at most
    # with the TD network, 0.004 and 0.007, 0.011 and 0.023 with the distilled one.
    assert no_double.mean() < 0.015 and no_double.max() < 0.05
    assert double_take.mean() < 0.025 and double_take.max() < 0.08
