"""Hostile requests against a running site, counting what comes back.

- `hand_made`: the bodies of issue 12 (JSON nested 1,000 deep, an `If-Match` of a non-ASCII
  byte, a body over 10 MB, broken JSON, wrong types) on every kind of endpoint.
- `schemathesis_run`: the schemathesis command line with every check (`--checks all`), its
  generated valid and invalid requests on every operation of the served OpenAPI document.

The test (test_bodies_and_errors.py) runs both against the deployed-like site with a small
budget and then reads the servers' access logs: no 5xx. As a script, against any running
service (`make run`, or deploy/):

    .venv/bin/python -m tests.security.probe http://127.0.0.1:8000 --examples 20

signs up a throwaway account, runs both and prints the status counts of every response.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import re
import secrets
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx

API = "/api/v1"
DEEP = "[" * 1000 + "]" * 1000
MATCH = "00000000-0000-0000-0000-000000000000"


def _raw(
    base: str, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes = b""
) -> tuple[int, bytes]:
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=30) as sock:
        head = [
            f"{method} {path} HTTP/1.1".encode(),
            f"Host: {parts.hostname}".encode(),
            f"Content-Length: {len(body)}".encode(),
            b"Connection: close",
            *(n + b": " + v for n, v in headers),
        ]
        sock.sendall(b"\r\n".join(head) + b"\r\n\r\n")
        # a server that refuses a long body answers and closes before reading it all
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(body)
        chunks = []
        with contextlib.suppress(ConnectionResetError):
            while data := sock.recv(65536):
                chunks.append(data)
    raw = b"".join(chunks)
    status = int(raw.split(b" ", 2)[1])
    return status, raw.split(b"\r\n\r\n", 1)[-1]


def _code(body: bytes) -> str | None:
    try:
        return json.loads(body).get("code")
    except (ValueError, AttributeError):
        return None


def hand_made(base: str, token: str) -> list[tuple[str, int, str | None]]:
    """(what, status, error code) of each hand-made request."""
    auth = f"Token {token}".encode()
    out: list[tuple[str, int, str | None]] = []
    with httpx.Client(base_url=base, timeout=60) as http:
        match = http.post(
            f"{API}/matches",
            json={"mode": "hotseat", "length": 1},
            headers={"Authorization": auth.decode()},
        )
        match_id = match.json().get("id", MATCH) if match.status_code == 201 else MATCH
    posts = [
        "/auth/login",
        "/auth/guest",
        "/auth/signup",
        "/auth/logout",
        "/matches",
        "/matches/import",
        "/seeks",
        f"/matches/{match_id}/play",
        f"/matches/{match_id}/roll",
        f"/matches/{match_id}/resign",
        "/invites/x/join",
    ]
    bodies = {
        "nested 1,000 deep": (b"application/json", DEEP.encode()),
        "broken JSON": (b"application/json", b'{"play": '),
        "NaN": (b"application/json", b'{"length": NaN}'),
        "not UTF-8": (b"application/json", b'{"display_name": "\xff\xfe"}'),
        "wrong types": (b"application/json", b'{"play": {"a": [1, {"b": null}]}, "value": []}'),
        "huge number": (b"application/json", b'{"expected_version": 1' + b"0" * 5000 + b"}"),
        "form": (b"application/x-www-form-urlencoded", b"a=1&a=2&%ff=%00"),
        "multipart garbage": (b"multipart/form-data; boundary=zz", b"--zz\r\nnope\r\n"),
    }
    for path in posts:
        for what, (ctype, body) in bodies.items():
            for headers in (
                [(b"Content-Type", ctype)],
                [(b"Content-Type", ctype), (b"Authorization", auth)],
            ):
                status, answer = _raw(base, "POST", API + path, headers, body)
                out.append((f"POST {path} {what}", status, _code(answer)))
    big = b" " * (10 * 1024 * 1024 + 1)  # over 10 MB, really sent
    for path in ("/auth/login", "/matches", "/matches/import"):
        status, answer = _raw(
            base,
            "POST",
            API + path,
            [(b"Content-Type", b"application/json"), (b"Authorization", auth)],
            big,
        )
        out.append((f"POST {path} over 10 MB", status, _code(answer)))
    for value in (b'"\xb2"', b"\xb2", b'"\xd9\xa3"', b'W/"\xff"', b'"99999999999999999"'):
        status, answer = _raw(
            base,
            "POST",
            f"{API}/matches/{match_id}/roll",
            [
                (b"Authorization", auth),
                (b"If-Match", value),
                (b"Content-Type", b"application/json"),
            ],
            b"{}",
        )
        out.append((f"If-Match {value!r}", status, _code(answer)))
    for header, value in (
        (b"Last-Event-ID", b"\xb2"),
        (b"Authorization", b"Token \xff\xfe"),
        (b"Idempotency-Key", b"\x7f" * 300),
        (b"Accept-Language", b"\xff"),
    ):
        # a good header would open the stream (it stays open): the events are read instead
        path = "stream" if header in (b"Last-Event-ID", b"Authorization") else "events"
        status, answer = _raw(base, "GET", f"{API}/matches/{match_id}/{path}", [(header, value)])
        out.append((f"GET {path} {header.decode()}", status, _code(answer)))
    for path in (
        f"{API}/nope",
        f"{API}/matches/not-a-uuid",
        f"{API}/matches/{MATCH}/events?after=x",
    ):
        status, answer = _raw(base, "GET", path, [])
        out.append((f"GET {path}", status, _code(answer)))
    return out


@dataclass
class Run:
    returncode: int
    output: str
    requests: int


def schemathesis_run(base: str, token: str, *, max_examples: int, workdir: Path) -> Run:
    """`st run` with every check on the served schema, as the account of `token`."""
    report = workdir / f"st-{secrets.token_hex(4)}.ndjson"
    command = [
        str(Path(sys.executable).parent / "st"),
        "run",
        f"{base}{API}/schema?format=json",
        "--url",
        base,
        "--checks",
        "all",
        "--max-examples",
        str(max_examples),
        "--header",
        f"Authorization: Token {token}",
        "--generation-deterministic",
        "--continue-on-failure",
        "--request-timeout",
        "40",
        "--report",
        "ndjson",
        "--report-ndjson-path",
        str(report),
        "--no-color",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False)
    requests = 0
    if report.exists():
        text = report.read_text(errors="replace")
        requests = len(re.findall(r'"status_code":\s*\d+', text))
    return Run(done.returncode, done.stdout + done.stderr, requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--examples", type=int, default=20)
    args = parser.parse_args()
    with httpx.Client(base_url=args.base, timeout=30) as http:
        r = http.post(f"{API}/auth/guest", json={"display_name": "Prober"})
        r.raise_for_status()
        token = r.json()["token"]
    outcomes = hand_made(args.base, token)
    statuses = collections.Counter(status for _, status, _ in outcomes)
    print("hand-made:", dict(sorted(statuses.items())))
    for what, status, code in outcomes:
        if status >= 500:
            print("  5xx:", what, status, code)
    with tempfile.TemporaryDirectory() as tmp:
        run = schemathesis_run(args.base, token, max_examples=args.examples, workdir=Path(tmp))
    print(run.output[-4000:])
    print(f"schemathesis: {run.requests} requests, exit {run.returncode}")


if __name__ == "__main__":
    main()
