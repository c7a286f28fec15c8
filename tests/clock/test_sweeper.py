"""The deadline index, the sweeper and presence with injected time (no broker, no worker):
`sweep_clocks(now=...)` is the function beat runs, called directly."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from matches.services import presence
from matches.store.dice import ScriptedDice
from matches.store.models import Match, MatchClock, MatchEvent, MatchPresence
from matches.tasks.clock import sweep_clocks
from tests.clock.test_store_clock import at

SHORT = {"delay": 2, "reserve": 3, "max_move": 4, "reconnect": 60}
LONG_MOVES = {"delay": 100, "reserve": 100, "max_move": 100, "reconnect": 10}


@pytest.fixture
def players(django_user_model: Any) -> tuple[Any, Any]:
    return (
        django_user_model.objects.create_user("ana"),
        django_user_model.objects.create_user("bob"),
    )


def start(players: tuple[Any, Any], clock: dict[str, float], dice: list[Any] = ()) -> Any:  # type: ignore[assignment]
    """ana wins the opening 3-1 at T0: her move runs."""
    ana, bob = players
    view = services.match_create(user=ana, mode="online", length=1, clock=clock, now=at(0))
    services.match_join(
        match_id=view.match_id, user=bob, now=at(0), dice=ScriptedDice([(3, 1), *dice])
    )
    return view.match_id


def events(match_id: Any, kind: str) -> int:
    return MatchEvent.objects.filter(match_id=match_id, type=kind).count()


@pytest.mark.django_db
def test_join_stores_the_deadline_and_sees_both_seats(players: tuple[Any, Any]) -> None:
    match_id = start(players, SHORT)
    row = MatchClock.objects.get(match_id=match_id)
    assert row.active and row.deadline == at(4)  # min(2 + 3, 4)
    seen = presence.last_seen(match_id)
    assert seen == {0: at(0), 1: at(0)}
    assert set(MatchPresence.objects.values_list("grace", flat=True)) == {timedelta(seconds=60)}


@pytest.mark.django_db
def test_the_sweeper_times_out_an_overdue_match_exactly_once(players: tuple[Any, Any]) -> None:
    match_id = start(players, SHORT)
    assert sweep_clocks(now=at(3.9))["timed_out"] == 0
    assert sweep_clocks(now=at(4))["timed_out"] == 1
    assert sweep_clocks(now=at(5)) == {"timed_out": 0, "forfeited": 0, "checked": 0}
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.winner, match.ended_by) == ("finished", 1, "timeout")
    assert events(match_id, "timed_out") == 1
    assert not MatchClock.objects.get(match_id=match_id).active


@pytest.mark.django_db
def test_a_move_in_time_moves_the_deadline(players: tuple[Any, Any]) -> None:
    ana, _ = players
    match_id = start(players, SHORT)
    services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(1.5))
    assert MatchClock.objects.get(match_id=match_id).deadline == at(5.5)  # bob's move
    assert sweep_clocks(now=at(5))["timed_out"] == 0
    assert sweep_clocks(now=at(5.5))["timed_out"] == 1
    match = Match.objects.get(pk=match_id)
    assert (match.winner, match.ended_by) == (0, "timeout")


@pytest.mark.django_db
def test_a_stale_deadline_row_is_corrected_not_obeyed(players: tuple[Any, Any]) -> None:
    ana, _ = players
    match_id = start(players, SHORT)
    services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(1.5))
    # A row left behind (say, a restore from an old backup): the replayed clock decides.
    MatchClock.objects.filter(match_id=match_id).update(deadline=at(1))
    counts = sweep_clocks(now=at(3))
    assert counts == {"timed_out": 0, "forfeited": 0, "checked": 1}
    assert MatchClock.objects.get(match_id=match_id).deadline == at(5.5)
    assert events(match_id, "timed_out") == 0


@pytest.mark.django_db
def test_a_player_not_seen_for_longer_than_the_grace_forfeits(players: tuple[Any, Any]) -> None:
    _, bob = players
    match_id = start(players, LONG_MOVES)
    match = Match.objects.get(pk=match_id)
    assert presence.touch(match, bob, now=at(5)) == 1
    assert presence.touch(match, bob, now=at(5.1)) == 0  # within the resolution: no write
    assert sweep_clocks(now=at(10))["forfeited"] == 0  # ana: exactly the grace, not more
    assert sweep_clocks(now=at(10.5))["forfeited"] == 1
    assert sweep_clocks(now=at(30))["forfeited"] == 0  # over: bob is not forfeited too
    match.refresh_from_db()
    assert (match.status, match.winner, match.ended_by) == ("finished", 1, "forfeit")
    assert events(match_id, "forfeited") == 1
    last = MatchEvent.objects.filter(match_id=match_id).order_by("seq").last()
    assert last is not None and (last.type, last.payload["seat"]) == ("forfeited", 0)


@pytest.mark.django_db
def test_spectators_and_finished_matches_touch_nothing(
    players: tuple[Any, Any], django_user_model: Any
) -> None:
    match_id = start(players, LONG_MOVES)
    match = Match.objects.get(pk=match_id)
    carl = django_user_model.objects.create_user("carl")
    assert presence.touch(match, carl, now=at(5)) == 0
    assert presence.last_seen(match_id) == {0: at(0), 1: at(0)}


@pytest.mark.django_db
def test_zero_reconnect_means_no_forfeit_for_leaving(players: tuple[Any, Any]) -> None:
    match_id = start(players, {**LONG_MOVES, "reconnect": 0})
    assert not MatchPresence.objects.filter(match_id=match_id).exists()
    assert sweep_clocks(now=at(99))["forfeited"] == 0


@pytest.mark.django_db
def test_the_state_shows_the_clock_and_requests_touch_presence(
    players: tuple[Any, Any],
) -> None:
    from matches.api.authentication import issue_token

    _, bob = players
    match_id = start(players, LONG_MOVES)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(bob)}")
    body = client.get(f"/api/v1/matches/{match_id}").json()
    clock = body["clock"]
    assert clock["running"] == {"seat": 0, "who": "opponent"}
    assert datetime.fromisoformat(clock["deadline"]) == at(100)  # RFC 3339, "Z" for UTC
    assert clock["reconnect"] == 10
    assert clock["you"] == {"delay": 0.0, "reserve": 100.0}
    assert clock["opponent"]["delay"] == 0.0  # T0 is long past: the delay is used up ...
    assert clock["opponent"]["reserve"] == 0.0  # ... and so is the reserve (injected T0)
    assert presence.last_seen(match_id)[1] > at(0)  # bob was seen by that request
    before = presence.last_seen(match_id)[1]
    r = client.post(f"/api/v1/matches/{match_id}/heartbeat")
    assert r.status_code == 204
    assert presence.last_seen(match_id)[1] >= before


@pytest.mark.django_db
def test_a_late_move_over_http_is_refused_as_out_of_time(players: tuple[Any, Any]) -> None:
    from matches.api.authentication import issue_token

    ana, _ = players
    match_id = start(players, SHORT)  # started at T0, long ago: ana's time is up
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(ana)}")
    r = client.post(f"/api/v1/matches/{match_id}/play", {"play": "8/5 6/5"}, format="json")
    assert r.status_code == 422 and r.json()["code"] == "out_of_time", r.content
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.winner, match.ended_by) == ("finished", 1, "timeout")
