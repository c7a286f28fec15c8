"""Lag compensation in the store and over HTTP: recorded in the event when decided, so replay
gives the same clock; the deadline the sweeper enforces waits out the player's lag grace."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.rules.clock import LAG_MAX_PER_MOVE, LAG_QUOTA_GAIN, LAG_QUOTA_START
from matches import services
from matches.errors import OutOfTime
from matches.store import load_view
from matches.store.dice import ScriptedDice
from matches.store.models import Match, MatchClock, MatchEvent
from matches.store.streams import forget
from matches.tasks.clock import sweep_clocks
from tests.clock.test_store_clock import at

CLOCK = {"delay": 2, "reserve": 3, "max_move": 4, "reconnect": 60}


@pytest.fixture
def players(django_user_model: Any) -> tuple[Any, Any]:
    return (
        django_user_model.objects.create_user("ana"),
        django_user_model.objects.create_user("bob"),
    )


def start(players: tuple[Any, Any], dice: list[Any], when: Any = None) -> tuple[Any, Any]:
    """ana wins the opening 3-1: her move runs from `when` (T0 by default)."""
    ana, bob = players
    when = when or at(0)
    script = ScriptedDice([(3, 1), *dice])
    view = services.match_create(user=ana, mode="online", length=1, clock=CLOCK, now=when)
    services.match_join(match_id=view.match_id, user=bob, now=when, dice=script)
    return view.match_id, script


@pytest.mark.django_db
def test_lag_is_recorded_in_the_event_and_replay_gives_the_same_clock(
    players: tuple[Any, Any],
) -> None:
    ana, bob = players
    match_id, script = start(players, [(6, 5)])
    # 4.5 s after the start: 0.5 s past the 4 s cap, 0.8 s of lag reported: in time.
    view = services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(4.5), lag=0.8)
    moved = MatchEvent.objects.get(match_id=match_id, type="moved")
    assert moved.payload["lag"] == 0.8
    assert view.clock is not None
    assert view.clock.reserve == pytest.approx((1.3, 3))  # 3.7 s charged: 1.7 s past the delay
    assert view.clock.lag[0].quota == LAG_QUOTA_START - 0.8 + LAG_QUOTA_GAIN
    view = services.match_roll(match_id=match_id, user=bob, now=at(6), dice=script, lag=0.3)
    view = services.match_play(match_id=match_id, user=bob, play="24/13", now=at(9), lag=5)
    played = MatchEvent.objects.filter(match_id=match_id, type__in=("moved", "rolled"))
    lags = [e.payload.get("lag") for e in played.order_by("seq")]
    assert lags == [0.8, 0.3, LAG_MAX_PER_MOVE - 0.3]  # the bound per move: roll and play
    assert view.clock is not None  # bob: 4.5 s taken, 2 s of it lag: 0.5 s past the delay
    assert view.clock.reserve == pytest.approx((1.3, 2.5))
    forget()
    replayed = load_view(match_id, cached=False)
    assert replayed.clock == view.clock


@pytest.mark.django_db
def test_the_sweeper_waits_out_the_grace_of_a_player_who_reports_lag(
    players: tuple[Any, Any],
) -> None:
    ana, bob = players
    match_id, script = start(players, [(6, 5)])
    services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(1), lag=0.2)
    # bob never reported lag: no grace, his deadline is at 1 + 4 s.
    assert MatchClock.objects.get(match_id=match_id).deadline == at(5)
    services.match_roll(match_id=match_id, user=bob, now=at(2), dice=script, lag=0.1)
    # Now he did: the sweeper waits what his quota could still cover (2 - 0.1 s).
    assert MatchClock.objects.get(match_id=match_id).deadline == at(7)  # 5.1 + 1.9
    assert sweep_clocks(now=at(6.9))["timed_out"] == 0
    with pytest.raises(OutOfTime):  # a command with too little lag is late all the same
        services.match_play(match_id=match_id, user=bob, play="24/13", now=at(6), lag=0.5)
    assert Match.objects.get(pk=match_id).ended_by == "timeout"


@pytest.mark.django_db
def test_the_timeout_comes_at_the_grace_not_before(players: tuple[Any, Any]) -> None:
    ana, bob = players
    match_id, script = start(players, [(6, 5)])
    services.match_play(match_id=match_id, user=ana, play="8/5 6/5", now=at(1), lag=0.2)
    services.match_roll(match_id=match_id, user=bob, now=at(2), dice=script, lag=0.1)
    assert sweep_clocks(now=at(6.9))["timed_out"] == 0
    assert sweep_clocks(now=at(7))["timed_out"] == 1
    assert Match.objects.get(pk=match_id).winner == 0


@pytest.mark.django_db
def test_a_move_late_by_less_than_the_quota_is_not_charged_over_http(
    players: tuple[Any, Any],
) -> None:
    from matches.api.authentication import issue_token

    ana, _ = players
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(ana)}")
    began = timezone.now() - timedelta(seconds=4.5)  # 0.5 s past the 4 s cap
    late, _ = start(players, [], began)
    r = client.post(f"/api/v1/matches/{late}/play", {"play": "8/5 6/5"}, format="json")
    assert r.status_code == 422 and r.json()["code"] == "out_of_time", r.content

    began = timezone.now() - timedelta(seconds=4.5)
    match_id, _ = start(players, [], began)
    r = client.post(
        f"/api/v1/matches/{match_id}/play",
        {"play": "8/5 6/5"},
        format="json",
        HTTP_TAVLA_LAG="1500",
    )
    assert r.status_code == 200, r.content
    moved = MatchEvent.objects.get(match_id=match_id, type="moved")
    assert moved.payload["lag"] == 1.5
    used = (moved.created_at - began).total_seconds()
    reserve = r.json()["clock"]["seats"][0]["reserve"]
    assert reserve == pytest.approx(3 - (used - 1.5 - 2), abs=0.01)  # the lag not charged
