"""Bounded imports and errors that stay JSON (issue 12, items 2 and 4), against the
deployed-like site: no request body produces a 500, a long body is refused before it is read,
a lost database is a JSON 503 with Retry-After."""

from __future__ import annotations

import http.client
import json
import socket
import time
from pathlib import Path
from typing import Any

from .site import LIMITS, Site, client, rss_kib

API = "/api/v1"
PUBLIC = Path(__file__).resolve().parents[1] / "data" / "matches-public"
DEEP = ("[" * 1000 + "]" * 1000).encode()
DEEP_OBJECT = ('{"a":' * 1000 + "1" + "}" * 1000).encode()


def raw_request(
    site: Site,
    method: str,
    path: str,
    headers: list[tuple[bytes, bytes]],
    body: bytes = b"",
    declared: int | None = None,
) -> tuple[int, dict, bytes]:
    """One request written byte by byte (headers http clients would refuse to send); with
    `declared`, a Content-Length larger than the body sent (the server must not wait for it)."""
    host, port = site.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        length = len(body) if declared is None else declared
        lines = [
            f"{method} {path} HTTP/1.1".encode(),
            f"Host: {host}".encode(),
            f"Content-Length: {length}".encode(),
            b"Connection: close",
        ]
        lines += [name + b": " + value for name, value in headers]
        sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, dict(response.getheaders()), response.read()


def test_deeply_nested_json_is_a_parse_error_everywhere(site: Site, account: Any) -> None:
    ana = account("ana")
    with client(site.url, headers={"Content-Type": "application/json"}) as http:
        for path in ("/auth/login", "/auth/guest", "/auth/signup"):
            for body in (DEEP, DEEP_OBJECT):
                r = http.post(API + path, content=body)
                assert r.status_code == 400 and r.json()["code"] == "parse_error", (path, r.text)
        match = http.post(f"{API}/matches", json={"mode": "hotseat", "length": 1}, headers=ana.auth)
        assert match.status_code == 201
        for path in (
            "/matches",
            f"/matches/{match.json()['id']}/play",
            "/seeks",
            "/matches/import",
        ):
            r = http.post(API + path, content=DEEP, headers=ana.auth)
            assert r.status_code == 400 and r.json()["code"] == "parse_error", (path, r.text)


def test_a_bad_if_match_byte_is_a_400(site: Site, account: Any) -> None:
    ana = account("ana")
    with client(site.url) as http:
        match = http.post(f"{API}/matches", json={"mode": "hotseat", "length": 1}, headers=ana.auth)
    auth = ana.auth["Authorization"].encode()
    for value in (b'"\xb2"', b"\xb2", b'"\xd9\xa3"', b'W/"1\xff"'):
        status, _, body = raw_request(
            site,
            "POST",
            f"{API}/matches/{match.json()['id']}/roll",
            [
                (b"Authorization", auth),
                (b"If-Match", value),
                (b"Content-Type", b"application/json"),
            ],
            b"{}",
        )
        assert status == 400 and json.loads(body)["code"] == "invalid_version", (value, body)


def test_a_long_body_is_refused_before_it_is_read(site: Site, account: Any) -> None:
    ana = account("ana")
    auth = ana.auth["Authorization"].encode()
    worker = site.worker_pids()[0]
    before = rss_kib(worker)
    for path, ctype in (
        (f"{API}/matches/import", b"text/plain"),
        (f"{API}/auth/guest", b"application/json"),
        ("/admin/login/", b"application/x-www-form-urlencoded"),
    ):
        started = time.monotonic()
        status, _, body = raw_request(
            site,
            "POST",
            path,
            [(b"Authorization", auth), (b"Content-Type", ctype)],
            b"x" * 65536,
            declared=200_000_000,  # 200 MB announced, 64 KiB sent
        )
        took = time.monotonic() - started
        assert status == 413 and took < 5, (path, status, took)
        error = json.loads(body)
        assert error["code"] == "payload_too_large" and error["detail"]["max_bytes"] > 0
    # over 10 MB really sent: JSON 413, not an HTML 400
    with client(site.url, headers=ana.auth) as http:
        r = http.post(
            f"{API}/matches",
            content=b" " * (11 * 1024 * 1024),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 413 and r.json()["code"] == "payload_too_large"
    assert rss_kib(worker) - before < 30_000  # KiB: nothing the size of the body was kept


def test_imports_are_capped_in_games_and_moves(site: Site, account: Any) -> None:
    ana = account("ana")
    longest = (PUBLIC / "match_39_len7_nocube.mat").read_text()  # 6 games, 772 actions
    fits = (PUBLIC / "match_24_len7_cube.mat").read_text()  # 5 games, 382 actions
    with client(site.url, headers=ana.auth) as http:
        r = http.post(f"{API}/matches/import", json={"text": longest})
        assert r.status_code == 400 and r.json()["code"] == "invalid_match_file"
        assert r.json()["message"] == (
            f"The file has 6 games: at most {LIMITS['TAVLA_IMPORT_MAX_GAMES']} can be imported."
        )
        moves = http.post(
            f"{API}/matches/import", json={"text": longest}, headers={"Accept-Language": "tr"}
        )
        assert "6 oyun" in moves.json()["message"]
        r = http.post(
            f"{API}/matches/import", content=fits.encode(), headers={"Content-Type": "text/plain"}
        )
        assert r.status_code == 201 and r.json()["games"] == 5


def test_no_request_body_gives_a_server_error(site: Site, account: Any) -> None:
    """The hand-made bodies and a schemathesis run with every check (tests/security/probe.py)
    leave no 5xx in the servers' access logs."""
    from .probe import hand_made, schemathesis_run

    ana = account("fuzzer")
    outcomes = hand_made(site.url, ana.token)
    assert all(status < 500 for _, status, _ in outcomes), outcomes
    codes = {code for _, _, code in outcomes}
    assert codes >= {
        "parse_error",
        "not_found",
    }, outcomes
    fuzzer = account("fuzzer2")  # the hand-made logout bodies signed the first one out
    run = schemathesis_run(site.url, fuzzer.token, max_examples=4, workdir=site.tmp)
    assert run.requests > 200, run.output[-3000:]
    assert site.server_errors() == [], site.server_errors()[:20]


def test_a_lost_database_is_a_json_503_with_retry_after(site: Site, account: Any) -> None:
    ana = account("ana")
    site.relay.cut()
    try:
        with client(site.url) as http:
            for method, path, body, headers in (
                ("GET", f"{API}/matches/live", None, {}),
                ("POST", f"{API}/auth/login", {"username": "ana", "password": "x"}, {}),
                ("POST", f"{API}/matches", {"mode": "hotseat"}, ana.auth),
                (
                    "GET",
                    f"{API}/matches/00000000-0000-0000-0000-000000000000/events?wait=5",
                    None,
                    {},
                ),
            ):
                r = http.request(method, path, json=body, headers=headers)
                assert r.status_code == 503, (path, r.status_code, r.text[:300])
                assert r.json()["code"] == "service_unavailable"
                assert int(r.headers["Retry-After"]) > 0
            health = http.get("/healthz")
            assert health.status_code == 503 and health.json()["status"] == "error"
    finally:
        site.relay.restore()
    with client(site.url) as http:
        deadline = time.monotonic() + 10
        while http.get("/healthz").status_code != 200:
            assert time.monotonic() < deadline, "the site did not come back"
            time.sleep(0.2)
        assert http.get(f"{API}/me", headers=ana.auth).status_code == 200
