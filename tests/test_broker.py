"""The embedded broker (tavla_project/broker.py): kombu's SQLAlchemy transport on an SQLite
file. Pins what the project relies on in the transport (docs/private-internals.md): the
message table's name and its `visible` and `timestamp` columns, the latter written when a
message is delivered; and that processes starting together prepare one file without error."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest
from kombu import Connection

from tavla_project import broker


def connection(path: Path) -> Connection:
    return Connection(
        f"sqlite:///{path}",
        transport=broker.Transport,
        transport_options=broker.transport_options(path),
    )


def test_a_message_goes_through_and_is_kept_marked_delivered(tmp_path: Path) -> None:
    path = tmp_path / "broker.sqlite3"
    broker.prepare(path)
    with connection(path) as conn:
        queue = conn.SimpleQueue("q")
        queue.put({"n": 1})
        message = queue.get(timeout=5)
        assert message.payload == {"n": 1}
        message.ack()
        queue.close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        rows = db.execute(f"SELECT visible, timestamp FROM {broker.MESSAGE_TABLE}").fetchall()
    assert len(rows) == 1 and rows[0][0] == 0 and rows[0][1] is not None


def test_prune_deletes_only_delivered_messages_older_than_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "broker.sqlite3"
    broker.prepare(path)
    with connection(path) as conn:
        queue = conn.SimpleQueue("q")
        queue.put({"n": 1})
        queue.get(timeout=5).ack()
        queue.put({"n": 2})  # not delivered yet
        queue.close()
    assert broker.prune(path, older_than=timedelta(hours=1)) == 0  # delivered just now
    assert broker.prune(path, older_than=timedelta(seconds=-60)) == 1
    with connection(path) as conn:
        assert conn.SimpleQueue("q").get(timeout=5).payload == {"n": 2}


def test_the_transport_polls_an_empty_queue_every_50_ms() -> None:
    assert broker.Transport.polling_interval == broker.POLLING_INTERVAL == 0.05


def _prepare(path: str) -> None:
    broker.prepare(Path(path))


def test_processes_starting_together_prepare_one_file(tmp_path: Path) -> None:
    path = tmp_path / "broker.sqlite3"
    procs = [mp.get_context("spawn").Process(target=_prepare, args=(str(path),)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]


def test_the_filesystem_broker_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={"CELERY_BROKER_URL": "filesystem://localhost/",
             "DJANGO_SETTINGS_MODULE": "tavla_project.settings", "PATH": "/usr/bin:/bin"},
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode != 0
    assert "celery/kombu#1551" in out.stderr
