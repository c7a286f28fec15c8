"""Load on the real-time layer through a real server (a benchmark, not a test).

    python benchmarks/live_bench.py [--matches 100] [--ws-watchers 1500] [--sse-watchers 500]
                                    [--seconds 30] [--think 0.5] [--workers 2]

Starts the web server as deployed (gunicorn with uvicorn workers, deploy/gunicorn.conf.py)
with PostgreSQL and a redis-server of its own (channel layer and cache), then:

- `--matches` online matches with two playing clients each (2 x 100 = 200 players), each on a
  WebSocket of its own, subscribed to its match with its state pushed, playing by commands on
  the socket (roll, then the first legal play) after `--think` seconds;
- watchers: `--ws-watchers` WebSockets and `--sse-watchers` Server-Sent Events streams, each
  following one of those matches as a spectator (in processes of their own);
- a probe process making ordinary requests (a match's state, the computer's levels) every
  50 ms.

It reports the connections held, the server's memory per connection (RSS of its processes
before and after the watchers connected), the move-to-push latency p50/p99 (from the moment a
player sends a command to the moment a client receives the events it wrote: the opponent's
socket, and every watcher's), and the latency of the ordinary requests while all of this is
held. Everything runs on 127.0.0.1 and stops after `--seconds`. DATABASE_URL picks the
PostgreSQL database (default postgres://postgres@127.0.0.1:5432/tavla_live_bench).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api_bench import (
    HOST,
    free_port,
    prepare_database,
    start_redis,
    start_server,
    stop_server,
)

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/tavla_live_bench"


def raise_open_files(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(max(soft, wanted), hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def server_rss_kib(server_pid: int) -> int:
    """Resident memory of the server's master and workers (KiB)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[1]) != server_pid and int(entry.name) != server_pid:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def percentiles(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000, 1)

    return {
        "n": len(values),
        "p50": at(50),
        "p90": at(90),
        "p99": at(99),
        "max": round(ordered[-1] * 1000, 1),
        "mean": round(statistics.fmean(values) * 1000, 1),
    }


# -- setting up: players and matches over HTTP ------------------------------------------------


def http_call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(
        method, "/api/v1" + path, json.dumps(body or {}) if method == "POST" else None, headers
    )
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
    return json.loads(data) if data else None


def make_matches(port: int, count: int) -> list[dict[str, Any]]:
    out = []
    for _ in range(count):
        a = http_call(port, "POST", "/auth/guest")["token"]
        b = http_call(port, "POST", "/auth/guest")["token"]
        match = http_call(
            port, "POST", "/matches", {"mode": "online", "length": 25, "clock": "none"}, a
        )
        http_call(port, "POST", f"/matches/{match['id']}/join", {}, b)
        out.append({"id": match["id"], "tokens": [a, b]})
    return out


# -- the players: one process, one WebSocket each ---------------------------------------------


async def player(
    port: int, match_id: str, token: str, think: float, until: float, log: dict
) -> None:
    import websockets

    url = f"ws://{HOST}:{port}/ws/v1/live"
    async with websockets.connect(
        url, subprotocols=["tavla.v1", "token." + token], max_size=2**22
    ) as ws:
        await ws.send(
            json.dumps({"type": "subscribe", "match": match_id, "after": 0, "state": True})
        )
        pending = False
        ref = 0
        while time.time() < until:
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            now = time.time()
            message = json.loads(text)
            kind = message.get("type")
            if os.environ.get("LIVE_BENCH_DEBUG"):
                log.setdefault("trace", []).append((token[:4], kind, message.get("version"), now))
            if kind == "events":
                log["arrivals"].append((match_id, message["version"], now, token))
            elif kind == "result":
                pending = False
                log["commands"] += 1
            elif kind == "error":
                pending = False
                log["errors"].append(message.get("code"))
            elif kind == "end":
                return
            if time.time() > until:
                return
            state = (
                message.get("state")
                if kind == "state"
                else message.get("body")
                if kind == "result"
                else None
            )
            if (
                not state
                or pending
                or state.get("to_act") is None
                or state["to_act"]["who"] != "you"
            ):
                continue
            action = (
                "play"
                if "play" in state["actions"]
                else "roll"
                if "roll" in state["actions"]
                else None
            )
            if action is None:
                continue
            await asyncio.sleep(think * random.uniform(0.5, 1.5))
            ref += 1
            body = {"play": state["legal_plays"][0]["notation"]} if action == "play" else {}
            pending = True
            log["sent"].append((match_id, state["version"], time.time(), token))
            await ws.send(
                json.dumps(
                    {
                        "type": "command",
                        "ref": ref,
                        "match": match_id,
                        "action": action,
                        "body": body,
                        "expected_version": state["version"],
                    }
                )
            )


