"""Fail fast, in one line, when the test suite's PostgreSQL is not reachable.

    python -m tavla_project.dbcheck

Reads TEST_DATABASE_URL (the same default as tavla_project/settings_test.py), connects to the
server's maintenance database and exits 0, or prints one line saying what is wrong and how to
start a server, and exits 2. Imports no Django, so it is cheap to run before pytest.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/tavla"


def how_to_start() -> str:
    clusters = sorted(p.name for p in Path("/etc/postgresql").glob("*") if p.is_dir())
    if clusters:
        return f"start it with: pg_ctlcluster --skip-systemctl-redirect {clusters[-1]} main start"
    return (
        "start one with: docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust "
        "postgres:16 (or apt-get install postgresql)"
    )


def problem(url: str) -> str | None:
    """None when PostgreSQL at `url` accepts a connection, else a one-line reason."""
    import environ
    import psycopg

    db = environ.Env.db_url_config(url)
    if db["ENGINE"] != "django.db.backends.postgresql":
        return f"TEST_DATABASE_URL must be a PostgreSQL URL, got engine {db['ENGINE']}"
    where = f"{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}"
    try:
        conn = psycopg.connect(
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            dbname="postgres",  # the test database itself is created by the test run
            connect_timeout=3,
        )
    except psycopg.OperationalError as exc:
        # psycopg: 'connection failed: connection to server at "h", port p failed: <reason>\n...'
        reason = " ".join(str(exc).split("\n")[0].split()).rsplit("failed: ", 1)[-1]
        if reason.startswith("FATAL:"):  # a server answered and said no (role, password, ...)
            return f"PostgreSQL at {where} refused the connection ({reason})"
        return f"PostgreSQL is not reachable at {where} ({reason}); {how_to_start()}"
    conn.close()
    return None


def main() -> int:
    url = os.environ.get("TEST_DATABASE_URL", DEFAULT_TEST_DATABASE_URL)
    reason = problem(url)
    if reason:
        print(f"tests need PostgreSQL: {reason}, or set TEST_DATABASE_URL", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
