"""The tournaments' API and service in one process (no worker: what a worker would do after a
commit, the tests ask of the sweeper, which makes up for any lost message the same way)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from matches.errors import EventsAreImmutable
from matches.services import tournaments
from matches.store.models import Match
from matches.store.tournament_models import Tournament, TournamentEvent, TournamentMatch
from tests.api.conftest import guest

from .conftest import create, settings_for
from .driver import Script, join_all

pytestmark = pytest.mark.django_db(transaction=True)


def start_now(tid: str) -> None:
    row = Tournament.objects.get(pk=tid)
    tournaments.start(row.pk, now=row.starts_at)


def test_only_staff_create_and_anyone_reads(staff: Any, make_player: Any, settings: Any) -> None:
    ana = make_player("ana")
    r = ana.post("/tournaments", settings_for("knockout"))
    assert r.status_code == 403 and r.json()["code"] == "permission_denied"
    settings.TAVLA_PLAYERS_CREATE_TOURNAMENTS = True
    assert ana.post("/tournaments", settings_for("knockout")).status_code == 201
    body = create(staff, "swiss")
    assert body["status"] == "upcoming" and body["settings"]["rounds"] == 3
    assert body["actions"] == ["join"]
    listed = ana.get("/tournaments", data={"status": "upcoming"}).json()["tournaments"]
    assert {t["id"] for t in listed} >= {body["id"]}
    assert ana.get("/tournaments", data={"status": "finished"}).json()["tournaments"] == []
    assert ana.get("/tournaments", data={"status": "nope"}).json()["code"] == "invalid_request"
    missing = ana.get("/tournaments/4f0c2a9e-1b7d-4c55-9a51-3c2e0d1f8b20")
    assert missing.status_code == 404 and missing.json()["code"] == "tournament_not_found"
    turkish = ana.get(f"/tournaments/{body['id']}x", HTTP_ACCEPT_LANGUAGE="tr").json()
    assert turkish["code"] == "tournament_not_found" and "turnuva yok" in turkish["message"]


def test_settings_refused_name_their_field(staff: Any) -> None:
    r = staff.post("/tournaments", settings_for("swiss", rounds=5, min_players=4))
    assert r.status_code == 400 and r.json()["detail"]["reason"] == "too_many_rounds"
    assert "rounds" in r.json()["detail"]
    r = staff.post(
        "/tournaments", settings_for("knockout", rated=False, guests=True, clock="nope"),
        HTTP_ACCEPT_LANGUAGE="tr",
    )  # fmt: skip
    assert r.status_code == 400 and r.json()["detail"]["reason"] == "tournament_clock"
    assert "saat" in r.json()["detail"]["clock"][0].lower()


def test_join_and_leave_before_the_start(staff: Any, make_player: Any) -> None:
    tid = create(staff, "knockout", max_players=4)["id"]
    players = [make_player("pla") for _ in range(4)]
    join_all(tid, players)
    again = players[0].post(f"/tournaments/{tid}/join", {})
    assert again.status_code == 409 and again.json()["detail"]["reason"] == "already_joined"
    full = make_player("late").post(f"/tournaments/{tid}/join", {})
    assert full.json()["detail"]["reason"] == "tournament_full"
    gone = players[3].post(f"/tournaments/{tid}/leave", {})
    assert gone.status_code == 200 and gone.json()["actions"] == ["join"]
    assert len(gone.json()["players"]) == 3
    stranger = make_player("xen").post(f"/tournaments/{tid}/leave", {})
    assert stranger.json()["detail"]["reason"] == "not_in_tournament"
    assert guest("Gus").post(f"/tournaments/{tid}/join", {}).json()["detail"]["reason"] == (
        "guests_not_allowed"
    )
    assert players[0].post(f"/tournaments/{tid}/join", {}, format="json").status_code == 409


def test_guests_join_an_unrated_tournament_that_allows_them(staff: Any) -> None:
    tid = create(staff, "knockout", guests=True)["id"]
    r = guest("Gus").post(f"/tournaments/{tid}/join", {})
    assert r.status_code == 200 and r.json()["players"][0]["kind"] == "guest"


def test_a_knockout_runs_to_its_champion(staff: Any, make_player: Any) -> None:
    """Five players: three byes, a first-round match, then the semi-finals and the final;
    each match's result recorded by the sweeper, the next round paired by it."""
    tid = create(staff, "knockout", min_players=4)["id"]
    players = {p.user_id: p for p in (make_player("kno") for _ in range(5))}
    join_all(tid, players.values())
    start_now(tid)
    script = Script(players, loser=lambda a, b: max(a, b))  # the later sign-up loses
    for number in (1, 2, 3):
        detail = script.detail(tid)
        assert len(detail["rounds"]) == number and detail["status"] == "running"
        script.play_round(tid, number)
        assert tournaments.sweep()["recorded"] >= 1
    detail = script.detail(tid)
    assert detail["status"] == "finished" and detail["winner"] == min(players)
    assert [len(r["boards"]) for r in detail["rounds"]] == [4, 2, 1]
    standings = script.players[min(players)].get(f"/tournaments/{tid}/standings").json()
    assert standings["final"] and standings["rows"][0]["user_id"] == min(players)
    assert Tournament.objects.get(pk=tid).winner_id == min(players)


