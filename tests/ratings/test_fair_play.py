"""Fair play (issue 24, items 4 and 6; docs/ratings.md): the clock a rated match needs, early
exits under a creator's own clock, the minimum of play, the pairs' daily cap, the admin's flag,
and `rebuild_ratings` equal to the live values field by field under those rules (also with
matches ending at once in several threads).

The suite's settings switch the minimum of play and the pairs' cap off (the other tests end
matches at once); here each test sets the values it is about."""

from __future__ import annotations

import datetime as dt
import random
import threading
from io import StringIO
from typing import Any
from uuid import UUID

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from games.rules import InvalidSettings
from matches import services, store
from matches.selectors import players as player_reads
from matches.services import lobby, ratings
from matches.services.lobby import MatchRequest, open_match
from matches.store.models import EarlyExit, Match, PlayerRating, RatingChange
from tests.admin.helpers import RandomDice, play_turns
from tests.ratings.helpers import account, history, played, table

pytestmark = pytest.mark.django_db

TRAP = {"delay": 1, "reserve": 0, "max_move": 1, "reconnect": 60}
SITE = {"delay": 12, "reserve": 120, "max_move": 60, "reconnect": 60}
T0 = dt.datetime(2026, 11, 1, 12, 0, tzinfo=dt.UTC)
FAIR = {"TAVLA_RATED_MIN_MOVES": 3, "TAVLA_RATED_PAIR_PER_DAY": 2}


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    store.forget()
    yield
    store.forget()


def rebuilt_equals_live() -> None:
    live_table, live_history = table(), history()
    exits = sorted(EarlyExit.objects.values_list("user_id", "match_id", "kind", "at"))
    call_command("rebuild_ratings", stdout=StringIO())
    assert table() == live_table
    assert history() == live_history
    assert sorted(EarlyExit.objects.values_list("user_id", "match_id", "kind", "at")) == exits


def match_with_play(
    a: Any, b: Any, *, at: dt.datetime, turns: int, loser: Any, seed: int = 1, **kw: Any
) -> UUID:
    """An online match created and joined at `at`, `turns` turns of random legal play, then
    lost by `loser` (a forfeit) ten minutes later."""
    dice = RandomDice(seed)
    view = services.match_create(user=a, length=3, dice=dice, now=at, **kw)
    assert view.match_id is not None
    services.match_join(match_id=view.match_id, user=b, dice=dice, now=at)
    if turns:
        play_turns(view.match_id, (a, b), turns=turns, dice=dice, seed=seed, start=at)
    seat = 0 if loser == a else 1
    services.match_forfeit(match_id=view.match_id, seat=seat, now=at + dt.timedelta(minutes=10))
    return view.match_id


def counted(match_id: UUID) -> bool:
    return RatingChange.objects.filter(match_id=match_id).exists()


# -- the clock a rated match needs ---------------------------------------------------------------


def test_a_custom_clock_below_the_minimum_makes_the_match_unrated() -> None:
    ana = account("ana")

    def rated(clock: Any, **kw: Any) -> bool:
        view = services.match_create(user=ana, length=3, clock=clock, **kw)
        assert view.created is not None and view.match_id is not None
        assert Match.objects.get(pk=view.match_id).rated is view.created.rated
        return view.created.rated

    assert rated(TRAP) is False
    assert rated(SITE) is True and rated(None) is True  # the site's clock; no clock at all
    assert rated({**SITE, "reserve": 600, "max_move": 120}) is True  # longer: still rated
    assert rated({**SITE, "reconnect": 0}) is True  # the forfeit rule off is no trap
    for field in ("delay", "reserve", "max_move", "reconnect"):
        assert rated({**SITE, field: SITE[field] - 1}) is False, field
    with pytest.raises(InvalidSettings) as refused:
        services.match_create(user=ana, length=3, clock=TRAP, rated=True)
    assert refused.value.field == "rated" and "delay 12 s, reserve 120 s" in str(refused.value)
    assert rated(TRAP, rated=False) is False


