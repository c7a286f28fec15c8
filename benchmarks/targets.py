"""The four speed targets of issue 11 beside their floors, in one run (a benchmark, not a test).

    python benchmarks/targets.py [--quick] [--json]

Runs, one after another on this machine, and prints one table with the load average at each
step:

1. `api_bench.py` (gunicorn + uvicorn, PostgreSQL, Redis) as the issue measured: one worker
   process, one hot-seat client making one request at a time (roll, play), /proc CPU time of
   the process over the requests made; per command and per state read, beside the floor: a
   trivial DRF view (`GET /rules/levels`) with the same token, and without one. Then the
   same under load (64 clients, 2 workers, every server process's CPU);
2. `store_bench.py --vs-pgbench`: the services' append rate (events per second in the
   services, one client) beside pgbench's single-row INSERTs per second;
3. `live_bench.py`: move-to-push latency with 200 players on WebSockets (100 online matches,
   acting every `--think` seconds) and 2,000 watchers (1,500 WebSocket, 500 SSE) held, with
   ordinary requests' latency meanwhile.

Targets (2-core machine): <= 3 ms per play and <= 1.5 ms per state read, append rate at least
1:6 of pgbench's, move-to-push p99 < 100 ms with 200 players. The machine is shared and noisy:
the ratios to the floors measured in the same run say more than the milliseconds (the issue's
3 and 1.5 ms were 4.3 and 2.1 times its machine's trivial view, 0.7 ms). Each step starts once
the machine is quiet (90 % idle, or after 90 s); the table gives the load average and the idle
share at each start, and the CPU time of a fixed pure-Python loop before and after: a
yardstick of the processor from day to day (the server's work varied more than it did). `--quick`
shortens every step (a smoke run). Each step's full JSON is printed with `--json`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


ISSUE_FLOOR_MS = 0.7
"""The trivial DRF view's CPU on the machine the issue was measured on: its 3 ms per command
and 1.5 ms per state read were 4.3 and 2.1 times that floor."""


def idle_share(seconds: float) -> float:
    """The share of the CPUs' time spent idle over the next `seconds` (/proc/stat)."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
        return fields[3] + fields[4], sum(fields[:8])  # idle + iowait; user .. steal

    idle0, total0 = sample()
    time.sleep(seconds)
    idle1, total1 = sample()
    return (idle1 - idle0) / max(total1 - total0, 1)


def settle(limit: float = 90.0) -> float:
    """Wait (up to `limit` seconds) until the machine is quiet: a step right after another
    one found PostgreSQL's autovacuum and checkpoint still at work on its writes. The idle
    share of the last two seconds."""
    deadline = time.monotonic() + limit
    idle = idle_share(2.0)
    while idle < 0.9 and time.monotonic() < deadline:
        idle = idle_share(2.0)
    return idle


def python_speed() -> float:
    """Seconds of CPU for five million additions in a pure-Python loop: a yardstick of the
    processor, to compare runs on different days (0.31 to 0.81 s on 2026-12-01). It does
    not follow everything: a server's work (threads, sockets, memory) slowed more than it."""
    started = time.process_time()
    total = 0
    for n in range(5_000_000):
        total += n
    return time.process_time() - started


