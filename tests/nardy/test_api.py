"""Long nardy through the HTTP API (issue 14, "Match and API"): creation and its refusals,
the state in long nardy's terms, whole matches hot-seat (to points and money play), the
cube and .mat refusals with their codes, lists and filters, the rules service, against the
served OpenAPI schema, on PostgreSQL."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.rules import LONG_NARDY, Dice, NardyPosition
from matches import services
from matches.store.dice import ScriptedDice
from matches.store.models import MatchEvent
from tests.api.conftest import create

from .helpers import check_nardy_state, conforms, play_out

pytestmark = pytest.mark.django_db(transaction=True)

START = LONG_NARDY.starting()


def test_a_new_match_says_its_game_and_shows_the_position_in_long_nardys_terms(
    make_player, components
) -> None:
    ana = make_player()
    state = create(ana, mode="hotseat", length=3, game="long-nardy")
    conforms(state, "MatchState", components)
    check_nardy_state(state)
    s = state["settings"]
    assert (s["game"], s["cube"], s["crawford"], s["next_game_starter"]) == (
        "long-nardy",
        False,
        False,
        "winner",
    )
    # each player's 15 on his head: mine on my 24, his on my 12 (his own 24)
    heads = state["board"]["heads"]
    assert heads["you"]["checkers"] == heads["opponent"]["checkers"] == 15
    assert state["pips"] == {"you": 360, "opponent": 360}
    assert state["first_turn"] is True
    # the opening roll only chose who starts: he rolls both dice for his first turn
    assert state["phase"] == "roll" and state["dice"] is None
    rolled = ana.post(f"/matches/{state['id']}/roll").json()
    conforms(rolled, "MatchState", components)
    check_nardy_state(rolled)
    assert rolled["legal_plays"] and all(p["board"] for p in rolled["legal_plays"])
    heads_left = {p["board"]["heads"]["you"]["checkers"] for p in rolled["legal_plays"]}
    assert heads_left <= {13, 14}  # one from the head (two only with 6-6, 4-4, 3-3)
    # a tavla match keeps its shape: a bar, no heads, gnubg IDs, first_turn null
    tavla = create(ana, mode="hotseat", length=3)
    assert tavla["settings"]["game"] == "tavla" and tavla["board"]["heads"] is None
    assert tavla["board"]["bar"] == {"you": 0, "opponent": 0}
    assert tavla["gnubg"]["position_id"] and tavla["first_turn"] is None


def test_the_first_turn_with_six_six_takes_two_checkers_off_the_head(
    make_player, components
) -> None:
    """The head rule's exception reaches the state's legal plays and the play command."""
    ana = make_player()
    view = services.match_create(
        user=_user(ana), mode="hotseat", game="long-nardy", length=1, dice=ScriptedDice([(5, 2)])
    )
    match_id = str(view.match_id)
    state = ana.state(match_id)
    assert state["first_turn"] is True and state["to_act"]["seat"] == 0
    rolled = services.match_roll(
        match_id=view.match_id, user=_user(ana), dice=ScriptedDice([(6, 6)])
    )
    state = ana.state(match_id)
    conforms(state, "MatchState", components)
    assert rolled.state is not None and state["dice"] == [6, 6]
    notations = {p["notation"] for p in state["legal_plays"]}
    expected = {p.notation for p in LONG_NARDY.legal_plays(START, Dice(6, 6), first_turn=True)}
    assert notations == expected and "24/18(2)" in notations
    # the next steps in the match know it is the first turn: a second checker off the head
    nxt = ana.get(f"/matches/{match_id}/legal-next-steps", data={"steps": "24/18"})
    assert nxt.status_code == 200, nxt.content
    conforms(nxt.json(), "NextSteps", components)
    assert {"from": 24, "to": 18, "hit": False} in nxt.json()["next_steps"]
    r = ana.post(f"/matches/{match_id}/play", {"play": "24/18(2)"})
    assert r.status_code == 200, r.content
    after = r.json()
    assert after["board"]["heads"]["opponent"]["checkers"] == 13  # seen by the next seat
    assert after["first_turn"] is True  # the second player's first turn
    # the next steps endpoint knows the first turn too
    steps = ana.get(f"/matches/{match_id}/legal-next-steps")
    assert steps.status_code == 422  # dice not rolled yet: nothing to play


def _user(player: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=player.user_id)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"cube": True}, "cube"),
        ({"crawford": True}, "crawford"),
        ({"length": 0, "jacoby": True}, "jacoby"),
        ({"length": 26}, "length"),
        ({"mode": "computer", "level": "no-such-level"}, "level"),
    ],
)
def test_settings_long_nardy_does_not_have_are_refused_naming_the_field(
    make_player, extra, field
) -> None:
    ana = make_player()
    body = {"game": "long-nardy", "mode": "hotseat", "length": 3, **extra}
    r = ana.post("/matches", body)
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid_request" and field in r.json()["detail"]


@pytest.mark.parametrize("length", [1, 3, 5, 7, 25, 0])
def test_match_lengths_and_money_play_are_accepted(make_player, length) -> None:
    ana = make_player()
    state = create(ana, game="long-nardy", mode="hotseat", length=length)
    assert state["settings"]["length"] == length and state["score"]["length"] == length


def test_a_double_in_a_long_nardy_match_gets_its_own_code(make_player) -> None:
    ana = make_player()
    state = create(ana, game="long-nardy", mode="hotseat", length=3)
    r = ana.post(f"/matches/{state['id']}/double", HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "no_cube_in_long_nardy"
    assert "nardy" in body["message"] and "zar" in body["message"]  # Turkish: "katlama zari"
    r = ana.post(f"/matches/{state['id']}/double", HTTP_ACCEPT_LANGUAGE="sr-Latn")
    assert r.json()["code"] == "no_cube_in_long_nardy" and "kocke" in r.json()["message"]
    # a resignation is worth oyn (1) or mars (2) only
    r = ana.post(f"/matches/{state['id']}/resign", {"value": 3})
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    assert "oyn" in r.json()["message"]


def test_a_whole_hotseat_match_to_three_points(make_player, components) -> None:
    ana = make_player()
    match_id = create(ana, game="long-nardy", mode="hotseat", length=3)["id"]
    final = play_out(match_id, {0: ana, 1: ana}, random.Random(3), components=components)
    conforms(final, "MatchState", components)
    assert final["status"] == "finished" and final["result"]["ended_by"] == "bearoff"
    assert max(final["result"]["score"]) >= 3
    points = {g["points"] for g in final["games"]}
    assert points <= {1, 2} and all(g["cube"] == 1 for g in final["games"])
    for game in final["games"]:
        assert game["kind"] == ("single" if game["points"] == 1 else "gammon")
    # the winner of a game starts the next: one opening roll in the whole match
    events = list(MatchEvent.objects.filter(match_id=match_id).order_by("seq"))
    first_roll = next(e.seq for e in events if e.type == "rolled")
    openings = [e for e in events if e.type == "opening_roll"]
    assert openings and all(e.seq < first_roll for e in openings)  # ties roll again
    _check_winner_starts(events)
    # the events (the JSON history) are there; the .mat export is refused with its code
    history = ana.get(f"/matches/{match_id}/events")
    assert history.status_code == 200
    conforms(history.json(), "Events", components)
    assert history.json()["events"][0]["data"]["game"] == "long-nardy"
    for fmt in ("mat", "json"):
        r = ana.get(f"/matches/{match_id}/export", data={"format": fmt})
        assert r.status_code == 400 and r.json()["code"] == "no_mat_for_long_nardy"
        conforms(r.json(), "Error", components)


def _check_winner_starts(events: list[Any]) -> None:
    """After each game but the last, the first roll of the next game is the winner's (a game
    ends when the mover's 15th checker is off: steps to 0)."""
    winner, off, games = None, [0, 0], 0
    for event in events:
        if winner is not None and event.type == "rolled":
            assert event.payload["seat"] == winner
            winner = None
        if event.type == "moved":
            seat = event.payload["seat"]
            off[seat] += sum(1 for step in event.payload["steps"] if step[1] == 0)
            if off[seat] == 15:
                winner, off, games = seat, [0, 0], games + 1
    assert games >= 2


