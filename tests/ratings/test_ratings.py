"""Ratings as a projection of the events: live updates in the finishing command's transaction,
which matches count, and `rebuild_ratings` giving exactly the live values (docs/ratings.md)."""

from __future__ import annotations

import itertools
import json
import math
import random
import threading
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from games.rules import IllegalAction
from matches import services, store
from matches.errors import MatchNotFound
from matches.interop.importing import import_mat
from matches.services import ratings
from matches.services.lobby import MatchRequest, open_match
from matches.store.models import EarlyExit, Match, MatchEvent, PlayerRating, RatingChange
from tests.ratings.helpers import (
    account,
    forfeit,
    history,
    played,
    started,
    table,
    timed_out,
)

pytestmark = pytest.mark.django_db

ROOT5 = math.sqrt(5)
PUBLIC = Path(__file__).parent.parent / "data" / "matches-public"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    store.forget()
    yield
    store.forget()


def rebuilt_equals_live() -> None:
    live_table, live_history = table(), history()
    call_command("rebuild_ratings", stdout=StringIO())
    assert table() == live_table
    assert history() == live_history


def test_two_newcomers_play_five_points_as_computed_by_hand() -> None:
    ana, ben = account("ana"), account("ben")
    match_id = played(ana, ben, ana, length=5)
    stake = 4 * 5 * ROOT5 * 0.5  # K = 5 (experience 0), P = 1/2
    rows = {r.user_id: r for r in PlayerRating.objects.filter(game="tavla")}
    assert rows[ana.pk].rating == pytest.approx(1500 + stake)
    assert rows[ben.pk].rating == pytest.approx(1500 - stake)
    assert (rows[ana.pk].experience, rows[ana.pk].matches, rows[ana.pk].wins) == (5, 1, 1)
    assert (rows[ben.pk].experience, rows[ben.pk].matches, rows[ben.pk].wins) == (5, 1, 0)
    change = RatingChange.objects.get(match_id=match_id, user=ana)
    assert (change.won, change.opponent_id, change.length) == (True, ben.pk, 5)
    assert (change.rating_before, change.opponent_rating, change.experience_before) == (
        1500.0,
        1500.0,
        0,
    )
    ended = MatchEvent.objects.get(match_id=match_id, type="forfeited")
    assert change.order == ended.pk and change.finished_at == ended.created_at


def test_the_second_match_uses_the_ratings_and_experience_after_the_first() -> None:
    ana, ben = account("ana"), account("ben")
    played(ana, ben, ana, length=5)
    played(ana, ben, ben, length=1, how="resign")
    a, b = 1500 + 10 * ROOT5, 1500 - 10 * ROOT5
    p_ben = 1 / (1 + 10 ** (-(b - a) * 1 / 2000))  # the underdog won a 1-point match
    k = 5 - 5 / 100  # experience 5 each
    rows = {r.user_id: r for r in PlayerRating.objects.filter(game="tavla")}
    assert rows[ben.pk].rating == pytest.approx(b + k * 4 * (1 - p_ben))
    assert rows[ana.pk].rating == pytest.approx(a - k * 4 * (1 - p_ben))
    assert rows[ana.pk].experience == rows[ben.pk].experience == 6
    rebuilt_equals_live()


def test_losses_on_time_and_by_resignation_count_like_any_other() -> None:
    ana, ben = account("ana"), account("ben")
    timed_out(ana, ben, loser_seat=1, length=3)
    played(ana, ben, ben, length=3, how="resign")
    assert RatingChange.objects.count() == 4
    assert PlayerRating.objects.get(user=ana).wins == 1
    rebuilt_equals_live()


def test_bots_are_rated_guests_and_the_computer_never() -> None:
    ana, bot, guest = account("ana"), account("gnubot", "bot"), account("guest-1", "guest")
    played(ana, bot, bot)
    played(ana, guest, ana)
    computer = open_match(ana, MatchRequest(mode="computer", level="random", length=1))
    assert computer.match_id is not None
    forfeit(computer.match_id, 0)
    assert set(RatingChange.objects.values_list("user_id", flat=True)) == {ana.pk, bot.pk}
    assert not PlayerRating.objects.filter(user=guest).exists()
    rebuilt_equals_live()


