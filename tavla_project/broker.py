"""The embedded Celery broker: kombu's SQLAlchemy transport on an SQLite file (var/).

Why this transport: web, worker and beat all write to the broker at once, and SQLite makes each
put and each get one transaction (the transport takes the write lock with BEGIN IMMEDIATE
before it reads a message), so a worker never reads half a message, the race of kombu's
filesystem transport (celery/kombu#1551) that took the worker down within minutes of play.

Two things are added to the transport, through its public surface:
- `polling_interval`: a virtual transport sleeps this long when its queues were empty; kombu's
  1 s would be most of the computer's reply time, 0.05 s is about one cheap query per poll.
- `prune`: the transport keeps every delivered message (visible = false) forever; beat deletes
  those older than an hour (`tavla.prune_broker`). It uses the table names the transport is
  configured with (`message_tablename`, default kombu_message), its `visible` column and its
  `timestamp` column, set in local time when a message is delivered
  (docs/private-internals.md; tests/test_broker.py pins them).
"""

from __future__ import annotations

import fcntl
import sqlite3
from contextlib import closing
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from kombu import Connection
from kombu.transport.sqlalchemy import Transport as SQLAlchemyTransport

POLLING_INTERVAL = 0.05
MESSAGE_TABLE = "kombu_message"


class Transport(SQLAlchemyTransport):
    """kombu's SQLAlchemy transport, polling an empty queue every 50 ms."""

    polling_interval = POLLING_INTERVAL


def sqlite_file(url: str) -> Path | None:
    """The file of an embedded broker URL (`sqlite:///path`), else None."""
    prefix = "sqlite:///"
    return Path(url[len(prefix) :]) if url.startswith(prefix) else None


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the broker's file (SQLAlchemy's `creator`): writers wait up to 30 s
    for the lock, and a commit in WAL mode is not flushed to disk each time (synchronous =
    NORMAL): a machine that loses power may lose the last messages, which the sweepers send
    again, but no process crash loses any."""
    db = sqlite3.connect(path, timeout=30, check_same_thread=False)
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def transport_options(path: Path) -> dict[str, Any]:
    """The broker transport options (given to SQLAlchemy's create_engine by the transport)."""
    return {"creator": partial(connect, path)}


def prepare(path: Path) -> None:
    """Make the broker's file ready before any process uses it: WAL mode (kept in the file:
    a commit appends to the log, and readers never wait for the writer), and the transport's
    tables, created by kombu itself, one process at a time (web, worker and beat start
    together, and two of them creating the tables at once fail with "table already exists")."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with closing(sqlite3.connect(path, timeout=30)) as db:
            db.execute("PRAGMA journal_mode=WAL")
        url = f"sqlite:///{path}"
        with Connection(url, transport=Transport, transport_options=transport_options(path)) as c:
            c.SimpleQueue("tavla.broker-ready").close()


def prune(path: Path, older_than: timedelta = timedelta(hours=1)) -> int:
    """Delete delivered messages sent before `older_than` ago; how many went."""
    if not path.exists():
        return 0
    cutoff = datetime.now() - older_than  # naive local time, as the transport writes it
    with closing(sqlite3.connect(path, timeout=30)) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if MESSAGE_TABLE not in tables:
            return 0
        with db:
            cursor = db.execute(
                f"DELETE FROM {MESSAGE_TABLE} WHERE visible = 0 AND timestamp < ?",
                (cutoff.isoformat(sep=" "),),
            )
        return cursor.rowcount
