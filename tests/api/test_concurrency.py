"""Version conflicts and idempotency, sequential and under concurrency (real threads, real
transactions on PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from matches.api.idempotency import key_digest
from matches.api.models import IdempotencyRecord
from matches.store.models import Match, MatchEvent
from tests.api.conftest import Player, create

THREADS = 8


def _events(match_id: str) -> list[tuple[int, str]]:
    return list(
        MatchEvent.objects.filter(match_id=match_id).order_by("seq").values_list("seq", "type")
    )


def _together(n: int, fn: Callable[[int], Any]) -> list[Any]:
    """Run fn(i) in n threads released at the same moment; return their results."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(10)
            results[i] = fn(i)
        except Exception as exc:  # pragma: no cover - reported by the assertion below
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(isinstance(r, Exception) for r in results), results
    return results


def _rolling_match(player: Player) -> tuple[str, dict[str, Any]]:
    """A hot-seat match whose player on turn must roll (the opening play made)."""
    state = create(player, mode="hotseat", length=0)
    match_id = state["id"]
    play = state["legal_plays"][0]["notation"]
    state = player.post(f"/matches/{match_id}/play", {"play": play}).json()
    assert "roll" in state["actions"]
    return match_id, state


@pytest.mark.django_db(transaction=True)
def test_same_version_from_many_threads_exactly_one_wins(make_player) -> None:
    ana = make_player()
    match_id, state = _rolling_match(ana)
    version = state["version"]
    clients = [Player(ana.username, ana.token, ana.user_id, _client(ana.token)) for _ in range(8)]

    def roll(i: int) -> tuple[int, dict[str, Any]]:
        r = clients[i].post(f"/matches/{match_id}/roll", {"expected_version": version})
        return r.status_code, r.json()

    results = _together(THREADS, roll)
    codes = sorted(code for code, _ in results)
    assert codes == [200] + [409] * (THREADS - 1), codes
    winner = next(body for code, body in results if code == 200)
    for code, body in results:
        if code == 409:
            assert body["code"] == "version_conflict"
            assert body["detail"] == {
                "current_version": winner["version"],
                "expected_version": version,
            }
    events = _events(match_id)
    assert [seq for seq, _ in events] == list(range(1, len(events) + 1))
    assert [t for _, t in events].count("rolled") == 1
    assert Match.objects.get(pk=match_id).version == winner["version"]


@pytest.mark.django_db(transaction=True)
def test_same_idempotency_key_from_many_threads_writes_once(make_player) -> None:
    ana = make_player()
    match_id, _state = _rolling_match(ana)
    before = len(_events(match_id))
    clients = [_client(ana.token) for _ in range(THREADS)]

    def roll(i: int) -> tuple[int, dict[str, Any], str | None]:
        r = clients[i].post(
            f"/api/v1/matches/{match_id}/roll", {}, format="json", HTTP_IDEMPOTENCY_KEY="roll-1"
        )
        return r.status_code, r.json(), r.headers.get("Idempotent-Replayed")

    results = _together(THREADS, roll)
    assert {code for code, _, _ in results} == {200}
    bodies = [body for _, body, _ in results]
    assert all(body == bodies[0] for body in bodies)  # the very same dice for everyone
    assert sum(1 for _, _, replayed in results if replayed == "true") == THREADS - 1
    events = _events(match_id)
    assert len(events) == before + 1 and events[-1][1] == "rolled"
    records = IdempotencyRecord.objects.filter(user_id=ana.user_id, key=key_digest("roll-1"))
    assert records.count() == 1


@pytest.mark.django_db(transaction=True)
def test_idempotent_create_from_many_threads_makes_one_match(make_player) -> None:
    ana = make_player()
    clients = [_client(ana.token) for _ in range(THREADS)]

    def make(i: int) -> tuple[int, str]:
        r = clients[i].post(
            "/api/v1/matches",
            {"mode": "online", "length": 3},
            format="json",
            HTTP_IDEMPOTENCY_KEY="new-match",
        )
        return r.status_code, r.json()["id"]

    results = _together(THREADS, make)
    assert {code for code, _ in results} == {201}
    assert len({match_id for _, match_id in results}) == 1
    assert Match.objects.filter(player0_id=ana.user_id).count() == 1


@pytest.mark.django_db
def test_a_repeated_request_returns_the_first_response(make_player) -> None:
    ana = make_player()
    match_id, _state = _rolling_match(ana)
    headers = {"HTTP_IDEMPOTENCY_KEY": "abc"}
    first = ana.post(f"/matches/{match_id}/roll", {}, **headers)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    again = ana.post(f"/matches/{match_id}/roll", {}, **headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() and again["ETag"] == first["ETag"]
    assert [t for _, t in _events(match_id)].count("rolled") == 1
    # the same key with another request is refused
    other = ana.post(f"/matches/{match_id}/resign", {"value": 1}, **headers)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    # a refusal is remembered too: the repeat gets the same refusal, nothing is written
    bad = ana.post(f"/matches/{match_id}/double", {}, HTTP_IDEMPOTENCY_KEY="d")
    assert bad.status_code == 422
    assert (
        ana.post(f"/matches/{match_id}/double", {}, HTTP_IDEMPOTENCY_KEY="d").json() == bad.json()
    )
    # keys are per user
    ben = make_player()
    r = ben.post(f"/matches/{match_id}/roll", {}, **headers)
    assert r.status_code == 403
    # a malformed key
    r = ana.post(f"/matches/{match_id}/roll", {}, HTTP_IDEMPOTENCY_KEY="x" * 300)
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"


@pytest.mark.django_db
def test_if_match_and_expected_version(make_player) -> None:
    ana = make_player()
    match_id, state = _rolling_match(ana)
    version = state["version"]
    r = ana.post(f"/matches/{match_id}/roll", {}, HTTP_IF_MATCH=f'"{version - 1}"')
    assert r.status_code == 409
    assert r.json()["detail"]["current_version"] == version
    assert r["ETag"] == f'"{version}"'
    r = ana.post(f"/matches/{match_id}/roll", {"expected_version": version + 5})
    assert r.status_code == 409 and r.json()["code"] == "version_conflict"
    r = ana.post(f"/matches/{match_id}/roll", {}, HTTP_IF_MATCH="yesterday")
    assert r.status_code == 400 and r.json()["code"] == "invalid_version"
    r = ana.post(f"/matches/{match_id}/roll", {"expected_version": version}, HTTP_IF_MATCH='"3"')
    assert r.status_code == 400 and r.json()["code"] == "invalid_version"
    for bad in ("x", "12", 1.5, -1, True, [version]):  # not a version number: its own code
        r = ana.post(f"/matches/{match_id}/roll", {"expected_version": bad})
        assert r.status_code == 400 and r.json()["code"] == "invalid_version", bad
        assert r.json()["detail"] == {"expected_version": [str(bad)]}
    assert _events(match_id)[-1][0] == version  # nothing written so far
    r = ana.post(f"/matches/{match_id}/roll", {}, HTTP_IF_MATCH=f'W/"{version}"')
    assert r.status_code == 200 and r.json()["version"] == version + 1
    assert r["ETag"] == f'"{version + 1}"'


def _client(token: str):  # type: ignore[no-untyped-def]
    from tests.api.conftest import client_with

    return client_with(token)
