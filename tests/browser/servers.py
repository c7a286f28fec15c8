"""The real processes the browser tests run against, as deployed: our own redis-server on a
free port (broker, channel layer, cache), a Celery worker (the computer's turns, the clock's
deadlines) and the ASGI web server (gunicorn with a uvicorn worker, deploy/gunicorn.conf.py),
all on pytest-django's PostgreSQL test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from tests.servers import Redis, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


class Proc:
    """A child process in its own process group, its output in a log file."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        log: Path,
        stop_signal: int = signal.SIGTERM,
        grace: float = 15,
    ) -> None:
        self.log = log
        self.stop_signal = stop_signal
        self.grace = grace
        with open(log, "ab") as out:
            self.popen = subprocess.Popen(
                args,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, self.stop_signal)
            try:
                self.popen.wait(self.grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(5)


class Site:
    """Redis, a Celery worker and the ASGI server serving the project on the test database."""

    def __init__(self, tmp: Path, db: dict[str, Any]) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
            "DEBUG": "true",  # static files straight from the apps (no collectstatic)
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": self.redis.url,
            "CHANNEL_LAYER_URL": self.redis.url[:-1] + "1",
            "CACHE_URL": self.redis.url[:-1] + "2",
            "WEB_CONCURRENCY": "1",
            "WEB_THREADS": "16",
            "CELERY_VISIBILITY_TIMEOUT": "60",
            "CELERY_HEARTBEAT_SECONDS": "3600",
            "API_THROTTLE_AUTH": "10000/min",
            "API_THROTTLE_CREATE": "10000/min",
            "API_THROTTLE_WRITE": "100000/min",
            "API_THROTTLE_ANON_READ": "100000/min",
            "API_THROTTLE_RULES": "100000/min",
            "TAVLA_STREAMS_PER_CLIENT": "100000",
            # the pages' matches end at once (a resignation): as tavla_project/settings_test.py
            "TAVLA_RATED_MIN_MOVES": "0",
            "TAVLA_RATED_PAIR_PER_DAY": "0",
            "TAVLA_STREAMS_PER_ADDRESS": "100000",
            "LOG_LEVEL": "WARNING",
        }
        if db.get("PASSWORD"):
            self.env["PGPASSWORD"] = db["PASSWORD"]
        self.procs: list[Proc] = []

    def start(self) -> None:
        self.redis.start()
        worker = Proc(
            [
                str(BIN / "celery"),
                "-A",
                "tavla_project",
                "worker",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"browser-{uuid.uuid4().hex[:6]}@%h",
                "-l",
                "INFO",
            ],
            self.env,
            self.tmp / "worker.log",
        )
        self.procs.append(worker)
        web = Proc(
            [
                str(BIN / "gunicorn"),
                "tavla_project.asgi:application",
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--access-logfile",
                "/dev/null",
            ],
            self.env,
            self.tmp / "web.log",
            signal.SIGQUIT,  # at once: the long-polls still waiting need no goodbye
            grace=5,
        )
        self.procs.append(web)
        wait_for(lambda: "ready." in worker.text(), 60, "the Celery worker to start", 0.2)
        wait_for(self._answers, 60, "the web server to answer", 0.2)

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "healthz", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def stop(self) -> None:
        for proc in reversed(self.procs):
            proc.stop()
        if self.redis.up():
            self.redis.stop()

    def logs(self) -> str:
        return "\n".join(f"--- {p.log.name}\n{p.text()[-4000:]}" for p in self.procs)
