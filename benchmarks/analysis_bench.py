"""Post-game analysis against GNU Backgammon's, and its speed (a benchmark, not a test):
`python benchmarks/analysis_bench.py [DIR] [--plies N] [--weights W.npz]` (`--weights`: other
tavla weights than the committed ones, e.g. from games/bots/distill_train.py).

DIR (default tests/data/analysis-public, a copy of the oracle's public set) holds `.mat`
matches gnubg played against itself with noise and, beside each, gnubg's own 0-ply cubeful
analysis (`.json`, its README says what each field means). Every match is analysed by
`games.bots.analysis` and compared over the unforced checker plays (more than one legal
play), decision by decision, on the figures issue 27 sets (targets in brackets):

- the median over players of (our error rate / gnubg's) (0.75 to 1.33; players gnubg finds
  no error for have no ratio and are left out, and the count is printed);
- the correlation of the players' error rates (>= 0.93);
- of the plays gnubg marks bad or very bad, the share we mark at least doubtful (>= 90 %);
- of the plays we mark bad or very bad, the share at least doubtful for gnubg (>= 80 %);
- our error within 0.02 of gnubg's (>= 75 % of the plays);

then, for every double of the set, our no double and double/take values against gnubg's
(match winning chances), and the CPU time of each match and per decision (the target: a
7-point match, about 400 decisions, under 5 s). tests/bots/test_analysis_gnubg.py runs the
same comparison.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# isort: off
import games.bots  # noqa: E402  (before numpy: it sets one BLAS thread)
import numpy as np  # noqa: E402

# isort: on
from games.bots.analysis import (  # noqa: E402
    DEFAULT_PLIES,
    Analyser,
    Analysis,
    analyse_mat,
    hints,
    stakes_for,
)
from games.rules import Double, MatchState, Move, apply, mat_actions, parse_mat  # noqa: E402

PUBLIC = ROOT / "tests" / "data" / "analysis-public"
TARGETS = {
    "ratio": (0.75, 1.33),
    "correlation": 0.93,
    "recall": 0.90,
    "precision": 0.80,
    "within": 0.75,
}


@dataclass
class Compared:
    """One match's unforced checker plays, ours and gnubg's errors side by side."""

    name: str
    ours: list[float]
    theirs: list[float]
    players: list[int]
    rates: list[tuple[float, float]]  # per player: (ours, gnubg's) error rate, mEMG
    luck: list[tuple[float, float]]  # per checker play with a roll: (ours, gnubg's) luck, EMG
    decisions: int
    seconds: float


def compare(mat: Path, plies: int = DEFAULT_PLIES) -> Compared:
    """Analyse `mat` and pair its checker plays with gnubg's analysis beside it."""
    oracle = json.loads(mat.with_suffix(".json").read_text())
    start = time.process_time()
    analysis: Analysis = analyse_mat(mat.read_text(), plies)
    seconds = time.process_time() - start
    ours_games = [[d for d in g if d.action == "move"] for g in analysis.games]
    theirs_games = [[d for d in g["decisions"] if d["action"] == "move"] for g in oracle["games"]]
    if len(ours_games) != len(theirs_games):
        raise ValueError(f"{mat.name}: {len(ours_games)} games, gnubg has {len(theirs_games)}")
    ours, theirs, players, luck = [], [], [], []
    for mine, gnubg in zip(ours_games, theirs_games, strict=True):
        if len(mine) != len(gnubg):
            raise ValueError(f"{mat.name}: {len(mine)} checker plays, gnubg has {len(gnubg)}")
        for a, b in zip(mine, gnubg, strict=True):
            if a.player != b["player"] or list(a.dice or ()) != b["dice"]:
                raise ValueError(f"{mat.name}: decisions out of step ({a} vs {b})")
            if a.luck is not None and b["luck"] is not None:
                luck.append((a.luck, float(b["luck"])))
            if a.forced:
                continue
            ours.append(a.error)
            theirs.append(float(b["error"]))
            players.append(a.player)
    rates = []
    for seat in (0, 1):
        moves = oracle["stats"][seat]["moves"]
        gnubg_rate = 1000.0 * moves["error-skill"] / max(moves["unforced-moves"], 1)
        rates.append((analysis.players[seat].checker_error_rate, gnubg_rate))
    total = sum(len(g) for g in analysis.games)
    return Compared(mat.stem, ours, theirs, players, rates, luck, total, seconds)