def run(script: str, *args: str) -> tuple[Any, list[float]]:
    """Run a benchmark script once the machine is quiet; its JSON output and the load
    average and idle share when it started."""
    idle = settle()
    load = [round(x, 2) for x in os.getloadavg()] + [round(idle, 2)]
    out = subprocess.run(
        [sys.executable, str(HERE / script), *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=900,
    ).stdout
    return json.loads(out.strip().splitlines()[-1]), load


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="short steps (a smoke run)")
    parser.add_argument("--think", type=float, default=2.0, help="live_bench: seconds per action")
    parser.add_argument("--json", action="store_true", help="also print every step's JSON")
    args = parser.parse_args()
    quick = args.quick
    speed = python_speed()

    # The CPU targets are measured as the issue measured them: one server process, one client
    # making one request at a time, /proc CPU time of the process over the requests made.
    api, api_load = run(
        "api_bench.py",
        "--json",
        *("--workers", "1", "--games", "1"),
        *("--seconds", "8" if quick else "30"),
        *("--state-seconds", "5" if quick else "15"),
        *("--floor-seconds", "4" if quick else "10"),
    )
    # The same under load: 64 clients at once on 2 worker processes (every process's CPU, so
    # the threads' and processes' contention for the 2 cores is in it).
    busy, busy_load = run(
        "api_bench.py",
        "--json",
        *("--seconds", "8" if quick else "20"),
        *("--state-seconds", "5" if quick else "10"),
        *("--floor-seconds", "4" if quick else "8"),
        *("--games", "16" if quick else "64"),
    )
    store, store_load = run(
        "store_bench.py", "--vs-pgbench", "3" if quick else "15", "--only-rates", "--json"
    )
    live, live_load = run(
        "live_bench.py",
        "--json",
        *("--matches", "10" if quick else "100"),
        *("--ws-watchers", "30" if quick else "1500"),
        *("--sse-watchers", "10" if quick else "500"),
        *("--seconds", "8" if quick else "30"),
        *("--think", str(args.think)),
    )

    cpu = api["server_cpu_ms"]
    busy_cpu = busy["server_cpu_ms"]
    floor, floor_anon = cpu["per_trivial_view_with_token"], cpu["per_trivial_view_anonymous"]
    push = live["move_to_push_ms"]
    rows = [
        ("server CPU per command (roll/play)", f"{cpu['per_command']:.2f} ms", "<= 3 ms",
         f"{cpu['per_command'] / floor:.1f} x trivial view with token"
         f" (issue's: {3 / ISSUE_FLOOR_MS:.1f} x; {floor:.2f} ms; anonymous {floor_anon:.2f} ms)"),
        ("server CPU per state read", f"{cpu['per_state_read']:.2f} ms", "<= 1.5 ms",
         f"{cpu['per_state_read'] / floor:.1f} x trivial view with token"
         f" (issue's: {1.5 / ISSUE_FLOOR_MS:.1f} x)"),
        ("append rate, services : pgbench", f"1:{store['ratio']:.1f}",
         "at least 1:6",
         f"services {store['services_events_per_second']:.0f} events/s,"
         f" pgbench {store['pgbench_inserts_per_second']:.0f} INSERT/s"),
        ("move-to-push p99 (opponents)", f"{push['opponents']['p99']:.0f} ms", "< 100 ms",
         f"p50 {push['opponents']['p50']:.0f} ms; watchers p99"
         + ", ".join(
             f" {k.removesuffix('_watchers')} {v['p99']:.0f} ms"
             for k, v in push.items() if k.endswith("_watchers") and v
         )),
        ("  the same, 64 clients on 2 workers", f"{busy_cpu['per_command']:.2f} ms", "",
         f"state read {busy_cpu['per_state_read']:.2f} ms, trivial view with token"
         f" {busy_cpu['per_trivial_view_with_token']:.2f} ms;"
         f" {busy['playing']['requests_per_second']:.0f} requests/s"),
    ]  # fmt: skip
    print(
        f"issue 11 targets on {os.cpu_count()} CPUs; 5M pure-Python additions: {speed:.2f} s"
        f" CPU (now {python_speed():.2f} s); load average and idle share at each step's start:"
    )
    print(f"  api {api_load}, api under load {busy_load}, store {store_load}, live {live_load})")
    for name, value, target, beside in rows:
        print(f"  {name:<36} {value:>10}   target {target:<12} {beside}")
    print(
        f"  live: {live['watchers_connected']} of {live['watchers_requested']} watchers held,"
        f" {live['players']} players, {live['player_commands']} commands,"
        f" ordinary requests p99 {live['ordinary_requests_ms']['p99']:.0f} ms,"
        f" {live['memory_per_watcher_kib']} KiB per watcher"
    )
    if args.json:
        print(json.dumps({"api": api, "busy": busy, "store": store, "live": live}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
