"""Players, ratings, the leaderboard and quick pairing over HTTP, every body validated against
the served OpenAPI schema (docs/ratings.md)."""

from __future__ import annotations

import math
from typing import Any
from uuid import UUID

import pytest
import yaml
from django.test import override_settings
from rest_framework.test import APIClient

from matches import services
from matches.store.models import EarlyExit, PlayerProfile
from tests.api.conftest import API, create, guest, signup
from tests.api.test_contract import conforms

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schemas(django_db_blocker: Any) -> dict[str, Any]:
    """The components of the schema the API serves."""
    with django_db_blocker.unblock():
        text = APIClient().get(f"{API}/schema").content
    return yaml.safe_load(text)["components"]["schemas"]


STAKE_5 = 4 * 5 * math.sqrt(5) * 0.5  # two newcomers, 5 points


def finish(match_id: str, loser_seat: int) -> None:
    services.match_forfeit(match_id=match_id, seat=loser_seat)


def online(host: Any, guest_: Any, length: int = 5, **settings: Any) -> str:
    state = create(host, mode="online", length=length, **settings)
    joined = guest_.post(f"/matches/{state['id']}/join", {})
    assert joined.status_code == 200, joined.content
    return state["id"]


def test_a_player_page_after_a_rated_match(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    finish(online(ana, ben), 1)
    body = ben.get(f"/players/{ana.username.upper()}").json()  # any case
    conforms(body, "PlayerCard", schemas)
    assert body["username"] == ana.username and body["kind"] == "registered" and body["rated"]
    (tavla,) = body["ratings"]
    assert tavla["game"] == "tavla"
    assert tavla["rating"] == pytest.approx(1500 + STAKE_5)
    assert (tavla["experience"], tavla["matches"], tavla["wins"], tavla["losses"]) == (5, 1, 1, 0)
    assert body["matches"] == {"finished": 1, "won": 1, "lost": 0, "aborted": 0, "playing": 0}
    loser = ana.get(f"/players/{ben.username}").json()
    assert loser["ratings"][0]["rating"] == pytest.approx(1500 - STAKE_5)
    assert loser["early_exits"]["forfeit"] == 1  # he never moved before he forfeited
    assert loser["matches"] == {"finished": 1, "won": 0, "lost": 1, "aborted": 0, "playing": 0}


def test_anonymous_readers_see_players_and_the_leaderboard(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    finish(online(ana, ben), 0)
    anonymous = APIClient()  # no token at all
    assert anonymous.get(f"{API}/players/{ana.username}").status_code == 200
    board = anonymous.get(f"{API}/leaderboard?game=tavla").json()
    conforms(board, "LeaderboardPage", schemas)
    assert [e["player"]["username"] for e in board["results"]] == [ben.username, ana.username]
    assert [e["rank"] for e in board["results"]] == [1, 2]


def test_a_guest_has_no_rating_anywhere(make_player, schemas) -> None:
    ana, visitor = make_player("ana"), guest("Marko")
    match_id = online(ana, visitor, length=3)
    state = ana.state(match_id)
    conforms(state, "MatchState", schemas)
    players = {p["kind"]: p for p in state["players"]}
    assert players["registered"]["rating"] == 1500.0 and players["guest"]["rating"] is None
    assert state["settings"]["rated"] is False  # what will happen: a guest makes it unrated
    finish(match_id, 1)
    card = ana.get(f"/players/{visitor.username}").json()
    conforms(card, "PlayerCard", schemas)
    assert card["kind"] == "guest" and not card["rated"] and card["ratings"] == []
    assert ana.get(f"/players/{ana.username}").json()["ratings"] == []


def test_ratings_in_the_state_and_the_summaries_follow_the_game(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    finish(online(ana, ben), 1)
    again = online(ben, ana, length=3)
    state = ana.state(again)
    by_name = {p["username"]: p["rating"] for p in state["players"]}
    assert by_name[ana.username] == pytest.approx(1500 + STAKE_5)
    assert by_name[ben.username] == pytest.approx(1500 - STAKE_5)
    page = ana.get("/matches").json()
    conforms(page, "MatchSummaryPage", schemas)
    summary = next(m for m in page["results"] if m["id"] == again)
    assert {p["username"]: p["rating"] for p in summary["players"]} == by_name


def test_the_rating_history_is_paged_latest_first(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    for loser in (1, 0, 1):
        finish(online(ana, ben, length=1), loser)
    first = ana.get(f"/players/{ana.username}/ratings?limit=2").json()
    conforms(first, "RatingHistoryPage", schemas)
    assert [e["won"] for e in first["results"]] == [True, False]  # the third match first
    entry = first["results"][0]
    assert entry["opponent"]["username"] == ben.username and entry["length"] == 1
    assert entry["change"] == pytest.approx(entry["rating_after"] - entry["rating_before"])
    older = ana.client.get(first["next"]).json()
    conforms(older, "RatingHistoryPage", schemas)
    assert [e["won"] for e in older["results"]] == [True] and older["next"] is None
    assert older["results"][0]["rating_before"] == 1500.0
    none = ana.get(f"/players/{ana.username}/ratings?game=long-nardy").json()
    assert none["results"] == []


def test_the_leaderboard_lists_registered_players_with_a_rated_match(make_player) -> None:
    ana, ben, bot = make_player("ana"), make_player("ben"), make_player("bot", bot=True)
    idle = make_player("idle")
    finish(online(ana, bot), 0)  # the bot won: rated, but not on the leaderboard
    finish(online(ben, ana), 0)
    board = ana.get("/leaderboard").json()  # tavla by default
    names = [e["player"]["username"] for e in board["results"]]
    assert set(names) == {ana.username, ben.username} and idle.username not in names
    assert board["count"] == 2
    page = ana.get("/leaderboard?limit=1&offset=1").json()
    assert page["results"][0]["rank"] == 2 and page["previous"] is not None
    assert ana.get("/leaderboard?game=long-nardy").json()["results"] == []
    bad = ana.get("/leaderboard?game=chess")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_request"


def test_an_unknown_player_is_404(make_player, schemas) -> None:
    ana = make_player()
    for path in ("/players/nobody", "/players/nobody/ratings", "/players/%00"):
        response = ana.get(path, HTTP_ACCEPT_LANGUAGE="tr")
        assert response.status_code == 404, path
        conforms(response.json(), "Error", schemas)
        assert response.json()["code"] == "not_found"
    turkish = ana.get("/players/nobody", HTTP_ACCEPT_LANGUAGE="tr").json()["message"]
    assert turkish == "Nobody adında bir oyuncu yok."  # noqa: RUF001 (Turkish dotless i)


def test_a_friendly_match_is_created_unrated(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    match_id = online(ana, ben, rated=False)
    assert ana.state(match_id)["settings"]["rated"] is False
    finish(match_id, 1)
    assert ana.get(f"/players/{ana.username}").json()["ratings"] == []
    refused = ana.post("/matches", {"mode": "hotseat", "length": 3, "rated": True})
    assert refused.status_code == 400 and "rated" in refused.json()["detail"]
    money = ana.post("/matches", {"mode": "online", "length": 0})
    assert money.json()["settings"]["rated"] is False


# -- quick pairing ----------------------------------------------------------------------------


def test_two_seekers_over_http(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    posted = ana.post("/seeks", {"length": 3})
    assert posted.status_code == 201 and posted["Location"].endswith(posted.json()["id"])
    waiting = posted.json()
    conforms(waiting, "Seek", schemas)
    assert waiting["status"] == "waiting" and waiting["window"] == 100.0
    assert waiting["match"] is None and waiting["rating"] == 1500.0
    paired = ben.post("/seeks", {"length": 3}).json()
    conforms(paired, "Seek", schemas)
    assert paired["status"] == "paired" and paired["opponent"]["username"] == ana.username
    polled = ana.get(f"/seeks/{waiting['id']}").json()
    conforms(polled, "Seek", schemas)
    assert polled["status"] == "paired" and polled["match"] == paired["match"]
    assert polled["opponent"]["username"] == ben.username and polled["expires_at"] is None
    state = ana.state(polled["match"])
    assert state["status"] == "active" and state["settings"]["length"] == 3
    assert "play" in state["actions"] or "play" in ben.state(polled["match"])["actions"]


def test_seek_refusals_over_http(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    online(ana, ben, length=3)
    busy = ana.post("/seeks", {"length": 3}, HTTP_ACCEPT_LANGUAGE="sr-Latn")
    assert busy.status_code == 409 and busy.json()["code"] == "already_playing"
    conforms(busy.json(), "Error", schemas)
    assert busy.json()["message"].startswith("Igrate meč na mreži")
    cem = make_player("cem")
    bad = cem.post(
        "/seeks", {"length": 0, "clock": "blitz", "rating_min": 1700, "rating_max": 1600}
    )
    assert bad.status_code == 400 and set(bad.json()["detail"]) == {"length"}
    unknown_clock = cem.post("/seeks", {"clock": "blitz"})
    assert unknown_clock.status_code == 400 and "clock" in unknown_clock.json()["detail"]
    backwards = cem.post("/seeks", {"rating_min": 1700, "rating_max": 1600})
    assert backwards.status_code == 400 and "rating_max" in backwards.json()["detail"]
    anonymous = APIClient().post(f"{API}/seeks", {}, format="json")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    missing = signup("dan").get("/seeks/nope")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@override_settings(TAVLA_SEEK_EXIT_LIMIT=1)
def test_a_player_who_left_early_is_refused_for_a_while(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    match_id = online(ana, ben, length=3)
    refused = ana.post(f"/matches/{match_id}/abort", {})  # the opening roll is out
    assert refused.status_code == 422 and refused.json()["code"] == "illegal_action"
    seat = 0 if ana.state(match_id)["side"]["seat"] == 0 else 1
    services.match_forfeit(match_id=UUID(match_id), seat=seat)  # she left before moving
    assert EarlyExit.objects.filter(user_id=ana.user_id, kind="forfeit").count() == 1
    refused = ana.post("/seeks", {"length": 3})
    assert refused.status_code == 403 and refused.json()["code"] == "seek_refused"
    conforms(refused.json(), "Error", schemas)
    assert refused.json()["detail"]["early_exits"] == 1
    card = ben.get(f"/players/{ana.username}").json()
    conforms(card, "PlayerCard", schemas)
    assert card["early_exits"]["forfeit"] == 1 and card["early_exits"]["recent"] == 1
    until = card["early_exits"]["seek_refused_until"]
    assert until is not None and until == refused.json()["detail"]["until"].replace("+00:00", "Z")
    assert ben.post("/seeks", {"length": 3}).status_code == 201  # ben did nothing wrong


def test_polling_and_cancelling_a_seek(make_player, schemas) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    waiting = ana.post("/seeks", {"length": 7, "computer": {"level": "random", "after": 600}})
    body = waiting.json()
    assert body["computer"] == {"level": "random", "after": 600}
    assert ben.get(f"/seeks/{body['id']}").status_code == 404  # not his
    assert ben.client.delete(f"{API}/seeks/{body['id']}").status_code == 404
    polled = ana.get(f"/seeks/{body['id']}").json()
    assert polled["status"] == "waiting" and polled["expires_at"] >= body["expires_at"]
    cancelled = ana.client.delete(f"{API}/seeks/{body['id']}")
    assert cancelled.status_code == 200
    conforms(cancelled.json(), "Seek", schemas)
    assert cancelled.json()["status"] == "cancelled" and cancelled.json()["window"] is None
    assert ben.post("/seeks", {"length": 7}).json()["status"] == "waiting"


def test_the_index_says_where_the_new_sections_are() -> None:
    body = APIClient().get(f"{API}/").json()
    assert body["leaderboard"] == "/api/v1/leaderboard" and body["seeks"] == "/api/v1/seeks"


def test_a_profile_without_a_kind_row_counts_as_registered(make_player) -> None:
    """Accounts made outside the API (the admin's) have no profile: registered players."""
    from django.contrib.auth import get_user_model

    plain = get_user_model().objects.create_user("plain")
    assert not PlayerProfile.objects.filter(user=plain).exists()
    body = make_player().get("/players/plain").json()
    assert body["kind"] == "registered" and body["rated"] is True


def test_a_match_marked_unrated_shows_the_event_and_loses_its_ratings(make_player, schemas) -> None:
    from django.contrib.auth import get_user_model

    from matches.services import ratings

    ana, ben = make_player("ana"), make_player("ben")
    match_id = online(ana, ben, length=3)
    finish(match_id, 1)
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    ratings.mark_unrated(match_id=match_id, by=staff, reason="one person, two accounts")
    body = ana.get(f"/matches/{match_id}/events").json()
    conforms(body, "Events", schemas)
    last = body["events"][-1]
    assert (last["type"], last["data"]["reason"]) == ("marked_unrated", "one person, two accounts")
    state = ana.state(match_id)
    conforms(state, "MatchState", schemas)
    assert state["settings"]["rated"] is False and state["status"] == "finished"
    assert ana.get(f"/players/{ana.username}").json()["ratings"] == []  # rebuilt without it


TRAP = {"delay": 1, "reserve": 0, "max_move": 1, "reconnect": 60}


def test_a_trap_clock_is_shown_unrated_where_a_joiner_looks(make_player, schemas) -> None:
    """Issue 24, item 4: the create answer, the open challenges and the invite say the clock
    and that the match is unrated, before anyone joins; asking rated with it is a 400 (in the
    caller's language)."""
    ana, ben = make_player("trap"), make_player()
    made = create(ana, mode="online", length=3, clock=TRAP)
    conforms(made, "MatchState", schemas)
    assert made["settings"]["rated"] is False and made["settings"]["clock"] == TRAP
    fair = create(ana, mode="online", length=3, clock="site")
    assert fair["settings"]["rated"] is True
    page = ben.get("/matches/challenges").json()
    conforms(page, "MatchSummaryPage", schemas)
    shown = {m["id"]: m["settings"] for m in page["results"]}
    assert shown[made["id"]]["rated"] is False and shown[made["id"]]["clock"] == TRAP
    assert shown[fair["id"]]["rated"] is True and shown[fair["id"]]["clock"]["delay"] == 12
    invite = ben.get(f"/invites/{made['lobby']['invite_code']}").json()
    conforms(invite, "MatchSummary", schemas)
    assert invite["settings"]["rated"] is False and invite["settings"]["clock"] == TRAP
    refused = ana.post("/matches", {"length": 3, "clock": TRAP, "rated": True})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_request"
    assert refused.json()["detail"]["rated"] == [
        "a rated match needs a preset clock or one of at least delay 12 s, reserve 120 s,"
        " max_move 60 s, reconnect 60 s"
    ]
    turkish = ana.post(
        "/matches", {"length": 3, "clock": TRAP, "rated": True}, HTTP_ACCEPT_LANGUAGE="tr"
    )
    assert turkish.json()["detail"]["rated"][0].startswith("reytingli bir maç için")
