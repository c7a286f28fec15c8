"""A command's round trips to PostgreSQL (issue 26): on a current cached view, a player's
command is one statement, the compare-and-set that appends its events and returns the Match
row the response is made of. When that statement finds the row moved it returns the row as it
is, and the command is decided again on it; the row is read first only when the view is
missing or refuses, and then whoever is not a player is refused from the row as before."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from matches.selectors.ratings import START_RATING
from matches.store import streams
from matches.store.models import PlayerRating
from matches.store.replay import MatchView, replay
from matches.store.streams import stored_events
from tests.api.conftest import Player, create, guest
from tests.store.helpers import statements

pytestmark = pytest.mark.django_db(transaction=True)


def _on_the_match(seen: list[str]) -> list[str]:
    """The statements on the match's own tables: its row and its events."""
    return [s for s in seen if '"matches_match"' in s or '"matches_matchevent"' in s]


def _of_ratings_alone(seen: list[str]) -> list[str]:
    """The statements that read the players' ratings without the Match row."""
    return [s for s in seen if '"matches_playerrating"' in s and '"matches_match"' not in s]


def _rolled(player: Player) -> dict[str, Any]:
    """A hot-seat match whose player to move has rolled dice with plays to choose from."""
    state = create(player, mode="hotseat", length=3)
    for _ in range(50):
        if state["phase"] == "play" and state["legal_plays"]:
            return state
        response = player.post(f"/matches/{state['id']}/roll")
        assert response.status_code == 200, response.content
        state = response.json()
    raise AssertionError("no playable roll in 50 rolls")  # pragma: no cover


def _play(player: Player, state: dict[str, Any]) -> Any:
    notation = state["legal_plays"][0]["notation"]
    return player.post(
        f"/matches/{state['id']}/play", {"play": notation, "expected_version": state["version"]}
    )


def test_a_command_on_a_current_cached_view_is_one_statement(make_player) -> None:
    ana = make_player("ana")
    state = _rolled(ana)
    assert ana.get(f"/matches/{state['id']}").status_code == 200  # the token is cached too
    with statements() as seen:
        response = _play(ana, state)
    assert response.status_code == 200, response.content
    on_matches = _on_the_match(seen)  # besides the token's account and the players' ratings
    assert len(on_matches) == 1, on_matches
    assert on_matches[0].startswith("WITH moved AS (UPDATE") and "RETURNING" in on_matches[0]
    body = response.json()
    assert body["version"] > state["version"]
    assert body == ana.state(state["id"])  # the response is the state as read afterwards


def test_a_command_on_a_view_behind_the_store_reads_the_row_and_is_written_once(
    make_player,
) -> None:
    ana = make_player("ana")
    state = _rolled(ana)
    match_id = state["id"]
    # this process's view of the match is left one event behind, as if another process wrote
    behind = replay(stored_events(UUID(match_id))[:-1], MatchView(UUID(match_id)))
    assert behind.version == state["version"] - 1
    with streams._cache_lock:
        streams._cache[behind.match_id] = behind
    with statements() as seen:
        response = _play(ana, state)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] > state["version"]
    assert body == ana.state(match_id)
    versions = [e["seq"] for e in ana.get(f"/matches/{match_id}/events").json()["events"]]
    assert versions == list(range(1, body["version"] + 1))  # no gap, nothing twice
    # on the behind view the dice are not rolled yet: refused there, read, decided, written
    on_matches = _on_the_match(seen)
    assert on_matches[0].startswith('SELECT "matches_match"'), on_matches
    assert [s for s in on_matches if s.startswith("WITH moved AS (UPDATE")] == on_matches[-1:]


@pytest.mark.parametrize("public", [True, False])
def test_who_is_not_a_player_is_refused_from_the_row_though_the_view_is_cached(
    make_player, public: bool
) -> None:
    ana, bob = make_player("ana"), make_player("bob")
    state = create(ana, mode="hotseat", length=3, public=public)
    assert streams.cached_view(UUID(state["id"])) is not None
    response = bob.post(f"/matches/{state['id']}/resign", {"value": 1})
    if public:
        assert response.status_code == 403, response.content
        assert response.json()["code"] == "not_a_player"
    else:
        assert response.status_code == 404, response.content
    assert ana.state(state["id"])["version"] == state["version"]  # nothing was written


