"""Browser tests: Debian's Chromium driven by Playwright against the real site (gunicorn, a
Celery worker, our own Redis) on pytest-django's PostgreSQL test database.

Browsers are never downloaded: Playwright launches /usr/bin/chromium (installed by .ci/run).
Every test is transactional (the server is another process: it must see committed rows, and
the tables are emptied after each test)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from .servers import Site

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ASYNC_UNSAFE = "DJANGO_ALLOW_ASYNC_UNSAFE"
DESKTOP = {"width": 1280, "height": 900}
INSTANT = """try {
  if (!localStorage.getItem('tavla.settings'))
    localStorage.setItem('tavla.settings', JSON.stringify({speed: 'instant'}));
} catch (e) { /* about:blank has no storage */ }"""
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="package")
def site(django_db_setup: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = Site(tmp_path_factory.mktemp("site"), dict(connection.settings_dict))
    try:
        s.start()
    except BaseException:
        print(s.logs())
        s.stop()
        raise
    yield s
    s.stop()


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One Chromium for the package. Playwright's sync API keeps an asyncio loop running in
    this thread while it is open, which Django takes for an async context: its database calls
    in these tests (the flush after each) are allowed while, and only while, it is open."""
    from playwright.sync_api import sync_playwright

    saved = os.environ.get(ASYNC_UNSAFE)
    os.environ[ASYNC_UNSAFE] = "true"
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield b
            b.close()
    finally:
        if saved is None:
            os.environ.pop(ASYNC_UNSAFE, None)
        else:
            os.environ[ASYNC_UNSAFE] = saved


@pytest.fixture
def open_page(site: Site, browser: Any, transactional_db: Any) -> Iterator[Callable[..., Any]]:
    """open_page(path="", locale="en-US", viewport=DESKTOP, setup=None): a page in a fresh
    browser context (its own storage: a different player), console errors collected in
    page.errors; `setup(page)` runs before the page is loaded (routes, network conditions)."""
    contexts: list[Any] = []

    def open_(
        path: str = "",
        *,
        locale: str = "en-US",
        viewport: dict | None = None,
        setup: Callable[[Any], None] | None = None,
    ) -> Any:
        context = browser.new_context(locale=locale, viewport=viewport or DESKTOP)
        context.set_default_timeout(15_000)
        # the other side's plays drawn at once unless a test sets a speed (test_seen.py does,
        # by clicks): the tests of the transport time the push, not the drawing
        context.add_init_script(INSTANT)
        contexts.append(context)
        page = context.new_page()
        if setup is not None:
            setup(page)
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        if os.environ.get("TAVLA_BROWSER_DEBUG"):
            page.on("console", lambda m: print(f"console {m.type}: {m.text}"))
            page.on("requestfinished", lambda r: print(f"{time.time() % 100:.2f} {r.url[-70:]}"))
        page.goto(site.url + path)
        return page

    yield open_
    for context in contexts:
        context.close()
    empty_tables()


def empty_tables(tries: int = 5) -> None:
    """Empty the tables before pytest-django's own flush does, trying again when it fails.

    The site is still at work when a test ends: the pages' sockets closing, a Celery task.
    TRUNCATE takes the tables' locks one by one, so a write of the site's that takes them in
    another order is a deadlock, which PostgreSQL ends by failing one of the two, often the
    TRUNCATE; left full, the tables fail the next test (a name already taken). pytest-django's
    flush then finds them empty (and emits post_migrate). The last failure says what the
    other sessions were doing."""
    for attempt in range(tries):
        try:
            # as pytest-django's flush: the sequences go on (the site's caches are keyed by
            # ids, a user id used again would be shown with another user's name)
            call_command(
                "flush",
                interactive=False,
                verbosity=0,
                reset_sequences=False,
                inhibit_post_migrate=True,
            )
            return
        except CommandError as exc:
            if attempt == tries - 1:
                raise CommandError(f"{exc}\nthe other sessions: {other_sessions()}") from exc
            time.sleep(0.5)


def other_sessions() -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, state, wait_event_type, left(query, 200) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return list(cursor.fetchall())
