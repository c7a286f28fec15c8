"""Suite-wide pytest setup.

Kept free of Django imports at module level: tests/rules (pure Python) must run without a
database and even with pytest-django disabled (`pytest -p no:django tests/rules`).
"""

from __future__ import annotations

import pytest

DB_FIXTURES = {"db", "transactional_db", "django_db_setup", "django_db_blocker"}


def _needs_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") is not None:
        return True
    return bool(DB_FIXTURES.intersection(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """If any selected test needs the database, stop in one line when PostgreSQL is not there."""
    if not any(_needs_database(item) for item in items):
        return
    import os

    from tavla_project.dbcheck import DEFAULT_TEST_DATABASE_URL, problem

    reason = problem(os.environ.get("TEST_DATABASE_URL", DEFAULT_TEST_DATABASE_URL))
    if reason:
        pytest.exit(f"tests need PostgreSQL: {reason}, or set TEST_DATABASE_URL", returncode=2)
