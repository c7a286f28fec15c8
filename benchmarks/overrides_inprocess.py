"""What the overrides of rows, render and publish save, in one process (a benchmark, not a test):
`python benchmarks/overrides_inprocess.py [--rounds 20] [--batch 40]`.

api_bench (benchmarks/overrides_bench.py) measures the real server, but on this shared
machine its runs move by a third from one to the next, more than these overrides save. Here
one process serves commands (hot-seat matches played on: roll, then the first legal play),
state reads (`GET /api/v1/matches/{id}` of matches waiting for a play, with their legal
plays) and the trivial view (`GET /rules/levels`, which neither override touches: the
control), all with a guest's token, through Django's handler (as the server's thread pool
runs it; Django's test client), alternating with and without the override every `--batch`
requests, and takes the process's CPU time per request (all its threads: `group_send` runs on
a loop in another thread): both sides share the same seconds of the machine. The switches are
those of `api_bench --public` (settings.TAVLA_PUBLIC_PATHS); the channel layer is a Redis
pub/sub layer on a redis-server of its own, as in api_bench.
The ASGI server, the WSGI pool, the cache (locmem here) and the health check (the test client
turns Django's off) are not in it. DATABASE_URL: PostgreSQL (default the database of
api_bench); the matches it makes stay there.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from api_bench import start_redis  # noqa: E402

REDIS_PORT, REDIS = start_redis()
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tavla_api_bench")
os.environ.update(
    DJANGO_SETTINGS_MODULE="tavla_project.settings",
    DEBUG="false",
    SECRET_KEY="overrides-bench-" + "x" * 40,
    ALLOWED_HOSTS="testserver",
    LOG_LEVEL="WARNING",
    TAVLA_PUBLIC_PATHS="",
    CHANNEL_LAYER_URL=f"redis://127.0.0.1:{REDIS_PORT}/0",
    **{
        f"API_THROTTLE_{s}": "1000000/min"
        for s in ("AUTH", "CREATE", "WRITE", "ANON_READ", "GUEST_READ", "RULES")
    },
)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

from matches.streams import publish  # noqa: E402

KINDS = ("command", "state", "floor")
FLOOR = "/api/v1/rules/levels"  # the trivial view


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--batch", type=int, default=40)
    parser.add_argument("--matches", type=int, default=20)
    args = parser.parse_args()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    ours = Client()
    token = ours.post("/api/v1/auth/guest", {}, content_type="application/json").json()["token"]
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    ids = []
    while len(ids) < args.matches:
        state = ours.post(
            "/api/v1/matches", {"mode": "hotseat"}, content_type="application/json", **auth
        ).json()
        if "play" in state["actions"] and state["legal_plays"]:
            ids.append(state["id"])

    playing: dict[int, dict[str, Any]] = {}

    def new_match(client: Client) -> dict[str, Any]:
        body = {"mode": "hotseat"}
        return client.post("/api/v1/matches", body, content_type="application/json", **auth).json()

    def command(client: Client, i: int) -> None:
        """The next command of the i-th playing match: roll, or its first legal play."""
        state = playing.get(i) or new_match(client)
        action, body = None, {"expected_version": state["version"]}
        if "roll" in state["actions"]:
            action = "roll"
        elif "play" in state["actions"]:
            action, body["play"] = "play", state["legal_plays"][0]["notation"]
        if action is None:  # over: the next one starts (not measured apart)
            playing[i] = new_match(client)
            return
        url = f"/api/v1/matches/{state['id']}/{action}"
        response = client.post(url, body, content_type="application/json", **auth)
        assert response.status_code == 200, response.content
        playing[i] = response.json()

    def batch(client: Client, kind: str) -> float:
        start = time.process_time()
        for i in range(args.batch):
            if kind == "command":
                command(client, i % len(ids))
                continue
            path = f"/api/v1/matches/{ids[i % len(ids)]}" if kind == "state" else FLOOR
            response = client.get(path, **auth)
            assert response.status_code == 200, response.content
        return (time.process_time() - start) / args.batch * 1000

    def public(names: set[str]) -> None:
        settings.TAVLA_PUBLIC_PATHS = frozenset(names)
        publish._publishers.clear()  # each layer's publisher is chosen once

    sides: dict[str, tuple[Any, Any]] = {
        "rows": (lambda: public(set()), lambda: public({"rows"})),
        "render": (lambda: public(set()), lambda: public({"render"})),
        "publish": (lambda: public(set()), lambda: public({"publish"})),
    }
    results: dict[tuple[str, str], dict[str, list[float]]] = {
        (n, k): {"with": [], "without": []} for n in sides for k in KINDS
    }
    for _ in range(args.rounds):
        for name, (on, off) in sides.items():
            for kind in KINDS:
                for side in ("with", "without"):
                    (on if side == "with" else off)()
                    results[name, kind][side].append(batch(ours, kind))
                on()
    print(
        f"ms of process CPU per request (median of {args.rounds} batches of {args.batch});"
        f" load {os.getloadavg()}:"
    )
    for (name, kind), sides_ in results.items():
        w, wo = statistics.median(sides_["with"]), statistics.median(sides_["without"])
        print(f"  {name:10} {kind:8} with {w:.3f}  without {wo:.3f}  saves {1 - w / wo:+.1%}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        REDIS.terminate()
        REDIS.wait(10)
