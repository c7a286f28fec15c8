"""The service as deployed, for the abuse tests: `DEBUG=false`, two ASGI web processes
(gunicorn with a uvicorn worker each, deploy/gunicorn.conf.py), our own Redis (cache for
throttles and tokens, channel layer), PostgreSQL reached through a TCP relay the tests can cut
(a database outage without touching the machine's PostgreSQL), and the real limits, set low
so the tests reach them quickly.

Every client binds its own loopback address (127.0.x.y): Linux routes all of 127/8 to the
machine, so one test's requests count against their own address, as different clients' would.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import socket
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import httpx

from tests.browser.servers import Proc
from tests.servers import Redis, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent

LIMITS = {
    "API_THROTTLE_AUTH": "8/min",
    "API_THROTTLE_ANON_READ": "40/min",
    "API_THROTTLE_GUEST_READ": "60/min",
    "API_THROTTLE_RULES": "10/min",
    "AXES_FAILURE_LIMIT": "5",
    "AXES_COOLOFF_MINUTES": "15",
    "TAVLA_STREAMS_PER_CLIENT": "4",
    "TAVLA_STREAMS_PER_ADDRESS": "10",
    "TAVLA_WS_AUTH_RECHECK_SECONDS": "3",
    "TAVLA_STREAMS_MAX": "400",
    "TAVLA_IMPORT_MAX_ACTIONS": "500",
    "TAVLA_IMPORT_MAX_GAMES": "5",
    # fair play (tests/security/test_fair_play.py): the pairs' daily cap and the admin's flag
    "TAVLA_RATED_PAIR_PER_DAY": "2",
    "TAVLA_RATING_PAIR_FLAG_MATCHES": "2",
    "WEB_HEADER_TIMEOUT": "3",
}


class Relay:
    """A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused)
    and restored: the database goes away as far as the service can tell."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self.up = False
        self.listener: socket.socket | None = None
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(256)
        self.listener, self.up = listener, True
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while self.up:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                ready, _, _ = select.select([a, b], [], [], 1.0)
                for src in ready:
                    data = src.recv(65536)
                    if not data:
                        return
                    (b if src is a else a).sendall(data)
        except OSError:
            return
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.close()

    def cut(self) -> None:
        self.up = False
        if self.listener is not None:
            # shutdown wakes the thread blocked in accept(); close alone would leave it
            # listening (Linux)
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)
            self.listener.close()
        with self.lock:
            for pair in self.pairs:
                for s in pair:
                    with contextlib.suppress(OSError):
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
            self.pairs.clear()

    def restore(self) -> None:
        self.start()


class Site:
    """Redis, the relay and two web processes on pytest-django's test database."""

    def __init__(self, tmp: Path, db: dict[str, Any], **extra: str) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        self.relay = Relay(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432))
        self.ports = [free_port(), free_port()]
        self.urls = [f"http://127.0.0.1:{p}" for p in self.ports]
        self.url = self.urls[0]
        cache = self.redis.url[:-1]
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
            "DEBUG": "false",
            "SECRET_KEY": "tests-security-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            # plain HTTP on loopback: no redirect to https, cookies sent without TLS
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": f"postgres://{db['USER']}@127.0.0.1:{self.relay.port}/{db['NAME']}",
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": cache + "0",
            "CHANNEL_LAYER_URL": cache + "1",
            "CACHE_URL": cache + "2",
            "WEB_CONCURRENCY": "1",
            "WEB_THREADS": "8",
            "LOG_LEVEL": "WARNING",
            **LIMITS,
            **extra,
        }
        if db.get("PASSWORD"):
            self.env["PGPASSWORD"] = db["PASSWORD"]
        self.procs: list[Proc] = []

    def start(self) -> None:
        self.redis.start()
        self.relay.start()
        for i, port in enumerate(self.ports):
            web = Proc(
                [
                    str(BIN / "gunicorn"),
                    "tavla_project.asgi:application",
                    "-c",
                    "deploy/gunicorn.conf.py",
                    "--bind",
                    f"127.0.0.1:{port}",
                    "--access-logfile",
                    str(self.tmp / f"access{i}.log"),
                ],
                self.env,
                self.tmp / f"web{i}.log",
                signal.SIGQUIT,
                grace=5,
            )
            self.procs.append(web)
        for url in self.urls:
            wait_for(lambda url=url: _answers(url), 60, f"{url} to answer", 0.2)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            proc.stop()
        self.relay.cut()
        if self.redis.up():
            self.redis.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {p.log.name}\n{p.text()[-4000:]}" for p in self.procs)

    def server_errors(self) -> list[str]:
        """The access-log lines of 5xx answers, but 503s while the database was cut."""
        lines: list[str] = []
        for log in self.tmp.glob("access*.log"):
            lines += [ln for ln in log.read_text(errors="replace").splitlines() if _5xx(ln)]
        return lines

    def worker_pids(self) -> list[int]:
        """The uvicorn worker processes (children of each gunicorn master)."""
        pids = []
        for proc in self.procs:
            children = Path(f"/proc/{proc.popen.pid}/task/{proc.popen.pid}/children")
            pids += [int(p) for p in children.read_text().split()]
        return pids


def _5xx(line: str) -> bool:
    return re.search(r'" 5\d\d\b', line) is not None


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


_next_address = [0]


def address() -> str:
    """A loopback address no other client of the run has used: a client of its own."""
    _next_address[0] += 1
    n = _next_address[0]
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def client(base: str, source: str | None = None, **kw: Any) -> httpx.Client:
    """An HTTP client to `base` from its own loopback address."""
    transport = httpx.HTTPTransport(local_address=source or address())
    kw.setdefault("timeout", 30)
    return httpx.Client(base_url=base, transport=transport, **kw)
