"""What the sweepers find owed, from the store and the outbox, without processes: the computer
sweeper's query (matches/services/computer.py `owed`) and the notices' outbox
(matches/services/notices.py)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from matches.services import computer, notices
from matches.store.models import Match, OutboxNotice
from tests.api.conftest import Policy, act, create

heard: list[notices.Notice] = []


def remember(notice: notices.Notice) -> None:
    heard.append(notice)


@pytest.fixture
def hooks() -> Any:
    heard.clear()
    notices.hooks.cache_clear()
    with override_settings(TAVLA_NOTIFY=["tests.api.test_follow_ups_owed.remember"]):
        yield heard
    notices.hooks.cache_clear()


def computer_to_act(make_player: Any) -> str:
    """A computer match left where the computer must act, its task never run (the suite's
    broker is in memory and has no worker)."""
    ana = make_player()
    for _ in range(20):
        match_id = create(ana, mode="computer", level="random", length=3)["id"]
        state = ana.state(match_id)
        while state["to_act"]["who"] == "you":
            state = act(ana, match_id, state, Policy(random.Random(3)))
        if state["status"] == "active":
            return str(match_id)
    raise AssertionError("no match left the computer to act")


@pytest.mark.django_db
def test_a_computer_turn_nobody_played_is_owed_once_idle(make_player: Any) -> None:
    match_id = computer_to_act(make_player)
    now = timezone.now()
    idle = timedelta(seconds=3)
    assert str(match_id) not in map(str, computer.owed(now, idle))  # just written: in flight
    assert str(match_id) in map(str, computer.owed(now + idle, idle))
    played = computer.play_turns(Match.objects.get(pk=match_id).pk)
    assert played >= 1
    assert str(match_id) not in map(str, computer.owed(timezone.now() + idle, idle))


@pytest.mark.django_db
def test_a_match_waiting_for_the_human_is_never_owed(make_player: Any) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    later = timezone.now() + timedelta(hours=1)
    assert str(match_id) not in map(str, computer.owed(later, timedelta(seconds=3)))


@pytest.mark.django_db(transaction=True)
def test_a_notice_is_in_the_outbox_and_delivered_after_commit(hooks: Any, django_user_model: Any):
    ana = django_user_model.objects.create_user("ana")
    with transaction.atomic():
        notices.notify([notices.Notice(ana.pk, "seek_paired", None, 3, {"seek": "x"})])
        assert hooks == []  # not before the commit
        row = OutboxNotice.objects.get()
        assert row.sent_at is None
    assert [(n.kind, n.id) for n in hooks] == [("seek_paired", row.pk)]
    row.refresh_from_db()
    assert row.sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_notice_is_neither_kept_nor_delivered(hooks: Any, django_user_model: Any):
    ana = django_user_model.objects.create_user("ana")
    with pytest.raises(RuntimeError), transaction.atomic():
        notices.notify([notices.Notice(ana.pk, "seek_paired")])
        raise RuntimeError("the command failed")
    assert hooks == [] and not OutboxNotice.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_delivers_what_a_dead_process_left_unsent(hooks: Any, django_user_model: Any):
    ana = django_user_model.objects.create_user("ana")
    # What a process that died between its commit and the delivery leaves behind:
    owed = OutboxNotice.objects.create(user=ana, kind="seek_paired", version=5)
    fresh = OutboxNotice.objects.create(user=ana, kind="seek_paired", version=6)
    old_sent = OutboxNotice.objects.create(
        user=ana, kind="seek_paired", sent_at=timezone.now() - timedelta(days=2)
    )
    OutboxNotice.objects.filter(pk=owed.pk).update(created_at=timezone.now() - timedelta(seconds=5))
    result = notices.sweep()
    assert result == {"delivered": 1, "pruned": 1}
    assert [n.id for n in hooks] == [owed.pk]  # the fresh one is still its process's to send
    owed.refresh_from_db()
    assert owed.sent_at is not None
    assert not OutboxNotice.objects.filter(pk=old_sent.pk).exists()
    assert OutboxNotice.objects.get(pk=fresh.pk).sent_at is None
    assert notices.sweep()["delivered"] == 0  # never twice