@override_settings(
    TAVLA_CLOCK_PRESETS={"blitz": {"delay": 3, "reserve": 30, "max_move": 20, "reconnect": 30}},
    TAVLA_RATED_MIN_CLOCK={"delay": 5, "reserve": 60, "max_move": 30, "reconnect": 30},
)
def test_presets_are_rated_and_the_minimum_is_a_setting() -> None:
    ana = account("ana")
    blitz = {"delay": 3, "reserve": 30, "max_move": 20, "reconnect": 30}
    assert ratings.clock_may_be_rated(blitz)  # a preset: the site chose it
    assert not ratings.clock_may_be_rated({**blitz, "reserve": 31})  # custom, below the minimum
    assert ratings.clock_may_be_rated({"delay": 5, "reserve": 60, "max_move": 30, "reconnect": 30})
    view = services.match_create(user=ana, length=3, clock=blitz)
    assert view.created is not None and view.created.rated


def lost_on_time(a: Any, b: Any, clock: dict[str, int]) -> UUID:
    """A clocked match b joins at T0; the seat on turn loses on time an hour later."""
    view = services.match_create(user=a, length=3, clock=clock, now=T0)
    assert view.match_id is not None
    services.match_join(match_id=view.match_id, user=b, now=T0)
    state = store.load_view(view.match_id).state
    assert state is not None and state.to_act is not None
    later = T0 + dt.timedelta(hours=1)
    services.match_timeout(match_id=view.match_id, seat=state.to_act, now=later)
    return view.match_id


def test_a_rematch_follows_the_rule_of_now() -> None:
    ana, ben = account("ana"), account("ben")
    rematch, _ = lobby.rematch(Match.objects.get(pk=lost_on_time(ana, ben, TRAP)), ana)
    assert rematch.created is not None and rematch.created.rated is False
    rematch, _ = lobby.rematch(Match.objects.get(pk=lost_on_time(ana, ben, SITE)), ben)
    assert rematch.created is not None and rematch.created.rated is True


def test_losing_on_a_creators_own_clock_before_moving_is_no_early_exit() -> None:
    ana, ben, cem = account("ana"), account("ben"), account("cem")
    lost_on_time(ana, ben, TRAP)
    lost_on_time(ana, cem, {**SITE, "reserve": 600})  # a custom clock, even a long one
    assert not EarlyExit.objects.exists()
    lost_on_time(ana, ben, SITE)  # the site's clock: the same loss is an early exit
    assert list(EarlyExit.objects.values_list("kind", flat=True)) == ["timeout"]
    rebuilt_equals_live()


# -- the minimum of play -------------------------------------------------------------------------


@override_settings(**FAIR)
def test_a_match_counts_only_after_a_few_turns_of_each_side() -> None:
    ana, ben = account("ana"), account("ben")
    at_once = played(ana, ben, ana, length=3, how="resign")  # resigned before a move
    forfeited = played(ana, ben, ana, length=3)  # forfeited before a move
    short = match_with_play(ana, ben, at=T0, turns=3, loser=ben)  # 2 and 1 turns
    enough = match_with_play(ana, ben, at=T0 + dt.timedelta(hours=1), turns=8, loser=ben)
    turns = ratings.stored_turns(enough)
    assert min(turns.values()) >= 3 and max(ratings.stored_turns(short).values()) < 3
    assert [counted(m) for m in (at_once, forfeited, short, enough)] == [False] * 3 + [True]
    assert PlayerRating.objects.get(user=ana).matches == 1
    rebuilt_equals_live()


# -- the pairs' daily cap ------------------------------------------------------------------------


