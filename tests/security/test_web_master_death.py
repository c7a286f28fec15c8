"""Issue 24, item 8: when the web master dies, its workers must not live on as orphans serving
the old socket (deploy/run-local.sh used to leave them; `make run` is now supervised and the
workers die with their master: PR_SET_PDEATHSIG in deploy/gunicorn.conf.py). Against gunicorn
as deployed: SIGKILL the master, and its workers are gone within seconds and the port is free
for the master the supervisor starts next."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.servers import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split()[2] == "Z")  # a zombie is dead


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.3).close()
        return True
    except OSError:
        return False


def test_the_workers_die_with_a_killed_master(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
        "TAVLA_VAR_DIR": str(tmp_path),
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
    }
    for name in [k for k in env if k.startswith(("DATABASE_", "CELERY_"))]:
        env.pop(name)
    master = subprocess.Popen(
        [str(BIN / "gunicorn"), "tavla_project.asgi:application", "-c", "deploy/gunicorn.conf.py"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    workers: list[int] = []
    try:
        workers = wait_for(lambda: len(children(master.pid)) == 2 and children(master.pid), 60,
                           "two workers")  # fmt: skip
        wait_for(lambda: listening(port), 60, "the web process to listen")
        os.kill(master.pid, signal.SIGKILL)
        master.wait(10)
        wait_for(lambda: not any(alive(w) for w in workers), 20, "the orphaned workers to exit")
        assert not listening(port), "nothing may serve the old socket"
    finally:
        for pid in [master.pid, *workers]:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