def figures(matches: list[Compared]) -> dict[str, float]:
    """The five figures over all the matches (see the module's docstring)."""
    ours = np.array([e for m in matches for e in m.ours])
    theirs = np.array([e for m in matches for e in m.theirs])
    rates = np.array([r for m in matches for r in m.rates])
    ratios = [a / b for a, b in rates if b > 0]
    gnubg_bad = theirs >= 0.08
    ours_bad = ours >= 0.08
    return {
        "ratio": float(statistics.median(ratios)),
        "ratio_players": float(len(ratios)),
        "correlation": float(np.corrcoef(rates[:, 0], rates[:, 1])[0, 1]),
        "recall": float((ours[gnubg_bad] >= 0.04).mean()) if gnubg_bad.any() else 1.0,
        "precision": float((theirs[ours_bad] >= 0.04).mean()) if ours_bad.any() else 1.0,
        "within": float((np.abs(ours - theirs) <= 0.02).mean()),
        "plays": float(len(ours)),
    }


def cube_pairs(mat: Path) -> list[tuple[float, float, float, float]]:
    """For each double in `mat`: (our ND, our DT, gnubg's ND, gnubg's DT), the doubler's
    match winning chances before his roll."""
    oracle = json.loads(mat.with_suffix(".json").read_text())
    theirs = [
        d["cube_analysis"]
        for g in oracle["games"]
        for d in g["decisions"]
        if d["action"] == "double"
    ]
    settings, actions = mat_actions(parse_mat(mat.read_text()))
    analyser = Analyser(settings)
    state = MatchState.new(settings)
    found = []
    for action in actions:
        if isinstance(action, Double):
            nd, dt, _ = analyser.cube_values(state, action.player)
            s = stakes_for(state, action.player)
            win, lose = s.value(s.cube), s.value(-s.cube)
            gnubg = theirs[len(found)]
            found.append(
                (
                    (nd * (win - lose) + win + lose) / 2,
                    (dt * (win - lose) + win + lose) / 2,
                    float(gnubg["nd-cubeful-eq"]),
                    float(gnubg["dt-cubeful-eq"]),
                )
            )
        state = apply(state, action)
    return found