def run_players(
    port: int, matches: list[dict[str, Any]], think: float, until: float, out: Any
) -> None:
    raise_open_files(4096)
    log: dict[str, Any] = {"arrivals": [], "sent": [], "commands": 0, "errors": []}

    async def main() -> None:
        tasks = [
            player(port, m["id"], token, think, until, log)
            for m in matches
            for token in m["tokens"]
        ]
        results = await asyncio.gather(*tasks, return_exceptions=True)
        log["failed"] = [repr(r)[:200] for r in results if isinstance(r, BaseException)]

    asyncio.run(main())
    out.put(("players", log))


# -- the watchers: WebSockets and SSE streams -------------------------------------------------


async def ws_watcher(port: int, match_id: str, until: Any, log: dict, opened: Any) -> None:
    import websockets

    async with websockets.connect(
        f"ws://{HOST}:{port}/ws/v1/live", max_size=2**22, open_timeout=60
    ) as ws:
        await ws.send(json.dumps({"type": "subscribe", "match": match_id, "after": 0}))
        held = False
        while time.time() < until.value:
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            message = json.loads(text)
            if message.get("type") == "subscribed":
                held = True
                opened.append(1)
            elif message.get("type") == "events":
                log["arrivals"].append((match_id, message["version"], time.time()))
        if held and ws.state.name == "OPEN":
            log["held"] += 1


