"""Whole matches played through the HTTP API on PostgreSQL, in every mode."""

from __future__ import annotations

import random

import pytest

from games.rules.gnubgid import match_id_decode, position_from_id
from matches.store.models import Match, MatchEvent
from matches.store.streams import load_view
from tests.api.conftest import Policy, create, play_out

pytestmark = pytest.mark.django_db


def _check_final(state: dict, length: int) -> None:
    assert state["status"] == "finished"
    assert state["phase"] == "over"
    assert state["actions"] in (["rematch"], [])
    assert state["result"]["winner"] is not None
    if length:
        assert max(state["score"]["seats"]) >= length
    assert sum(g["points"] for g in state["games"]) == sum(state["score"]["seats"])


@pytest.mark.django_db(transaction=True)
def test_online_match_between_two_players_with_cube(make_player) -> None:
    ana, ben, watcher = make_player("ana"), make_player("ben"), make_player("eve")
    created = create(ana, mode="online", length=3, cube=True, open_challenge=True)
    match_id = created["id"]
    assert created["status"] == "waiting"
    assert created["side"] == {"seat": 0, "role": "player", "seats": [0]}
    assert created["settings"]["clock"] == {
        "delay": 12,
        "reserve": 120,
        "max_move": 60,
        "reconnect": 60,
    }
    assert created["clock"]["deadline"] is None  # the clock runs from the opening roll
    assert created["actions"] == ["abort"]
    assert created["lobby"]["invite_code"]
    # the challenge is listed; ben accepts it
    listed = ben.get("/matches/challenges").json()["results"]
    assert match_id in [m["id"] for m in listed]
    assert ben.state(match_id)["actions"] == ["join"]
    joined = ben.post(f"/matches/{match_id}/join", {})
    assert joined.status_code == 200, joined.content
    state = joined.json()
    assert state["status"] == "active"
    assert state["side"]["seat"] == 1
    assert state["phase"] == "play"  # the opening roll was made by the server
    assert match_id not in [m["id"] for m in ben.get("/matches/challenges").json()["results"]]
    assert match_id in [m["id"] for m in watcher.get("/matches/live").json()["results"]]
    policy = Policy(random.Random(3), double=0.3, take=0.7)
    final = play_out(match_id, {0: ana, 1: ben}, policy, watcher=watcher)
    _check_final(final, 3)
    assert policy.counts.get("double", 0) > 0
    # both players see the same result from their sides
    a, b = ana.state(match_id), ben.state(match_id)
    assert a["score"]["you"] == b["score"]["opponent"]
    assert a["result"]["winner"]["who"] != b["result"]["winner"]["who"]
    row = Match.objects.get(pk=match_id)
    assert row.status == "finished" and row.version == a["version"]


def test_state_is_from_the_callers_side(make_player) -> None:
    ana, ben = make_player(), make_player()
    match_id = create(ana, mode="online", length=1)["id"]
    ben.post(f"/matches/{match_id}/join", {})
    a, b = ana.state(match_id), ben.state(match_id)
    assert a["board"]["points"] == [-n for n in reversed(b["board"]["points"])]
    assert a["pips"]["you"] == b["pips"]["opponent"]
    assert a["turn"]["seat"] == b["turn"]["seat"]
    assert {a["turn"]["who"], b["turn"]["who"]} == {"you", "opponent"}
    on_turn = a if a["turn"]["who"] == "you" else b
    other = b if on_turn is a else a
    # the opening roll is out: no abort to fish for another (README Fair dice)
    assert on_turn["actions"] == ["play", "resign", "resign-match"] and on_turn["legal_plays"]
    assert other["actions"] == ["resign-match"] and other["legal_plays"] == []
    # gnubg ids describe the position of the player on roll and the match
    position = position_from_id(on_turn["gnubg"]["position_id"])
    assert list(position.board) == on_turn["board"]["points"]
    mid = match_id_decode(on_turn["gnubg"]["match_id"])
    assert mid.match_length == 1 and mid.dice == tuple(on_turn["dice"])
    assert mid.player_on_roll == on_turn["turn"]["seat"]
    # every legal play's steps and result agree with the stateless rules service
    dice = "".join(map(str, on_turn["dice"]))
    rules = ana.get(
        "/rules/legal-plays", data={"position_id": on_turn["gnubg"]["position_id"], "dice": dice}
    ).json()
    assert [p["notation"] for p in rules["plays"]] == [
        p["notation"] for p in on_turn["legal_plays"]
    ]