def compare_all(folder: Path = PUBLIC, plies: int = DEFAULT_PLIES) -> list[Compared]:
    return [compare(mat, plies) for mat in sorted(folder.glob("*.mat"))]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=PUBLIC)
    parser.add_argument("--plies", type=int, default=DEFAULT_PLIES)
    parser.add_argument("--weights", type=Path, help="other weights for the tavla network")
    args = parser.parse_args()
    if args.weights:
        games.bots.WEIGHTS = args.weights
        games.bots.evaluator.cache_clear()
    matches = compare_all(args.folder, args.plies)
    print(f"{'match':32} {'plays':>5}  {'ours':>6} {'gnubg':>6}  {'ours':>6} {'gnubg':>6}")
    for m in matches:
        (a0, g0), (a1, g1) = m.rates
        print(f"{m.name:32} {len(m.ours):5}  {a0:6.1f} {g0:6.1f}  {a1:6.1f} {g1:6.1f}")
    f = figures(matches)
    lo, hi = TARGETS["ratio"]
    print(f"\n{int(f['plays'])} unforced checker plays, {args.plies}-ply analysis")
    print(
        f"median error-rate ratio   {f['ratio']:.3f}   (target {lo}-{hi}; "
        f"{int(f['ratio_players'])} players with a gnubg error)"
    )
    print(
        f"error-rate correlation    {f['correlation']:.3f}   (target >= {TARGETS['correlation']})"
    )
    print(f"gnubg's bad, ours marked  {f['recall']:.1%}   (target >= {TARGETS['recall']:.0%})")
    print(
        f"our bad, gnubg's marked   {f['precision']:.1%}   (target >= {TARGETS['precision']:.0%})"
    )
    print(f"within 0.02 of gnubg      {f['within']:.1%}   (target >= {TARGETS['within']:.0%})")
    pairs = np.array([p for mat in sorted(args.folder.glob("*.mat")) for p in cube_pairs(mat)])
    if len(pairs):
        nd, dt = np.abs(pairs[:, 0] - pairs[:, 2]), np.abs(pairs[:, 1] - pairs[:, 3])
        print(
            f"\n{len(pairs)} doubles: |our - gnubg's| MWC, no double mean {nd.mean():.4f} max"
            f" {nd.max():.4f}, double/take mean {dt.mean():.4f} max {dt.max():.4f}"
        )
    luck = np.array([x for m in matches for x in m.luck])
    print(
        f"luck of {len(luck)} rolls: correlation with gnubg's {np.corrcoef(luck.T)[0, 1]:.3f},"
        f" mean |difference| {np.abs(luck[:, 0] - luck[:, 1]).mean():.4f} EMG"
    )
    print("\nspeed (CPU seconds; target: a 7-point match of ~400 decisions under 5 s)")
    for m in matches:
        ms = 1000.0 * m.seconds / max(m.decisions, 1)
        print(f"{m.name:32} {m.decisions:4} decisions  {m.seconds:6.2f} s  {ms:5.1f} ms each")
    total = sum(m.seconds for m in matches)
    count = sum(m.decisions for m in matches)
    print(f"{'all':32} {count:4} decisions  {total:6.2f} s  {1000 * total / count:5.1f} ms each")
    seconds, decisions = nardy_time(args.plies)
    print(
        f"{'long nardy, 3 points, heuristic':32} {decisions:4} decisions  {seconds:6.2f} s"
        f"  {1000 * seconds / decisions:5.1f} ms each"
    )
    hint_ms = hint_times(sorted(PUBLIC.glob("*.mat"))[0])
    print(
        f"hints (target under 100 ms): {len(hint_ms)} positions, median"
        f" {statistics.median(hint_ms):.1f} ms, slowest {max(hint_ms):.1f} ms (CPU)"
    )
    return 0


def nardy_time(plies: int = DEFAULT_PLIES, seed: int = 1) -> tuple[float, int]:
    """CPU seconds and decisions of the analysis of a 3-point long nardy match between two
    heuristic players (long nardy has no .mat file and no outside reference)."""
    from games.bots import player_for
    from games.bots.analysis import analyse_match
    from games.bots.matchplay import play_match
    from games.rules import MatchSettings, Variant

    settings = MatchSettings(length=3, game=Variant.LONG_NARDY)
    players = (player_for("heuristic", "long-nardy"), player_for("heuristic", "long-nardy"))
    _, actions = play_match(players, settings, seed)
    start = time.process_time()
    analysis = analyse_match(settings, actions, ("a", "b"), plies)
    return time.process_time() - start, sum(len(g) for g in analysis.games)


def hint_times(mat: Path) -> list[float]:
    """CPU ms of `hints` (what GET /matches/{id}/hint will call) at each checker play."""
    settings, actions = mat_actions(parse_mat(mat.read_text()))
    state = MatchState.new(settings)
    spent = []
    for action in actions:
        if isinstance(action, Move):
            start = time.process_time()
            hints(state)
            spent.append(1000.0 * (time.process_time() - start))
        state = apply(state, action)
    return spent


if __name__ == "__main__":
    sys.exit(main())
