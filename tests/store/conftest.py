"""Fixtures of the store tests: users, tables to play at, and the store contract after each test.

Run them on your own PostgreSQL database, e.g.
    TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/tavla_store .venv/bin/pytest tests/store
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from matches import services, store
from matches.store.models import Match

from .helpers import Clock, DiceScript, NewTable, Table, check_contract, opening


@pytest.fixture
def ana(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana")


@pytest.fixture
def bob(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bob")


@pytest.fixture
def carol(django_user_model: Any) -> Any:
    """Has no seat in the matches of the tests: a spectator."""
    return django_user_model.objects.create_user("carol")


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("admin", is_staff=True)


@pytest.fixture
def new_table(ana: Any, bob: Any) -> NewTable:
    """Make a match, ana on seat 0 and bob joining seat 1, the opening roll won by `first`
    with `dice` (or the opening pairs given, ties included). Other keywords are settings."""

    def make(
        *,
        first: int = 0,
        dice: tuple[int, int] = (3, 1),
        openings: list[tuple[int, int]] | None = None,
        join: bool = True,
        source: Any = None,
        **settings: Any,
    ) -> Table:
        """`source`: a dice source to use instead of the test's script (then no opening
        dice are pushed)."""
        settings.setdefault("length", 1)
        dice_, clock = source or DiceScript(), Clock()
        view = services.match_create(user=ana, now=clock(), dice=dice_, **settings)
        assert view.match_id is not None
        table = Table(view.match_id, (ana, bob), dice_, clock, [view])
        if join:
            if source is None:
                table.dice.push(*(openings or [opening(first, *dice)]))
            table.call(services.match_join, 1, user=bob)
        return table

    return make


@pytest.fixture
def hotseat_table(ana: Any) -> NewTable:
    """A hot-seat match: ana sits on both seats; she acts for whoever is to act."""

    def make(*, first: int = 0, dice: tuple[int, int] = (3, 1), **settings: Any) -> Table:
        settings.setdefault("length", 1)
        dice_, clock = DiceScript([opening(first, *dice)]), Clock()
        view = services.match_create(
            user=ana, mode=Match.Mode.HOTSEAT, now=clock(), dice=dice_, **settings
        )
        assert view.match_id is not None
        return Table(view.match_id, (ana, ana), dice_, clock, [view])

    return make


@pytest.fixture
def contract(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test with the database: every stored match replays cold to its projected row,
    and (where views were cached on commit) the cached view equals the cold one."""
    yield
    if request.node.get_closest_marker("django_db") is None:
        return
    for match_id in Match.objects.values_list("pk", flat=True):
        cold = check_contract(match_id)
        assert store.load_view(match_id) == cold
