"""The tournaments' bodies as the schema documents them: a list, a running knockout's detail
(byes, matches, a result), its standings and a Swiss's, a refusal's error."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from matches.services import tournaments
from matches.store.tournament_models import Tournament
from tests.api.conftest import API
from tests.api.test_contract import conforms

from .conftest import create
from .driver import Script, join_all

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def components() -> dict[str, Any]:
    return yaml.safe_load(APIClient().get(f"{API}/schema").content)["components"]["schemas"]


@pytest.mark.parametrize("fmt", ["knockout", "swiss"])
def test_running_tournaments_conform(
    fmt: str, staff: Any, make_player: Any, components: Any
) -> None:
    tid = create(staff, fmt)["id"]
    players = {p.user_id: p for p in (make_player("con") for _ in range(5))}
    join_all(tid, players.values())
    conforms(staff.get(f"/tournaments/{tid}").json(), "TournamentDetail", components)
    row = Tournament.objects.get(pk=tid)
    tournaments.start(row.pk, now=row.starts_at)
    script = Script(players, loser=lambda a, b: max(a, b))
    script.play_round(tid, 1)
    tournaments.sweep()
    detail = staff.get(f"/tournaments/{tid}").json()
    assert any(b["result"] for b in detail["rounds"][0]["boards"])
    assert any(b["players"][1] is None for b in detail["rounds"][0]["boards"])
    conforms(detail, "TournamentDetail", components)
    conforms(staff.get(f"/tournaments/{tid}/standings").json(), "TournamentStandings", components)
    for status in ("running", "upcoming", "finished"):
        body = staff.get("/tournaments", data={"status": status}).json()
        conforms(body, "TournamentList", components)
    refused = players[min(players)].post(f"/tournaments/{tid}/join", {})
    assert refused.status_code == 409
    conforms(refused.json(), "Error", components)