@pytest.mark.django_db(transaction=True)
def test_hotseat_money_play_with_cube_jacoby_and_resignations(make_player) -> None:
    ana = make_player()
    created = create(ana, mode="hotseat", length=0, cube=True, jacoby=True)
    match_id = created["id"]
    assert created["status"] == "active"
    assert created["side"]["role"] == "hotseat"
    assert created["settings"]["clock"] is None
    policy = Policy(random.Random(11), double=0.2, take=0.5, resign=0.02, accept=0.6)
    # money play never ends by itself: play until several games are done, then resign out
    state = created
    for _ in range(3000):
        if len(state["games"]) >= 6:
            break
        state = ana.state(match_id)
        from tests.api.conftest import act

        state = act(ana, match_id, state, policy)
    assert len(state["games"]) >= 6
    kinds = {g["ended_by"] for g in state["games"]}
    assert "drop" in kinds or "resign" in kinds
    assert policy.counts.get("reject", 0) + policy.counts.get("accept", 0) > 0
    # Jacoby: with a centred cube, a gammon counts one point
    for game in state["games"]:
        if game["cube"] == 1 and game["ended_by"] == "bearoff":
            assert game["points"] == 1
    assert state["status"] == "active"  # money play goes on until someone leaves


@pytest.mark.django_db(transaction=True)
def test_hotseat_match_played_to_the_end_with_crawford(make_player) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=5, cube=True)["id"]
    saw_crawford = []

    class Watch(Policy):
        pass

    policy = Watch(random.Random(5), double=0.25, take=0.8)
    state = ana.state(match_id)
    from tests.api.conftest import act

    for _ in range(5000):
        if state["status"] != "active":
            break
        state = ana.state(match_id)
        if state["crawford"]["crawford_game"]:
            saw_crawford.append(state["game"])
            assert "double" not in state["actions"]
            assert state["cube"]["in_use"] is False
        state = act(ana, match_id, state, policy)
    _check_final(state, 5)
    # the Crawford game is the one after a player first reaches 4 (if the match gets there)
    score = [0, 0]
    crawford_game = None
    for game in state["games"]:
        score[game["winner"]["seat"]] += game["points"]
        if crawford_game is None and max(score) == 4 and game is not state["games"][-1]:
            crawford_game = game["number"] + 1
    assert set(saw_crawford) == ({crawford_game} if crawford_game else set())


@pytest.mark.django_db(transaction=True)
def test_match_against_the_computer_random_level(make_player, eager_celery) -> None:
    ana = make_player()
    created = create(ana, mode="computer", level="random", length=3)
    match_id = created["id"]
    assert created["players"][1]["kind"] == "computer"
    assert created["settings"]["computer_level"] == "random"
    final = play_out(match_id, {0: ana}, Policy(random.Random(7)))
    _check_final(final, 3)
    # the computer really played: moves by its seat are in the stream
    seat1 = [
        e
        for e in MatchEvent.objects.filter(match_id=match_id, type="moved")
        if e.payload["seat"] == 1
    ]
    assert seat1 and all(e.actor_id != ana.user_id for e in seat1)


@pytest.mark.django_db(transaction=True)
def test_the_computer_answers_a_double_and_a_resignation(make_player, eager_celery) -> None:
    ana = make_player()
    match_id = create(ana, mode="computer", level="random", length=0, cube=True)["id"]
    state = ana.state(match_id)
    rng = random.Random(1)
    from tests.api.conftest import act

    doubled = resigned = False
    for _ in range(400):
        state = ana.state(match_id)
        if state["to_act"]["seat"] != 0:
            raise AssertionError("the computer did not move")
        if "double" in state["actions"] and not doubled:
            state = ana.post(f"/matches/{match_id}/double", {}).json()
            doubled = True
            state = ana.state(match_id)
            assert state["cube"]["value"] == 2  # the random level always takes
            assert state["cube"]["owner"]["who"] == "opponent"
            continue
        if doubled and "roll" in state["actions"] and not resigned:
            before = len(state["games"])
            r = ana.post(f"/matches/{match_id}/resign", {"value": 1})
            assert r.status_code == 200, r.content
            state = ana.state(match_id)
            assert len(state["games"]) == before + 1  # accepted at once by the computer
            last = state["games"][-1]
            assert last["ended_by"] == "resign" and last["points"] == 2
            assert last["winner"]["who"] == "opponent"
            resigned = True
            break
        state = act(ana, match_id, state, Policy(rng))
    assert doubled and resigned


