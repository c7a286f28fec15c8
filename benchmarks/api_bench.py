"""Speed of the REST API through a real HTTP server (a benchmark, not a test).

    python benchmarks/api_bench.py [--games 64] [--seconds 30] [--state-seconds 15]
                                   [--workers 2] [--no-redis]

Starts the web server as deployed (gunicorn with uvicorn workers, deploy/gunicorn.conf.py,
`--workers` processes) on 127.0.0.1 with PostgreSQL and, unless `--no-redis`, a redis-server of
its own on a free port for the cache (tokens, throttles) and the channel layer (pushes), signs
up one guest per game, and plays `--games` hot-seat matches at once, one client thread per game
with its own keep-alive connection: roll, then a random legal play taken from the roll's
response, with the version it decided on (If-Match). A finished match is followed by a new one.
After a short warm-up it measures for `--seconds`:

- moves per second (accepted plays; each is one checker play of a whole turn);
- requests per second and latency p50 / p90 / p99 per request kind and overall (from the
  client's side: queueing in the server included);
- server CPU per command (roll or play; from /proc, every server process);
- errors (anything but 200/201; a 409 would mean two writers raced, which cannot happen here).

Then every client sets up 12 matches stopped at random points of a game (a roll to make, or
a roll to play with its legal plays) and, for `--state-seconds`, reads their states in turn
(`GET /matches/{id}`): server CPU per state read and its latency, over the positions a client
sees rather than the one its last match stopped at. Last, the floor on the same stack, for
`--floor-seconds` each: a trivial DRF view (`GET /rules/levels`, a constant list) with the
client's token, and without one: what any request costs before it does anything of its own.

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


def server_env(url: str, redis_port: int | None = None) -> dict[str, str]:
    env = dict(os.environ)
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
        API_THROTTLE_RULES="1000000/min",
        TAVLA_STREAMS_PER_CLIENT="1000000",
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
    url: str, port: int, workers: int, redis_port: int | None, wsgi: bool = False
) -> subprocess.Popen[bytes]:
    env = server_env(url, redis_port)
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


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.moves = 0
        self.matches_finished = 0
        self.recording = False
        self.phase = "play"
        self.ready = 0  # clients whose state-phase matches are set up

    def record(self, kind: str, status: int, elapsed: float) -> None:
        if not self.recording:
            return
        with self.lock:
            self.latency[kind].append(elapsed)
            if status not in (200, 201):
                self.errors[f"{kind} {status}"] += 1
            elif kind == "play":
                self.moves += 1


def play_games(
    port: int, token: str, seed: int, stats: Stats, stop: threading.Event, length: int
) -> None:
    """One client thread: hot-seat matches back to back until `stop` is set. When
    `stats.phase` turns to "state" it sets up `STATE_MATCHES` matches stopped at random points
    of a game (a roll to make, or a roll to play with its legal plays) and then reads their
    states in turn: the reads cover the positions a client sees, not one position."""
    rng = random.Random(seed)
    client = Client(port, token)

    def call(kind: str, method: str, path: str, body: Any = None, **headers: str) -> Any:
        status, data, elapsed = client.call(method, path, body, headers or None)
        stats.record(kind, status, elapsed)
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

    while not stop.is_set() and stats.phase == "play":
        status, state = call(
            "create", "POST", "/api/v1/matches", {"mode": "hotseat", "length": length}
        )
        if status != 201:
            time.sleep(0.5)
            continue
        path = f"/api/v1/matches/{state['id']}"
        while not stop.is_set() and stats.phase == "play" and state["status"] == "active":
            status, new = advance(state, path)
            state = new if status == 200 else call("state", "GET", path)[1]
        if state["status"] == "finished":
            with stats.lock:
                stats.matches_finished += 1

    # the state phase: matches stopped at random points (set up before the measuring starts)
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
    while not stop.is_set() and stats.phase == "state":
        for path in paths:
            call("state", "GET", path)
    while not stop.is_set():
        # an empty value: the header is not sent
        anonymous = {"Authorization": ""} if stats.phase == "floor_anonymous" else {}
        call(stats.phase, "GET", "/api/v1/rules/levels", **anonymous)


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


def measure(stats: Stats, server: subprocess.Popen[bytes], seconds: float) -> dict[str, Any]:
    """Record for `seconds`: the requests made, the server's CPU, the client's CPU."""
    with stats.lock:
        stats.latency.clear()
        stats.moves = 0
    stats.recording = True
    t0 = time.perf_counter()
    cpu0 = server_cpu_seconds(server), resource.getrusage(resource.RUSAGE_SELF)
    time.sleep(seconds)
    stats.recording = False
    elapsed = time.perf_counter() - t0
    cpu1 = server_cpu_seconds(server), resource.getrusage(resource.RUSAGE_SELF)
    with stats.lock:
        latency = {k: list(v) for k, v in stats.latency.items()}
        moves = stats.moves
    requests = sum(len(v) for v in latency.values())
    return {
        "seconds": round(elapsed, 1),
        "requests": requests,
        "requests_per_second": round(requests / elapsed, 1),
        "moves_per_second": round(moves / elapsed, 1),
        "server_cpu_ms_per_request": round((cpu1[0] - cpu0[0]) * 1000 / max(requests, 1), 2),
        "client_cpu_seconds": round(
            cpu1[1].ru_utime + cpu1[1].ru_stime - cpu0[1].ru_utime - cpu0[1].ru_stime, 1
        ),
        "latency_ms": latency_table(latency),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--state-seconds", type=float, default=15.0)
    parser.add_argument("--floor-seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-redis", action="store_true", help="no cache, no channel layer")
    parser.add_argument("--wsgi", action="store_true", help="serve WSGI (gthread) instead")
    parser.add_argument("--length", type=int, default=3, help="points per match")
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    seconds = min(args.seconds, 600.0)

    prepare_database(url)
    redis_port, redis = (None, None) if args.no_redis else start_redis()
    port = free_port()
    server = start_server(url, port, args.workers, redis_port, args.wsgi)
    stats = Stats()
    stop = threading.Event()
    load = os.getloadavg()
    try:
        tokens = []
        signer = Client(port)
        for _ in range(args.games):
            status, body, _ = signer.call("POST", "/api/v1/auth/guest", {"display_name": "bench"})
            assert status == 201, body
            tokens.append(body["token"])
        threads = [
            threading.Thread(
                target=play_games,
                args=(port, token, i, stats, stop, args.length),
                daemon=True,
            )
            for i, token in enumerate(tokens)
        ]
        for t in threads:
            t.start()
        time.sleep(args.warmup)
        load = os.getloadavg()
        playing = measure(stats, server, seconds)
        errors = dict(stats.errors)
        stats.phase = "state"
        deadline = time.monotonic() + 120
        while stats.ready < len(threads) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        reading = measure(stats, server, min(args.state_seconds, 600.0))
        floors = {}
        for phase in ("floor", "floor_anonymous"):
            stats.phase = phase
            time.sleep(1.0)
            floors[phase] = measure(stats, server, min(args.floor_seconds, 600.0))
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
        "load_average_at_start": [round(x, 2) for x in load],
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
