"""Match events are append-only, in the model layer and in the database, on both backends.

Every test runs against PostgreSQL (`default`) and SQLite (`sqlite`); both databases are built
from the migrations, so these tests also prove the trigger migration works on each.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connections, models, transaction
from django.db.models import ProtectedError

from matches.errors import EventsAreImmutable
from matches.store.models import Match, MatchEvent

ALIASES = ["default", "sqlite"]
pytestmark = pytest.mark.django_db(databases=ALIASES)

T0 = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
TABLE = MatchEvent._meta.db_table


@pytest.fixture(params=ALIASES)
def alias(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def event(alias: str) -> MatchEvent:
    """A match with two stored events; returns the first."""
    user = get_user_model().objects.db_manager(alias).create_user("ana")
    match = Match.objects.using(alias).create(player0=user, mode=Match.Mode.HOTSEAT)
    first = MatchEvent(
        match=match, seq=1, type="match_created", payload={"v": 1}, actor=user, created_at=T0
    )
    first.save(using=alias)
    MatchEvent.objects.using(alias).create(
        match=match, seq=2, type="player_joined", payload={"v": 1, "seat": 1}, created_at=T0
    )
    return first


def stored(alias: str, pk: int) -> tuple[str, dict, int]:
    row = MatchEvent.objects.using(alias).get(pk=pk)
    return row.type, row.payload, MatchEvent.objects.using(alias).count()


def test_the_backends_are_the_ones_we_mean(alias: str) -> None:
    expected = {"default": "postgresql", "sqlite": "sqlite"}[alias]
    assert connections[alias].vendor == expected


def test_appending_works(event: MatchEvent, alias: str) -> None:
    events = list(MatchEvent.objects.using(alias).filter(match=event.match_id))
    assert [(e.seq, e.type) for e in events] == [(1, "match_created"), (2, "player_joined")]
    assert events[0].created_at == T0
    assert events[0].payload == {"v": 1}


def test_a_seq_cannot_be_appended_twice(event: MatchEvent, alias: str) -> None:
    duplicate = MatchEvent(match=event.match, seq=2, type="rolled", payload={}, created_at=T0)
    with pytest.raises(IntegrityError), transaction.atomic(using=alias):
        duplicate.save(using=alias)
    assert stored(alias, event.pk)[2] == 2


# --- the model layer ----------------------------------------------------------------------------


def test_saving_a_stored_event_again_is_refused(event: MatchEvent, alias: str) -> None:
    event.type = "tampered"
    with pytest.raises(EventsAreImmutable):
        event.save(using=alias)
    with pytest.raises(EventsAreImmutable):
        event.save(using=alias, update_fields=["type"])
    reloaded = MatchEvent.objects.using(alias).get(pk=event.pk)
    with pytest.raises(EventsAreImmutable):
        reloaded.save(using=alias, force_update=True)
    assert stored(alias, event.pk) == ("match_created", {"v": 1}, 2)


def test_deleting_an_event_is_refused(event: MatchEvent, alias: str) -> None:
    with pytest.raises(EventsAreImmutable):
        event.delete(using=alias)
    assert stored(alias, event.pk)[2] == 2


def test_queryset_update_and_delete_are_refused(event: MatchEvent, alias: str) -> None:
    events = MatchEvent.objects.using(alias).filter(match=event.match_id)
    with pytest.raises(EventsAreImmutable):
        events.update(type="tampered")
    with pytest.raises(EventsAreImmutable):
        events.delete()
    with pytest.raises(EventsAreImmutable):
        MatchEvent.objects.using(alias).all().delete()
    with pytest.raises(EventsAreImmutable):
        MatchEvent.objects.using(alias).bulk_update([event], ["type"])
    with pytest.raises(EventsAreImmutable):
        MatchEvent.objects.using(alias).update_or_create(
            match=event.match, seq=1, defaults={"type": "tampered"}
        )
    assert stored(alias, event.pk) == ("match_created", {"v": 1}, 2)


def test_related_manager_cannot_change_events(event: MatchEvent, alias: str) -> None:
    match = Match.objects.using(alias).get(pk=event.match_id)
    with pytest.raises(EventsAreImmutable):
        match.events.all().update(type="tampered")
    with pytest.raises(EventsAreImmutable):
        match.events.all().delete()
    assert stored(alias, event.pk) == ("match_created", {"v": 1}, 2)


def test_a_match_with_events_cannot_be_deleted(event: MatchEvent, alias: str) -> None:
    match = Match.objects.using(alias).get(pk=event.match_id)
    with pytest.raises(ProtectedError), transaction.atomic(using=alias):
        match.delete(using=alias)
    assert Match.objects.using(alias).filter(pk=match.pk).exists()


def test_an_actor_with_events_cannot_be_deleted(event: MatchEvent, alias: str) -> None:
    # player0 and the actor are PROTECT: SET_NULL would have to UPDATE stored events.
    with pytest.raises(ProtectedError), transaction.atomic(using=alias):
        event.actor.delete(using=alias)


# --- the database -------------------------------------------------------------------------------


def refused_by_trigger(alias: str, sql: str, params: list[object]) -> IntegrityError:
    with (
        pytest.raises(IntegrityError, match="append-only") as caught,
        transaction.atomic(using=alias),
        connections[alias].cursor() as cursor,
    ):
        cursor.execute(sql, params)
    return caught.value


def test_raw_update_is_rejected_by_the_database(event: MatchEvent, alias: str) -> None:
    refused_by_trigger(alias, f"UPDATE {TABLE} SET type = %s WHERE id = %s", ["x", event.pk])
    refused_by_trigger(alias, f"UPDATE {TABLE} SET seq = seq + 10", [])
    assert stored(alias, event.pk) == ("match_created", {"v": 1}, 2)


def test_raw_delete_is_rejected_by_the_database(event: MatchEvent, alias: str) -> None:
    refused_by_trigger(alias, f"DELETE FROM {TABLE} WHERE id = %s", [event.pk])
    refused_by_trigger(alias, f"DELETE FROM {TABLE}", [])
    assert stored(alias, event.pk) == ("match_created", {"v": 1}, 2)


def test_the_orm_without_the_guards_is_still_stopped_by_the_database(
    event: MatchEvent, alias: str
) -> None:
    """A plain QuerySet (not MatchEventQuerySet) gets past the model layer; the trigger holds."""
    unguarded = models.QuerySet(model=MatchEvent, using=alias)
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(using=alias):
        unguarded.filter(pk=event.pk).update(type="tampered")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic(using=alias):
        unguarded.filter(pk=event.pk)._raw_delete(using=alias)
    assert stored(alias, event.pk) == ("match_created", {"v": 1}, 2)
