"""Servers the tests start for themselves: a `redis-server` of their own on a free port (so
the machine's Redis, and other people's databases in it, are never touched)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float, what: str, step: float = 0.1) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Redis:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if shutil.which("redis-server") is None:
            pytest.fail(
                "redis-server is not installed (.ci/run installs it: apt-get install redis-server)"
            )
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--dir",
                str(self.tmp),
                "--pidfile",
                str(self.tmp / "redis.pid"),
            ],
            check=True,
            capture_output=True,
        )
        wait_for(self.up, 5, "redis to start")

    def stop(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True
        )
        wait_for(lambda: not self.up(), 5, "redis to stop")

    def up(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False


class Process:
    """A process of the service (web, worker, beat) in its own process group, so SIGKILL takes
    its children too; its output goes to `log`, and it is ready once `ready` is printed there."""

    def __init__(
        self, argv: list[str], env: dict[str, str], log: Path, ready: str, cwd: Path
    ) -> None:
        self.log = log
        self.offset = log.stat().st_size if log.exists() else 0
        with open(log, "ab") as out:
            self.popen = subprocess.Popen(
                argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        wait_for(lambda: ready in self.text(), 40, f"{Path(argv[0]).name} to be ready", 0.2)

    def text(self) -> str:
        """What it printed since it started."""
        return self.log.read_bytes()[self.offset :].decode(errors="replace")

    def kill(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(10)

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
