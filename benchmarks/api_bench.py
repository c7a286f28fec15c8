"""Speed of the REST API through a real HTTP server (a benchmark, not a test).

    python benchmarks/api_bench.py [--games 64] [--seconds 30] [--state-seconds 15]
                                   [--workers 2] [--no-redis] [--public cache,rows,...]
                                   [--registered]

Starts the web server as deployed (gunicorn with uvicorn workers, deploy/gunicorn.conf.py,
`--workers` processes) on 127.0.0.1 with PostgreSQL and, unless `--no-redis`, a redis-server of
its own on a free port for the cache (tokens, throttles) and the channel layer (pushes), and
signs up one guest per client (`--games` clients; `--registered`: a registered player, who is
rated, as a match against the computer has one), each with its own keep-alive connection,
making one request at a time. Every client first sets up 12 hot-seat matches stopped at random
points of a game (a roll to make, or a roll to play with its legal plays). After a short
warm-up it measures four kinds of work:

- playing (`--seconds`): every client plays a hot-seat match on: roll, then a random legal play
  taken from the roll's response, with the version it decided on (If-Match); a finished match
  is followed by a new one. Moves per second (accepted plays, each a whole turn), server CPU
  per command (roll or play; from /proc, every server process), errors (anything but
  200/201; a 409 would mean two writers raced, which cannot happen here);
- reading states (`--state-seconds`): every client reads its set-up matches' states in turn
  (`GET /matches/{id}`), the positions a client sees rather than one: server CPU per read;
- the floor on the same stack (`--floor-seconds` each): a trivial DRF view (`GET /rules/levels`,
  a constant list) with the client's token, and without one: what any request costs before it
  does anything of its own.

The kinds take turns in slices (`--slice` seconds of the longest per turn, the others in
proportion), so each is measured across the same minutes: this machine's speed drifts by tens
of per cent from one minute to the next, and measured one after the other a kind's ratio to
the floor moved with it. Between slices the clients stop and the last answers come in, so a
slice's server CPU is its own requests'. Each kind reports requests per second and latency
p50 / p90 / p99 per request kind (from the client's side: queueing in the server included).

`--public` leaves out overrides of libraries' private internals, each replaced by the
library's public path (cache, rows, render, wsgi_pool, publish:
settings.TAVLA_PUBLIC_PATHS), to measure what each one saves (docs/private-internals.md).

Only 127.0.0.1 is contacted; every loop is bounded by the time limit. DATABASE_URL picks the
PostgreSQL server (default postgres://postgres@127.0.0.1:5432/tavla_api_bench); the database
is created when missing and migrated. gunicorn is stopped at the end (and on Ctrl-C).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/tavla_api_bench"
HOST = "127.0.0.1"


def prepare_database(url: str) -> None:
    """Create the database if it is missing and migrate it (in a subprocess)."""
    import environ
    import psycopg
    from psycopg import sql

    db = environ.Env.db_url_config(url)
    if db["ENGINE"] != "django.db.backends.postgresql":
        sys.exit(f"api_bench: DATABASE_URL must be PostgreSQL, got {db['ENGINE']}")
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
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=server_env(url),
        check=True,
    )


def server_env(url: str, redis_port: int | None = None, public: str = "") -> dict[str, str]:
    env = dict(os.environ)
    env["TAVLA_PUBLIC_PATHS"] = public
    if redis_port:
        env.update(
            CACHE_URL=f"redis://{HOST}:{redis_port}/1",
            CHANNEL_LAYER_URL=f"redis://{HOST}:{redis_port}/0",
        )
    env.update(
        DATABASE_URL=url,
        DEBUG="false",
        SECRET_KEY="api-bench-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        # the benchmark measures the server, not the rate limits
        API_THROTTLE_AUTH="1000000/min",
        API_THROTTLE_CREATE="1000000/min",
        API_THROTTLE_WRITE="1000000/min",
        API_THROTTLE_ANON_READ="1000000/min",
        API_THROTTLE_GUEST_READ="1000000/min",
        API_THROTTLE_RULES="1000000/min",
        TAVLA_STREAMS_PER_CLIENT="1000000",
        TAVLA_STREAMS_PER_ADDRESS="1000000",
        TAVLA_STREAMS_MAX="1000000",
        # no Celery broker is needed: hot-seat matches schedule no computer turns
        DJANGO_SETTINGS_MODULE="tavla_project.settings",
    )
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def start_redis() -> tuple[int, subprocess.Popen[bytes]]:
    port = free_port()
    redis = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), timeout=0.2).close()
            return port, redis
        except OSError:
            time.sleep(0.05)
    sys.exit("api_bench: redis-server did not start")


def start_server(
    url: str,
    port: int,
    workers: int,
    redis_port: int | None,
    wsgi: bool = False,
    public: str = "",
) -> subprocess.Popen[bytes]:
    env = server_env(url, redis_port, public)
    env.update(WEB_CONCURRENCY=str(workers))
    gunicorn = Path(sys.executable).with_name("gunicorn")
    # --wsgi: the WSGI application on gunicorn's threaded workers (to compare servers, or to
    # measure a checkout from before ASGI)
    app = (
        ["tavla_project.wsgi", "-k", "gthread", "--threads", "8"]
        if wsgi
        else ["tavla_project.asgi:application"]
    )
    server = subprocess.Popen(
        [
            str(gunicorn),
            *app,
            "-c",
            "deploy/gunicorn.conf.py",
            "--bind",
            f"{HOST}:{port}",
            "--access-logfile",
            "/dev/null",
            "--keep-alive",
            "30",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("api_bench: gunicorn exited at start")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    sys.exit("api_bench: gunicorn did not answer /healthz within 30 s")


def server_cpu_seconds(server: subprocess.Popen[bytes]) -> float:
    """CPU time (user + system) of gunicorn's master and workers so far, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # after the name: state ppid pgrp ... utime(12) stime(13) (0-based from state)
        if int(fields[2]) == server.pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(5)


