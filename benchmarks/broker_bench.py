"""The embedded broker's choice, measured: several processes write at once while one reads.

    python benchmarks/broker_bench.py [--producers 4] [--messages 500]

For each transport that needs no server (kombu's SQLAlchemy transport on an SQLite file, the
embedded default of tavla_project/broker.py; kombu's filesystem transport, the old default), it
starts `--producers` processes that each put `--messages` JSON messages as fast as they can
while one consumer process reads them, and prints per transport: messages read, lost, read
twice, unreadable (the consumer's errors: the filesystem transport's half-written message,
celery/kombu#1551), puts per second, and the put-to-get latency (p50, p99) with the consumer
polling as the worker does (tavla_project.broker.POLLING_INTERVAL).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def connection(kind: str, folder: Path) -> Any:
    from kombu import Connection

    if kind == "sqlite":
        from tavla_project.broker import Transport, prepare, transport_options

        path = folder / "broker.sqlite3"
        prepare(path)
        return Connection(
            f"sqlite:///{path}", transport=Transport, transport_options=transport_options(path)
        )
    (folder / "queue").mkdir(exist_ok=True)
    return Connection(
        "filesystem://",
        transport_options={
            "data_folder_in": str(folder / "queue"),
            "data_folder_out": str(folder / "queue"),
            "polling_interval": 0.05,
        },
    )


def produce(kind: str, folder: str, producer: int, count: int) -> None:
    with connection(kind, Path(folder)) as conn:
        queue = conn.SimpleQueue("bench")
        for n in range(count):
            queue.put({"producer": producer, "n": n, "at": time.time(), "pad": "x" * 400})
        queue.close()


def consume(kind: str, folder: str, expected: int, out: Any) -> None:
    seen: list[tuple[int, int]] = []
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + 120
    with connection(kind, Path(folder)) as conn:
        queue = conn.SimpleQueue("bench")
        while len(seen) < expected and time.monotonic() < deadline:
            try:
                message = queue.get(block=True, timeout=1)
            except Empty:
                continue
            except Exception as exc:  # what would take a Celery worker down
                errors.append(f"{type(exc).__name__}: {exc}"[:120])
                continue
            body = message.payload
            latencies.append(time.time() - body["at"])
            seen.append((body["producer"], body["n"]))
            message.ack()
    out.put({"seen": seen, "latencies": latencies, "errors": errors})


def measure(kind: str, producers: int, messages: int) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix=f"broker-{kind}-")
    results: Any = mp.Queue()
    reader = mp.Process(target=consume, args=(kind, folder, producers * messages, results))
    reader.start()
    started = time.monotonic()
    writers = [
        mp.Process(target=produce, args=(kind, folder, p, messages)) for p in range(producers)
    ]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    put_seconds = time.monotonic() - started
    got = results.get(timeout=180)
    reader.join()
    seen = got["seen"]
    latencies = sorted(got["latencies"])
    expected = {(p, n) for p in range(producers) for n in range(messages)}
    return {
        "transport": kind,
        "sent": len(expected),
        "read": len(seen),
        "lost": len(expected - set(seen)),
        "read_twice": len(seen) - len(set(seen)),
        "unreadable": len(got["errors"]),
        "first_errors": got["errors"][:3],
        "puts_per_s": round(len(expected) / put_seconds),
        "latency_p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "latency_p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1)
        if latencies
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--messages", type=int, default=500)
    args = parser.parse_args()
    import os

    report = {
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "results": [measure(k, args.producers, args.messages) for k in ("sqlite", "filesystem")],
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