@override_settings(**FAIR)
def test_one_pair_counts_at_most_n_matches_in_24_hours() -> None:
    ana, ben, cem = account("ana"), account("ben"), account("cem")
    hour = dt.timedelta(hours=1)
    first = match_with_play(ana, ben, at=T0, turns=8, loser=ben)
    second = match_with_play(ben, ana, at=T0 + hour, turns=8, loser=ben)  # seats swapped
    third = match_with_play(ana, ben, at=T0 + 2 * hour, turns=8, loser=ana)  # over the cap
    other = match_with_play(ana, cem, at=T0 + 3 * hour, turns=8, loser=cem)  # another pair
    # 24 h after the first ended only the second is within the window: one more counts
    fourth = match_with_play(ana, ben, at=T0 + 24 * hour, turns=8, loser=ben)
    # 20 minutes later the second and the fourth are within the window: the cap is reached
    fifth = match_with_play(
        ana, ben, at=T0 + 24 * hour + dt.timedelta(minutes=20), turns=8, loser=ben
    )
    got = [counted(m) for m in (first, second, third, other, fourth, fifth)]
    assert got == [True, True, False, True, True, False]
    assert PlayerRating.objects.get(user=ben).matches == 3
    rebuilt_equals_live()
    # staff take a counted match out: the fold runs again and the one it kept out now counts
    staff = account("staff")
    ratings.mark_unrated(match_id=second, by=staff, reason="test")
    assert not counted(second) and counted(third)
    rebuilt_equals_live()


@override_settings(**{**FAIR, "TAVLA_RATED_PAIR_PER_DAY": 1})
@pytest.mark.django_db(transaction=True)
def test_matches_ending_at_once_in_threads_rebuild_to_the_live_values_under_the_rules() -> None:
    """The cap reads the pair's earlier counted matches under the game's lock: matches of the
    same pairs ending in 6 threads at once count exactly as the rebuild's fold decides."""
    players = [account(f"t{i}") for i in range(5)]
    rng = random.Random(11)
    ready: list[tuple[UUID, int]] = []
    for n in range(18):
        a, b = rng.sample(players, 2)
        dice = RandomDice(n)
        view = services.match_create(user=a, length=3, dice=dice)
        assert view.match_id is not None
        services.match_join(match_id=view.match_id, user=b, dice=dice)
        turns = rng.choice([2, 8, 8, 10])  # some below the minimum of play
        start = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        play_turns(view.match_id, (a, b), turns=turns, dice=dice, seed=n, start=start)
        ready.append((view.match_id, rng.choice([0, 1])))
    barrier = threading.Barrier(6)
    errors: list[BaseException] = []

    def end(chunk: list[tuple[UUID, int]]) -> None:
        try:
            barrier.wait()
            for match_id, seat in chunk:
                services.match_forfeit(match_id=match_id, seat=seat)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=end, args=(ready[i::6],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    pairs = {}
    for row in RatingChange.objects.filter(won=True):
        key = ratings.pair_key(row.user_id, row.opponent_id)
        pairs[key] = pairs.get(key, 0) + 1
    assert pairs and max(pairs.values()) == 1  # the cap held across threads
    assert RatingChange.objects.count() < 2 * len(ready)  # something was kept out
    rebuilt_equals_live()


# -- the admin's flag ----------------------------------------------------------------------------


@override_settings(TAVLA_RATING_PAIR_FLAG_MATCHES=3, TAVLA_RATING_PAIR_FLAG_DAYS=7)
def test_pairs_that_trade_rating_often_are_flagged_first() -> None:
    ana, ben, cem, dan = account("ana"), account("ben"), account("cem"), account("dan")
    for _ in range(2):
        played(ana, ben, ana)
        played(cem, ana, cem)
    played(dan, ben, ben)
    played(dan, ben, dan)
    played(ben, dan, dan)  # three between dan and ben
    pairs = list(player_reads.rating_pairs())
    assert [(p["user__username"], p["opponent__username"], p["flagged"]) for p in pairs] == [
        ("ben", "dan", True),
        ("ana", "ben", False),
        ("ana", "cem", False),
    ]
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=8)  # a week later: nothing recent
    assert not any(p["flagged"] for p in player_reads.rating_pairs(now=later))
    (mine,) = [p for p in player_reads.rating_pairs(dan) if p["flagged"]]
    assert (mine["opponent__username"], mine["recent"]) == ("ben", 3)


def test_a_computer_match_is_never_rated_whatever_its_clock() -> None:
    ana = account("ana")
    view = open_match(ana, MatchRequest(mode="computer", level="random", length=1))
    assert view.created is not None and view.created.rated is False