def test_money_play_without_cube_goes_on_game_after_game(make_player, components) -> None:
    ana = make_player()
    match_id = create(ana, game="long-nardy", mode="hotseat", length=0)["id"]
    rng = random.Random(8)
    from .helpers import act

    state = ana.state(match_id)
    for _ in range(4000):
        if len(state["games"]) >= 2:
            break
        check_nardy_state(state)
        r = act(ana, match_id, state, rng)
        assert r.status_code == 200, r.content
        state = r.json()
    conforms(state, "MatchState", components)
    assert len(state["games"]) >= 2 and state["status"] == "active"
    assert state["score"]["length"] == 0
    assert sum(state["score"]["seats"]) == sum(g["points"] for g in state["games"])


def test_lists_and_filters_know_the_game(make_player, components) -> None:
    ana, ben = make_player(), make_player()
    nardy = create(ana, game="long-nardy", mode="online", length=3)
    tavla = create(ana, mode="online", length=3)
    hot = create(ana, game="long-nardy", mode="hotseat", length=1)

    def ids(path: str, who: Any = ana, **params: Any) -> list[str]:
        r = who.get(path, data=params)
        assert r.status_code == 200, r.content
        conforms(r.json(), "MatchSummaryPage", components)
        return [m["id"] for m in r.json()["results"]]

    assert set(ids("/matches", game="long-nardy")) == {nardy["id"], hot["id"]}
    assert ids("/matches", game="tavla") == [tavla["id"]]
    assert set(ids("/matches")) == {nardy["id"], tavla["id"], hot["id"]}
    assert ids("/matches/challenges", ben, game="long-nardy") == [nardy["id"]]
    assert ids("/matches/challenges", ben, game="tavla") == [tavla["id"]]
    assert ids("/matches/live", ben, game="long-nardy") == [hot["id"]]
    summary = ana.get("/matches", data={"game": "long-nardy"}).json()["results"][0]
    assert summary["settings"]["game"] == "long-nardy"
    r = ana.get("/matches", data={"game": "chess"})
    assert r.status_code == 400 and "game" in r.json()["detail"]
    # joining a long nardy challenge starts a long nardy match; the rematch keeps the game
    r = ben.post(f"/matches/{nardy['id']}/join")
    assert r.status_code == 200 and r.json()["settings"]["game"] == "long-nardy"
    check_nardy_state(r.json())


