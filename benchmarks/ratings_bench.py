"""What ratings and quick pairing cost on PostgreSQL (a benchmark, not a test).

    python benchmarks/ratings_bench.py [--matches 300] [--players 100] [--seekers 50]
                                       [--rounds 5]

- the end of a match: the forfeit command of a rated online match (the ratings applied in its
  transaction, under the game's lock) against the same command on a match created unrated,
  interleaved, median and p90 in ms and their ratio;
- `rebuild_ratings` of the game over every rated match stored (replaying each stream):
  seconds and matches per second;
- quick pairing: `--seekers` threads post seeks at once (one connection each), `--rounds`
  times: seconds per round and pairs per second, and that every round paired everybody.

The endings are instant forfeits, so the run sets TAVLA_RATED_MIN_MOVES=0 (and a pairs' cap
that never refuses) unless they are set.

DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/tavla_ratings_bench);
the script creates and migrates that database when missing. What it writes stays there.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/tavla_ratings_bench"


def players(prefix: str, n: int) -> list[Any]:
    from django.contrib.auth import get_user_model

    from matches.store.models import PlayerProfile

    users = []
    for i in range(n):
        user, made = get_user_model().objects.get_or_create(username=f"{prefix}{i}")
        if made:
            PlayerProfile.objects.create(user=user, kind="registered")
        users.append(user)
    return users


def started(a: Any, b: Any, length: int, rated: bool) -> Any:
    from matches import services

    view = services.match_create(user=a, length=length, rated=rated)
    services.match_join(match_id=view.match_id, user=b)
    return view.match_id


def ms(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(len(values) * 0.9)]
    return f"median {statistics.median(values):6.2f} ms, p90 {p90:6.2f} ms"


def endings(pool: list[Any], n: int, rng: random.Random) -> None:
    from matches import services

    rated, friendly = [], []
    for _ in range(n):
        for kind, times in ((True, rated), (False, friendly)):
            a, b = rng.sample(pool, 2)
            match_id = started(a, b, rng.choice([1, 3, 5, 7]), kind)
            start = time.perf_counter()
            services.match_forfeit(match_id=match_id, seat=rng.choice([0, 1]))
            times.append((time.perf_counter() - start) * 1000)
    print(f"end of a rated match   : {ms(rated)}")
    print(f"end of an unrated match: {ms(friendly)}")
    ratio = statistics.median(rated) / statistics.median(friendly)
    print(f"ratio rated / unrated (medians): {ratio:.2f}")


def rebuild() -> None:
    from matches.services import ratings

    start = time.perf_counter()
    (done,) = ratings.rebuild("tavla")
    seconds = time.perf_counter() - start
    rate = done.matches / seconds if seconds else 0
    print(
        f"rebuild: {done.matches} rated matches, {done.players} players in {seconds:.2f} s"
        f" ({rate:.0f} matches/s)"
    )


def pairing(seekers: int, rounds: int) -> None:
    """Each round new players (the last round's are playing their matches)."""
    from django.db import connection

    from matches.services import seeks
    from matches.store.models import Seek

    times = []
    for r in range(rounds):
        pool = players(f"seeker{time.time_ns()}-", seekers)
        barrier = threading.Barrier(seekers)
        errors: list[BaseException] = []

        def seek(
            user: Any, barrier: threading.Barrier = barrier, errors: list[Any] = errors
        ) -> None:
            try:
                barrier.wait()
                seeks.seek(user, seeks.SeekRequest(length=3))
            except BaseException as exc:
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=seek, args=(u,)) for u in pool]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        times.append(time.perf_counter() - start)
        ids = [u.pk for u in pool]
        paired = Seek.objects.filter(user_id__in=ids, status="paired").count()
        waiting = Seek.objects.filter(user_id__in=ids, status="waiting").count()
        print(f"  round {r + 1}: {paired} paired, {waiting} waiting, {len(errors)} errors")
    per_round = statistics.median(times)
    print(
        f"pairing: {seekers} seekers at once, median {per_round:.2f} s per round"
        f" ({seekers / 2 / per_round:.0f} matches started per second)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300, help="rated and unrated endings")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seekers", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    # the endings are instant forfeits: no minimum of play, and the pairs' cap so high that
    # its query runs and never refuses (docs/ratings.md, "Fair play")
    os.environ.setdefault("TAVLA_RATED_MIN_MOVES", "0")
    os.environ.setdefault("TAVLA_RATED_PAIR_PER_DAY", "1000000")
    from store_bench import prepare_database

    prepare_database(os.environ.get("DATABASE_URL", DEFAULT_URL))
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"load: {load}")
    rng = random.Random(16)
    endings(players("rated", args.players), args.matches, rng)
    rebuild()
    pairing(args.seekers, args.rounds)


if __name__ == "__main__":
    main()
