"""Instructions per request kind of the web process, counted by callgrind (a benchmark, not a test).

    python benchmarks/instructions_bench.py [--requests 40] [--json]

api_bench.py measures CPU time, and on this machine the same code's CPU time moves by tens of
per cent from one minute to the next: its ratios to the floor spread wider than the changes
worth measuring. This counts instructions instead, which do not depend on what else the
machine is doing: the same code, inputs and requests give the same count, within a few
tenths of a per cent.

It serves the ASGI application as the web process does (uvicorn, the project's HTTP protocol,
`tavla_project/uvicorn_worker.py`; one process, no gunicorn master) under `valgrind
--tool=callgrind`, with PostgreSQL (DATABASE_URL, default as api_bench.py's) and a
redis-server of its own for the cache and the channel layer, and sends it the requests
api_bench sends, one at a time on one keep-alive connection: hot-seat commands (roll, then a
legal play chosen with a fixed seed, with If-Match; a finished match followed by a new one),
state reads of six matches set up at different points, and the floor (`GET /rules/levels`
with the token), in that order, the floor again at the end. Each kind's counts are zeroed
before its requests and dumped after them (`callgrind_control`), so a kind's count is its
requests' and nothing else's: the event loop's thread, the request's thread, the collector.
The dice are the only randomness a command has: the served process draws them from a seeded
generator (`benchmarks/seeded_server.py`), so every run plays the same games.

What it cannot see: the kernel's work (system calls: a command's two round trips, to
PostgreSQL and Redis), PostgreSQL's and Redis' own work, and how fast the instructions run
(cache misses, branch mispredictions). A command's instructions run slower than the floor's
(api_bench: about 3.0 x the floor in CPU time where this counts about 2.3 x), so a ratio here
is a lower bound of api_bench's; a change that saves instructions saves at least as much time
in the same place. Needs valgrind (Debian's package); about two minutes.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from api_bench import (
    DEFAULT_URL,
    HOST,
    Client,
    free_port,
    prepare_database,
    server_env,
    start_redis,
)

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("floor", "command", "state", "floor_again")


def start_server(url: str, redis_port: int, out: Path) -> tuple[subprocess.Popen[bytes], int]:
    """The web process under callgrind, counting from the start (the counts are zeroed
    before each kind)."""
    port = free_port()
    env = server_env(url, redis_port)
    env["PYTHONHASHSEED"] = "0"  # the same dict orders and hashes every run
    server = subprocess.Popen(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}/callgrind.%p",
            "--dump-instr=no",
            "--collect-jumps=no",
            sys.executable,
            str(ROOT / "benchmarks" / "seeded_server.py"),
            str(port),
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=(out / "valgrind.log").open("w"),
    )
    deadline = time.monotonic() + 600  # Django's start under valgrind: about a minute
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"instructions_bench: the server exited at start (see {out}/valgrind.log)")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=60)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return server, port
        except OSError:
            time.sleep(1)
    os.killpg(server.pid, signal.SIGKILL)
    sys.exit("instructions_bench: the server did not answer /healthz within 600 s")


def callgrind(server: subprocess.Popen[bytes], *args: str) -> None:
    done = subprocess.run(
        ["callgrind_control", *args, str(server.pid)], capture_output=True, text=True
    )
    if done.returncode != 0 or "OK" not in done.stdout:
        sys.exit(f"instructions_bench: callgrind_control {' '.join(args)}: {done.stdout}")


class Player:
    """One guest playing hot-seat matches with a fixed seed, as api_bench's clients do."""

    def __init__(self, port: int) -> None:
        status, body, _ = Client(port).call("POST", "/api/v1/auth/guest", {"display_name": "i"})
        assert status == 201, body
        self.token = body["token"]
        self.client = Client(port, self.token)
        self.rng = random.Random(7)
        self.path, self.state = self.new_match()

    def new_match(self) -> tuple[str, dict[str, Any]]:
        status, state, _ = self.client.call(
            "POST", "/api/v1/matches", {"mode": "hotseat", "length": 3}
        )
        assert status == 201, state
        return f"/api/v1/matches/{state['id']}", state

    def command(self, path: str, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if_match = {"If-Match": f'"{state["version"]}"'}
        if "play" in state["actions"]:
            play = self.rng.choice(state["legal_plays"])["notation"]
            status, body, _ = self.client.call("POST", f"{path}/play", {"play": play}, if_match)
        else:
            status, body, _ = self.client.call("POST", f"{path}/roll", {}, if_match)
        return status, body

    def play_on(self) -> None:
        """One command on the current match (a finished one is first followed by a new one,
        outside the count: the caller's loop counts commands)."""
        if self.state["status"] == "finished":
            self.path, self.state = self.new_match()
        status, body = self.command(self.path, self.state)
        if status != 200:
            raise RuntimeError(f"instructions_bench: a command answered {status}: {body}")
        self.state = body

    def set_up(self, count: int) -> list[str]:
        """`count` matches stopped at different points, for the state reads."""
        paths = []
        for _ in range(count):
            path, state = self.new_match()
            for _ in range(self.rng.randrange(5, 40)):
                status, new = self.command(path, state)
                if status != 200 or new["status"] != "active":
                    break
                state = new
            paths.append(path)
        return paths


def dumped(dump: Path) -> tuple[str, int]:
    """The kind a dump was made for (`callgrind_control --dump=KIND`; "" for the dump at
    exit) and its instructions."""
    text = dump.read_text()
    trigger = re.search(r"^desc: Trigger: dump (\S+)", text, re.M)
    found = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    if found is None:
        sys.exit(f"instructions_bench: no total in {dump}")
    return (trigger.group(1) if trigger else ""), int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=40, help="requests of each kind")
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    prepare_database(url)
    redis_port, redis = start_redis()
    out = Path(tempfile.mkdtemp(prefix="instructions-bench-"))
    server, port = start_server(url, redis_port, out)
    try:
        player = Player(port)
        paths = player.set_up(6)
        floor = Client(port, player.token)  # its own connection, the same token
        for i in range(20):  # warm: every code path once before counting
            player.play_on()
            player.client.call("GET", paths[i % len(paths)])
            floor.call("GET", "/api/v1/rules/levels")
        for kind in KINDS:
            callgrind(server, "--zero")
            for i in range(args.requests):
                if kind == "command":
                    player.play_on()
                elif kind == "state":
                    player.client.call("GET", paths[i % len(paths)])
                else:
                    floor.call("GET", "/api/v1/rules/levels")
            time.sleep(0.5)  # the last answer's after-work (the thread's return) counted too
            callgrind(server, "--dump=" + kind)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        os.killpg(redis.pid, signal.SIGTERM)
        redis.wait(10)
    counts: dict[str, float] = {}
    for dump in out.glob(f"callgrind.{server.pid}.*"):
        kind, instructions = dumped(dump)
        if kind in KINDS:
            counts[kind] = instructions / args.requests
    missing = [k for k in KINDS if k not in counts]
    if missing:
        sys.exit(f"instructions_bench: no dump for {missing} in {out}")
    floor_count = (counts["floor"] + counts["floor_again"]) / 2
    result = {
        "requests_per_kind": args.requests,
        "instructions_per_request": {k: round(v) for k, v in counts.items()},
        "floor_drift": round(counts["floor_again"] / counts["floor"] - 1, 4),
        "ratio_to_floor": {
            "command": round(counts["command"] / floor_count, 3),
            "state_read": round(counts["state"] / floor_count, 3),
        },
    }
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