async def sse_watcher(port: int, match_id: str, until: Any, log: dict, opened: Any) -> None:
    reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), 60)
    writer.write(
        f"GET /api/v1/matches/{match_id}/stream HTTP/1.1\r\nHost: {HOST}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await asyncio.wait_for(reader.readline(), 60)
    ok = b" 200 " in status
    if ok:
        opened.append(1)
    try:
        while ok and time.time() < until.value:
            try:
                line = await asyncio.wait_for(reader.readline(), 1.0)
            except TimeoutError:
                continue
            if not line:
                ok = False
                break
            if line.startswith(b"data: "):
                message = json.loads(line[6:])
                if message.get("type") == "events":
                    log["arrivals"].append((match_id, message["version"], time.time()))
        if ok:
            log["held"] += 1
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


def run_watchers(
    port: int, match_ids: list[str], kind: str, count: int, until: Any, out: Any, ready: Any
) -> None:
    raise_open_files(count + 1024)
    log: dict[str, Any] = {"arrivals": [], "held": 0}

    async def main() -> None:
        opened: list[int] = []
        watcher = ws_watcher if kind == "ws" else sse_watcher
        tasks = []
        for i in range(count):
            tasks.append(
                asyncio.create_task(
                    watcher(port, match_ids[i % len(match_ids)], until, log, opened)
                )
            )
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # do not open them all in one instant
        while len(opened) < count and time.time() < until.value:
            await asyncio.sleep(0.2)
            if all(t.done() for t in tasks):
                break
        ready.put((kind, len(opened)))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        log["failed"] = [repr(r)[:200] for r in results if isinstance(r, BaseException)][:5]
        log["failed_count"] = sum(isinstance(r, BaseException) for r in results)

    asyncio.run(main())
    out.put((kind, log))


# -- the probe: ordinary requests -------------------------------------------------------------


def run_probe(port: int, match_id: str, token: str, start: float, until: float, out: Any) -> None:
    latencies: list[float] = []
    errors = 0
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Authorization": f"Token {token}"}
    while time.time() < start:
        time.sleep(0.05)
    paths = [f"/api/v1/matches/{match_id}", "/api/v1/rules/levels"]
    i = 0
    while time.time() < until:
        t0 = time.perf_counter()
        try:
            conn.request("GET", paths[i % 2], headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                errors += 1
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
        latencies.append(time.perf_counter() - t0)
        i += 1
        time.sleep(0.05)
    out.put(("probe", {"latencies": latencies, "errors": errors}))


# -- the run ----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--ws-watchers", type=int, default=1500)
    parser.add_argument("--sse-watchers", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.5, help="seconds before each action")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    raise_open_files(args.ws_watchers + args.sse_watchers + 4 * args.matches + 1024)
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    prepare_database(url)
    redis_port, redis = start_redis()
    port = free_port()
    os.environ["WEB_CONCURRENCY"] = str(args.workers)
    server = start_server(url, port, args.workers, redis_port)
    ctx = multiprocessing.get_context("spawn")
    out: Any = ctx.Queue()
    ready: Any = ctx.Queue()
    procs = []
    load_start = os.getloadavg()
    try:
        matches = make_matches(port, args.matches)
        match_ids = [m["id"] for m in matches]
        rss_before = server_rss_kib(server.pid)
        setup_until = ctx.Value("d", time.time() + 900)  # set to the window's end below
        # watchers first (they connect, then wait), in processes of ~1,000 connections each
        for kind, count in (("ws", args.ws_watchers), ("sse", args.sse_watchers)):
            per = 1000
            for start in range(0, count, per):
                n = min(per, count - start)
                p = ctx.Process(
                    target=run_watchers,
                    args=(port, match_ids, kind, n, setup_until, out, ready),
                    daemon=True,
                )
                p.start()
                procs.append(p)
        opened = 0
        for _ in procs:
            opened += ready.get(timeout=600)[1]
        rss_held = server_rss_kib(server.pid)
        print(f"watchers connected: {opened}", file=sys.stderr)
        # the measured window starts now; the watchers stop with it
        start = time.time() + 1
        until = start + args.seconds
        setup_until.value = until
        player_proc = ctx.Process(
            target=run_players, args=(port, matches, args.think, until, out), daemon=True
        )
        probe = ctx.Process(
            target=run_probe,
            args=(port, match_ids[0], matches[0]["tokens"][0], start, until, out),
            daemon=True,
        )
        player_proc.start()
        probe.start()
        load_during = None
        while time.time() < until:
            time.sleep(1)
            if time.time() > start + args.seconds / 2 and load_during is None:
                load_during = os.getloadavg()
        rss_end = server_rss_kib(server.pid)
        results: dict[str, Any] = {}
        watcher_logs = []
        for _ in range(2 + len(procs)):
            name, log = out.get(timeout=300)
            if name in ("players", "probe"):
                results[name] = log
            else:
                watcher_logs.append((name, log))
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        stop_server(server)
        os.killpg(redis.pid, 15)
        redis.wait(10)

    players = results["players"]
    sent = {(m, v): t for m, v, t, _ in players["sent"]}
    sender = {(m, v): who for m, v, _, who in players["sent"]}
    # a command's result version is the version it was decided on: the events it wrote end at
    # the next version a client sees; pair each arrival with the latest command sent before it
    sends_by_match: dict[str, list[tuple[int, float]]] = {}
    for (m, v), t in sent.items():
        sends_by_match.setdefault(m, []).append((v, t))
    for values in sends_by_match.values():
        values.sort()

    def latency(m: str, version: int, arrived: float) -> float | None:
        # the command decided on the greatest version below this one
        best = None
        for v, t in sends_by_match.get(m, ()):
            if v < version:
                best = t
            else:
                break
        return None if best is None or arrived < best else arrived - best

    def written_by(m: str, version: int) -> str | None:
        best = None
        for v, _ in sends_by_match.get(m, ()):
            if v < version:
                best = sender[(m, v)]
        return best

    # the opponent's socket: the push of a move to the other player
    player_lat = [
        x
        for m, v, t, who in players["arrivals"]
        if written_by(m, v) not in (None, who) and (x := latency(m, v, t)) is not None
    ]
    if os.environ.get("LIVE_BENCH_DEBUG"):
        worst = sorted(
            ((latency(m, v, t) or 0, m[:8], v, t) for m, v, t, _ in players["arrivals"]),
            reverse=True,
        )[:5]
        print(
            "trace",
            [(a, k, v, round(t % 1000, 3)) for a, k, v, t in players.get("trace", [])][:40],
            file=sys.stderr,
        )
        print(
            "worst",
            worst,
            "sends",
            sorted(players["sent"], key=lambda x: x[2])[:40],
            file=sys.stderr,
        )
    result = {
        "server": f"gunicorn + uvicorn, {args.workers} workers; PostgreSQL; Redis channel layer",
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in load_start],
        "load_average_midway": [round(x, 2) for x in (load_during or ())],
        "watchers_requested": args.ws_watchers + args.sse_watchers,
        "watchers_connected": opened,
        "players": 2 * args.matches,
        "player_commands": players["commands"],
        "player_errors": players["errors"][:10],
        "player_failures": players.get("failed", [])[:3],
        "server_rss_mib": {
            "before_watchers": round(rss_before / 1024, 1),
            "watchers_held": round(rss_held / 1024, 1),
            "end": round(rss_end / 1024, 1),
        },
        "memory_per_watcher_kib": round((rss_held - rss_before) / max(opened, 1), 1),
        "move_to_push_ms": {"opponents": percentiles(player_lat)},
        "ordinary_requests_ms": percentiles(results["probe"]["latencies"]),
        "ordinary_request_errors": results["probe"]["errors"],
    }
    for name, log in watcher_logs:
        lat = [x for m, v, t in log["arrivals"] if (x := latency(m, v, t)) is not None]
        key = f"{name}_watchers"
        prev = result["move_to_push_ms"].get(key)
        merged = (prev or {}).get("_values", []) + lat
        result["move_to_push_ms"][key] = {"_values": merged}
        result.setdefault("watcher_failures", []).extend(log.get("failed", []))
    for key, value in list(result["move_to_push_ms"].items()):
        if isinstance(value, dict) and "_values" in value:
            result["move_to_push_ms"][key] = percentiles(value["_values"])
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
