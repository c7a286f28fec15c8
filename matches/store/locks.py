"""Advisory locks: serialising one kind of decision (a game's ratings, a seek pool) without a
row to lock.

PostgreSQL's `pg_advisory_xact_lock` holds until the transaction ends, so what is decided
under it is committed before the next holder reads. SQLite (development) has one writer at
a time anyway: there this is a no-op.
"""

from __future__ import annotations

import hashlib

from django.db import connection, transaction


def lock_key(name: str) -> int:
    """A stable signed 64-bit key for a name (the same in every process)."""
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def advisory_lock(name: str) -> None:
    """Take the transaction-scoped lock `name`, waiting for its holder; call inside atomic()."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("an advisory lock is taken inside a transaction")
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_key(name)])
