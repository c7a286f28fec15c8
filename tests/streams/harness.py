"""Real processes for the stream tests: a Redis of our own, ASGI web servers (gunicorn with
uvicorn workers, deploy/gunicorn.conf.py) and a Celery worker, all against pytest-django's
test database, and small clients (WebSocket, Server-Sent Events, HTTP) to drive them."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_for(check: Callable[[], Any], timeout: float, what: str, step: float = 0.05) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def port_open(port: int) -> bool:
    try:
        socket.create_connection((HOST, port), timeout=0.2).close()
        return True
    except OSError:
        return False


class Redis:
    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.tmp = tmp

    def url(self, db: int) -> str:
        return f"redis://{HOST}:{self.port}/{db}"

    def start(self) -> None:
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                HOST,
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
        wait_for(lambda: port_open(self.port), 5, "redis to start")

    def stop(self) -> None:
        subprocess.run(
            ["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True
        )


class Process:
    """A subprocess in its own process group, its output in a log file."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
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

    def stop(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait(5)


def service_env(database: dict[str, Any], **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "DEBUG": "false",
        "SECRET_KEY": "stream-tests-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "API_THROTTLE_AUTH": "100000/min",
        "API_THROTTLE_CREATE": "100000/min",
        "API_THROTTLE_WRITE": "100000/min",
        "API_THROTTLE_ANON_READ": "100000/min",
        "API_THROTTLE_RULES": "100000/min",
        "TAVLA_STREAMS_PER_CLIENT": "100000",  # every test client is 127.0.0.1
        "TAVLA_STREAMS_PER_ADDRESS": "100000",
        "TAVLA_STREAMS_MAX": "100000",
        "WEB_CONCURRENCY": "1",
    }
    if database.get("PASSWORD"):
        env["PGPASSWORD"] = database["PASSWORD"]
    env.update(extra)
    return env


class Server(Process):
    """One ASGI web process (gunicorn master + one uvicorn worker) on a free port."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        super().__init__(
            [
                str(BIN / "gunicorn"),
                "tavla_project.asgi:application",
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"{HOST}:{self.port}",
                "--access-logfile",
                "/dev/null",
            ],
            env,
            log,
        )
        wait_for(self.healthy, 30, f"the server on port {self.port}", 0.2)

    def healthy(self) -> bool:
        if self.popen.poll() is not None:
            raise AssertionError("the server exited:\n" + self.text()[-3000:])
        try:
            return httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    @property
    def http(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://{HOST}:{self.port}/ws/v1/live"


class Worker(Process):
    def __init__(self, env: dict[str, str], log: Path) -> None:
        super().__init__(
            [
                str(BIN / "celery"),
                "-A",
                "tavla_project",
                "worker",
                "--pool=prefork",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"streams-{os.getpid()}@%h",
                "-l",
                "INFO",
            ],
            env,
            log,
        )
        wait_for(lambda: "ready." in self.text(), 30, "the celery worker", 0.2)


# -- clients ----------------------------------------------------------------------------------


class Api:
    """A player over HTTP on one server."""

    def __init__(self, server: Server, token: str | None = None) -> None:
        self.server = server
        self.token = token
        headers = {"Authorization": f"Token {token}"} if token else {}
        self.client = httpx.Client(base_url=server.http + "/api/v1", headers=headers, timeout=30)

    @classmethod
    def guest(cls, server: Server) -> Api:
        r = httpx.post(server.http + "/api/v1/auth/guest", json={}, timeout=10)
        assert r.status_code == 201, r.text
        return cls(server, r.json()["token"])

    def on(self, server: Server) -> Api:
        return Api(server, self.token)

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.client.get(path, params=params)

    def post(self, path: str, body: Any = None, **headers: str) -> httpx.Response:
        return self.client.post(path, json=body if body is not None else {}, headers=headers)

    def state(self, match_id: str) -> dict[str, Any]:
        r = self.get(f"/matches/{match_id}")
        assert r.status_code == 200, r.text
        return r.json()

    def events(self, match_id: str, after: int = 0) -> list[dict[str, Any]]:
        r = self.get(f"/matches/{match_id}/events", after=after)
        assert r.status_code == 200, r.text
        return r.json()["events"]


def online_match(ana: Api, ben: Api, **settings: Any) -> str:
    r = ana.post("/matches", {"mode": "online", "length": 3, **settings})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    r = ben.post(f"/matches/{match_id}/join")
    assert r.status_code == 200, r.text
    return match_id


def take_turn(players: dict[str, Api], match_id: str) -> dict[str, Any]:
    """Whoever must act does one thing (roll, or the first legal play); the new state."""
    for api in players.values():
        state = api.state(match_id)
        if state["side"]["role"] != "player" or state["to_act"] is None:
            continue
        if state["to_act"]["who"] != "you":
            continue
        if "play" in state["actions"]:
            play = state["legal_plays"][0]["notation"]
            r = api.post(f"/matches/{match_id}/play", {"play": play})
        elif "roll" in state["actions"]:
            r = api.post(f"/matches/{match_id}/roll")
        else:
            raise AssertionError(f"nothing to do: {state['actions']}")
        assert r.status_code == 200, r.text
        return r.json()
    raise AssertionError("nobody is to act")


class Socket:
    """A WebSocket client; messages are read into a queue by a thread."""

    def __init__(self, url: str, token: str | None = None, how: str = "subprotocol") -> None:
        subprotocols = None
        headers = None
        if token and how == "subprotocol":
            subprotocols = ["tavla.v1", "token." + token]
        elif token and how == "header":
            headers = {"Authorization": f"Token {token}"}
        elif token and how == "query":
            url += f"?token={token}"
        self.conn: ClientConnection = connect(
            url, subprotocols=subprotocols, additional_headers=headers, open_timeout=10
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for text in self.conn:
                self.inbox.put(json.loads(text))
        except Exception:
            pass
        finally:
            self.closed.set()

    def send(self, message: Any) -> None:
        self.conn.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def next(self, type_: str | None = None, timeout: float = 5.0, **match: Any) -> dict[str, Any]:
        """The next message (of `type_` and with these fields); others before it are dropped."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {type_ or 'message'} {match} within {timeout} s")
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if (type_ is None or message.get("type") == type_) and all(
                message.get(k) == v for k, v in match.items()
            ):
                return message

    def events_until(self, match_id: str, version: int, timeout: float = 5.0) -> list[dict]:
        """Every event pushed for the match up to `version`, in the order received."""
        out: list[dict[str, Any]] = []
        while not out or out[-1]["seq"] < version:
            out += self.next("events", timeout, match=match_id)["events"]
        return out

    def drain(self) -> list[dict[str, Any]]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        self.conn.close()


