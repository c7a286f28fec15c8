"""Quick pairing (matches/services/seeks.py): who is paired with whom, the widening window,
expiry, refusals, the computer after N seconds, and 50 seekers at once on PostgreSQL."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from games.rules import InvalidSettings
from matches import services, store
from matches.services import notices, seeks
from matches.services.seeks import AlreadyPlaying, SeekNotFound, SeekRefused, SeekRequest
from matches.store.models import EarlyExit, Match, PlayerRating, Seek
from tests.api.conftest import signup
from tests.ratings.helpers import account, started

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0)


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    store.forget()
    yield
    store.forget()


def rated(name: str, rating: float, game: str = "tavla") -> Any:
    user = account(name)
    PlayerRating.objects.create(user=user, game=game, rating=rating, experience=500, matches=9)
    return user


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def post(user: Any, seconds: float = 0, **asked: Any) -> Seek:
    return seeks.seek(user, SeekRequest(**{"length": 3, **asked}), now=at(seconds))


def poll(found: Seek, seconds: float) -> Seek:
    return seeks.look(found.user, found.pk, now=at(seconds))


def test_two_seekers_of_the_same_settings_start_a_match() -> None:
    ana, ben = account("ana"), account("ben")
    first = post(ana)
    assert first.status == "waiting" and first.match_id is None
    second = post(ben, 1)
    first.refresh_from_db()
    assert second.status == first.status == "paired"
    assert second.match_id == first.match_id
    match = Match.objects.get(pk=first.match_id)
    assert (match.player0_id, match.player1_id) == (ana.pk, ben.pk)  # the older seek: seat 0
    assert (match.mode, match.status, match.length, match.cube, match.rated) == (
        "online",
        "active",
        3,
        True,
        True,
    )
    assert match.clock == seeks.clock_presets()["site"]
    view = store.load_view(match.pk, cached=False)
    assert view.full and view.state is not None and view.state.phase == "play"  # opening done


def test_other_settings_are_other_pools() -> None:
    ana, ben, cem, dan = account("ana"), account("ben"), account("cem"), account("dan")
    post(ana, length=3)
    assert post(ben, length=5).status == "waiting"
    assert post(cem, length=3, cube=False).status == "waiting"
    assert post(dan, length=3, game="long-nardy").status == "waiting"
    assert not Match.objects.exists()


def test_the_closest_rating_is_chosen() -> None:
    far, near, farther = rated("far", 1450), rated("near", 1580), rated("farther", 1690)
    for i, user in enumerate((far, near, farther)):
        post(user, i * 0.1)
    me = post(rated("me", 1600), 1)
    assert me.status == "paired"
    match = Match.objects.get(pk=me.match_id)
    assert {match.player0_id, match.player1_id} == {near.pk, me.user_id}


def test_the_window_widens_the_longer_a_seek_waits() -> None:
    low = post(rated("low", 1500))
    high = post(rated("high", 1750), 0.5)  # 250 apart: outside +-100
    assert high.status == "waiting"
    assert poll(high, 10).status == "waiting"  # +-200 after 10 s
    assert poll(low, 19).status == "waiting"
    paired = poll(high, 20.5)  # +-300 after 20 s (the wider of the two windows counts)
    assert paired.status == "paired"
    low.refresh_from_db()
    assert low.match_id == paired.match_id


def test_after_a_minute_anyone_will_do() -> None:
    weak = post(rated("weak", 1100))
    strong = post(rated("strong", 2200), 1)
    assert strong.status == "waiting"
    for second in (29, 58):
        assert poll(weak, second).status == poll(strong, second + 0.5).status == "waiting"
    assert poll(weak, 60).status == "paired"


def test_the_window_schedule() -> None:
    schedule = seeks.Schedule()
    assert [schedule.window(s) for s in (0, 9.9, 10, 25, 59.9)] == [100, 100, 200, 300, 600]
    assert schedule.window(60) == float("inf")
    assert [schedule.stage(s) for s in (0, 10, 59, 60, 600)] == [0, 1, 5, 7, 7]


def test_a_range_of_ones_own_is_never_widened() -> None:
    picky = post(rated("picky", 1500), rating_min=1400, rating_max=1600)
    other = post(rated("other", 1650), 1)
    assert poll(picky, 100).status == "waiting" and poll(other, 100).status == "waiting"
    near = post(rated("near", 1590), 101)
    assert near.status == "paired"  # both fit near; other (60 away) is closer than picky (90)
    match = Match.objects.get(pk=near.match_id)
    assert {match.player0_id, match.player1_id} == {near.user_id, other.user_id}


def test_a_seek_nobody_polls_expires_and_is_never_paired() -> None:
    gone = post(account("gone"))
    here = post(account("here"), 31)  # gone has not polled for 31 s: past the 30 s timeout
    assert here.status == "waiting"
    gone.refresh_from_db()
    assert gone.status == "waiting"  # not swept yet, but not paired either
    counts = seeks.sweep(at(31))
    gone.refresh_from_db()
    assert gone.status == "expired" and counts["expired"] == 1
    assert poll(here, 40).status == "waiting"


def test_polling_keeps_a_seek_alive() -> None:
    patient = post(account("patient"))
    for second in (20, 40, 60):
        poll(patient, second)
    assert post(account("late"), 80).status == "paired"


def test_the_sweeper_pairs_seeks_whose_windows_have_widened() -> None:
    a = post(rated("a", 1500))
    b = post(rated("b", 1900), 1)  # 400 apart: paired once a window is +-400 (after 30 s)
    Seek.objects.filter(pk__in=[a.pk, b.pk]).update(last_seen=at(25))  # both still there
    assert seeks.sweep(at(29)) == {"expired": 0, "paired": 0}  # +-300 still
    assert seeks.sweep(at(30.5)) == {"expired": 0, "paired": 2}  # +-400 now: one pair
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.status == b.status == "paired" and a.match_id == b.match_id


def test_a_new_seek_replaces_the_waiting_one_and_nobody_meets_himself() -> None:
    ana = account("ana")
    first = post(ana)
    second = post(ana, 1, length=3)
    first.refresh_from_db()
    assert (first.status, second.status) == ("cancelled", "waiting")
    assert not Match.objects.exists()


def test_cancel() -> None:
    ana, ben = account("ana"), account("ben")
    waiting = post(ana)
    assert seeks.cancel(ana, waiting.pk).status == "cancelled"
    assert post(ben, 1).status == "waiting"  # ana's cancelled seek is not taken
    paired = post(account("cem"), 2)
    late = seeks.cancel(ben, Seek.objects.get(user=ben).pk)
    assert late.status == "paired" and late.match_id == paired.match_id
    with pytest.raises(SeekNotFound):
        seeks.cancel(ana, paired.pk)  # not hers
    with pytest.raises(SeekNotFound):
        seeks.look(ana, "not-a-uuid")


def test_refused_while_playing_an_online_match() -> None:
    ana, ben = account("ana"), account("ben")
    started(ana, ben, length=3)
    with pytest.raises(AlreadyPlaying):
        post(ana)
    hotseat = services.match_create(user=account("cem"), mode="hotseat", length=1)
    assert hotseat.match_id is not None
    assert post(Match.objects.get(pk=hotseat.match_id).player0).status == "waiting"


def test_a_seeker_who_started_another_match_meanwhile_is_not_paired() -> None:
    ana, ben, cem = account("ana"), account("ben"), account("cem")
    waiting = post(ana)
    started(ana, cem, length=1)  # she accepted a challenge meanwhile
    assert post(ben, 1).status == "waiting"
    waiting.refresh_from_db()
    assert waiting.status == "waiting"  # left alone; her next poll cancels it
    assert poll(waiting, 11).status == "cancelled"


@override_settings(TAVLA_SEEK_EXIT_LIMIT=2, TAVLA_SEEK_EXIT_COOLDOWN=600)
def test_refused_after_leaving_matches_early_until_the_cooldown_is_over() -> None:
    quitter, other = account("quitter"), account("other")
    for _ in range(2):  # he leaves twice before his first move: two early exits
        services.match_forfeit(match_id=started(quitter, other, length=3, first=1), seat=0)
    last = EarlyExit.objects.filter(user=quitter).latest("at").at
    assert EarlyExit.objects.filter(user=quitter, kind="forfeit").count() == 2
    asked = SeekRequest(length=3)
    with pytest.raises(SeekRefused) as refused:
        seeks.seek(quitter, asked, now=last + timedelta(seconds=599))
    until = last + timedelta(seconds=600)
    assert refused.value.detail == {"early_exits": 2, "until": until.isoformat()}
    assert seeks.seek(quitter, asked, now=last + timedelta(seconds=601)).status == "waiting"
    assert post(other).status == "paired"  # his opponent did nothing wrong


def test_the_computer_after_n_seconds() -> None:
    ana = account("ana")
    waiting = post(ana, computer_level="random", computer_after=15)
    assert poll(waiting, 14).status == "waiting"
    done = poll(waiting, 15)
    assert done.status == "paired"
    match = Match.objects.get(pk=done.match_id)
    assert (match.mode, match.status, match.computer_level, match.rated) == (
        "computer",
        "active",
        "random",
        False,
    )


def test_an_unknown_clock_preset_is_refused() -> None:
    with pytest.raises(InvalidSettings):
        post(account("ana"), clock="blitz")


heard: list[notices.Notice] = []


def remember(notice: notices.Notice) -> None:
    heard.append(notice)


@pytest.mark.django_db(transaction=True)
def test_both_players_are_told_after_commit() -> None:
    heard.clear()
    notices.hooks.cache_clear()
    with override_settings(TAVLA_NOTIFY=["tests.seeks.test_pairing.remember"]):
        try:
            ana, ben = account("ana"), account("ben")
            post(ana)
            paired = post(ben, 1)
        finally:
            notices.hooks.cache_clear()
    assert sorted((n.user_id, n.kind, n.match_id) for n in heard) == sorted(
        [
            (ana.pk, "seek_paired", str(paired.match_id)),
            (ben.pk, "seek_paired", str(paired.match_id)),
        ]
    )


# -- 50 seekers at once ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_fifty_seekers_at_once_are_paired_once_each_never_with_themselves() -> None:
    """50 requests hit POST /seeks at the same moment from 50 threads (50 connections to
    PostgreSQL): 47 players, 3 of whom send two seeks at once, in two pools (3 and 5 points).
    Every match has two different players, no seek is in two matches, no player is in two,
    and no two seeks that could be paired are left waiting."""
    players = [signup(f"racer{i}") for i in range(47)]
    requests = [(p, 3 if i % 2 else 5) for i, p in enumerate(players)]
    requests += [(players[i], 3 if i % 2 else 5) for i in (0, 1, 2)]
    assert len(requests) == 50
    barrier = threading.Barrier(len(requests))
    answers: list[tuple[int, int, dict[str, Any]]] = []
    lock = threading.Lock()

    def seek(player: Any, length: int) -> None:
        try:
            barrier.wait()
            response = player.post("/seeks", {"length": length, "cube": True})
            with lock:
                answers.append((player.user_id, response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=seek, args=r) for r in requests]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(answers) == 50
    codes = Counter(code for _, code, _ in answers)
    assert set(codes) <= {201, 409}, answers
    refused = [body for _, code, body in answers if code == 409]
    assert all(body["code"] == "already_playing" for body in refused)

    paired = list(Seek.objects.filter(status="paired"))
    by_match: dict[Any, list[Seek]] = {}
    for s in paired:
        by_match.setdefault(s.match_id, []).append(s)
    matches = Match.objects.filter(pk__in=list(by_match))
    assert len(matches) == len(by_match) > 0
    seated: Counter[int] = Counter()
    for match in matches:
        two = by_match[match.pk]
        assert len(two) == 2  # two seeks per match, each seek in this one match only
        assert match.player0_id != match.player1_id
        assert {match.player0_id, match.player1_id} == {s.user_id for s in two}
        assert match.status == "active" and match.length == two[0].length == two[1].length
        seated.update([match.player0_id, match.player1_id])
    assert max(seated.values()) == 1  # nobody in two matches
    waiting = list(Seek.objects.filter(status="waiting"))
    now = timezone.now()
    for i, a in enumerate(waiting):
        for b in waiting[i + 1 :]:
            same_pool = (a.game, a.length, a.cube, a.clock_preset) == (
                b.game,
                b.length,
                b.cube,
                b.clock_preset,
            )
            assert not (same_pool and seeks.acceptable(a, b, now)), (a, b)
    # every request is accounted for: paired, waiting, refused, or replaced by its twin
    assert (
        len(matches) * 2
        + len(waiting)
        + codes[409]
        + Seek.objects.filter(status="cancelled").count()
        == 50
    )
    print(f"50 seekers: {len(matches)} matches, {len(waiting)} waiting, {codes[409]} refused")