def test_unrated_matches(django_user_model: Any) -> None:
    """Aborted, hot-seat, money play, created unrated, imported: none changes a rating."""
    ana, ben = account("ana"), account("ben")
    aborted = started(ana, ben, length=3)
    services.match_abort(match_id=aborted, user=None)  # staff (players may not: fair dice)
    hotseat = services.match_create(user=ana, mode="hotseat", length=1)
    assert hotseat.match_id is not None
    forfeit(hotseat.match_id, 0)
    money = started(ana, ben, length=0)
    forfeit(money, 1)
    friendly = started(ana, ben, length=3, rated=False)
    forfeit(friendly, 1)
    imported = import_mat((PUBLIC / "match_01_len1_cube.mat").read_text())
    assert Match.objects.get(pk=imported.match_id).rated is False
    assert Match.objects.get(pk=friendly).rated is False
    assert Match.objects.get(pk=money).rated is False
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
    rebuilt_equals_live()
    assert not PlayerRating.objects.exists()


def test_rated_cannot_be_asked_for_where_there_is_no_rating() -> None:
    from games.rules import InvalidSettings

    ana = account("ana")
    for settings in ({"mode": "hotseat"}, {"mode": "computer"}, {"length": 0}):
        with pytest.raises(InvalidSettings):
            services.match_create(user=ana, rated=True, **{"length": 3, **settings})


def test_a_guest_who_registers_later_keeps_his_guest_matches_unrated() -> None:
    """The kind is recorded when a player sits down: the projection never changes its mind."""
    ana, guest = account("ana"), account("guest-2", "guest")
    played(ana, guest, ana)
    guest.tavla_profile.kind = "registered"
    guest.tavla_profile.save()
    rebuilt_equals_live()
    assert not RatingChange.objects.exists()


def test_many_players_many_matches_rebuild_gives_exactly_the_live_values() -> None:
    rng = random.Random(16)
    players = [account(f"p{i}") for i in range(7)] + [account("bot1", "bot")]
    guest = account("guest-x", "guest")
    for n in range(40):
        a, b = rng.sample(players, 2)
        how = rng.choice(["forfeit", "forfeit", "resign"])
        length = rng.choice([1, 3]) if how == "resign" else rng.choice([1, 3, 5, 7, 11])
        played(a, b, rng.choice([a, b]), length=length, how=how)
        if n % 7 == 0:  # unrated ones in between
            played(a, guest, a)
            friendly = started(a, b, length=5, rated=False)
            forfeit(friendly, 0)
    assert RatingChange.objects.count() == 80
    ratings_sum = sum(r for r, *_ in table().values())
    assert ratings_sum != pytest.approx(1500 * len(table()))  # K differs: not zero-sum
    rebuilt_equals_live()


@pytest.mark.django_db(transaction=True)
def test_matches_ending_at_once_in_many_threads_rebuild_to_the_live_values() -> None:
    """Matches sharing players end concurrently: the game's lock orders the live updates
    like the ids of their ending events, so the rebuild folds them the same way."""
    players = [account(f"t{i}") for i in range(6)]
    rng = random.Random(7)
    ready = []
    for _ in range(24):
        a, b = rng.sample(players, 2)
        ready.append((started(a, b, length=rng.choice([1, 3, 5])), rng.choice([0, 1])))
    barrier = threading.Barrier(6)
    errors: list[BaseException] = []

    def end(chunk: list[tuple[Any, int]]) -> None:
        try:
            barrier.wait()
            for match_id, seat in chunk:
                forfeit(match_id, seat)
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
    assert RatingChange.objects.count() == 48
    orders = list(RatingChange.objects.order_by("order").values_list("order", flat=True))
    for user in players:  # each player's history chains: after of one = before of the next
        rows = list(RatingChange.objects.filter(user=user).order_by("order"))
        for before, after in itertools.pairwise(rows):
            assert after.rating_before == before.rating_after
            assert after.experience_before == before.experience_before + before.length
    assert orders == sorted(orders)
    rebuilt_equals_live()