class SseClient:
    """A Server-Sent Events reader in a thread: each message as (id, data). `close()` shuts
    the socket down, as a client that goes away."""

    def __init__(self, server: Server, path: str, headers: dict[str, str] | None = None) -> None:
        self.messages: queue.Queue[tuple[str | None, dict[str, Any]]] = queue.Queue()
        self.conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
        # as EventSource does
        self.conn.request(
            "GET", "/api/v1" + path, headers={"Accept": "text/event-stream", **(headers or {})}
        )
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.content_type = self.response.getheader("Content-Type", "")
        self.done = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event_id: str | None = None
        data: list[str] = []
        try:
            while True:
                raw = self.response.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\r\n")
                if line.startswith("id:"):
                    event_id = line[3:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line == "":
                    if data:
                        self.messages.put((event_id, json.loads("\n".join(data))))
                    event_id, data = None, []
        except Exception:
            return
        finally:
            self.done.set()

    def next(self, timeout: float = 5.0) -> tuple[str | None, dict[str, Any]]:
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no SSE message within {timeout} s") from None

    def events_until(self, version: int, timeout: float = 5.0) -> list[tuple[str | None, dict]]:
        out: list[tuple[str | None, dict[str, Any]]] = []
        while not out or out[-1][1].get("version", -1) < version:
            out.append(self.next(timeout))
        return out

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.conn.sock is not None:
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()
