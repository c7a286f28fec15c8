"""Several hosts, one of them killed: the deployment of deploy/README.md on network namespaces.

    sudo .venv/bin/python benchmarks/hosts.py [--clients 100] [--seconds 90] [--kill-at 0.4]
                                              [--think 2.0] [--web-concurrency 2]

Needs root, `ip` (iproute2), `haproxy` (Debian's package), redis-server and PostgreSQL's
binaries (/usr/lib/postgresql/*/bin). Builds hosts of its own, each a network namespace
joined to one bridge (in a namespace of its own too) by a veth pair, addresses in 10.77.0.0/24
that exist only inside those namespaces; nothing else is contacted:

- data (10.77.0.1): a PostgreSQL cluster made for the run (initdb in a temporary directory,
  trust auth, fsync off: the data host's durability is not what is tested) and a redis-server
  (broker, cache, channel layer); the project's migrations applied; Celery beat (one, here, so
  killing a web host does not take it);
- web1, web2 (10.77.0.11, .12): each the web process as deployed (gunicorn with uvicorn
  workers, deploy/gunicorn.conf.py) and a Celery worker, DEBUG=false, the balancer trusted
  for X-Forwarded-For;
- lb (10.77.0.2): HAProxy with deploy/haproxy.cfg, rendered with these addresses;
- clients (10.77.0.100 and up, one address per client so per-address limits count each one):
  this script itself moves there after building the rest.

`--clients` players (guests) play 1-point matches through the balancer, commands over HTTP
with If-Match and an Idempotency-Key (a command whose answer was lost is sent again with the
same key), pushes followed on one WebSocket each (`/ws/v1/live`, resubscribing with `after`
= the last version seen). Four kinds: hot-seat, against the computer, online pairs with the
site clock playing on, and online pairs on a short clock that stop moving at the kill (their
timeouts fall after it). At `--kill-at` of the run, the web host with more of the clients'
sockets is killed once its worker holds a computer turn: its link cut (`ip link set down`) and
every process on it SIGKILLed.

Then it checks, reads the data host's database, prints a JSON report and exits 1 if any check
fails: every acknowledged command is stored exactly once (the event after its expected
version is its own, and every stored event of a player's own commands belongs to an
acknowledged one); each client saw every event of its matches in order, no gap, no duplicate,
the same as the store; every socket opened after the kill is served by the survivor, with the time
each client needed to resume (p50/p99); the computer turns and clock tasks its worker held
(its log, and the broker's unacknowledged messages) are finished by the other worker in a
bound; the web processes saw each client's own address (X-Forwarded-For).

Everything it started is stopped and the namespaces deleted at the end, also on a failure,
Ctrl-C or SIGTERM; names carry a random run id (`tavla-<id>-<host>`), so two runs never
collide. Only a run killed with SIGKILL leaves them: `ip netns pids tavla-<id>-<host>` lists
what still runs in one, `ip netns del` removes it. The logs of a failed run (or with --keep)
stay in the directory the report names.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import glob
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
NET = "10.77.0"
DATA, LB, WEB = f"{NET}.1", f"{NET}.2", {"web1": f"{NET}.11", "web2": f"{NET}.12"}
CLIENT_BASE = 100  # clients' addresses: 10.77.0.100, .101, ...
WEB_PORT = 8000
LB_URL = f"http://{LB}"
DB_NAME = "tavla_hosts"
CLONE_NEWNET = 0x40000000


def short_clock(think: float) -> dict[str, float]:
    """The clock of the pairs that stop at the kill: they lose on time within seconds of it,
    and not before. A move (roll and play) is two thinks of at most 1.5 x --think each, plus
    two requests on a loaded machine: that fits in the delay, so the reserve is kept."""
    delay = max(4, round(think * 3 + 2))
    return {"delay": delay, "reserve": 10, "max_move": delay + 10, "reconnect": 120}


EVENTS_OF_ACTION = {
    "roll": {"rolled", "opening_roll"},
    "play": {"moved"},
    "accept": {"resign_accepted"},
}


def log(*parts: Any) -> None:
    print("hosts:", *parts, file=sys.stderr, flush=True)


def sh(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, check=check, capture_output=True, text=True)


# -- the hosts -------------------------------------------------------------------------------


class Lab:
    """The namespaces, the processes started in them, and their teardown."""

    def __init__(self, run: str, workdir: Path) -> None:
        self.run = run
        self.workdir = workdir
        self.namespaces: list[str] = []
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}

    def ns(self, role: str) -> str:
        return f"tavla-{self.run}-{role}"

    def build_network(self, clients: int) -> None:
        switch = self.ns("sw")
        sh("ip", "netns", "add", switch)
        self.namespaces.append(switch)
        sh("ip", "-n", switch, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", switch, "link", "set", "br0", "up")
        hosts = {"data": [DATA], "lb": [LB], **{k: [v] for k, v in WEB.items()}}
        hosts["cli"] = [f"{NET}.{CLIENT_BASE + i}" for i in range(clients)]
        for role, addresses in hosts.items():
            name = self.ns(role)
            sh("ip", "netns", "add", name)
            self.namespaces.append(name)
            sh(
                "ip",
                "-n",
                switch,
                "link",
                "add",
                f"p-{role}",
                "type",
                "veth",
                "peer",
                "name",
                "eth0",
                "netns",
                name,
            )
            sh("ip", "-n", switch, "link", "set", f"p-{role}", "master", "br0", "up")
            sh("ip", "-n", name, "link", "set", "lo", "up")
            for address in addresses:
                sh("ip", "-n", name, "addr", "add", f"{address}/24", "dev", "eth0")
            sh("ip", "-n", name, "link", "set", "eth0", "up")

    def enter(self, role: str) -> None:
        """Move this process (its only thread: call before any thread starts) into a host."""
        libc = ctypes.CDLL(None, use_errno=True)
        with open(f"/run/netns/{self.ns(role)}") as f:
            if libc.setns(f.fileno(), CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns failed")

    def start(
        self, name: str, role: str, argv: list[str], env: dict[str, str], user: str = ""
    ) -> None:
        path = self.workdir / f"{name}.log"
        self.logs[name] = path
        prefix = ["ip", "netns", "exec", self.ns(role)]
        if user:
            prefix += ["runuser", "-u", user, "--"]
        out = path.open("ab")
        self.procs[name] = subprocess.Popen(
            [*prefix, *argv],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        out.close()

    def kill_group(self, name: str, sig: int = signal.SIGKILL) -> None:
        proc = self.procs.get(name)
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)

    def pids_in(self, role: str) -> list[int]:
        return [
            int(p) for p in sh("ip", "netns", "pids", self.ns(role), check=False).stdout.split()
        ]

    def link_down(self, role: str) -> None:
        sh("ip", "-n", self.ns("sw"), "link", "set", f"p-{role}", "down")

    def teardown(self) -> None:
        for name in self.procs:
            self.kill_group(name, signal.SIGTERM)
        deadline = time.monotonic() + 8
        for proc in self.procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, deadline - time.monotonic()))
        for name in self.procs:
            self.kill_group(name, signal.SIGKILL)
        for ns in self.namespaces:  # anything left inside (it would outlive the namespace)
            for pid in self.pids_in(ns.rsplit("-", 1)[1]):
                if pid == os.getpid():
                    continue
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        for proc in self.procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
        for ns in reversed(self.namespaces):
            sh("ip", "netns", "del", ns, check=False)


def postgres_bin() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(p.split("/")[4])
    )
    if not found:
        sys.exit("hosts: no PostgreSQL binaries in /usr/lib/postgresql/*/bin")
    return Path(found[-1]).parent


def wait_tcp(host: str, port: int, seconds: float, what: str) -> None:
    import socket

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not listen on {host}:{port} within {seconds:.0f} s")


def wait_http(url: str, seconds: float, what: str, host: str | None = None) -> None:
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if (
                httpx.get(url, timeout=2, headers={"Host": host} if host else None).status_code
                == 200
            ):
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{what} did not answer 200 at {url} within {seconds:.0f} s")


def project_env(args: argparse.Namespace, workdir: Path) -> dict[str, str]:
    """The production settings (deploy/production.env) with this lab's addresses; plain HTTP
    between clients and the balancer (TLS at the balancer is not what is tested here)."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CELERY_", "TAVLA_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="tavla_project.settings",
        DEBUG="false",
        SECRET_KEY="hosts-" + secrets.token_urlsafe(40),
        ALLOWED_HOSTS=LB,
        TRUSTED_PROXIES=LB,
        DATABASE_URL=f"postgres://postgres@{DATA}:5432/{DB_NAME}",
        CACHE_URL=f"redis://{DATA}:6379/1",
        CELERY_BROKER_URL=f"redis://{DATA}:6379/0",
        CHANNEL_LAYER_URL=f"redis://{DATA}:6379/3",
        CELERY_VISIBILITY_TIMEOUT=str(args.visibility_timeout),
        CELERY_UNACKED_RESTORE_INTERVAL="2",
        CELERY_BEAT_SCHEDULE_FILENAME=str(workdir / "beat-schedule"),
        WEB_CONCURRENCY=str(args.web_concurrency),
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    return env