def test_a_player_who_leaves_a_running_tournament_forfeits(staff: Any, make_player: Any) -> None:
    tid = create(staff, "swiss", min_players=4, rounds=2)["id"]
    players = [make_player("swi") for _ in range(4)]
    join_all(tid, players)
    start_now(tid)
    leaver = players[0]
    board = next(
        b for b in Script({p.user_id: p for p in players}, lambda a, b: None).detail(tid)[
            "rounds"
        ][0]["boards"] if leaver.user_id in b["players"]
    )  # fmt: skip
    r = leaver.post(f"/tournaments/{tid}/leave", {})
    assert r.status_code == 200, r.content
    mine = next(b for b in r.json()["rounds"][0]["boards"] if b["index"] == board["index"])
    other = next(p for p in board["players"] if p != leaver.user_id)
    assert mine["result"] == {"winner": other, "score": [0, 0], "ended_by": "withdrawn"}
    match = Match.objects.get(pk=board["match"])
    assert match.status == Match.Status.FINISHED and match.ended_by == Match.EndedBy.RESIGN
    assert TournamentMatch.objects.get(pk=match.pk).recorded
    assert next(p for p in r.json()["players"] if p["user_id"] == leaver.user_id)["withdrawn"]
    assert r.json()["actions"] == []


def test_too_few_players_cancel_it_at_its_start(staff: Any, make_player: Any) -> None:
    tid = create(staff, "knockout", min_players=4)["id"]
    join_all(tid, [make_player("can") for _ in range(2)])
    Tournament.objects.filter(pk=tid).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert tournaments.sweep()["started"] == 1
    row = Tournament.objects.get(pk=tid)
    assert row.status == "cancelled"
    last = TournamentEvent.objects.filter(tournament=row).order_by("-seq").first()
    assert last is not None and last.type == "tournament_cancelled"
    assert last.payload["reason"] == "too_few_players"


def test_tournament_events_are_append_only(staff: Any) -> None:
    tid = create(staff, "knockout")["id"]
    event = TournamentEvent.objects.get(tournament_id=tid, seq=1)
    with pytest.raises(EventsAreImmutable):
        event.save()
    with pytest.raises(EventsAreImmutable):
        TournamentEvent.objects.filter(tournament_id=tid).delete()
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM matches_tournamentevent WHERE tournament_id = %s", [tid])


def test_staff_enter_the_computer_and_nobody_else_does(staff: Any, make_player: Any) -> None:
    tid = create(staff, "knockout", max_players=4)["id"]
    ana = make_player("pla")
    refused = ana.post(f"/tournaments/{tid}/join", {"computer": "random"})
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    unknown = staff.post(f"/tournaments/{tid}/join", {"computer": "grandmaster"})
    assert unknown.status_code == 400 and "computer" in unknown.json()["detail"]
    entered = staff.post(f"/tournaments/{tid}/join", {"computer": "random"})
    assert entered.status_code == 200, entered.content
    [computer] = entered.json()["players"]
    assert computer["username"] == "computer-random" and computer["kind"] == "computer"
    assert entered.json()["joined"] is False  # staff entered it, not themselves
    again = staff.post(f"/tournaments/{tid}/join", {"computer": "random"})
    assert again.status_code == 409 and again.json()["detail"]["reason"] == "already_joined"
    assert Tournament.objects.get(pk=tid).events.filter(type="player_joined").count() == 1