class Client:
    """One keep-alive connection; records the latency of every request by kind."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)
        self.headers = {"Content-Type": "application/json", "Connection": "keep-alive"}
        if token:
            self.headers["Authorization"] = f"Token {token}"

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, float]:
        data = json.dumps(body).encode() if body is not None else None
        t0 = time.perf_counter()
        try:
            sent = {k: v for k, v in {**self.headers, **(headers or {})}.items() if v}
            self.conn.request(method, path, data, sent)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
            raise
        elapsed = time.perf_counter() - t0
        return response.status, json.loads(raw) if raw else None, elapsed


KINDS = ("play", "state", "floor", "floor_anonymous")
"""What the clients do in a slice: commands (hot-seat matches played on), state reads, the
trivial view with the token, and without one."""


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        self.errors: dict[str, int] = defaultdict(int)
        self.moves = 0
        self.matches_finished = 0
        self.recording = False
        self.phase = "setup"  # a kind, or "pause"
        self.busy = 0  # clients between reading the phase and their request's answer
        self.ready = 0  # clients whose state-read matches are set up

    def record(self, phase: str, kind: str, status: int, elapsed: float) -> None:
        """A request of `kind` (roll, play, create, ...) made in `phase`."""
        if not self.recording:
            return
        with self.lock:
            self.latency[phase][kind].append(elapsed)
            if status not in (200, 201):
                self.errors[f"{kind} {status}"] += 1
            elif kind == "play":
                self.moves += 1

    def begin(self) -> str:
        """The phase a client acts in now; it counts as busy until `end`."""
        with self.lock:
            self.busy += 1
            return self.phase

    def end(self) -> None:
        with self.lock:
            self.busy -= 1

    def pause(self) -> None:
        """Stop the clients between requests and wait for the last answers."""
        with self.lock:
            self.phase = "pause"
        deadline = time.monotonic() + 120
        while self.busy and time.monotonic() < deadline:
            time.sleep(0.001)


def client_loop(
    port: int, token: str, seed: int, stats: Stats, stop: threading.Event, length: int
) -> None:
    """One client thread. First it sets up `STATE_MATCHES` matches stopped at random points
    of a game (a roll to make, or a roll to play with its legal plays); then, one request at
    a time, it does what the phase asks: plays on its hot-seat match (roll, then a random
    legal play with the version it decided on; a finished match is followed by a new one),
    reads the states of its set-up matches in turn (the positions a client sees, not one
    position), or calls the trivial view with or without its token."""
    rng = random.Random(seed)
    client = Client(port, token)
    phase = "setup"

    def call(kind: str, method: str, path: str, body: Any = None, **headers: str) -> Any:
        status, data, elapsed = client.call(method, path, body, headers or None)
        stats.record(phase, kind, status, elapsed)
        return status, data

    def advance(state: dict[str, Any], path: str) -> tuple[int, dict[str, Any]]:
        """One command (roll, or a random legal play with the version it decided on)."""
        if_match = {"If-Match": f'"{state["version"]}"'}
        if "play" in state["actions"]:
            play = rng.choice(state["legal_plays"])
            return call("play", "POST", f"{path}/play", {"play": play["notation"]}, **if_match)
        if "roll" in state["actions"]:
            return call("roll", "POST", f"{path}/roll", {}, **if_match)
        return call("state", "GET", path)  # pragma: no cover - hot-seat always has an action

    def play_step(game: tuple[str, dict[str, Any]] | None) -> tuple[str, dict[str, Any]]:
        """One request of hot-seat play: a new match, or a command on the current one (after
        a refused command, the state read again)."""
        if game is None:
            status, state = call(
                "create", "POST", "/api/v1/matches", {"mode": "hotseat", "length": length}
            )
            if status != 201:
                raise RuntimeError(f"api_bench: creating a match answered {status}: {state}")
            return f"/api/v1/matches/{state['id']}", state
        path, state = game
        status, new = advance(state, path)
        return path, new if status == 200 else call("state", "GET", path)[1]

    paths = []
    for _ in range(STATE_MATCHES):
        status, state = call("setup", "POST", "/api/v1/matches", {"mode": "hotseat", "length": 7})
        path = f"/api/v1/matches/{state['id']}"
        for _ in range(rng.randrange(0, 60)):
            status, new = advance(state, path)
            if status != 200 or new["status"] != "active":
                break
            state = new
        paths.append(path)
    with stats.lock:
        stats.ready += 1

    game: tuple[str, dict[str, Any]] | None = None  # the match played on, and its state
    reads = 0
    while not stop.is_set():
        phase = stats.begin()
        try:
            if phase == "play":
                game = play_step(game)
                if game[1]["status"] == "finished":
                    game = None
                    with stats.lock:
                        stats.matches_finished += 1
            elif phase == "state":
                call("state", "GET", paths[reads % len(paths)])
                reads += 1
            elif phase in ("floor", "floor_anonymous"):
                # an empty value: the header is not sent
                anonymous = {"Authorization": ""} if phase == "floor_anonymous" else {}
                call(phase, "GET", "/api/v1/rules/levels", **anonymous)
        finally:
            stats.end()
        if phase not in KINDS:
            time.sleep(0.002)


STATE_MATCHES = 12  # per client, for the state reads


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def latency_table(latency: dict[str, list[float]]) -> dict[str, Any]:
    everything = [x for values in latency.values() for x in values]
    out: dict[str, Any] = {}
    for kind, values in [*sorted(latency.items()), ("all", everything)]:
        if values:
            out[kind] = {
                "n": len(values),
                "p50": round(percentile(values, 50) * 1000, 1),
                "p90": round(percentile(values, 90) * 1000, 1),
                "p99": round(percentile(values, 99) * 1000, 1),
                "mean": round(statistics.fmean(values) * 1000, 1),
            }
    return out


def run_slices(
    stats: Stats, server: subprocess.Popen[bytes], seconds: dict[str, float], rounds: int
) -> dict[str, dict[str, Any]]:
    """Measure each kind for its `seconds`, in `rounds` slices that take turns: the machine's
    speed drifts from minute to minute, and every kind (the floors too) gets its share of
    each minute, so their ratios hold. Between slices the clients stop and the last answers
    come in, so the server's CPU of a slice is the CPU of that slice's requests."""
    cpu: dict[str, float] = defaultdict(float)
    elapsed: dict[str, float] = defaultdict(float)
    client_cpu: dict[str, float] = defaultdict(float)
    moves: dict[str, int] = defaultdict(int)
    with stats.lock:
        stats.latency.clear()
    for _ in range(rounds):
        for kind in KINDS:
            stats.pause()
            with stats.lock:
                moves_before = stats.moves
            cpu0 = server_cpu_seconds(server), resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.perf_counter()
            stats.recording = True
            with stats.lock:
                stats.phase = kind
            time.sleep(seconds[kind] / rounds)
            stats.pause()
            stats.recording = False
            elapsed[kind] += time.perf_counter() - t0
            cpu1 = server_cpu_seconds(server), resource.getrusage(resource.RUSAGE_SELF)
            cpu[kind] += cpu1[0] - cpu0[0]
            client_cpu[kind] += (
                cpu1[1].ru_utime + cpu1[1].ru_stime - cpu0[1].ru_utime - cpu0[1].ru_stime
            )
            with stats.lock:
                moves[kind] += stats.moves - moves_before
    out = {}
    with stats.lock:
        latency = {k: {kind: list(v) for kind, v in stats.latency[k].items()} for k in KINDS}
    for kind in KINDS:
        requests = sum(len(v) for v in latency[kind].values())
        out[kind] = {
            "seconds": round(elapsed[kind], 1),
            "requests": requests,
            "requests_per_second": round(requests / elapsed[kind], 1),
            "moves_per_second": round(moves[kind] / elapsed[kind], 1),
            "server_cpu_ms_per_request": round(cpu[kind] * 1000 / max(requests, 1), 2),
            "client_cpu_seconds": round(client_cpu[kind], 1),
            "latency_ms": latency_table(latency[kind]),
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--state-seconds", type=float, default=15.0)
    parser.add_argument("--floor-seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--slice", type=float, default=3.0, help="seconds of the longest kind per turn"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-redis", action="store_true", help="no cache, no channel layer")
    parser.add_argument("--wsgi", action="store_true", help="serve WSGI (gthread) instead")
    parser.add_argument("--length", type=int, default=3, help="points per match")
    parser.add_argument(
        "--registered",
        action="store_true",
        help="registered players instead of guests: rated, so every state shows their rating"
        " (as in every match against the computer)",
    )
    parser.add_argument(
        "--public",
        default="",
        help="overrides to leave out for the library's public path: comma-separated, of"
        " cache, rows, render, wsgi_pool, publish",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)

    prepare_database(url)
    redis_port, redis = (None, None) if args.no_redis else start_redis()
    port = free_port()
    server = start_server(url, port, args.workers, redis_port, args.wsgi, args.public)
    stats = Stats()
    stop = threading.Event()
    load = os.getloadavg()
    try:
        tokens = []
        signer = Client(port)
        for i in range(args.games):
            if args.registered:
                name = f"bench{os.getpid()}x{i}x{random.randrange(10**6)}"
                account = {"username": name, "password": "correct horse battery staple"}
                status, body, _ = signer.call("POST", "/api/v1/auth/signup", account)
            else:
                status, body, _ = signer.call(
                    "POST", "/api/v1/auth/guest", {"display_name": "bench"}
                )
            assert status == 201, body
            tokens.append(body["token"])
        threads = [
            threading.Thread(
                target=client_loop,
                args=(port, token, i, stats, stop, args.length),
                daemon=True,
            )
            for i, token in enumerate(tokens)
        ]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 300
        while stats.ready < len(threads) and time.monotonic() < deadline:
            time.sleep(0.1)
        if stats.ready < len(threads):
            sys.exit("api_bench: the clients' matches were not set up within 300 s")
        for kind in KINDS:  # the warm-up: every kind, unrecorded
            with stats.lock:
                stats.phase = kind
            time.sleep(args.warmup / len(KINDS))
        load = os.getloadavg()
        seconds = {
            "play": min(args.seconds, 600.0),
            "state": min(args.state_seconds, 600.0),
            "floor": min(args.floor_seconds, 600.0),
            "floor_anonymous": min(args.floor_seconds, 600.0),
        }
        rounds = max(1, round(max(seconds.values()) / args.slice))
        measured = run_slices(stats, server, seconds, rounds)
        playing, reading = measured["play"], measured["state"]
        floors = {"floor": measured["floor"], "floor_anonymous": measured["floor_anonymous"]}
        errors = dict(stats.errors)
        stop.set()
        for t in threads:
            t.join(30)
    finally:
        stop.set()
        stop_server(server)
        if redis is not None:
            os.killpg(redis.pid, signal.SIGTERM)
            redis.wait(10)

    commands = {k: v for k, v in playing["latency_ms"].items() if k in ("roll", "play")}
    result: dict[str, Any] = {
        "games": args.games,
        "server": f"gunicorn {'gthread (WSGI)' if args.wsgi else '+ uvicorn'},"
        f" {args.workers} workers, PostgreSQL"
        + ("" if args.no_redis else ", Redis cache and channel layer"),
        "public_paths": args.public,
        "load_average_at_start": [round(x, 2) for x in load],
        "rounds": rounds,
        "cpus": os.cpu_count(),
        "playing": playing,
        "commands": commands,
        "reading_state": reading,
        "floor_trivial_view_with_token": floors["floor"],
        "floor_trivial_view_anonymous": floors["floor_anonymous"],
        "server_cpu_ms": {
            "per_command": playing["server_cpu_ms_per_request"],
            "per_state_read": reading["server_cpu_ms_per_request"],
            "per_trivial_view_with_token": floors["floor"]["server_cpu_ms_per_request"],
            "per_trivial_view_anonymous": floors["floor_anonymous"]["server_cpu_ms_per_request"],
        },
        "matches_finished": stats.matches_finished,
        "errors": errors,
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
