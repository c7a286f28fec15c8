"""The data migrations of issue 26, forward and back, on rows written as the schema before them
had them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

Target = list[tuple[str, str]]


@pytest.fixture
def migrate() -> Iterator[Any]:
    """Migrate the database to a target and return its historical apps; every app's latest
    migration again after the test."""
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()

    def to(target: Target) -> Any:
        executor = MigrationExecutor(connection)
        executor.migrate(target)
        return executor.loader.project_state(target).apps

    yield to
    to(latest)


@pytest.mark.django_db(transaction=True)
def test_the_rows_points_become_the_rules_bearoff_and_back(migrate: Any) -> None:
    before, after = [("matches", "0012_analysis")], [("matches", "0013_ended_by_bearoff")]
    old = migrate(before).get_model("matches", "Match")
    played = old.objects.create(status="finished", ended_by="points").pk
    resigned = old.objects.create(status="finished", ended_by="resign").pk

    def words(apps: Any) -> list[str]:
        rows = apps.get_model("matches", "Match").objects
        return [rows.get(pk=pk).ended_by for pk in (played, resigned)]

    assert words(migrate(after)) == ["bearoff", "resign"]
    assert words(migrate(before)) == ["points", "resign"]


@pytest.mark.django_db(transaction=True)
def test_the_computers_accounts_get_their_profiles(migrate: Any) -> None:
    before, after = [("matches", "0013_ended_by_bearoff")], [("matches", "0014_computer_profiles")]
    apps = migrate(before)
    users = apps.get_model("auth", "User").objects
    bare = users.create(username="computer-random").pk
    made = users.create(username="computer-network").pk
    apps.get_model("matches", "PlayerProfile").objects.create(
        user_id=made, kind="computer", display_name="the network"
    )
    users.create(username="ana")  # a registered player without a profile: stays without

    profiles = migrate(after).get_model("matches", "PlayerProfile").objects
    kept = {p.user_id: (p.kind, p.display_name) for p in profiles.all()}
    assert kept == {
        bare: ("computer", "Computer (random)"),
        made: ("computer", "the network"),  # one it had is kept as it was
    }
