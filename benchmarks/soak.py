"""Soak the `make run` stack: play for a long time, kill the worker and the web process on
the way, and check that nothing was lost.

    python benchmarks/soak.py [--minutes 30] [--computer 6] [--hotseat 2] [--pairs 2]

It starts the stack exactly as `make run` does (supervisord with deploy/supervisord.conf, its
embedded defaults: SQLite and the SQLite broker, no server), in a folder of its own
(TAVLA_VAR_DIR) on a free port, and plays continuously at the pace of people (a think time
between actions): matches against the computer, hot-seat matches, and online pairs (one opens
a challenge, the other joins). At a third of the time it SIGKILLs the Celery worker, at two
thirds the web process (gunicorn's master: its workers go with it); supervisord starts each
again. Clients retry a command that got no answer with the same Idempotency-Key.

It prints one JSON document: the processes' unexpected exits and restarts (supervisord's log),
the commands acknowledged and how many of them are in the store (each acknowledged version
is an event of that match, every match's events numbered 1..n without a gap), the computer
turns owed (a command of ours that left the computer to act) and played, the longest and
median wait for one, and the machine's load. Exit status 1 if a check failed.
tests/soak/test_soak.py runs a few minutes of it in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
TRANSIENT = (502, 503, 504)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stack:
    """`make run`'s processes under supervisord, in a folder and on a port of their own."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(
                ("DATABASE_", "CELERY_", "CACHE_", "CHANNEL_", "TAVLA_", "DJANGO_")
            )
        }
        self.env.update(
            TAVLA_VAR_DIR=str(folder),
            BIND=f"127.0.0.1:{port}",
            CELERY_BEAT_SCHEDULE_FILENAME=str(folder / "celerybeat-schedule"),
        )
        self.env.pop("DEBUG", None)
        self.log = folder / "stack.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        python = str(VENV_BIN / "python")
        subprocess.run(
            [python, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [str(VENV_BIN / "supervisord"), "-c", "deploy/supervisord.conf"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.wait_healthy(60)

    def wait_healthy(self, seconds: float) -> float:
        """Seconds until /healthz answers 200."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return time.monotonic() - start
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the stack did not answer /healthz within {seconds} s ({self.log})")

    def pid(self, program: str) -> int:
        out = subprocess.run(
            [str(VENV_BIN / "supervisorctl"), "-c", "deploy/supervisord.conf", "pid", program],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        return int(out.stdout.strip())

    def kill(self, program: str) -> int:
        """SIGKILL the program's main process (as the OOM killer would); its pid."""
        pid = self.pid(f"tavla:{program}")
        os.kill(pid, signal.SIGKILL)
        return pid

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)

    def supervisor_events(self) -> dict[str, Any]:
        text = self.log.read_text(errors="replace")
        exits = [line.split(" exited: ", 1)[1] for line in text.splitlines() if " exited: " in line]
        spawned = [line for line in text.splitlines() if "INFO spawned: '" in line]
        return {
            "unexpected_exits": [e for e in exits if "not expected" in e],
            "spawned": len(spawned),
            "restarts": max(0, len(spawned) - 3),
        }


@dataclass
class Tally:
    """What every client saw, shared (under a lock) by all of them."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acked: list[tuple[str, int, str]] = field(default_factory=list)  # match, version, action
    computer_waits: list[float] = field(default_factory=list)
    computer_owed: int = 0
    computer_unplayed: list[str] = field(default_factory=list)
    matches: dict[str, str] = field(default_factory=dict)  # id -> mode
    finished: int = 0
    retries: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, **what: Any) -> None:
        with self.lock:
            for name, value in what.items():
                current = getattr(self, name)
                if isinstance(current, list):
                    current.append(value)
                elif isinstance(current, dict):
                    current.update(value)
                else:
                    setattr(self, name, current + value)


class Client:
    """One person at the site: a guest with a token, making one request at a time."""

    def __init__(self, base: str, tally: Tally, rng: random.Random, think: tuple[float, float]):
        self.http = httpx.Client(base_url=f"{base}/api/v1", timeout=40)
        self.tally = tally
        self.rng = rng
        self.think_range = think
        body = self.call("POST", "/auth/guest", {"display_name": f"Soak{rng.randrange(10**6)}"})
        self.http.headers["Authorization"] = f"Token {body['token']}"

    def think(self) -> None:
        time.sleep(self.rng.uniform(*self.think_range))

    def call(
        self, method: str, path: str, body: dict[str, Any] | None = None, **params: Any
    ) -> Any:
        """A request, again with the same Idempotency-Key until it gets an answer (the web
        process may be down for a few seconds); 4xx answers are returned as they are."""
        headers = {"Idempotency-Key": str(uuid.uuid4())} if method == "POST" else {}
        deadline = time.monotonic() + 90
        while True:
            try:
                r = self.http.request(method, path, json=body, params=params, headers=headers)
                if r.status_code not in TRANSIENT:
                    if r.status_code >= 500:
                        raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:200]}")
                    return (
                        r.json()
                        if r.status_code < 400
                        else {"error": r.json(), "status": r.status_code}
                    )
            except (httpx.TransportError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{method} {path}: no answer for 90 s")
            self.tally.add(retries=1)
            time.sleep(0.5)

    def state(self, match_id: str) -> dict[str, Any]:
        return self.call("GET", f"/matches/{match_id}")  # type: ignore[no-any-return]

    def command(self, match_id: str, state: dict[str, Any]) -> dict[str, Any]:
        """One action of the side to act in `state`, chosen as a casual player would."""
        actions = state["actions"]
        body: dict[str, Any] = {"expected_version": state["version"]}
        if "take" in actions:
            action = "take" if self.rng.random() < 0.7 else "drop"
        elif "accept" in actions:
            action = "accept"
        elif "play" in actions:
            action = "play"
            body["play"] = self.rng.choice(state["legal_plays"])["notation"]
        elif "roll" in actions:
            action = "double" if "double" in actions and self.rng.random() < 0.05 else "roll"
        else:
            raise RuntimeError(f"nothing to do in {match_id}: {actions}")
        answer = self.call("POST", f"/matches/{match_id}/{action}", body)
        if "error" in answer:
            if answer["status"] == 409:  # someone wrote first (or our retry's first try did)
                return self.state(match_id)
            raise RuntimeError(f"{action} in {match_id}: {answer}")
        self.tally.add(acked=(match_id, int(answer["version"]), action))
        return answer  # type: ignore[no-any-return]

    def wait_events(self, match_id: str, after: int) -> None:
        self.call("GET", f"/matches/{match_id}/events", after=after, wait=25)


def play_computer(client: Client, stop: threading.Event) -> None:
    while not stop.is_set():
        state = client.call("POST", "/matches", {"mode": "computer", "length": 3})
        match_id = state["id"]
        client.tally.add(matches={match_id: "computer"})
        while not stop.is_set() and state["status"] == "active":
            if state["to_act"] and state["to_act"]["who"] == "you":
                client.think()
                state = client.command(match_id, state)
                if state["status"] == "active" and state["to_act"]["who"] == "opponent":
                    owed_at = time.monotonic()
                    state = wait_for_turn(client, match_id, state, stop)
                    if state["status"] != "active" or state["to_act"]["who"] == "you":
                        client.tally.add(computer_owed=1, computer_waits=time.monotonic() - owed_at)
                    elif not stop.is_set():  # 60 s without the computer's turn
                        client.tally.add(computer_owed=1, computer_unplayed=match_id)
                    # else: the soak ended during the computer's turn (counted neither way)
                continue
            state = wait_for_turn(client, match_id, state, stop)  # it won the opening roll
        if state["status"] != "active":
            client.tally.add(finished=1)


def wait_for_turn(
    client: Client, match_id: str, state: dict[str, Any], stop: threading.Event
) -> dict[str, Any]:
    """Long-poll until it is our turn again or the match ended (at most 60 s)."""
    give_up = time.monotonic() + 60
    while state["status"] == "active" and state["to_act"]["who"] != "you":
        if time.monotonic() > give_up or stop.is_set():
            return state
        client.wait_events(match_id, state["version"])
        state = client.state(match_id)
    return state


def play_hotseat(client: Client, stop: threading.Event) -> None:
    while not stop.is_set():
        state = client.call("POST", "/matches", {"mode": "hotseat", "length": 1})
        match_id = state["id"]
        client.tally.add(matches={match_id: "hotseat"})
        while not stop.is_set() and state["status"] == "active":
            client.think()
            state = client.command(match_id, state)
        if state["status"] != "active":
            client.tally.add(finished=1)


def play_pair(host: Client, guest: Client, stop: threading.Event) -> None:
    while not stop.is_set():
        created = host.call(
            "POST",
            "/matches",
            {
                "mode": "online",
                "length": 1,
                "open_challenge": True,
                "clock": "none",
            },
        )
        match_id = created["id"]
        host.tally.add(matches={match_id: "online"})
        joined = guest.call("POST", f"/matches/{match_id}/join", {})
        if "error" in joined:
            raise RuntimeError(f"join {match_id}: {joined}")
        over = False
        while not stop.is_set() and not over:
            for player in (host, guest):
                state = player.state(match_id)
                over = state["status"] != "active"
                if over:
                    break
                if state["to_act"]["who"] == "you":
                    player.think()
                    player.command(match_id, state)
        if host.state(match_id)["status"] != "active":
            host.tally.add(finished=1)


def check_store(database: Path, tally: Tally) -> dict[str, Any]:
    """Every acknowledged command is an event of its match; every stream numbered 1..n."""
    with closing(sqlite3.connect(database)) as db:
        seqs: dict[str, list[int]] = {}
        for match_id, seq in db.execute("SELECT match_id, seq FROM matches_matchevent"):
            seqs.setdefault(str(uuid.UUID(str(match_id))), []).append(int(seq))
    missing = [(m, v, a) for m, v, a in tally.acked if v not in set(seqs.get(m, ()))]
    gaps = [
        m
        for m in tally.matches
        if sorted(seqs.get(m, [])) != list(range(1, len(seqs.get(m, [])) + 1))
    ]
    return {
        "commands_acknowledged": len(tally.acked),
        "acknowledged_in_store": len(tally.acked) - len(missing),
        "acknowledged_missing": missing[:20],
        "matches": len(tally.matches),
        "matches_with_gaps": gaps[:20],
        "events_in_store": sum(len(v) for m, v in seqs.items() if m in tally.matches),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="tavla-soak-"))
    stack = Stack(folder, args.port or free_port())
    tally = Tally()
    stop = threading.Event()
    rng = random.Random(args.seed)
    load_before = os.getloadavg()
    stack.start()
    seconds = args.minutes * 60
    think = (args.think_min, args.think_max)
    threads: list[threading.Thread] = []
    failures: list[str] = []

    def guarded(target: Any, *players: Client) -> None:
        try:
            target(*players, stop)
        except Exception as exc:  # a client that fails is a finding, not a crash of the soak
            failures.append(f"{target.__name__}: {exc}")

    def client() -> Client:
        return Client(stack.url, tally, random.Random(rng.random()), think)

    for _ in range(args.computer):
        threads.append(threading.Thread(target=guarded, args=(play_computer, client())))
    for _ in range(args.hotseat):
        threads.append(threading.Thread(target=guarded, args=(play_hotseat, client())))
    for _ in range(args.pairs):
        threads.append(threading.Thread(target=guarded, args=(play_pair, client(), client())))
    started = time.monotonic()
    for t in threads:
        t.start()
    kills: list[dict[str, Any]] = []
    for program, at in (("worker", seconds / 3), ("web", 2 * seconds / 3)):
        time.sleep(max(0.0, started + at - time.monotonic()))
        pid = stack.kill(program)
        back = stack.wait_healthy(60) if program == "web" else None
        kills.append({"program": program, "pid": pid, "at_s": round(at), "healthy_after_s": back})
    time.sleep(max(0.0, started + seconds - time.monotonic()))
    stop.set()
    for t in threads:
        t.join(120)
    load_after = os.getloadavg()
    stack.stop()
    store = check_store(folder / "tavla.sqlite3", tally)
    waits = sorted(tally.computer_waits)
    report = {
        "minutes": args.minutes,
        "clients": args.computer + args.hotseat + 2 * args.pairs,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "kills": kills,
        **stack.supervisor_events(),
        **store,
        "matches_finished": tally.finished,
        "requests_retried": tally.retries,
        "computer_turns_owed": tally.computer_owed,
        "computer_turns_played": len(waits),
        "computer_turns_unplayed": tally.computer_unplayed,
        "computer_wait_median_s": round(statistics.median(waits), 3) if waits else None,
        "computer_wait_max_s": round(waits[-1], 3) if waits else None,
        "client_failures": failures,
        "folder": str(folder),
    }
    report["ok"] = bool(
        not failures
        and not store["acknowledged_missing"]
        and not store["matches_with_gaps"]
        and not tally.computer_unplayed
        and len(report["unexpected_exits"]) == len(kills)
        and store["commands_acknowledged"] > 0
    )
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--computer", type=int, default=6, help="players against the computer")
    parser.add_argument("--hotseat", type=int, default=2, help="hot-seat players")
    parser.add_argument("--pairs", type=int, default=2, help="online pairs")
    parser.add_argument("--think-min", type=float, default=0.5, help="seconds between actions")
    parser.add_argument("--think-max", type=float, default=2.5)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    report = run(parser.parse_args())
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