def test_illegal_play_is_refused_with_the_rules_reason(make_player) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    state = ana.state(match_id)
    version = state["version"]
    r = ana.post(f"/matches/{match_id}/play", {"play": "24/23 24/23 24/23"})
    assert r.status_code in (400, 422)
    body = r.json()
    assert body["code"] in ("illegal_play", "invalid_notation")
    r = ana.post(f"/matches/{match_id}/play", {"play": "1/off"})
    assert r.status_code == 422
    body = r.json()
    assert body["code"] == "illegal_play"
    assert body["detail"]["reason"]
    assert body["message"][0].isupper()
    r = ana.post(f"/matches/{match_id}/play", {"play": "hello"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_notation"
    r = ana.post(f"/matches/{match_id}/play", {"play": [[99, 1]]})
    assert r.status_code == 400 and r.json()["code"] == "invalid_notation"
    r = ana.post(f"/matches/{match_id}/play", {"play": {"x": 1}})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    r = ana.post(f"/matches/{match_id}/roll", {})
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    r = ana.post(f"/matches/{match_id}/double", {})
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    assert "cube" in r.json()["message"]
    assert ana.state(match_id)["version"] == version


def test_legal_next_steps_in_a_match(make_player) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    state = ana.state(match_id)
    r = ana.get(f"/matches/{match_id}/legal-next-steps")
    assert r.status_code == 200
    first = r.json()
    assert first["steps_so_far"] == [] and first["next_steps"] and not first["complete"]
    step = first["next_steps"][0]
    r = ana.get(
        f"/matches/{match_id}/legal-next-steps", data={"steps": f"{step['from']}/{step['to']}"}
    )
    assert r.status_code == 200
    second = r.json()
    assert len(second["steps_so_far"]) == 1
    # finishing with any offered step gives a complete legal play
    nxt = second["next_steps"][0]
    notation = f"{step['from']}/{step['to']} {nxt['from']}/{nxt['to']}"
    r = ana.get(f"/matches/{match_id}/legal-next-steps", data={"steps": notation})
    assert r.json()["complete"] is True or state["dice"][0] == state["dice"][1]
    r = ana.get(f"/matches/{match_id}/legal-next-steps", data={"steps": "1/off"})
    assert r.status_code == 422 and r.json()["code"] == "illegal_play"


def test_events_after_and_long_poll(make_player) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    r = ana.get(f"/matches/{match_id}/events")
    events = r.json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["type"] == "match_created"
    last = events[-1]["seq"]
    # nothing new: the long-poll returns empty after the wait
    import time

    t0 = time.monotonic()
    r = ana.get(f"/matches/{match_id}/events", data={"after": last, "wait": 1})
    assert r.status_code == 200 and r.json()["events"] == []
    assert 0.9 <= time.monotonic() - t0 < 3
    state = ana.state(match_id)
    ana.post(f"/matches/{match_id}/play", {"play": state["legal_plays"][0]["notation"]})
    new = ana.get(f"/matches/{match_id}/events", data={"after": last, "wait": 5}).json()
    assert new["events"][0]["seq"] == last + 1 and new["events"][0]["type"] == "moved"
    assert new["version"] == ana.state(match_id)["version"]


@pytest.mark.django_db(transaction=True)
def test_long_poll_wakes_up_on_a_move_from_another_thread(make_player) -> None:
    import threading
    import time

    ana, ben = make_player(), make_player()
    match_id = create(ana, mode="online", length=1)["id"]
    ben.post(f"/matches/{match_id}/join", {})
    version = ana.state(match_id)["version"]
    result: dict = {}

    def poll() -> None:
        from django.db import connection

        t0 = time.monotonic()
        r = ana.get(f"/matches/{match_id}/events", data={"after": version, "wait": 20})
        result["elapsed"] = time.monotonic() - t0
        result["body"] = r.json()
        connection.close()

    thread = threading.Thread(target=poll)
    thread.start()
    time.sleep(0.5)
    on_turn = ana if "play" in ana.state(match_id)["actions"] else ben
    state = on_turn.state(match_id)
    on_turn.post(f"/matches/{match_id}/play", {"play": state["legal_plays"][0]["notation"]})
    thread.join(30)
    assert result["body"]["events"][0]["type"] == "moved"
    assert result["elapsed"] < 5


@pytest.mark.django_db(transaction=True)
def test_export_and_import_a_mat_file(make_player) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=3, cube=True)["id"]
    final = play_out(match_id, {0: ana, 1: ana}, Policy(random.Random(2), double=0.2))
    r = ana.get(f"/matches/{match_id}/export")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/plain")
    text = r.content.decode()
    assert "3 point match" in text
    # import it back (three ways) as a finished match for review
    for kwargs in (
        {"data": {"text": text}, "format": "json"},
        {"data": text, "content_type": "text/plain"},
    ):
        r = ana.client.post("/api/v1/matches/import", **kwargs)
        assert r.status_code == 201, r.content
        body = r.json()
        assert body["final_score"] == final["score"]["seats"]
        assert body["match"]["status"] == "finished"
        assert body["match"]["lobby"]["imported"] is True
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("m.mat", text.encode(), content_type="text/plain")
    r = ana.client.post("/api/v1/matches/import", {"file": upload}, format="multipart")
    assert r.status_code == 201, r.content
    imported = r.json()["match"]["id"]
    view = load_view(imported)
    assert view.state is not None and view.state.score == tuple(final["score"]["seats"])
    # nobody can move in an imported match
    r = ana.post(f"/matches/{imported}/roll", {})
    assert r.status_code == 403
    bad = ana.client.post("/api/v1/matches/import", {"text": "not a match"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_match_file"


@pytest.mark.django_db(transaction=True)
def test_invite_code_abort_and_rematch(make_player) -> None:
    ana, ben, eve = make_player(), make_player(), make_player()
    created = create(ana, mode="online", length=1, open_challenge=False)
    match_id, code = created["id"], created["lobby"]["invite_code"]
    assert match_id not in [m["id"] for m in ben.get("/matches/challenges").json()["results"]]
    # without the code a private challenge cannot be joined; others do not see the code
    r = eve.post(f"/matches/{match_id}/join", {})
    assert r.status_code == 403 and r.json()["code"] == "invite_required"
    assert eve.state(match_id)["lobby"]["invite_code"] is None
    assert ben.get(f"/invites/{code.lower()}").json()["id"] == match_id
    r = ben.post(f"/invites/{code}/join", {})
    assert r.status_code == 200, r.content
    r = eve.post(f"/invites/{code}/join", {})
    assert r.status_code == 409 and r.json()["code"] == "match_full"
    # the opening roll is out: neither player may abort now (no fishing for another roll)
    for player in (ana, ben):
        assert "abort" not in player.state(match_id)["actions"]
        r = player.post(f"/matches/{match_id}/abort", {})
        assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    # a match still waiting for its opponent may be aborted (nothing was rolled)
    waiting = create(ana, mode="online", length=1, open_challenge=False)["id"]
    assert ana.state(waiting)["actions"] == ["abort"]
    r = ana.post(f"/matches/{waiting}/abort", {})
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    r = ana.post(f"/matches/{waiting}/rematch")
    assert r.status_code == 422  # no rematch of an aborted match
    # a played match: abort refused after the first move, then a rematch
    match_id = create(ana, mode="online", length=1)["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    # the opening roll is out: the player on turn may play, the other has nothing to do
    on_turn = ana if "play" in ana.state(match_id)["actions"] else ben
    st = on_turn.state(match_id)
    on_turn.post(f"/matches/{match_id}/play", {"play": st["legal_plays"][0]["notation"]})
    r = ana.post(f"/matches/{match_id}/abort", {})
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    play_out(match_id, {0: ana, 1: ben}, Policy(random.Random(4)))
    r = ben.post(f"/matches/{match_id}/rematch")
    assert r.status_code == 201, r.content
    rematch = r.json()
    assert rematch["status"] == "waiting" and rematch["lobby"]["rematch_of"] == match_id
    assert rematch["lobby"]["reserved_for"] == ana.username
    assert ana.state(match_id)["lobby"]["rematch"] == rematch["id"]
    assert eve.post(f"/matches/{rematch['id']}/join", {}).status_code == 403
    # ana asks for the rematch too: that joins the one ben offered
    r = ana.post(f"/matches/{match_id}/rematch")
    assert r.status_code == 200, r.content
    assert r.json()["id"] == rematch["id"] and r.json()["status"] == "active"


def test_my_matches_filters(make_player) -> None:
    ana, ben = make_player(), make_player()
    waiting = create(ana, mode="online", length=1)["id"]
    hot = create(ana, mode="hotseat", length=1)["id"]
    create(ben, mode="hotseat", length=1)
    mine = ana.get("/matches").json()["results"]
    assert {m["id"] for m in mine} == {waiting, hot}
    assert [m["id"] for m in ana.get("/matches", data={"status": "waiting"}).json()["results"]] == [
        waiting
    ]
    assert [m["id"] for m in ana.get("/matches", data={"mode": "hotseat"}).json()["results"]] == [
        hot
    ]
    assert [m["id"] for m in ana.get("/matches", data={"my_turn": "true"}).json()["results"]] == [
        hot
    ]
    r = ana.get("/matches", data={"status": "bogus"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    page = ana.get("/matches", data={"limit": 1}).json()
    assert len(page["results"]) == 1 and page["next"]