def test_a_command_legal_on_a_view_behind_is_decided_again_on_the_row(make_player) -> None:
    """Offering to resign is legal on one's turn after the roll: decided on a view left at an
    earlier such turn, its statement finds the row moved, writes nothing and returns the row;
    the command is decided again on the view at its version and written once."""
    ana = make_player("ana")
    earlier = _rolled(ana)
    match_id = UUID(earlier["id"])
    state = earlier
    for _ in range(50):  # the next turn at which the dice are rolled with a play to make
        state = _play(ana, state).json() if state["phase"] == "play" else state
        response = ana.post(f"/matches/{match_id}/roll")
        assert response.status_code == 200, response.content
        state = response.json()
        if state["phase"] == "play" and state["legal_plays"]:
            break
    else:  # pragma: no cover
        raise AssertionError("no playable roll in 50 turns")
    behind = replay(stored_events(match_id)[: earlier["version"]], MatchView(match_id))
    with streams._cache_lock:
        streams._cache[match_id] = behind
    with statements() as seen:
        response = ana.post(f"/matches/{match_id}/resign", {"value": 1})
    assert response.status_code == 200, response.content
    assert response.json()["version"] == state["version"] + 1
    on_matches = _on_the_match(seen)
    # the miss returns the row as it is: the events after the view are read, then the write
    assert len(on_matches) == 3, on_matches
    assert on_matches[0].startswith("WITH moved AS (UPDATE"), on_matches
    assert on_matches[1].startswith('SELECT "matches_matchevent"'), on_matches
    assert on_matches[2].startswith("WITH moved AS (UPDATE"), on_matches
    events = ana.get(f"/matches/{match_id}/events").json()["events"]
    assert [e["seq"] for e in events] == list(range(1, state["version"] + 2))
    offers = [e for e in events if e["type"] == "resign_offered"]
    assert len(offers) == 1 and offers[0]["seq"] == state["version"] + 1


def test_the_players_ratings_come_with_the_row_of_a_state_read_and_of_a_command(
    make_player,
) -> None:
    """A rated player's rating is read with the Match row (rows.ratings_columns), by the
    state read and by the compare-and-set statement: no query of its own."""
    ana = make_player("ana")  # registered: rated; hot-seat, so in both seats
    state = _rolled(ana)
    PlayerRating.objects.create(user_id=ana.user_id, game="tavla", rating=1612.5)
    ana.state(state["id"])  # the view and the players' names are cached
    with statements() as seen:
        read = ana.state(state["id"])
    assert [p["rating"] for p in read["players"]] == [1612.5, 1612.5]
    on_matches = _on_the_match(seen)  # besides the token's account
    assert len(on_matches) == 1 and on_matches[0].startswith('SELECT "matches_match"'), seen
    assert '"matches_playerrating"' in on_matches[0] and _of_ratings_alone(seen) == [], seen
    with statements() as seen:
        response = _play(ana, state)
    assert response.status_code == 200, response.content
    assert [p["rating"] for p in response.json()["players"]] == [1612.5, 1612.5]
    on_matches = _on_the_match(seen)
    assert len(on_matches) == 1 and on_matches[0].startswith("WITH moved AS (UPDATE"), seen
    assert _of_ratings_alone(seen) == [], seen


def test_a_rated_player_without_a_rating_yet_starts_at_1500_and_a_guest_has_none(
    make_player,
) -> None:
    ana, gus = make_player("ana"), guest("gus")
    state = create(ana, mode="online", length=3)
    assert gus.post(f"/matches/{state['id']}/join", {}).status_code == 200
    ana.state(state["id"])
    with statements() as seen:
        read = ana.state(state["id"])
    by_kind = {p["kind"]: p["rating"] for p in read["players"]}
    assert by_kind == {"registered": START_RATING, "guest": None}
    assert len(_on_the_match(seen)) == 1 and _of_ratings_alone(seen) == [], seen


def test_the_answer_to_the_command_that_ends_a_rated_match_shows_the_new_ratings(
    make_player,
) -> None:
    """The end is written under the lock with the new ratings in its transaction: the row
    read FOR UPDATE carries no ratings, the answer reads them after they are written."""
    ana, ben = make_player("ana"), make_player("ben")
    state = create(ana, mode="online", length=1)
    assert ben.post(f"/matches/{state['id']}/join", {}).status_code == 200
    response = ana.post(f"/matches/{state['id']}/resign-match")
    assert response.status_code == 200, response.content
    stored = dict(PlayerRating.objects.values_list("user_id", "rating"))
    assert stored[ana.user_id] < START_RATING < stored[ben.user_id]
    shown = {p["username"]: p["rating"] for p in response.json()["players"]}
    assert shown == {ana.username: stored[ana.user_id], ben.username: stored[ben.user_id]}
