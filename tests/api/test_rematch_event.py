"""A rematch offer is written to the finished match's stream (`rematch_offered`), so a client
following that match (long-poll, or a push stream) learns of it without asking again; the
finished match itself is unchanged."""

from __future__ import annotations

import threading
import time
import typing
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from matches.interop.exporting import match_to_mat
from matches.selectors import shapes
from matches.store.events import EVENT_TYPES
from matches.store.models import Match
from matches.store.streams import load_view
from tests.api.conftest import API, create
from tests.api.test_contract import conforms

pytestmark = pytest.mark.django_db(transaction=True)


def finished_online(make_player: Any) -> tuple[Any, Any, str]:
    ana, ben = make_player(), make_player()
    match_id = create(ana, mode="online", length=1)["id"]
    ben.post(f"/matches/{match_id}/join", {})
    loser = ana if "resign" in ana.state(match_id)["actions"] else ben
    winner = ben if loser is ana else ana
    assert loser.post(f"/matches/{match_id}/resign", {"value": 1}).status_code == 200
    assert winner.post(f"/matches/{match_id}/accept", {}).status_code == 200
    return ana, ben, match_id


def test_the_old_matchs_watcher_wakes_up_with_the_rematch(make_player) -> None:
    ana, ben, match_id = finished_online(make_player)
    before = Match.objects.get(pk=match_id)
    version = ana.state(match_id)["version"]
    seen: dict[str, Any] = {}

    def watch() -> None:
        started = time.monotonic()
        r = ana.get(f"/matches/{match_id}/events", data={"after": version, "wait": 10})
        seen["after"] = time.monotonic() - started
        seen["events"] = r.json()["events"]

    waiting = threading.Thread(target=watch)
    waiting.start()
    time.sleep(0.5)  # ana is waiting on the finished match
    r = ben.post(f"/matches/{match_id}/rematch")
    assert r.status_code == 201
    rematch = r.json()["id"]
    waiting.join(15)
    assert seen["after"] < 3, seen  # woken by the offer, not by the end of the wait
    [event] = seen["events"]
    assert event["type"] == "rematch_offered"
    schema = yaml.safe_load(APIClient().get(f"{API}/schema").content)["components"]["schemas"]
    conforms({"version": version + 1, "events": seen["events"]}, "Events", schema)
    assert event["data"] == {"seat": ben.state(match_id)["side"]["seat"], "match_id": rematch}
    # the finished match is the same match: result, last move time; only its version moved
    after = Match.objects.get(pk=match_id)
    assert (after.status, after.winner, after.ended_by) == (
        before.status,
        before.winner,
        before.ended_by,
    )
    assert after.last_move_at == before.last_move_at and after.version == before.version + 1
    view = load_view(after.pk)
    assert view.rematch == rematch and view.state is not None and view.state.is_over
    state = ana.state(match_id)
    assert state["lobby"]["rematch"] == rematch and state["actions"] == ["rematch"]
    assert "1 point match" in match_to_mat(after.pk)  # the export skips the offer
    # ana accepts by asking for the rematch too: no second offer in the old stream
    assert ana.post(f"/matches/{match_id}/rematch").json()["id"] == rematch
    types = [e["type"] for e in ana.get(f"/matches/{match_id}/events").json()["events"]]
    assert types.count("rematch_offered") == 1


def test_the_schema_names_every_stored_event_type() -> None:
    assert set(typing.get_args(shapes.EventType)) == set(EVENT_TYPES)
