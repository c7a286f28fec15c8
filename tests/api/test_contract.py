"""The contract fixes of issue 13: what the schema says is what the API answers.

(The schema-driven fuzz, tests/api/test_fuzz.py, validates every body it sees; these pin the
cases it cannot reach by chance: a waiting match, a running clock, summaries, export, 404s.)
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
import yaml
from django.test import Client
from jsonschema import Draft4Validator
from rest_framework.test import APIClient

from games.rules.clock import SITE
from matches.api import bodies
from matches.api.contract import render, serializer_for
from matches.selectors import shapes
from tests.api.conftest import API, create

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def components(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        text = APIClient().get(f"{API}/schema").content
    return yaml.safe_load(text)["components"]["schemas"]


def conforms(body: Any, component: str, components: dict[str, Any]) -> None:
    """Validate a body against a component of the served schema (OpenAPI 3.0 nullable)."""
    root = {"$ref": f"#/components/schemas/{component}", "components": {"schemas": components}}
    schema = _nullable(root)
    errors = [e.message for e in Draft4Validator(schema).iter_errors(body)]
    assert not errors, errors[:3]


def _nullable(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _nullable(v) for k, v in node.items() if k != "nullable"}
        if node.get("nullable"):
            return {"anyOf": [out, {"type": "null"}]}
        return out
    if isinstance(node, list):
        return [_nullable(v) for v in node]
    return node


def test_every_shape_has_a_serializer_with_its_fields() -> None:
    for module in (shapes, bodies):
        for name, shape in vars(module).items():
            if not (dataclasses.is_dataclass(shape) and isinstance(shape, type)):
                continue
            if name == "Key":
                continue
            fields = set(serializer_for(shape)().fields)
            names = {f.name for f in dataclasses.fields(shape)}
            assert fields == (names - {"frm"}) | ({"from"} if "frm" in names else set()), name


def test_a_waiting_match_has_a_free_seat_as_null(make_player, components) -> None:
    ana = make_player()
    state = create(ana, mode="online", length=3)
    assert state["players"][1] is None and state["players"][0]["seat"] == 0
    conforms(state, "MatchState", components)
    page = ana.get("/matches").json()
    assert page["results"][0]["players"][1] is None
    conforms(page, "MatchSummaryPage", components)


def test_summaries_give_to_act_like_the_state(make_player, components) -> None:
    ana = make_player()
    state = create(ana, mode="hotseat", length=1)
    summary = ana.get("/matches").json()["results"][0]
    assert summary["to_act"] == state["to_act"] == {"seat": state["to_act"]["seat"], "who": "you"}
    ben = make_player()
    online = create(ana, mode="online", length=1)
    ben.post(f"/matches/{online['id']}/join", {})
    mine = {m["id"]: m for m in ben.get("/matches").json()["results"]}[online["id"]]
    theirs = ana.state(online["id"])
    assert mine["to_act"]["seat"] == theirs["to_act"]["seat"]
    assert {mine["to_act"]["who"], theirs["to_act"]["who"]} == {"you", "opponent"}
    conforms(ben.get("/matches/challenges").json(), "MatchSummaryPage", components)


def test_the_clock_gives_every_number_as_a_float(make_player, components) -> None:
    ana, ben = make_player(), make_player()
    match_id = create(ana, mode="online", length=1)["id"]
    state = ben.post(f"/matches/{match_id}/join", {}).json()
    clock = state["clock"]
    numbers = [clock["reconnect"], *clock["settings"].values()]
    sides = (clock["you"], clock["opponent"], *clock["seats"])
    numbers += [v for side in sides for v in side.values()]
    assert all(type(n) is float for n in numbers), clock
    assert clock["settings"] == {k: float(v) for k, v in SITE.items()}
    assert state["settings"]["clock"] == clock["settings"]
    conforms(state, "MatchState", components)


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"delay": 1.5, "reserve": 60, "max_move": 30, "reconnect": 60}, "whole number"),
        ({"delay": 1, "reserve": 60, "max_move": 0, "reconnect": 60}, "more than 0"),
        ({"delay": 1, "reserve": -1, "max_move": 30, "reconnect": 60}, "0 to 86400"),
        ({"delay": 1, "reserve": 60}, "in whole seconds"),
    ],
)
def test_clock_settings_say_what_is_wrong(make_player, clock, words) -> None:
    r = make_player().post("/matches", {"mode": "online", "clock": clock})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    assert words in r.json()["detail"]["clock"][0]


def test_whole_seconds_written_as_floats_are_accepted(make_player) -> None:
    clock = {"delay": 5.0, "reserve": 60, "max_move": 30, "reconnect": 60}
    state = create(make_player(), mode="online", clock=clock)
    assert state["settings"]["clock"]["delay"] == 5.0


def test_export_as_json_and_as_text(make_player, components) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    text = ana.get(f"/matches/{match_id}/export")
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    assert "1 point match" in text.content.decode()
    for r in (
        ana.get(f"/matches/{match_id}/export", data={"format": "json"}),
        ana.get(f"/matches/{match_id}/export", HTTP_ACCEPT="application/json"),
    ):
        assert r.status_code == 200 and r["Content-Type"] == "application/json"
        assert r.json()["mat"] == text.content.decode()
        conforms(r.json(), "MatExport", components)
    missing = ana.get("/matches/00000000-0000-0000-0000-000000000000/export")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    assert missing.json()["code"] == "match_not_found"


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("get", "/api/v1/nothing-here", 404, "not_found"),
        ("post", "/api/v1/matches/x/y/z", 404, "not_found"),
        ("get", "/api/v1/matches/", 404, "not_found"),
        ("delete", "/api/v1/me/", 404, "not_found"),
        ("put", "/api/v1/matches/challenges", 405, "method_not_allowed"),
        ("delete", "/api/v1/rules/levels", 405, "method_not_allowed"),
    ],
)
def test_unknown_paths_and_methods_answer_json(method, path, status, code) -> None:
    r = getattr(Client(), method)(path)
    assert r.status_code == status and r["Content-Type"] == "application/json"
    assert r.json()["code"] == code
    if path.endswith("/"):
        assert "trailing slash" in r.json()["message"]


def test_the_front_door_says_where_the_api_is(components) -> None:
    r = Client().get("/")
    assert r.status_code == 200 and r.json()["api"] == "/api/v1/"
    assert r.json()["docs"] == "/api/v1/docs" and r.json()["schema"] == "/api/v1/schema"
    page = Client().get("/", HTTP_ACCEPT="text/html,application/xhtml+xml")
    assert page["Content-Type"].startswith("text/html") and b'href="/api/v1/docs"' in page.content
    index = Client().get("/api/v1/")
    assert index.json()["redoc"] == "/api/v1/redoc"
    conforms(index.json(), "ApiIndex", components)


def test_render_uses_the_json_names() -> None:
    body = render(shapes.Step(frm=25, to=22, hit=True))
    assert body == {"from": 25, "to": 22, "hit": True}
    hints = typing.get_type_hints(shapes.Step, include_extras=True)
    assert "from" in str(hints["frm"])


def test_settings_the_rules_refuse_are_invalid_requests_naming_the_field(make_player) -> None:
    r = make_player().post("/matches", {"mode": "hotseat", "length": 5, "jacoby": True})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    assert "money play" in r.json()["detail"]["jacoby"][0]
    # raised below the serializers too (services, the rules' clock): the same answer
    from games.rules import InvalidSettings
    from matches.api.errors import error_response

    response = error_response(InvalidSettings("max_move", "clock max_move must be more than 0"))
    assert response is not None and response.status_code == 400
    assert response.data["code"] == "invalid_request"
    assert response.data["detail"] == {"max_move": ["clock max_move must be more than 0"]}


def test_the_analysis_the_hint_and_the_pr_conform(make_player, components) -> None:
    """Bodies the fuzz does not reach by chance: an analysis queued and made (by the real
    task's body, called here), a hint, and a player's page with his PR."""
    import random

    from matches.tasks.analysis import analyse_match
    from tests.api.conftest import Policy, play_out

    ana, ben = make_player(), make_player()
    match_id = create(ana, mode="online", length=1)["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    play_out(match_id, {0: ana, 1: ben}, Policy(random.Random(6)))  # a rated match
    queued = ana.post(f"/matches/{match_id}/analysis")
    assert queued.status_code == 202  # its task is sent on commit: this test never commits
    conforms(queued.json(), "MatchAnalysis", components)
    assert analyse_match(match_id) == "done"
    done = ana.get(f"/matches/{match_id}/analysis").json()
    assert done["status"] == "done" and done["games"], done
    conforms(done, "MatchAnalysis", components)
    card = ana.get(f"/players/{ana.username}").json()
    assert card["performance"][0]["history"][0]["match"] == match_id
    conforms(card, "PlayerCard", components)
    hotseat = create(ana, mode="hotseat", length=1)
    conforms(ana.get(f"/matches/{hotseat['id']}/hint").json(), "Hints", components)
