"""Speed of the match store on PostgreSQL (a benchmark, not a test).

    python benchmarks/store_bench.py [--import]


- replay of a long match (a 25-point match with the cube, played by seeded random legal plays,
  about 1,500 events): cold (events fetched from PostgreSQL and folded through the rules), the
  fetch and the pure fold alone, and with the cached view;
- one command end to end (match_roll / match_play through the services, each its own committed
  transaction, so the view cache behaves as in production): median and p90 over a few hundred;
- the same command on the long match right after the cache was dropped;
- with --import, `import_mat` of the longest public gnubg match;
- with --vs-pgbench SECONDS, the rate at which the services append events (one client, one
  committed command after another, each written by one compare-and-set statement on the
  process's cached view as the computer's turns and the clock's tasks are: events per second
  of time in the services) beside
  pgbench's rate of single-row INSERTs (one client, autocommit, a table shaped like the
  events'), SECONDS each, taking turns of about 3 s so both are measured across the same
  minutes.
Targets: replay < 50 ms cold, command < 10 ms median (issue 3); the services' append rate at
least 1:6 of pgbench's insert rate (issue 11).

DATABASE_URL picks the server (default postgres://postgres@127.0.0.1:5432/tavla_bench); the
script creates that database when it is missing and migrates it. Matches it writes stay there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/tavla_bench"


# -- setting up the database ----------------------------------------------------------------------


def prepare_database(url: str) -> None:
    """Create the database if it is missing, point Django at it and migrate."""
    import environ
    import psycopg
    from psycopg import sql

    db = environ.Env.db_url_config(url)
    if db["ENGINE"] != "django.db.backends.postgresql":
        sys.exit(f"store_bench: DATABASE_URL must be PostgreSQL, got {db['ENGINE']}")
    params = {
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]])
        if exists.fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tavla_project.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


# -- playing --------------------------------------------------------------------------------------


class SeededDice:
    """Reproducible dice (the service's own source is `secrets`)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def opening(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def roll(self) -> Any:
        from games.rules.dice import Dice

        return Dice.of(self.rng.randint(1, 6), self.rng.randint(1, 6))


class Player:
    """Drives one match through the services with seeded random legal plays (and the cube)."""

    def __init__(self, seed: int, *, length: int, cube: bool, double: float, take: float) -> None:
        from django.contrib.auth import get_user_model

        from matches import services

        users = get_user_model().objects
        self.users = [users.get_or_create(username=f"bench-{n}")[0] for n in ("ana", "bob")]
        self.dice = SeededDice(seed)
        self.rng = random.Random(seed + 1)
        self.double, self.take = double, take
        self.services = services
        view = services.match_create(user=self.users[0], length=length, cube=cube)
        self.match_id = view.match_id
        self.view = services.match_join(match_id=self.match_id, user=self.users[1], dice=self.dice)

    @property
    def over(self) -> bool:
        return self.view.state.is_over

    def next_command(self) -> tuple[str, Callable[[], Any]]:
        """The next command (its name and a call that runs it), decided on the last view."""
        from games.rules.match import Phase

        s = self.services
        state = self.view.state
        seat = state.to_act
        common = {
            "match_id": self.match_id,
            "user": self.users[seat],
            "dice": self.dice,
            "expected_version": self.view.version,
        }
        if state.phase == Phase.DOUBLED:
            command = s.match_take if self.rng.random() < self.take else s.match_drop
            return command.__name__, lambda: command(**common)
        if state.phase == Phase.ROLL:
            if state.may_double(seat) and state.cube < 4 and self.rng.random() < self.double:
                return "match_double", lambda: s.match_double(**common)
            return "match_roll", lambda: s.match_roll(**common)
        play = self.rng.choice(state.legal_plays())
        steps = [[step.frm, step.to] for step in play.steps]
        return "match_play", lambda: s.match_play(play=steps, **common)

    def step(self) -> tuple[str, float]:
        """Run the next command; return its name and its wall time in seconds."""
        name, run = self.next_command()
        start = time.perf_counter()
        self.view = run()
        return name, time.perf_counter() - start


# -- measuring ------------------------------------------------------------------------------------


def times(run: Callable[[], Any], rounds: int) -> list[float]:
    out = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        out.append(time.perf_counter() - start)
    return out


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


ROWS: list[tuple[str, list[float]]] = []


def record(label: str, values: list[float]) -> None:
    ROWS.append((label, values))


def print_table(title: str) -> None:
    print(title)
    print(f"  {'':<46}{'n':>5}{'median':>10}{'p90':>10}{'min':>10}")
    for label, values in ROWS:
        ms = [v * 1000 for v in values]
        print(
            f"  {label:<46}{len(ms):>5}{statistics.median(ms):>8.2f}ms{p90(ms):>8.2f}ms"
            f"{min(ms):>8.2f}ms"
        )


def long_match(seed: int, events_wanted: int, attempts: int = 4) -> tuple[Player, float]:
    """A 25-point match with the cube, played to its end by committed commands: the first
    seed from `seed` on whose match has about `events_wanted` events (or the closest)."""
    from matches import store

    best: tuple[float, Player, float] | None = None
    for attempt in range(attempts):
        started = time.perf_counter()
        player = Player(seed + attempt, length=25, cube=True, double=0.05, take=0.9)
        while not player.over:
            player.step()
        took = time.perf_counter() - started
        count = len(store.stored_events(player.match_id))
        miss = abs(count - events_wanted) / events_wanted
        if best is None or miss < best[0]:
            best = (miss, player, took)
        if miss < 0.15:
            break
    assert best is not None
    return best[1], best[2]


PGBENCH_SCRIPT = """INSERT INTO bench_single_insert (match, seq, type, payload, created_at)
VALUES (gen_random_uuid(), 1, 'rolled', '{"v": 1, "seat": 0, "dice": [6, 5]}', now());
"""


class Appender:
    """The services' side of the append rate: committed commands (and the creation of each
    match), one client, one after another, in as many turns as asked. The client's choice of
    a play (the legal plays of its position, computed here by the rules) is its thinking
    time, not the service's, and is left out."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.events = 0  # of the finished matches
        self.inside = 0.0  # seconds spent in the services
        self.player = self.new_player()

    def new_player(self) -> Player:
        started = time.perf_counter()
        player = Player(self.seed + self.events, length=25, cube=False, double=0.0, take=1.0)
        self.inside += time.perf_counter() - started
        return player

    def run(self, seconds: float) -> None:
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            if self.player.over:
                self.events += self.player.view.version
                self.player = self.new_player()
            self.inside += self.player.step()[1]

    def rate(self) -> tuple[float, int]:
        """Events per second in the services, and the events appended."""
        from matches import store

        player = self.player
        assert len(store.stored_events(player.match_id)) == player.view.version
        events = self.events + player.view.version
        return events / self.inside, events


def rates_side_by_side(
    url: str, seconds: float, seed: int, turn: float
) -> tuple[float, int, float]:
    """The services' append rate and pgbench's insert rate, `seconds` each, taking turns of
    about `turn` seconds: the machine's speed drifts from minute to minute, and measured one
    after the other the ratio moved with it. The services' events per second, their events,
    and pgbench's INSERTs per second."""
    turns = max(1, round(seconds / turn))
    each = max(1, round(seconds / turns))  # pgbench counts whole seconds
    appender = Appender(seed)
    inserts = 0.0
    for _ in range(turns):
        appender.run(each)
        inserts += pgbench_rate(url, each) * each
    services, events = appender.rate()
    return services, events, inserts / (turns * each)


def pgbench_rate(url: str, seconds: float) -> float:
    """pgbench's single-row INSERTs per second (one client, autocommit) into a table shaped
    like the events'."""
    import shutil
    import subprocess
    import tempfile

    import environ
    import psycopg

    db = environ.Env.db_url_config(url)
    with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_single_insert (id bigserial PRIMARY KEY,"
            " match uuid NOT NULL, seq integer NOT NULL, type varchar(32) NOT NULL,"
            " payload jsonb NOT NULL, created_at timestamptz NOT NULL)"
        )
        conn.execute("TRUNCATE bench_single_insert")
    pgbench = shutil.which("pgbench")
    if pgbench is None:
        sys.exit("store_bench: pgbench is not installed (PostgreSQL's client packages)")
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
        script.write(PGBENCH_SCRIPT)
        script.flush()
        args = [pgbench, "-n", "-c", "1", "-j", "1", "-T", str(int(seconds)), "-f", script.name]
        for flag, key in (("-h", "HOST"), ("-p", "PORT"), ("-U", "USER")):
            if db.get(key):
                args += [flag, str(db[key])]
        env = {**os.environ, "PGPASSWORD": str(db.get("PASSWORD") or "")}
        out = subprocess.run(
            [*args, db["NAME"]], capture_output=True, text=True, check=True, env=env
        ).stdout
    line = next(x for x in out.splitlines() if x.startswith("tps ="))
    return float(line.split()[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=30, help="replays timed per variant")
    parser.add_argument("--commands", type=int, default=300, help="commands timed end to end")
    parser.add_argument("--import", dest="import_", action="store_true", help="time import_mat")
    parser.add_argument(
        "--vs-pgbench", type=float, default=0.0, metavar="SECONDS", help="append rate vs pgbench"
    )
    parser.add_argument("--only-rates", action="store_true", help="with --vs-pgbench: only that")
    parser.add_argument("--json", action="store_true", help="with --only-rates: print JSON")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    prepare_database(url)

    if args.vs_pgbench:
        load = os.getloadavg()[0]
        services, events, inserts = rates_side_by_side(
            url, args.vs_pgbench, args.seed + 500, turn=3.0
        )
        if args.json:
            print(
                json.dumps(
                    {
                        "seconds": args.vs_pgbench,
                        "load_average": round(load, 2),
                        "services_events_per_second": round(services, 1),
                        "events": events,
                        "pgbench_inserts_per_second": round(inserts, 1),
                        "ratio": round(inserts / services, 2),
                    }
                )
            )
        else:
            print(
                f"append rate ({args.vs_pgbench:.0f} s each, one client, load {load:.1f}):"
                f" services {services:.0f} events/s ({events} events), pgbench single-row"
                f" INSERT {inserts:.0f}/s: 1:{inserts / services:.1f} (target at most 1:6)"
            )
        if args.only_rates:
            return

    from matches import store
    from matches.store.replay import MatchView, replay

    # (a) replay of a long match
    player, built = long_match(args.seed, 1500)
    match_id = player.match_id
    events = store.stored_events(match_id)
    state = player.view.state
    cold = store.load_view(match_id, cached=False)
    assert cold == replay(events, MatchView(match_id)) == store.load_view(match_id)
    record(
        "replay cold: fetch + fold (load_view)",
        times(lambda: store.load_view(match_id, cached=False), args.rounds),
    )
    record(
        "  fetch the events from PostgreSQL",
        times(lambda: store.stored_events(match_id), args.rounds),
    )
    record(
        "  fold alone (pure replay)",
        times(lambda: replay(events, MatchView(match_id)), args.rounds),
    )
    store.load_view(match_id)  # the cache at the head
    record(
        "replay with the cached view (load_view)",
        times(lambda: store.load_view(match_id), args.rounds),
    )

    # (b) one command end to end, committed
    fresh = Player(args.seed + 100, length=25, cube=False, double=0.0, take=1.0)
    by_name: dict[str, list[float]] = {}
    for _ in range(args.commands):
        if fresh.over:  # pragma: no cover - a 25-point match outlasts the commands
            break
        name, took = fresh.step()
        by_name.setdefault(name, []).append(took)
    record("command end to end: match_roll", by_name["match_roll"])
    record("command end to end: match_play", by_name["match_play"])
    record("command end to end: all", [t for ts in by_name.values() for t in ts])

    # the same on the long match with the cache dropped before each command
    cold_commands = []
    other = Player(args.seed + 200, length=25, cube=False, double=0.0, take=1.0)
    for _ in range(len(events) // 2):
        if other.over:
            break
        other.step()
    other_events = len(store.stored_events(other.match_id))
    for _ in range(20):
        store.forget(other.match_id)
        cold_commands.append(other.step()[1])
    record(f"command, cache dropped ({other_events}-event match)", cold_commands)

    if args.import_:
        from matches.interop.importing import import_mat

        mat = ROOT / "tests" / "data" / "matches-public" / "match_39_len7_nocube.mat"
        record("import_mat match_39_len7_nocube.mat", times(lambda: import_mat(mat.read_text()), 1))

    print_table(
        f"store benchmark on {url.rsplit('/', 1)[-1]}: replayed match 25-point with cube,"
        f" {len(events)} events, {len(state.games)} games, score {state.score[0]}-"
        f"{state.score[1]} (played in {built:.0f} s); {os.cpu_count()} CPUs,"
        f" load {os.getloadavg()[0]:.1f}"
    )
    print("  targets: replay cold < 50 ms, command < 10 ms median")


if __name__ == "__main__":
    main()