def render_haproxy() -> str:
    """deploy/haproxy.cfg with the lab's servers and name, plus a header naming the server
    that answered (so the report can tell which host a socket landed on)."""
    text = (ROOT / "deploy" / "haproxy.cfg").read_text()
    text = text.replace("tavla.example", LB)
    text = re.sub(r"(?m)^    server web\d .*\n", "", text)
    servers = "".join(f"    server {name} {address}:{WEB_PORT}\n" for name, address in WEB.items())
    text = text.rstrip("\n") + "\n" + servers + "    http-response set-header X-Tavla-Server %s\n"
    return text.replace("    bind :80\n", f"    bind {LB}:80\n")


def start_stack(lab: Lab, args: argparse.Namespace, env: dict[str, str]) -> None:
    pg = postgres_bin()
    data = lab.workdir / "pg"
    data.mkdir()
    shutil.chown(data, "postgres", "postgres")
    sh(
        "runuser",
        "-u",
        "postgres",
        "--",
        str(pg / "initdb"),
        "-D",
        str(data),
        "-A",
        "trust",
        "-U",
        "postgres",
        "-E",
        "UTF8",
        "--no-sync",
    )
    with (data / "pg_hba.conf").open("a") as hba:
        hba.write(f"host all all {NET}.0/24 trust\n")
    pg_settings = {
        "listen_addresses": DATA,
        "port": "5432",
        "unix_socket_directories": str(data),
        "max_connections": "300",
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        # A vanished host's sessions (no FIN ever comes) must not hold their row locks for the
        # kernel's two hours of TCP keep-alive: deploy/README.md "Several hosts".
        "idle_in_transaction_session_timeout": "5s",
        "tcp_keepalives_idle": "5",
        "tcp_keepalives_interval": "2",
        "tcp_keepalives_count": "3",
        "client_connection_check_interval": "2s",
    }
    argv = [str(pg / "postgres"), "-D", str(data)]
    for key, value in pg_settings.items():
        argv += ["-c", f"{key}={value}"]
    lab.start(
        "postgres", "data", argv, {"PATH": os.environ["PATH"], "LANG": "C.UTF-8"}, user="postgres"
    )
    lab.start(
        "redis",
        "data",
        [
            "redis-server",
            "--bind",
            DATA,
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "no",
        ],
        env,
    )
    wait_tcp(DATA, 5432, 30, "PostgreSQL")
    wait_tcp(DATA, 6379, 10, "redis-server")
    import psycopg

    deadline = time.monotonic() + 20
    while True:
        try:
            with psycopg.connect(
                host=DATA, user="postgres", dbname="postgres", autocommit=True
            ) as c:
                c.execute(f"CREATE DATABASE {DB_NAME}")
            break
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    celery = str(VENV_BIN / "celery")
    lab.start(
        "beat",
        "data",
        [
            celery,
            "-A",
            "tavla_project",
            "beat",
            "-l",
            "INFO",
            "-s",
            str(lab.workdir / "beat-schedule"),
        ],
        env,
    )
    for name, address in WEB.items():
        lab.start(
            f"{name}-web",
            name,
            [
                str(VENV_BIN / "gunicorn"),
                "tavla_project.asgi:application",
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"{address}:{WEB_PORT}",
            ],
            env,
        )
        lab.start(
            f"{name}-worker",
            name,
            [
                celery,
                "-A",
                "tavla_project",
                "worker",
                "-l",
                "INFO",
                "-c",
                str(args.worker_concurrency),
                "-n",
                f"worker@{name}",
            ],
            env,
        )
    config = lab.workdir / "haproxy.cfg"
    config.write_text(render_haproxy())
    lab.start("haproxy", "lb", ["haproxy", "-db", "-f", str(config)], env)
    for name, address in WEB.items():
        wait_http(f"http://{address}:{WEB_PORT}/healthz", 60, f"{name}'s web process", host=LB)
    wait_http(f"{LB_URL}/healthz", 20, "the balancer")
    for name in WEB:  # both workers ready
        deadline = time.monotonic() + 60
        while "ready." not in lab.logs[f"{name}-worker"].read_text(errors="replace"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name}'s worker did not start")
            time.sleep(0.3)
    time.sleep(2.5)  # the balancer's probes: both servers up (rise 2 x 1 s)


