"""What the WebSocket consumer's own dispatch saves (a benchmark, not a test).

    python benchmarks/socket_bench.py [--pairs 2] [--pings 3000] [--seconds 8]

`matches/streams/consumers.py` `LiveConsumer.dispatch` replaces Channels' `dispatch`, leaving
out its `aclose_old_connections()` (a hop to the process's thread-sensitive sync thread) before
every frame (docs/private-internals.md). This measures it as api_bench measures the HTTP
overrides: the real server (gunicorn with one uvicorn worker, PostgreSQL, a redis-server of its
own), one client, the worker's CPU from /proc per frame, with the override and without it
(`TAVLA_PUBLIC_PATHS=dispatch`: Channels' own), alternating (`--pairs` runs each, the order
swapped every pair). Per run, over one socket: `--pings` ping frames (the least a frame does),
then `--seconds` of commands on the socket (a hot-seat match: roll, then the first legal
play, as the web client sends them), and the trivial DRF view over HTTP with the token (the
floor, for scale). It prints the CPU per ping, per command and per trivial view, and the share
of a frame's CPU the override saves. DATABASE_URL as for api_bench (default its database).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api_bench import (
    DEFAULT_URL,
    HOST,
    Client,
    free_port,
    prepare_database,
    server_cpu_seconds,
    start_redis,
    start_server,
    stop_server,
)


async def frames(port: int, token: str, pings: int, seconds: float, cpu: Any) -> dict[str, float]:
    """CPU per ping and per command frame on one socket (ms)."""
    import websockets

    http = Client(port, token)
    status, state, _ = http.call("POST", "/api/v1/matches", {"mode": "hotseat", "length": 7})
    assert status == 201, state
    url = f"ws://{HOST}:{port}/ws/v1/live"
    async with websockets.connect(url, subprotocols=["tavla.v1", "token." + token]) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        for ref in range(200):  # warm-up
            await ws.send(json.dumps({"type": "ping", "ref": ref}))
            await ws.recv()
        start = cpu()
        for ref in range(pings):
            await ws.send(json.dumps({"type": "ping", "ref": ref}))
            assert json.loads(await ws.recv())["type"] == "pong"
        per_ping = (cpu() - start) / pings * 1000
        commands, ref = 0, 0
        start, until = cpu(), time.monotonic() + seconds
        while time.monotonic() < until:
            if state["status"] != "active":  # a new match (over HTTP; its CPU is counted too)
                status, state, _ = http.call("POST", "/api/v1/matches", {"mode": "hotseat"})
                assert status == 201, state
            action = "play" if "play" in state["actions"] else "roll"
            body = {"play": state["legal_plays"][0]["notation"]} if action == "play" else {}
            ref += 1
            await ws.send(
                json.dumps(
                    {
                        "type": "command",
                        "ref": ref,
                        "match": state["id"],
                        "action": action,
                        "body": body,
                        "expected_version": state["version"],
                    }
                )
            )
            while True:
                reply = json.loads(await ws.recv())
                if reply.get("ref") == ref:
                    break
            assert reply["type"] == "result", reply
            state = reply["body"]
            commands += 1
        per_command = (cpu() - start) / commands * 1000
    start = cpu()
    n = 0
    until = time.monotonic() + seconds / 2
    while time.monotonic() < until:
        status, _, _ = http.call("GET", "/api/v1/rules/levels")
        assert status == 200
        n += 1
    per_floor = (cpu() - start) / n * 1000
    return {"ping": per_ping, "command": per_command, "floor": per_floor}


def run(url: str, public: str, pings: int, seconds: float) -> dict[str, float]:
    redis_port, redis = start_redis()
    port = free_port()
    server = start_server(url, port, 1, redis_port, public=public)
    try:
        status, body, _ = Client(port).call("POST", "/api/v1/auth/guest", {"display_name": "B"})
        assert status == 201, body
        return asyncio.run(
            frames(port, body["token"], pings, seconds, lambda: server_cpu_seconds(server))
        )
    finally:
        stop_server(server)
        redis.terminate()
        redis.wait(5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--pings", type=int, default=3000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    prepare_database(url)
    runs: dict[str, list[dict[str, float]]] = {"with": [], "without": []}
    for pair in range(args.pairs):
        order = ["with", "without"] if pair % 2 == 0 else ["without", "with"]
        for side in order:
            result = run(url, "" if side == "with" else "dispatch", args.pings, args.seconds)
            runs[side].append(result)
            if not args.json:
                load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
                print(
                    f"{side:8} load {load}: ping {result['ping']:.3f} ms, command"
                    f" {result['command']:.2f} ms, trivial view {result['floor']:.2f} ms",
                    flush=True,
                )
    medians = {
        side: {k: statistics.median(r[k] for r in results) for k in ("ping", "command", "floor")}
        for side, results in runs.items()
    }
    saved = {
        k: 1 - medians["with"][k] / medians["without"][k] for k in ("ping", "command", "floor")
    }
    if args.json:
        print(json.dumps({"runs": runs, "medians_ms": medians, "saved_share": saved}))
    else:
        print(
            "medians with/without: "
            + ", ".join(
                f"{k} {medians['with'][k]:.3f}/{medians['without'][k]:.3f} ms"
                f" ({saved[k]:+.0%} saved)"
                for k in ("ping", "command", "floor")
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