def test_staff_marks_a_match_unrated_the_game_is_recomputed_without_it() -> None:
    staff = account("staff")
    staff.is_staff = True
    staff.save()
    ana, ben, cem = account("ana"), account("ben"), account("cem")
    first = played(ana, ben, ana, length=5)
    played(ben, cem, ben, length=3)
    played(ana, cem, cem, length=7)
    view = ratings.mark_unrated(match_id=first, by=staff, reason="two accounts of one player")
    assert view.marked_unrated
    event = MatchEvent.objects.get(match_id=first, type="marked_unrated")
    assert event.actor_id == staff.pk
    assert event.payload == {"v": 1, "reason": "two accounts of one player"}
    assert not RatingChange.objects.filter(match_id=first).exists()
    assert Match.objects.get(pk=first).rated is False
    # ben's first rated match is now the one against cem, as newcomers
    ben_first = RatingChange.objects.filter(user=ben).order_by("order").first()
    assert ben_first is not None
    assert (ben_first.rating_before, ben_first.experience_before) == (1500.0, 0)
    rebuilt_equals_live()
    again = ratings.mark_unrated(match_id=first, by=staff, reason="twice")
    assert again.version == view.version  # marking again writes nothing
    with pytest.raises(MatchNotFound):
        ratings.mark_unrated(match_id="nope", by=staff, reason="")  # type: ignore[arg-type]


def test_a_match_marked_unrated_before_it_ends_never_counts() -> None:
    staff = account("staff")
    ana, ben = account("ana"), account("ben")
    match_id = started(ana, ben, length=3)
    ratings.mark_unrated(match_id=match_id, by=staff, reason="suspicious")
    forfeit(match_id, 1)
    assert not RatingChange.objects.exists()
    state = store.load_view(match_id, cached=False)
    assert state.marked_unrated and state.state is not None and state.state.is_over
    rebuilt_equals_live()


def test_the_rebuild_command_reports_each_game() -> None:
    ana, ben = account("ana"), account("ben")
    played(ana, ben, ana)
    out = StringIO()
    call_command("rebuild_ratings", stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["game"] == "tavla" and lines[0]["matches"] == 1 and lines[0]["players"] == 2
    assert lines[1]["game"] == "long-nardy" and lines[1]["matches"] == 0
    assert lines[2] == {"early_exits": 1}  # ben forfeited before his first move


def test_early_exits_are_counted_and_rebuilt() -> None:
    ana, ben, cem = account("ana"), account("ben"), account("cem")
    left = started(ana, ben, length=3)
    with pytest.raises(IllegalAction):  # the opening roll is out: no abort (fair dice)
        services.match_abort(match_id=left, user=ben)
    forfeit(left, 1)  # so ben leaves: a forfeit before his first move
    waiting = services.match_create(user=cem, length=3)  # nobody came: not an early exit
    assert waiting.match_id is not None
    services.match_abort(match_id=waiting.match_id, user=cem)
    timed_out(ana, cem, loser_seat=1)  # cem on turn, never moved: an early exit
    forfeit(started(ana, cem, length=3, first=0), 1)  # cem was not on turn: never moved either
    exits = sorted(EarlyExit.objects.values_list("user__username", "kind"))
    assert exits == [("ben", "forfeit"), ("cem", "forfeit"), ("cem", "timeout")]
    before = sorted(EarlyExit.objects.values_list("user_id", "match_id", "kind", "at"))
    call_command("rebuild_ratings", stdout=StringIO())
    assert sorted(EarlyExit.objects.values_list("user_id", "match_id", "kind", "at")) == before
