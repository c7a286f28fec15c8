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


# -- CI cannot go green by skipping -------------------------------------------------------------
# Under CI (the environment has CI set, as .ci/run's runner does; or TAVLA_NO_SKIPS=1) a skipped
# test is a failure: CI installs every tool the tests need (gnubg, redis-server, Chromium), so a
# skip there means a test did not run. The very few legitimate skips say so with
# `@pytest.mark.may_skip("why")`. Expected failures (xfail) are not skips.


def _no_skips() -> bool:
    import os

    return bool(os.environ.get("CI") or os.environ.get("TAVLA_NO_SKIPS"))


def _as_failure(report: pytest.TestReport | pytest.CollectReport, where: str) -> None:
    reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
    report.outcome = "failed"
    report.longrepr = (
        f"{where} was skipped under CI ({reason}): CI installs what the tests need, so a skip"
        " is a failure (a legitimate one is marked @pytest.mark.may_skip)"
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> pytest.TestReport:
    report: pytest.TestReport = yield
    if (
        report.skipped
        and not hasattr(report, "wasxfail")
        and _no_skips()
        and item.get_closest_marker("may_skip") is None
    ):
        _as_failure(report, item.nodeid)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> pytest.CollectReport:
    report: pytest.CollectReport = yield
    if report.skipped and _no_skips():
        _as_failure(report, collector.nodeid)
    return report
