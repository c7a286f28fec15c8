"""Fair play (issue 24, items 4 and 6) against the service as deployed: a trap clock no longer
wins a rated match nor closes quick pairing to its victim, and rating farming with sock
accounts gains nothing at once, is capped per pair and day, and is flagged in the admin.

The site runs the production defaults (`TAVLA_RATED_MIN_MOVES` 3, the site's clock as the
rated minimum) except the pairs' cap and flag, set to 2 here (tests/security/site.py LIMITS)
so the test reaches them with few matches. No worker runs: a late move is refused with 422
`out_of_time` and the timeout written by that request (docs/clocks.md)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from .site import LIMITS, Site, client

API = "/api/v1"
TRAP = {"delay": 1, "reserve": 0, "max_move": 1, "reconnect": 60}


def player(site: Site, account: Any) -> httpx.Client:
    return client(site.url, headers={"Authorization": f"Token {account.token}"})


def state(http: httpx.Client, match_id: str) -> dict[str, Any]:
    r = http.get(f"{API}/matches/{match_id}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def act_once(http: httpx.Client, match_id: str) -> str | None:
    """If this player must act: roll, or make the first legal play. What he did."""
    s = state(http, match_id)
    if s["status"] != "active" or (s["to_act"] or {}).get("who") != "you":
        return None
    if "roll" in s["actions"]:
        r = http.post(f"{API}/matches/{match_id}/roll", json={})
        assert r.status_code == 200, r.text
        return "roll"
    if "play" in s["actions"]:
        steps = [[st["from"], st["to"]] for st in s["legal_plays"][0]["steps"]]
        r = http.post(f"{API}/matches/{match_id}/play", json={"play": steps})
        assert r.status_code == 200, r.text
        return "play"
    return None  # pragma: no cover - these matches never double


def opened(creator: httpx.Client, joiner: httpx.Client, **settings: Any) -> str:
    r = creator.post(f"{API}/matches", json={"length": 1, **settings})
    assert r.status_code == 201, r.text
    match_id = str(r.json()["id"])
    r = joiner.post(f"{API}/matches/{match_id}/join", json={})
    assert r.status_code == 200, r.text
    return match_id


def resigned(match_id: str, loser: httpx.Client, winner: httpx.Client) -> None:
    """The loser resigns on his turn (after the winner's play if the winner starts)."""
    while act_once(winner, match_id):
        pass
    r = loser.post(f"{API}/matches/{match_id}/resign", json={"value": 3})
    assert r.status_code == 200, r.text
    r = winner.post(f"{API}/matches/{match_id}/accept", json={})
    assert r.status_code == 200, r.text
    assert state(winner, match_id)["status"] == "finished"


def ratings_of(http: httpx.Client, name: str) -> list[dict[str, Any]]:
    r = http.get(f"{API}/players/{name}")
    assert r.status_code == 200, r.text
    return list(r.json()["ratings"])


# -- item 4: trap clocks ---------------------------------------------------------------------------


def test_a_trap_clock_is_shown_unrated_and_costs_its_victim_nothing(
    site: Site, account: Any
) -> None:
    trapper, victim = account("trapper"), account("victim")
    with player(site, trapper) as a, player(site, victim) as b, client(site.url) as anyone:
        refused = a.post(f"{API}/matches", json={"length": 3, "clock": TRAP, "rated": True})
        assert refused.status_code == 400 and "rated" in refused.json()["detail"], refused.text
        for _ in range(3):  # three traps: once they were three early exits and 3 x -22 points
            made = a.post(f"{API}/matches", json={"length": 3, "clock": TRAP})
            assert made.status_code == 201, made.text
            body = made.json()
            assert body["settings"]["rated"] is False and body["settings"]["clock"] == TRAP
            match_id, code = str(body["id"]), body["lobby"]["invite_code"]
            # what a joiner sees before joining: the open challenges and the invite
            listed = anyone.get(f"{API}/matches/challenges").json()["results"]
            (mine,) = [m for m in listed if m["id"] == match_id]
            assert mine["settings"]["rated"] is False and mine["settings"]["clock"] == TRAP
            invite = anyone.get(f"{API}/invites/{code}").json()
            assert invite["settings"]["rated"] is False and invite["settings"]["clock"] == TRAP
            joined = b.post(f"{API}/invites/{code}/join", json={})
            assert joined.status_code == 200, joined.text
            while act_once(a, match_id):  # the trapper moves at once when he starts
                pass
            mine = state(b, match_id)
            assert mine["to_act"]["who"] == "you" == mine["clock"]["running"]["who"], mine
            time.sleep(1.3)  # the victim's 1 s is gone before he could answer
            if "play" in mine["actions"]:
                steps = [[st["from"], st["to"]] for st in mine["legal_plays"][0]["steps"]]
                late = b.post(f"{API}/matches/{match_id}/play", json={"play": steps})
            else:
                late = b.post(f"{API}/matches/{match_id}/roll", json={})
            assert late.status_code == 422 and late.json()["code"] == "out_of_time", late.text
            over = state(b, match_id)
            assert (over["status"], over["result"]["ended_by"]) == ("finished", "timeout")
        card = b.get(f"{API}/players/{victim.user.username}").json()
        exits = card["early_exits"]
        assert card["ratings"] == [] and exits["timeout"] == exits["recent"] == 0, card
        assert ratings_of(a, trapper.user.username) == []
        seek = b.post(f"{API}/seeks", json={})
        assert seek.status_code == 201, seek.text  # quick pairing is still open to him
        b.delete(f"{API}/seeks/{seek.json()['id']}")


def test_the_site_clock_stays_rated(site: Site, account: Any) -> None:
    ana = account("clockana")
    with player(site, ana) as a:
        made = a.post(f"{API}/matches", json={"length": 3, "clock": "site"})
        assert made.status_code == 201 and made.json()["settings"]["rated"] is True


# -- item 6: rating farming ------------------------------------------------------------------------


def test_rating_farming_gains_nothing_at_once_is_capped_per_pair_and_flagged(
    site: Site, account: Any
) -> None:
    farmer = account("farmer")
    socks = [account(f"sock{i}") for i in range(3)]
    cap = int(LIMITS["TAVLA_RATED_PAIR_PER_DAY"])
    with player(site, farmer) as f:
        sock_clients = [player(site, s) for s in socks]
        try:
            started = time.monotonic()
            for i in range(12):  # the attack: 12 matches, each sock resigning at once
                s = sock_clients[i % 3]
                resigned(opened(f, s), s, f)
            took = time.monotonic() - started
            assert ratings_of(f, farmer.user.username) == [], "instant resignations rated"
            # with the minimum of play (3 turns each), one pair counts `cap` matches a day
            s = sock_clients[0]
            for _ in range(cap + 2):
                match_id = opened(f, s)
                turns = 0
                while turns < 2 * 8:  # about 4 turns each: more than the minimum
                    done = act_once(f, match_id) or act_once(s, match_id)
                    assert done, state(f, match_id)
                    turns += 1
                resigned(match_id, s, f)
            (tavla,) = ratings_of(f, farmer.user.username)
            assert tavla["matches"] == cap and tavla["wins"] == cap, tavla
        finally:
            for c in sock_clients:
                c.close()
    print(f"12 instant matches over HTTP in {took:.1f} s, none rated")
    staff = account("pairboss", staff=True)
    with client(site.url) as http:
        form = http.get("/admin/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        assert token is not None
        login = http.post(
            "/admin/login/",
            data={
                "csrfmiddlewaretoken": token.group(1),
                "username": staff.user.username,
                "password": staff.password,
                "next": "/admin/",
            },
        )
        assert login.status_code in (200, 302) and "sessionid" in http.cookies
        page = http.get("/admin/matches/playerprofile/pairs/")
        assert page.status_code == 200
        rows = [r for r in page.text.split("<tr>") if ">farmer<" in r and ">sock0<" in r]
        assert len(rows) == 1 and "flagged" in rows[0], page.text[-3000:]