# -- the players -------------------------------------------------------------------------------


class Run:
    """What every client shares: the clock of the run and the kill."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.t0 = time.time()
        self.end = self.t0 + args.seconds
        self.kill_planned = self.t0 + args.seconds * args.kill_at
        self.killed_at: float | None = None
        self.killed = asyncio.Event()
        self.victim = "web1"
        self.survivor = "web2"


class Client:
    def __init__(self, run: Run, index: int, kind: str) -> None:
        self.run = run
        self.index = index
        self.kind = kind  # hotseat | computer | online | staller
        self.address = f"{NET}.{CLIENT_BASE + index}"
        self.token = ""
        self.user_id: int | None = None
        self.rng = random.Random(index)
        self.http: Any = None
        self.matches: list[str] = []
        self.following: set[str] = set()
        self.seen: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self.last: dict[str, int] = defaultdict(int)
        self.gaps: list[tuple[str, int, int]] = []
        self.duplicates: list[tuple[str, int]] = []
        self.changed = asyncio.Event()
        self.acks: list[dict[str, Any]] = []
        self.refusals: dict[str, int] = defaultdict(int)
        self.retries = 0
        self.unresolved = 0
        self.connections: list[
            dict[str, Any]
        ] = []  # each socket: opened, server, subscribed, closed
        self.ws: Any = None
        self.done = False
        self.playing = True
        self.keys = 0
        self.partner: Client | None = None
        self.invites: asyncio.Queue[str] = asyncio.Queue()

    # -- HTTP -----------------------------------------------------------------------------

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        give_up: float = 90.0,
    ) -> Any:
        """One request, sent again (same headers, so the same Idempotency-Key) while the
        balancer or the connection fails; the final response or None."""
        import httpx

        deadline = time.time() + give_up
        while True:
            try:
                response = await self.http.request(
                    method, "/api/v1" + path, json=body, headers=headers
                )
                if response.status_code not in (502, 503, 504) and response.status_code != 429:
                    return response
                pause = float(response.headers.get("Retry-After", "0.3") or 0.3)
            except httpx.HTTPError:
                pause = 0.3
            self.retries += 1
            if time.time() > deadline:
                return None
            await asyncio.sleep(min(pause, 2.0))

    async def state(self, match: str) -> dict[str, Any]:
        response = await self.request("GET", f"/matches/{match}")
        if response is None or response.status_code != 200:
            raise RuntimeError(f"client {self.index}: reading {match} failed")
        return response.json()

    async def command(
        self, match: str, state: dict[str, Any], action: str, body: dict[str, Any]
    ) -> dict[str, Any] | None:
        self.keys += 1
        key = f"c{self.index}-{self.keys}-{uuid.uuid4().hex[:8]}"
        headers = {"If-Match": f'"{state["version"]}"', "Idempotency-Key": key}
        sent = time.time()
        response = await self.request("POST", f"/matches/{match}/{action}", body, headers)
        if response is None:
            self.unresolved += 1
            return None
        if response.status_code == 200:
            new = response.json()
            self.acks.append(
                {
                    "match": match,
                    "expected": state["version"],
                    "version": new["version"],
                    "action": action,
                    "play": body.get("play"),
                    "sent": sent,
                    "acked": time.time(),
                    "replayed": response.headers.get("Idempotent-Replayed") == "true",
                }
            )
            return new
        code = response.json().get("code", str(response.status_code)) if response.content else "?"
        self.refusals[code] += 1
        return None

    # -- the socket ---------------------------------------------------------------------------

    async def follow(self) -> None:
        """One WebSocket, reopened whenever it closes, resubscribing from the versions seen."""
        from websockets.asyncio.client import connect

        while not self.done:
            record: dict[str, Any] = {"opened": time.time(), "server": None, "subscribed": None}
            try:
                async with connect(
                    f"ws://{LB}/ws/v1/live",
                    subprotocols=["tavla.v1", "token." + self.token],
                    local_addr=(self.address, 0),
                    open_timeout=10,
                    max_size=2**22,
                ) as ws:
                    self.ws = ws
                    record["server"] = ws.response.headers.get("X-Tavla-Server")
                    self.connections.append(record)
                    for match in list(self.following):
                        await self.subscribe(match)
                    async for text in ws:
                        self.on_message(json.loads(text), record)
            except Exception as error:  # any failure: reconnect
                record["error"] = type(error).__name__
            finally:
                self.ws = None
                record["closed"] = time.time()
            if not self.done:
                await asyncio.sleep(0.2)

    async def subscribe(self, match: str) -> None:
        self.following.add(match)
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.send(
                    json.dumps({"type": "subscribe", "match": match, "after": self.last[match]})
                )

    async def unsubscribe(self, match: str) -> None:
        self.following.discard(match)
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.send(json.dumps({"type": "unsubscribe", "match": match}))

    def on_message(self, message: dict[str, Any], record: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "hello":
            record["hello"] = time.time()
        if kind == "subscribed" and record["subscribed"] is None:
            record["subscribed"] = time.time()
        if kind != "events":
            return
        match = message["match"]
        for event in message["events"]:
            seq = event["seq"]
            if seq <= self.last[match]:
                self.duplicates.append((match, seq))
                continue
            if seq != self.last[match] + 1:
                self.gaps.append((match, self.last[match], seq))
            self.seen[match].append((seq, event["type"]))
            self.last[match] = seq
        self.changed.set()

    async def wait_seen(self, match: str, version: int, seconds: float) -> bool:
        deadline = time.time() + seconds
        while self.last[match] < version:
            self.changed.clear()
            left = deadline - time.time()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))
        return True

    # -- playing ------------------------------------------------------------------------------

    def stalled(self) -> bool:
        return self.kind == "staller" and self.run.killed_at is not None

    async def new_match(self) -> str | None:
        level = self.run.args.level
        if (
            self.kind in ("online", "staller")
            and self.partner is not None
            and self.index > self.partner.index
        ):
            with contextlib.suppress(TimeoutError):
                wait = max(1.0, min(30.0, self.run.end - time.time()))
                return await asyncio.wait_for(self.invites.get(), wait)
            return None
        body: dict[str, Any] = {"mode": "hotseat", "length": 1}
        if self.kind == "computer":
            body = {"mode": "computer", "level": level, "length": 1}
        elif self.kind == "online":
            body = {"mode": "online", "length": 1, "clock": "site", "public": False, "rated": False}
        elif self.kind == "staller":
            body = {
                "mode": "online",
                "length": 1,
                "clock": short_clock(self.run.args.think),
                "public": False,
                "rated": False,
            }
        response = await self.request(
            "POST", "/matches", body, {"Idempotency-Key": uuid.uuid4().hex}
        )
        if response is None or response.status_code != 201:
            return None
        match = response.json()["id"]
        if self.partner is not None:  # the partner joins by the match's invite code
            for _ in range(100):  # the partner has his account
                if self.partner.token or not self.partner.playing:
                    break
                await asyncio.sleep(0.3)
            if not self.partner.playing or not self.partner.token:
                return None
            code = (response.json().get("lobby") or {}).get("invite_code")
            try:
                joined = await self.partner.request(
                    "POST", f"/invites/{code}/join", {}, {"Idempotency-Key": uuid.uuid4().hex}
                )
            except RuntimeError:  # the partner stopped (and closed his client) meanwhile
                return None
            if joined is None or joined.status_code != 200:
                return None
            await self.partner.invites.put(match)
        return match

    async def play(self) -> None:
        import httpx

        # Players arrive over --ramp seconds, not all in one instant.
        first = min(self.index, self.partner.index) if self.partner else self.index
        await asyncio.sleep(random.Random(first).uniform(0, self.run.args.ramp))
        self.http = httpx.AsyncClient(
            base_url=LB_URL,
            timeout=30,
            transport=httpx.AsyncHTTPTransport(local_address=self.address),
        )
        guest = await self.request("POST", "/auth/guest", {})
        if guest is None or guest.status_code not in (200, 201):
            raise RuntimeError(f"client {self.index}: no guest account")
        self.token = guest.json()["token"]
        self.user_id = guest.json().get("user", {}).get("id")
        self.http.headers["Authorization"] = f"Token {self.token}"
        follower = asyncio.create_task(self.follow())
        try:
            while time.time() < self.run.end and not self.stalled():
                match = await self.new_match()
                if match is None:
                    await asyncio.sleep(1)
                    continue
                self.matches.append(match)
                await self.subscribe(match)
                final = await self.play_match(match)
                if final is not None:  # over: its last events must reach the socket too
                    await self.wait_seen(match, final, 30)
                    await self.unsubscribe(match)
            # The run is over (or the kill stalled us): follow the last match to its end, once
            # the partner (online pairs) sends no more commands either.
            self.playing = False
            for _ in range(100):
                if self.partner is None or not self.partner.playing:
                    break
                await asyncio.sleep(0.2)
            if self.matches:
                await self.wait_settled(self.matches[-1])
        finally:
            self.done = True
            if self.ws is not None:
                with contextlib.suppress(Exception):
                    await self.ws.close()
            follower.cancel()
            with contextlib.suppress(BaseException):
                await follower
            await self.http.aclose()

    async def wait_settled(self, match: str) -> None:
        """After the run: the store's version of the match reaches the socket (the computer's
        reply, a staller's timeout)."""
        deadline = time.time() + self.run.args.settle
        while time.time() < deadline:
            state = await self.state(match)
            left = max(1.0, deadline - time.time())
            if not self.waits_for_server(state) and await self.wait_seen(
                match, state["version"], left
            ):
                return
            await asyncio.sleep(0.5)

    def waits_for_server(self, state: dict[str, Any]) -> bool:
        """A turn the server owes: the computer's, or a staller's clock running out."""
        if state["status"] == "finished":
            return False
        if self.kind == "computer":
            return (state.get("to_act") or {}).get("who") == "opponent"
        return self.kind == "staller"

    async def play_match(self, match: str) -> int | None:
        """Play until the match is over (its final version) or the run ends (None)."""
        state = await self.state(match)
        while True:
            if state["status"] == "finished" or state["status"] == "aborted":
                return int(state["version"])
            if time.time() > self.run.end or self.stalled():
                return None
            to_act = state.get("to_act") or {}
            actions = state.get("actions") or []
            action = next((a for a in ("play", "roll", "accept") if a in actions), None)
            if to_act.get("who") == "you" and action is not None:
                await asyncio.sleep(self.run.args.think * self.rng.uniform(0.5, 1.5))
                if self.stalled():
                    return None
                body = (
                    {"play": self.rng.choice(state["legal_plays"])["notation"]}
                    if action == "play"
                    else {}
                )
                new = await self.command(match, state, action, body)
                state = new if new is not None else await self.state(match)
            else:
                await self.wait_seen(match, int(state["version"]) + 1, 3)
                state = await self.state(match)


