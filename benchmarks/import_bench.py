"""The worst `.mat` import the limits allow: its time and memory (a benchmark, not a test).

    python benchmarks/import_bench.py [--runs 3]

Generates, with seeded random players (games.bots.matchplay), a match as long as the import
limits allow (`TAVLA_IMPORT_MAX_GAMES` games, `TAVLA_IMPORT_MAX_ACTIONS` actions: the longest
file a client may send), and the longest public gnubg match of the test data as the floor, and
imports each through `import_mat` (one transaction, no savepoint per command) on PostgreSQL:
wall time, time per action, the Python heap's peak (tracemalloc) and the process's peak RSS.
Printed side by side with the load average (the machine is shared: compare the per-action
ratio, not the absolute times). A file over the limits is refused before anything is written
(the last line shows how fast).

DATABASE_URL as for benchmarks/store_bench.py (default postgres://postgres@127.0.0.1:5432/
tavla_bench; created and migrated if missing).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.store_bench import DEFAULT_URL, prepare_database  # noqa: E402

PUBLIC = ROOT / "tests" / "data" / "matches-public" / "match_39_len7_nocube.mat"


def longest_allowed(max_games: int, max_actions: int) -> tuple[str, int, int]:
    """A seeded random match cut at the limits: (.mat text, games, actions)."""
    from games import bots
    from games.bots.matchplay import play_match
    from games.rules import MatchSettings, export_mat, mat_actions, parse_mat

    player = bots.player_for("random")
    best: tuple[str, int, int] = ("", 0, 0)
    for length in (25, 21, 17, 15, 13, 11, 9):
        for seed in range(8):
            settings = MatchSettings(length=length, cube=True)
            _, actions = play_match((player, player), settings, seed)
            text = export_mat(settings, actions, ("Ana", "Ben"))
            mat = parse_mat(text)
            count = len(mat_actions(mat)[1])
            if len(mat.games) <= max_games and count <= max_actions and count > best[2]:
                best = (text, len(mat.games), count)
        if best[2] > 0.8 * max_actions:
            break
    return best


def measure(text: str) -> tuple[float, float, int]:
    """(seconds, peak heap MiB, the process's peak RSS MiB) of one import."""
    from matches.interop.importing import import_mat

    tracemalloc.start()
    started = time.perf_counter()
    import_mat(text)
    took = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return took, peak / 2**20, int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    prepare_database(os.environ.get("DATABASE_URL", DEFAULT_URL))
    from django.conf import settings

    from games.rules import InvalidMatchFile, mat_actions, parse_mat
    from matches.interop.importing import import_mat

    max_games, max_actions = settings.TAVLA_IMPORT_MAX_GAMES, settings.TAVLA_IMPORT_MAX_ACTIONS
    worst, games, actions = longest_allowed(max_games, max_actions)
    floor = PUBLIC.read_text()
    floor_actions = len(mat_actions(parse_mat(floor))[1])
    print(f"load average {os.getloadavg()[0]:.2f}; limits {max_games} games, {max_actions} actions")
    print(f"{'file':<34}{'bytes':>9}{'actions':>9}{'best s':>9}{'ms/action':>11}{'heap MiB':>10}")
    for name, text, count in (
        ("longest public match (floor)", floor, floor_actions),
        (f"worst allowed ({games} games)", worst, actions),
    ):
        runs = [measure(text) for _ in range(args.runs)]
        best = min(r[0] for r in runs)
        heap = max(r[1] for r in runs)
        print(
            f"{name:<34}{len(text.encode()):>9}{count:>9}{best:>9.2f}"
            f"{1000 * best / count:>11.2f}{heap:>10.1f}"
        )
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak RSS of this process: {peak_rss} MiB")
    settings.TAVLA_IMPORT_MAX_ACTIONS = actions - 1  # the worst file, one action too many
    started = time.perf_counter()
    try:
        import_mat(worst)
    except InvalidMatchFile as exc:
        print(
            f"one action over the limit: refused in {time.perf_counter() - started:.3f} s ({exc})"
        )


if __name__ == "__main__":
    main()
