"""Object-level permissions: only a seated player acts; anyone reads a public match; nobody
else writes. Every mutating endpoint is tried by a non-participant and without a token, and
nothing may be written (same version, same events)."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from matches.store.models import Match, MatchEvent
from tests.api.conftest import API, Policy, create, play_out

pytestmark = pytest.mark.django_db

MATCH_WRITES = [
    ("roll", {}),
    ("play", {"play": "24/18 13/11"}),
    ("double", {}),
    ("take", {}),
    ("drop", {}),
    ("resign", {"value": 1}),
    ("resign-match", {}),
    ("accept", {}),
    ("reject", {}),
    ("abort", {}),
    ("rematch", None),
    ("join", {}),
]


def _snapshot(match_id: str) -> tuple[int, int, str]:
    row = Match.objects.get(pk=match_id)
    return row.version, MatchEvent.objects.filter(match_id=match_id).count(), row.status


@pytest.fixture
def active(make_player):
    """An active online match ana (seat 0) vs ben, and eve who does not play in it."""
    ana, ben, eve = make_player("ana"), make_player("ben"), make_player("eve")
    match_id = create(ana, mode="online", length=3, cube=True)["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    return ana, ben, eve, match_id


@pytest.mark.parametrize(("action", "body"), MATCH_WRITES)
def test_a_non_participant_cannot_write(active, action, body) -> None:
    _ana, _ben, eve, match_id = active
    before = _snapshot(match_id)
    r = eve.post(f"/matches/{match_id}/{action}", body)
    assert r.status_code in (403, 404, 409), r.content
    assert r.json()["code"] in ("not_a_player", "invite_required", "match_full")
    assert _snapshot(match_id) == before
    # the same with an idempotency key and an expected version: still nothing
    r = eve.post(
        f"/matches/{match_id}/{action}",
        body,
        HTTP_IDEMPOTENCY_KEY="k-1",
        HTTP_IF_MATCH=f'"{before[0]}"',
    )
    assert r.status_code in (403, 404, 409)
    assert _snapshot(match_id) == before


@pytest.mark.parametrize(("action", "body"), MATCH_WRITES)
def test_writes_need_a_token(active, action, body) -> None:
    _, _, _, match_id = active
    before = _snapshot(match_id)
    r = APIClient().post(f"{API}/matches/{match_id}/{action}", body, format="json")
    assert r.status_code == 401
    assert r.json()["code"] == "not_authenticated"
    assert r["WWW-Authenticate"] == "Token"
    r = APIClient(HTTP_AUTHORIZATION="Token nonsense").post(
        f"{API}/matches/{match_id}/{action}", body, format="json"
    )
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"
    assert _snapshot(match_id) == before


@pytest.mark.parametrize(
    "path",
    [
        "/matches",
        "/matches/import",
        "/auth/logout",
        "/tournaments",
        "/tournaments/4f0c2a9e-1b7d-4c55-9a51-3c2e0d1f8b20/join",
        "/tournaments/4f0c2a9e-1b7d-4c55-9a51-3c2e0d1f8b20/leave",
    ],
)
def test_other_writes_need_a_token(path) -> None:
    r = APIClient().post(f"{API}{path}", {}, format="json")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_invite_join_by_a_third_player_writes_nothing(active) -> None:
    ana, _, eve, match_id = active
    code = ana.state(match_id)["lobby"]["invite_code"]
    before = _snapshot(match_id)
    r = eve.post(f"/invites/{code}/join", {})
    assert r.status_code == 409 and r.json()["code"] == "match_full"
    assert _snapshot(match_id) == before


def test_anyone_reads_a_public_match(active) -> None:
    _ana, _, eve, match_id = active
    for client in (eve.client, APIClient()):
        for path in ("", "/events", "/boards", "/export", "/legal-next-steps"):
            r = client.get(f"{API}/matches/{match_id}{path}")
            assert r.status_code in (200, 422), (path, r.content)  # 422: nothing to play now
        state = client.get(f"{API}/matches/{match_id}").json()
        assert state["side"]["role"] == "spectator" and state["actions"] == []
        assert state["lobby"]["invite_code"] is None  # the code is for the players


def test_a_private_match_is_not_found_for_others(make_player) -> None:
    ana, ben, eve = make_player(), make_player(), make_player()
    match_id = create(ana, mode="online", length=1, public=False, open_challenge=False)["id"]
    code = ana.state(match_id)["lobby"]["invite_code"]
    assert ben.post(f"/invites/{code}/join", {}).status_code == 200
    for client in (eve.client, APIClient()):
        for path in ("", "/events", "/boards", "/export", "/legal-next-steps"):
            r = client.get(f"{API}/matches/{match_id}{path}")
            assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    before = _snapshot(match_id)
    for action, body in MATCH_WRITES:
        r = eve.post(f"/matches/{match_id}/{action}", body)
        assert r.status_code == 404, (action, r.content)
    assert _snapshot(match_id) == before
    assert eve.get("/matches/live").json()["results"] == []
    assert ben.state(match_id)["side"]["role"] == "player"


def test_a_player_cannot_act_for_the_other_seat(active) -> None:
    ana, ben, _, match_id = active
    state = ana.state(match_id)
    waiting = ben if state["turn"]["who"] == "you" else ana
    before = _snapshot(match_id)
    r = waiting.post(f"/matches/{match_id}/play", {"play": "24/18 13/11"})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    refusals = {409: "not_your_turn", 422: "illegal_action"}
    for action in ("roll", "double", "resign", "take", "accept"):
        r = waiting.post(f"/matches/{match_id}/{action}", {})
        assert refusals.get(r.status_code) == r.json()["code"], (action, r.content)
    assert _snapshot(match_id) == before


def test_nobody_else_acts_in_a_hotseat_match(make_player) -> None:
    ana, eve = make_player(), make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    before = _snapshot(match_id)
    for action, body in MATCH_WRITES:
        r = eve.post(f"/matches/{match_id}/{action}", body)
        assert r.status_code in (403, 409), (action, r.content)
    assert _snapshot(match_id) == before


def test_a_finished_match_refuses_moves_and_a_stranger_cannot_rematch(make_player) -> None:
    ana, eve = make_player(), make_player()
    match_id = create(ana, mode="hotseat", length=1, cube=True)["id"]
    play_out(match_id, {0: ana, 1: ana}, Policy(random.Random(1), double=0.5, take=0.0))
    before = _snapshot(match_id)
    assert before[2] == "finished"
    r = ana.post(f"/matches/{match_id}/roll", {})
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    r = eve.post(f"/matches/{match_id}/rematch")
    assert r.status_code == 403
    assert _snapshot(match_id) == before


# -- players among players (issue 28) -----------------------------------------------------------

COMMUNITY_WRITES = [
    ("post", "/players/{name}/follow", None),
    ("delete", "/players/{name}/follow", None),
    ("post", "/players/{name}/block", None),
    ("delete", "/players/{name}/block", None),
    ("post", "/challenges", {"to": "{name}", "length": 1}),
    ("post", "/challenges/{challenge}/accept", None),
    ("post", "/challenges/{challenge}/decline", None),
    ("delete", "/challenges/{challenge}", None),
    ("post", "/reports", {"player": "{name}", "reason": "spam"}),
    ("post", "/matches/{match}/chat", {"channel": "say", "text": "hi"}),
]
COMMUNITY_READS = ["/me/following", "/me/blocked", "/challenges"]


def _filled(template: str, values: dict[str, str]) -> str:
    return template.format(**values)


@pytest.mark.parametrize(("method", "path", "body"), COMMUNITY_WRITES)
def test_community_writes_need_a_token(active, method, path, body) -> None:
    from matches.store.community_models import ChatMessage, Follow, Report

    ana, ben, _, match_id = active
    made = ana.post("/challenges", {"to": ben.username, "length": 1}).json()
    values = {"name": ben.username, "match": match_id, "challenge": made["id"]}
    data = (
        None
        if body is None
        else {k: _filled(v, values) if isinstance(v, str) else v for k, v in body.items()}
    )
    before = (Follow.objects.count(), Report.objects.count(), ChatMessage.objects.count())
    for client in (APIClient(), APIClient(HTTP_AUTHORIZATION="Token nonsense")):
        r = getattr(client, method)(f"{API}{_filled(path, values)}", data, format="json")
        assert r.status_code == 401, (path, r.content)
    assert (Follow.objects.count(), Report.objects.count(), ChatMessage.objects.count()) == before


@pytest.mark.parametrize("path", COMMUNITY_READS)
def test_community_lists_need_a_token(path) -> None:
    r = APIClient().get(f"{API}{path}")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"


def test_only_the_challenged_answers_and_only_the_challenger_cancels(active) -> None:
    ana, ben, eve, _ = active
    made = ana.post("/challenges", {"to": ben.username, "length": 1}).json()
    for who, method, path in (
        (eve, "post", f"/challenges/{made['id']}/accept"),
        (eve, "post", f"/challenges/{made['id']}/decline"),
        (ana, "post", f"/challenges/{made['id']}/accept"),
        (ben, "delete", f"/challenges/{made['id']}"),
        (eve, "delete", f"/challenges/{made['id']}"),
    ):
        r = getattr(who.client, method)(f"{API}{path}", format="json")
        assert r.status_code == 404 and r.json()["code"] == "not_found", (path, r.content)
    assert ben.get("/challenges").json()["incoming"][0]["status"] == "pending"


def test_the_analysis_follows_the_read_permission_and_the_hint_the_seat(make_player) -> None:
    """Whoever may read a match may ask for and read its analysis (a token to ask); the
    hint only to its player on turn where hints are allowed; a private match is not found."""
    ana, eve = make_player(), make_player()
    public = create(ana, mode="hotseat", length=1)["id"]
    private = create(ana, mode="hotseat", length=1, public=False)["id"]
    for match_id in (public, private):
        play_out(match_id, {0: ana, 1: ana}, Policy(random.Random(4)))
    assert eve.post(f"/matches/{public}/analysis").status_code == 202
    assert APIClient().get(f"{API}/matches/{public}/analysis").status_code == 200
    r = APIClient().post(f"{API}/matches/{public}/analysis")
    assert r.status_code == 401 and r.json()["code"] == "not_authenticated"
    for r in (
        eve.post(f"/matches/{private}/analysis"),
        eve.get(f"/matches/{private}/analysis"),
        eve.get(f"/matches/{private}/hint"),
    ):
        assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    assert ana.post(f"/matches/{private}/analysis").status_code == 202
    r = eve.get(f"/matches/{public}/hint")
    assert r.status_code == 403 and r.json()["code"] == "hints_not_allowed"
    assert ana.get(f"/matches/{public}/hint").json()["plays"] == []  # over: nothing to play
