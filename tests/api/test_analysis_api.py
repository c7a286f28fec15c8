"""The post-game analysis over the API, made by a real Celery worker (in a thread) through a
Redis of the test's own (the fixture of tests/api/test_computer_worker.py): asked for, queued,
made by the engine through the task, read back; made by itself for a finished rated match; a
lost task message sent again by the sweeper; an imported .mat analysed like any match."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.bots.analysis import analyse_mat
from games.rules import position_from_id
from matches.services import analysis
from matches.store.analysis_models import MatchAnalysis
from tests.api.conftest import API, Policy, create, play_out
from tests.api.test_computer_worker import redis_worker  # noqa: F401 - the worker fixture

DATA = Path(__file__).resolve().parents[1] / "data" / "analysis-public"
MARKS = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))
LOST: list[str] = []


def lose(match_id: Any) -> None:
    """A TAVLA_ANALYSIS_SEND that loses the message (the broker was down, the process died)."""
    LOST.append(str(match_id))


def finished_hotseat(player: Any, seed: int = 3, **settings: Any) -> str:
    match_id = create(player, mode="hotseat", length=settings.pop("length", 1), **settings)["id"]
    state = play_out(match_id, {0: player, 1: player}, Policy(random.Random(seed), greedy=False))
    assert state["status"] == "finished"
    return match_id


def wait_done(client: Any, match_id: str, timeout: float = 90.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get(f"{API}/matches/{match_id}/analysis")
        assert r.status_code == 200, r.content
        body = r.json()
        assert body["status"] in ("queued", "running", "done"), body
        if body["status"] == "done":
            return body
        time.sleep(0.2)
    raise AssertionError(f"the analysis of {match_id} was not made in {timeout} s")


def mark_of(error: float) -> str | None:
    return next((name for limit, name in MARKS if error >= limit), None)


@pytest.mark.django_db(transaction=True)
def test_the_worker_makes_the_analysis_asked_for(make_player, redis_worker) -> None:  # noqa: F811
    ana, eve = make_player(), make_player()
    match_id = finished_hotseat(ana, length=3, cube=True)
    r = ana.get(f"/matches/{match_id}/analysis")
    assert r.status_code == 404 and r.json()["code"] == "no_analysis"  # never asked for

    r = ana.post(f"/matches/{match_id}/analysis")
    assert r.status_code == 202, r.content
    assert r.json()["status"] in ("queued", "running") and r.json()["games"] is None
    body = wait_done(ana.client, match_id)

    # what the worker made is the engine's judgement of the stored match, with positions
    state = ana.state(match_id)
    assert len(body["games"]) == len(state["games"])
    _version, document = analysis.match_document(match_id)
    assert [g["decisions"] for g in body["games"]] == [
        [{**d, "board": None} for d in g["decisions"]] for g in _without_position(document)
    ]
    assert body["players"] == document["players"]
    decisions = [d for g in body["games"] for d in g["decisions"]]
    assert len(decisions) > 10
    for d in decisions:
        assert d["error"] >= 0 and d["mark"] == mark_of(d["error"])
        position_from_id(d["position_id"])  # a gnubg Position ID, before the decision
        if d["action"] == "move":
            assert d["dice"] is not None and d["luck"] is not None
    assert any(d["action"] == "move" and d["played"] for d in decisions)
    for seat, p in enumerate(body["players"]):
        mine = [d for d in decisions if d["player"] == seat]
        if p["unforced"]:
            total = sum(d["error"] for d in mine)
            assert p["pr"] == pytest.approx(500 * total / p["unforced"], abs=0.01)
    row = MatchAnalysis.objects.get(match_id=match_id)
    assert row.engine == analysis.engine() and body["engine"] == row.engine
    assert row.pr0 == body["players"][0]["pr"]

    # asked again: the analysis made is given at once (200); anyone who reads the match reads it
    again = eve.post(f"/matches/{match_id}/analysis")
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert again.json()["players"] == body["players"]
    assert APIClient().get(f"{API}/matches/{match_id}/analysis").json() == body


def _without_position(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"decisions": [{k: v for k, v in d.items() if k != "position"} for d in g["decisions"]]}
        for g in document["games"]
    ]


@pytest.mark.django_db(transaction=True)
def test_a_lost_task_is_sent_again_by_the_sweeper(
    make_player,
    redis_worker,  # noqa: F811
    settings,
) -> None:
    from matches.tasks.analysis import sweep_analyses

    ana = make_player()
    match_id = finished_hotseat(ana, seed=5)
    settings.TAVLA_ANALYSIS_SEND = "tests.api.test_analysis_api.lose"
    LOST.clear()
    assert ana.post(f"/matches/{match_id}/analysis").status_code == 202
    assert [match_id] == LOST  # the message never reached the broker
    time.sleep(1.0)
    assert ana.get(f"/matches/{match_id}/analysis").json()["status"] == "queued"
    settings.TAVLA_ANALYSIS_SEND = "matches.tasks.analysis.send"
    settings.TAVLA_ANALYSIS_LOST_SECONDS = 0.5
    sweep_analyses.delay()  # as beat sends it
    body = wait_done(ana.client, match_id)
    assert body["players"][0]["name"] and MatchAnalysis.objects.get(pk=match_id).attempts == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("auto", [True, False])
def test_a_finished_rated_match_is_analysed_by_itself(
    make_player,
    redis_worker,  # noqa: F811
    settings,
    auto,
) -> None:
    settings.TAVLA_AUTO_ANALYSIS = auto
    ana, ben = make_player(), make_player()
    match_id = create(ana, mode="online", length=1)["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    state = play_out(match_id, {0: ana, 1: ben}, Policy(random.Random(2)))
    assert state["status"] == "finished" and state["settings"]["rated"]
    if not auto:
        time.sleep(1.0)
        assert not MatchAnalysis.objects.filter(match_id=match_id).exists()
        return
    body = wait_done(ana.client, match_id)
    assert body["players"][0]["unforced"] + body["players"][1]["unforced"] > 0
    # his page carries his PR over his analysed rated matches
    page = ana.get(f"/players/{ana.username}").json()
    (tavla,) = page["performance"]
    assert tavla["game"] == "tavla" and tavla["matches"] == 1
    seat = 0
    assert tavla["pr"] == pytest.approx(body["players"][seat]["pr"], abs=0.001)
    assert [h["match"] for h in tavla["history"]] == [match_id]


@pytest.mark.django_db(transaction=True)
def test_an_imported_mat_is_analysed_like_any_match(make_player, redis_worker) -> None:  # noqa: F811
    ana = make_player()
    path = DATA / "an_01_len1_cube_n010_045.mat"
    text = path.read_text()
    r = ana.post("/matches/import", {"text": text})
    assert r.status_code == 201, r.content
    match_id = r.json()["match"]["id"]
    assert ana.post(f"/matches/{match_id}/analysis").status_code == 202
    body = wait_done(ana.client, match_id)
    cli = analyse_mat(text).to_json()  # what `python -m games.bots analyse FILE.mat` prints
    assert [p["name"] for p in body["players"]] == [p["name"] for p in cli["players"]]
    assert [p["error_rate"] for p in body["players"]] == [p["error_rate"] for p in cli["players"]]
    ours = [
        (d["action"], d["played"], d["best"], d["error"])
        for g in body["games"]
        for d in g["decisions"]
    ]
    theirs = [
        (d["action"], d["played"], d["best"], d["error"])
        for g in cli["games"]
        for d in g["decisions"]
    ]
    assert ours == theirs


@pytest.mark.django_db
def test_who_may_ask_and_read(make_player) -> None:
    ana, ben, eve = make_player(), make_player(), make_player()
    playing = create(ana, mode="online", length=3)["id"]
    assert ben.post(f"/matches/{playing}/join", {}).status_code == 200
    for r in (ana.post(f"/matches/{playing}/analysis"), ana.get(f"/matches/{playing}/analysis")):
        assert r.status_code == 409 and r.json()["code"] == "match_not_finished"
    assert not MatchAnalysis.objects.exists()

    private = create(ana, mode="hotseat", length=1, public=False)["id"]
    for r in (
        eve.post(f"/matches/{private}/analysis"),
        eve.get(f"/matches/{private}/analysis"),
        APIClient().get(f"{API}/matches/{private}/analysis"),
    ):
        assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    r = APIClient().post(f"{API}/matches/{playing}/analysis")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    missing = "00000000-0000-0000-0000-000000000000"
    assert ana.get(f"/matches/{missing}/analysis").json()["code"] == "match_not_found"
    r = ana.post(f"/matches/{playing}/analysis", HTTP_ACCEPT_LANGUAGE="tr")
    assert r.json()["message"] == "Maç bitmedi: bittiğinde analiz edilir."


@pytest.mark.django_db(transaction=True)
def test_a_long_nardy_match_is_analysed_with_its_boards(make_player, redis_worker) -> None:  # noqa: F811
    ana = make_player()
    match_id = finished_hotseat(ana, seed=8, game="long-nardy")
    assert ana.post(f"/matches/{match_id}/analysis").status_code == 202
    body = wait_done(ana.client, match_id)
    decisions = [d for g in body["games"] for d in g["decisions"]]
    assert decisions and all(d["action"] == "move" for d in decisions)  # no cube
    for d in decisions:
        assert d["position_id"] is None
        board = d["board"]
        assert board["bar"] is None and len(board["points"]) == 24
        mine = sum(n for n in board["points"] if n > 0) + board["off"]["you"]
        assert mine == 15
    first = decisions[0]["board"]
    assert first["heads"]["you"]["point"] == 24  # the opening position, from the mover's side