def kinds(count: int) -> list[str]:
    """hot-seat 40 %, computer 40 %, online pairs (site clock) and stallers (short clock) 10 %
    each, rounded to whole pairs; at least one pair of each."""
    pairs = max(2, round(count * 0.2 / 2))
    stallers = max(1, pairs // 2)
    online = pairs - stallers
    rest = count - 2 * pairs
    computer = rest // 2
    return (
        ["computer"] * computer
        + ["hotseat"] * (rest - computer)
        + ["online"] * (2 * online)
        + ["staller"] * (2 * stallers)
    )


# -- the kill ----------------------------------------------------------------------------------

RECEIVED = re.compile(r"Task (matches\.[\w.]+)\[([0-9a-f-]+)\] received")
FINISHED = re.compile(r"Task (matches\.[\w.]+)\[([0-9a-f-]+)\] (succeeded|failed|raised|retry)")


STAMPED = re.compile(
    r"(?m)^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d+): \w+/MainProcess\] "
    r"Task [\w.]+\[([0-9a-f-]+)\] received"
)


def received_at(path: Path) -> dict[str, list[float]]:
    """When the worker received each task (its log's local times; the hosts share a clock)."""
    out: dict[str, list[float]] = defaultdict(list)
    for m in STAMPED.finditer(path.read_text(errors="replace")):
        at = time.mktime(time.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")) + int(m.group(2)) / 1000
        out[m.group(3)].append(at)
    return out


def worker_tasks(path: Path) -> tuple[dict[str, str], set[str]]:
    text = path.read_text(errors="replace")
    received = {m.group(2): m.group(1) for m in RECEIVED.finditer(text)}
    finished = {m.group(2) for m in FINISHED.finditer(text)}
    return received, finished


async def killer(lab: Lab, run: Run, clients: list[Client]) -> dict[str, Any]:
    """At the planned time, the web host holding more of the clients' sockets is the victim
    (the balancer may have moved them all to one host before: see live_servers_taken_out).
    Once its worker holds a computer turn (up to 15 s later), cut its link and SIGKILL
    everything on it; then what its worker held."""
    await asyncio.sleep(max(0.0, run.kill_planned - time.time()))
    sockets = {name: 0 for name in WEB}
    for c in clients:
        if c.ws is not None and c.connections and c.connections[-1]["server"] in sockets:
            sockets[c.connections[-1]["server"]] += 1
    victim = max(sockets, key=lambda name: sockets[name])
    run.victim = victim
    run.survivor = next(name for name in WEB if name != victim)
    taken_out = re.findall(
        r"(?m)^Server web/(\w+) is DOWN, reason: Layer7", lab.logs["haproxy"].read_text()
    )
    pids = lab.pids_in(victim)
    waited_until = time.time() + 15
    log_path, offset, pending = lab.logs[f"{victim}-worker"], 0, set()
    while time.time() < waited_until:  # the worker's log, read on from where it was
        with log_path.open(errors="replace") as f:
            f.seek(offset)
            chunk = f.read()
            offset = f.tell()
        pending |= {
            m.group(2)
            for m in RECEIVED.finditer(chunk)
            if m.group(1) == "matches.play_computer_turns"
        }
        pending -= {m.group(2) for m in FINISHED.finditer(chunk)}
        if pending:
            break
        await asyncio.sleep(0.01)
    # The host freezes (SIGSTOP: nothing more happens on it from this instant), loses its
    # link, and its processes die.
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGSTOP)
    lab.link_down(victim)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    run.killed_at = time.time()
    run.killed.set()
    log(f"killed {victim} at +{run.killed_at - run.t0:.1f} s ({len(pids)} processes)")
    received, finished = worker_tasks(lab.logs[f"{victim}-worker"])
    held = [i for i in received if i not in finished]
    # The broker's unacknowledged messages say what each held task was for.
    import redis

    unacked = redis.Redis(host=DATA, port=6379, db=0).hgetall("unacked")
    tasks = []
    for raw in unacked.values():
        message = json.loads(raw)[0]
        headers = message.get("headers", {})
        if headers.get("id") in held:
            tasks.append(
                {
                    "id": headers["id"],
                    "task": headers.get("task"),
                    "args": headers.get("argsrepr"),
                    "eta": headers.get("eta"),
                }
            )
    return {
        "at": run.killed_at,
        "processes": len(pids),
        "held": tasks,
        "held_ids": held,
        # live servers the balancer took out before the kill (probes too slow under load)
        "live_servers_taken_out": taken_out,
    }


# -- the checks --------------------------------------------------------------------------------


def percentiles(values: list[float]) -> dict[str, Any] | None:
    if not values:
        return None
    ordered = sorted(values)

    def at(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 3)

    return {
        "n": len(ordered),
        "p50": at(50),
        "p90": at(90),
        "p99": at(99),
        "max": round(ordered[-1], 3),
    }


def check(
    clients: list[Client],
    run: Run,
    kill: dict[str, Any],
    survivor: str,
    redelivered: dict[str, list[float]],
) -> dict[str, Any]:
    import psycopg

    failures: list[str] = []
    matches = sorted({m for c in clients for m in c.matches})
    with psycopg.connect(host=DATA, user="postgres", dbname=DB_NAME) as conn:
        rows = conn.execute(
            "SELECT match_id::text, seq, type, actor_id, payload, extract(epoch FROM created_at)"
            " FROM matches_matchevent WHERE match_id::text = ANY(%s) ORDER BY match_id, seq",
            [matches],
        ).fetchall()
    store: dict[str, dict[int, tuple[str, int | None, dict[str, Any], float]]] = defaultdict(dict)
    for match, seq, kind, actor, payload, at in rows:
        store[match][seq] = (kind, actor, payload, float(at))

    # 1. every acknowledged command stored exactly once
    acks = [a for c in clients for a in c.acks]
    claimed: dict[tuple[str, int], int] = defaultdict(int)
    wrong = 0
    for ack in acks:
        claimed[(ack["match"], ack["expected"] + 1)] += 1
        event = store[ack["match"]].get(ack["expected"] + 1)
        if event is None or event[0] not in EVENTS_OF_ACTION[ack["action"]]:
            wrong += 1
            if len(failures) < 20:
                failures.append(f"ack {ack} has no matching event (found {event and event[0]})")
        elif ack["action"] == "play" and event[2].get("notation") not in (ack["play"], None):
            wrong += 1
            failures.append(f"ack {ack} stored as {event[2].get('notation')}")
    twice = [k for k, n in claimed.items() if n > 1]
    if twice:
        failures.append(f"{len(twice)} events claimed by two acknowledged commands: {twice[:5]}")
    player_users = {c.user_id for c in clients}
    unacked_events = [
        (m, seq, e[0])
        for m, events in store.items()
        for seq, e in events.items()
        if e[1] in player_users
        and e[0] in ("rolled", "moved")
        and (m, seq) not in claimed
        and not any(a["match"] == m and a["expected"] < seq <= a["version"] for a in acks)
    ]
    unresolved = sum(c.unresolved for c in clients)
    if unacked_events and not unresolved:
        failures.append(
            f"{len(unacked_events)} stored player commands nobody acknowledged: "
            f"{unacked_events[:5]}"
        )

    # 2. every client saw its matches' events in order, the same as the store
    gaps = sum(len(c.gaps) for c in clients)
    dups = sum(len(c.duplicates) for c in clients)
    if gaps or dups:
        failures.append(
            f"socket events: {gaps} gaps, {dups} duplicates "
            f"(e.g. {[g for c in clients for g in c.gaps][:3]}, "
            f"{[d for c in clients for d in c.duplicates][:3]})"
        )
    behind = []
    for c in clients:
        for match in c.matches:
            seen = c.seen[match]
            expected = [(seq, e[0]) for seq, e in sorted(store[match].items())]
            if seen != expected[: len(seen)]:
                failures.append(
                    f"client {c.index} saw {seen[:3]}... for {match}, "
                    f"the store has {expected[:3]}..."
                )
            elif len(seen) < len(expected):
                behind.append((c.index, match, len(seen), len(expected)))
    if behind:
        failures.append(
            f"{len(behind)} matches whose last events never reached the socket: {behind[:5]}"
        )

    # 3. resumes: every socket opened after the kill is on the survivor; how long it took
    killed_at = kill["at"]
    resume, reconnect, moved, wrong_server = [], [], 0, []
    for c in clients:
        before = [r for r in c.connections if r["opened"] < killed_at]
        after = [r for r in c.connections if r["opened"] >= killed_at]
        for r in after:
            if r["server"] != survivor:
                wrong_server.append((c.index, r["server"]))
        if before and before[-1]["server"] != survivor:
            moved += 1
            # resumed: its subscriptions answered on a new socket (or its hello, if it
            # followed nothing then)
            first = next((r for r in after if r["subscribed"] or r.get("hello")), None)
            if first is None:
                failures.append(f"client {c.index} never resumed after the kill")
                continue
            at = first["subscribed"] or first["hello"]
            resume.append(at - killed_at)
            reconnect.append(at - (before[-1].get("closed") or killed_at))
    if wrong_server:
        failures.append(
            f"sockets opened after the kill on another server than {survivor}: {wrong_server[:5]}"
        )
    commands_after = [
        a["acked"] - killed_at
        for c in clients
        for a in c.acks
        if a["sent"] < killed_at < a["acked"]
    ]

    # 4. what the dead worker held is done by the other one
    bound = run.args.pickup_bound
    pickups = []

    def again(task_id: str) -> float | None:
        times = [at - killed_at for at in redelivered.get(task_id, []) if at >= killed_at - 1]
        return round(times[0], 2) if times else None

    for task in {(t["task"], t["args"]): t for t in kill["held"]}.values():
        ids = re.findall(r"[0-9a-f]{8}-[0-9a-f-]{27}", task["args"] or "")
        if not ids:
            continue
        match = ids[0]
        events = store.get(match, {})
        later = sorted((at, e) for seq, (e, actor, _, at) in events.items() if at > killed_at)
        if task["task"] == "matches.play_computer_turns":
            first = min(((at, actor) for e, actor, _, at in events.values() if at > killed_at),
                        default=None)  # fmt: skip
            if first is not None and first[1] in player_users:
                # the turn was played before the kill, the task not yet acknowledged
                pickups.append({"task": "computer", "match": match, "moot": "played before"})
                continue
            done = [at for at, e in later if e in ("rolled", "moved", "opening_roll", "passed")]
            after = round(done[0] - killed_at, 2) if done else None
            pickups.append(
                {
                    "task": "computer",
                    "match": match,
                    "played_after_kill_s": after,
                    # the same message delivered again to the other worker (the broker's
                    # visibility timeout), how long after the kill; a turn played before
                    # that was sent again by a sweeper (a new message)
                    "same_message_to_other_worker_after_s": again(task["id"]),
                }
            )
            if after is None or after > bound:
                failures.append(
                    f"the computer turn of {match} held by the dead worker: "
                    f"not played within {bound} s"
                )
        elif task["task"] == "matches.enforce_clock":
            # enforce_clock(match, version): the deadline of that version. Either its timeout
            # was written after the kill (by the other worker), or the player moved in time.
            version = int(re.findall(r"\d+", task["args"].rsplit(",", 1)[-1])[0])
            nxt = events.get(version + 1)
            if nxt is not None and nxt[0] in ("timed_out", "forfeited"):
                after = round(nxt[3] - killed_at, 2)
                pickups.append(
                    {
                        "task": "clock",
                        "match": match,
                        "version": version,
                        "timed_out_after_kill_s": after,
                    }
                )
                if not 0 <= after <= bound:
                    failures.append(
                        f"the clock task {match}@{version} of the dead worker: "
                        f"timed out at {after} s"
                    )
            elif nxt is not None:
                pickups.append(
                    {"task": "clock", "match": match, "version": version, "moot": nxt[0]}
                )
            else:
                pickups.append(
                    {
                        "task": "clock",
                        "match": match,
                        "version": version,
                        "timed_out_after_kill_s": None,
                    }
                )
                failures.append(
                    f"the clock task {match}@{version} of the dead worker: never enforced"
                )
    if not any(p["task"] == "computer" and "moot" not in p for p in pickups):
        failures.append(
            "the dead worker held no computer turn at the kill: nothing to pick up was shown"
        )
    stallers = [
        c
        for c in clients
        if c.kind == "staller" and c.matches and c.partner and c.index < c.partner.index
    ]
    timeouts = []
    for c in stallers:
        events = store[c.matches[-1]]
        out = [at for seq, (e, _, _, at) in events.items() if e == "timed_out"]
        if not out:
            failures.append(f"the staller match {c.matches[-1]} did not time out")
        elif out[0] >= killed_at:  # its deadline fell after the kill
            timeouts.append(round(out[0] - killed_at, 2))
    if stallers and not timeouts:
        failures.append("no clocked match was still running at the kill")
    if unresolved:
        failures.append(f"{unresolved} commands got no answer within 90 s")
    own = {c.address for c in clients}
    if set(kill["addresses"]) != own:
        failures.append(
            f"the web processes saw the addresses {kill['addresses'][:5]}..., not the clients' own"
        )
    return {
        "ok": not failures,
        "failures": failures,
        "commands": {
            "acknowledged": len(acks),
            "replayed": sum(a["replayed"] for a in acks),
            "retried_requests": sum(c.retries for c in clients),
            "refused": {
                k: sum(c.refusals.get(k, 0) for c in clients)
                for k in {k for c in clients for k in c.refusals}
            },
            "unresolved": unresolved,
            "stored_without_ack": len(unacked_events),
            "wrong_or_missing": wrong,
            "in_flight_at_kill_answered_after_s": percentiles(commands_after),
        },
        "events": {
            "matches": len(matches),
            "stored": len(rows),
            "seen_by_clients": sum(len(v) for c in clients for v in c.seen.values()),
            "gaps": gaps,
            "duplicates": dups,
        },
        "resume": {
            "clients_on_dead_host": moved,
            "since_kill_s": percentiles(resume),
            "since_socket_closed_s": percentiles(reconnect),
            "sockets_after_kill_on_other_server": len(wrong_server),
        },
        "dead_worker": {"held": len(kill["held_ids"]), "picked_up": pickups, "bound_s": bound},
        "stallers_timed_out_after_kill_s": timeouts,
        "client_addresses_seen": len(kill["addresses"]),
    }


# -- main --------------------------------------------------------------------------------------


async def play_all(lab: Lab, args: argparse.Namespace) -> tuple[list[Client], Run, dict[str, Any]]:
    run = Run(args)
    clients = [Client(run, i, kind) for i, kind in enumerate(kinds(args.clients))]
    paired = [c for c in clients if c.kind in ("online", "staller")]
    for a, b in zip(paired[::2], paired[1::2], strict=True):
        a.partner, b.partner = b, a
    kill_task = asyncio.create_task(killer(lab, run, clients))
    addresses_task = asyncio.create_task(addresses_seen(run))
    players = [asyncio.create_task(c.play()) for c in clients]
    results = await asyncio.gather(*players, return_exceptions=True)
    for c, result in zip(clients, results, strict=True):
        if isinstance(result, BaseException):
            log(f"client {c.index} ({c.kind}) failed: {result!r}")
    kill = await kill_task
    kill["addresses"] = await addresses_task
    return clients, run, kill


async def addresses_seen(run: Run) -> list[str]:
    """The client addresses the web processes saw, from their sign-up throttle's counters in
    Redis (one per address, kept two minutes): X-Forwarded-For, appended by the balancer and
    believed from it only (TRUSTED_PROXIES), must give each client's own."""
    import redis

    await asyncio.sleep(run.args.ramp + 5)
    keys = redis.Redis(host=DATA, port=6379, db=1).keys("*throttle_auth_*")
    return sorted({k.decode().split("throttle_auth_", 1)[1].split(":")[0] for k in keys})


def load() -> dict[str, Any]:
    return {"loadavg": os.getloadavg(), "cpus": os.cpu_count()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=90.0, help="of play, the kill included")
    parser.add_argument("--kill-at", type=float, default=0.4, help="fraction of --seconds")
    parser.add_argument("--think", type=float, default=2.0, help="seconds before each command")
    parser.add_argument(
        "--ramp", type=float, default=15.0, help="seconds over which players arrive"
    )
    parser.add_argument("--level", default="network", help="the computer's level")
    parser.add_argument("--web-concurrency", type=int, default=2)
    parser.add_argument("--worker-concurrency", type=int, default=2)
    parser.add_argument(
        "--visibility-timeout", type=int, default=15, help="CELERY_VISIBILITY_TIMEOUT"
    )
    parser.add_argument(
        "--pickup-bound",
        type=float,
        default=30.0,
        help="seconds after the kill by which the dead worker's tasks are done",
    )
    parser.add_argument(
        "--settle", type=float, default=45.0, help="seconds to wait for the last replies"
    )
    parser.add_argument("--keep", action="store_true", help="keep the logs' directory")
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("hosts: needs root (network namespaces)")
    for tool in ("ip", "haproxy", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            sys.exit(f"hosts: {tool} is not installed")
    if args.clients > 150:
        sys.exit("hosts: at most 150 clients (one address each)")
    run_id = secrets.token_hex(3)
    workdir = Path(tempfile.mkdtemp(prefix=f"tavla-hosts-{run_id}-"))
    workdir.chmod(0o755)
    lab = Lab(run_id, workdir)
    interrupted = False

    def on_signal(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    report: dict[str, Any] = {"run": run_id, "logs": str(workdir)}
    try:
        lab.build_network(args.clients)
        lab.enter("cli")  # from here on this process is the clients' host
        env = project_env(args, workdir)
        started = time.time()
        start_stack(lab, args, env)
        report["setup_s"] = round(time.time() - started, 1)
        report["load_before"] = load()
        log(f"stack up in {report['setup_s']} s; {args.clients} clients for {args.seconds:.0f} s")
        clients, run, kill = asyncio.run(play_all(lab, args))
        report["load_after"] = load()
        report["clients"] = {
            k: sum(c.kind == k for c in clients)
            for k in ("hotseat", "computer", "online", "staller")
        }
        redelivered = received_at(lab.logs[f"{run.survivor}-worker"])
        report["killed"] = run.victim
        report.update(check(clients, run, kill, run.survivor, redelivered))
        if args.keep:  # every client's sockets, acknowledgements and events, for a post-mortem
            detail = [
                {
                    "index": c.index,
                    "kind": c.kind,
                    "matches": c.matches,
                    "connections": c.connections,
                    "acks": c.acks,
                    "seen": c.seen,
                    "refusals": c.refusals,
                }
                for c in clients
            ]
            (workdir / "clients.json").write_text(
                json.dumps({"kill": kill, "clients": detail}, default=str)
            )
        report["kill_at_s"] = round(kill["at"] - run.t0, 1)
        report["live_servers_taken_out_before_kill"] = kill["live_servers_taken_out"]
    except KeyboardInterrupt:
        interrupted = True
        report.update(ok=False, failures=["interrupted"])
    except Exception as error:
        report.update(ok=False, failures=[f"{type(error).__name__}: {error}"])
        raise
    finally:
        lab.teardown()
        if not args.keep and report.get("ok"):
            shutil.rmtree(workdir, ignore_errors=True)
        print(json.dumps(report, indent=2, default=str))
    return 0 if report.get("ok") and not interrupted else 1


if __name__ == "__main__":
    sys.exit(main())