def test_mat_import_is_refused_for_long_nardy(make_player, components) -> None:
    ana = make_player()
    r = ana.post("/matches/import", {"text": " 1 point match\n", "game": "long-nardy"})
    assert r.status_code == 400 and r.json()["code"] == "no_mat_for_long_nardy"
    conforms(r.json(), "Error", components)


def _position(position: NardyPosition) -> str:
    return json.dumps(position.to_json())


def test_the_rules_service_takes_the_game(make_player, components) -> None:
    ana = make_player()
    r = ana.get(
        "/rules/legal-plays",
        data={"game": "long-nardy", "position": _position(START), "dice": "66", "first_turn": 1},
    )
    assert r.status_code == 200, r.content
    body = r.json()
    conforms(body, "RulesPlays", components)
    assert body["game"] == "long-nardy" and body["position_id"] is None
    expected = LONG_NARDY.legal_plays(START, Dice(6, 6), first_turn=True)
    assert [p["notation"] for p in body["plays"]] == [p.notation for p in expected]
    assert [p["board"]["points"] for p in body["plays"]] == [list(p.result.board) for p in expected]
    later = ana.get(
        "/rules/legal-plays",
        data={"game": "long-nardy", "position": _position(START), "dice": "66"},
    ).json()
    assert [p["notation"] for p in later["plays"]] == ["24/18"]  # one off the head, 12 closed
    steps = ana.get(
        "/rules/legal-next-steps",
        data={"game": "long-nardy", "position": _position(START), "dice": "31", "steps": "24/21"},
    )
    assert steps.status_code == 200, steps.content
    conforms(steps.json(), "NextSteps", components)
    assert steps.json()["next_steps"] == [{"from": 21, "to": 20, "hit": False}]
    assert steps.json()["dice_to_use"] == 2
    # bad input: stable codes
    bad = {"game": "long-nardy", "dice": "31"}
    assert ana.get("/rules/legal-plays", data=bad).json()["detail"].keys() == {"position"}
    r = ana.get("/rules/legal-plays", data={**bad, "position": "{"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    r = ana.get("/rules/legal-plays", data={**bad, "position": '{"board": [1], "off": [0, 0]}'})
    assert r.status_code == 400 and r.json()["code"] == "invalid_position"
    # tavla stays the default
    tavla = ana.get("/rules/legal-plays", data={"position_id": "4HPwATDgc/ABMA", "dice": "21"})
    assert tavla.status_code == 200 and tavla.json()["game"] == "tavla"
    assert len(tavla.json()["plays"]) == 15
