"""What each override of a library's private internals saves (a benchmark, not a test).

    python benchmarks/overrides_bench.py [--pairs 2] [--only cache,rows] [--seconds 10]

For each override that `benchmarks/api_bench.py --public` can leave out (cache, rows, render,
wsgi_pool, publish: docs/private-internals.md), runs api_bench as the
issue measures (one worker, one client) with the override and without it, alternating
(`--pairs` of runs each, the order swapped every pair, since this machine's speed drifts from
one minute to the next), and prints the server's CPU per command, per state read and per
trivial view with a token, the medians of each side, and the share of a request's CPU the
override saves (the rule of docs/private-internals.md: an override that saves less than 10 %
of a request's CPU gives way to the library's public path). Each run's load average is printed
beside it, and each request's CPU as a multiple of the trivial view's in the same run: for an
override the trivial view does not pass through (rows, render, publish) that ratio cancels
the machine's drift between runs, which moved the trivial view alone by a third.
DATABASE_URL as for api_bench (default its own database).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OVERRIDES = ["cache", "rows", "render", "wsgi_pool", "publish"]
KINDS = [
    ("per_command", "command"),
    ("per_state_read", "state"),
    ("per_trivial_view_with_token", "floor"),
]


def run(public: str, seconds: float) -> dict[str, Any]:
    """One api_bench run, its result."""
    out = subprocess.run(
        [
            sys.executable,
            "benchmarks/api_bench.py",
            "--games",
            "1",
            "--workers",
            "1",
            "--seconds",
            str(seconds),
            "--state-seconds",
            str(seconds / 2),
            "--floor-seconds",
            str(seconds / 3),
            "--warmup",
            "2",
            "--slice",
            "2",
            "--json",
            "--public",
            public,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        sys.exit(f"overrides_bench: api_bench --public {public!r} failed:\n{out.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10.0, help="playing per run")
    parser.add_argument("--only", default=",".join(OVERRIDES))
    args = parser.parse_args()
    summary: dict[str, Any] = {}
    for name in args.only.split(","):
        runs: dict[str, list[dict[str, Any]]] = {"with": [], "without": []}
        for pair in range(args.pairs):
            order = ["with", "without"] if pair % 2 == 0 else ["without", "with"]
            for side in order:
                result = run("" if side == "with" else name, args.seconds)
                runs[side].append(result)
                cpu = result["server_cpu_ms"]
                floor = cpu["per_trivial_view_with_token"]
                print(
                    f"{name:10} {side:8} load {result['load_average_at_start']}: "
                    + ", ".join(f"{label} {cpu[key]:.2f} ms" for key, label in KINDS)
                    + f" (command {cpu['per_command'] / floor:.2f} x floor,"
                    f" state {cpu['per_state_read'] / floor:.2f} x floor)",
                    flush=True,
                )
        medians = {
            side: {
                label: statistics.median(r["server_cpu_ms"][key] for r in results)
                for key, label in KINDS
            }
            for side, results in runs.items()
        }
        saved = {
            label: 1 - medians["with"][label] / medians["without"][label] for _, label in KINDS
        }
        ratios = {
            side: {
                label: statistics.median(
                    r["server_cpu_ms"][key] / r["server_cpu_ms"]["per_trivial_view_with_token"]
                    for r in results
                )
                for key, label in KINDS[:2]
            }
            for side, results in runs.items()
        }
        summary[name] = {"medians_ms": medians, "saved_share": saved, "x_floor": ratios}
        print(
            f"{name:10} medians with/without: "
            + ", ".join(
                f"{label} {medians['with'][label]:.2f}/{medians['without'][label]:.2f} ms"
                f" ({saved[label]:+.0%})"
                for _, label in KINDS
            )
            + "; x floor with/without: "
            + ", ".join(
                f"{label} {ratios['with'][label]:.2f}/{ratios['without'][label]:.2f}"
                for _, label in KINDS[:2]
            ),
            flush=True,
        )
    print(json.dumps({"load_average_at_end": os.getloadavg(), "overrides": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
