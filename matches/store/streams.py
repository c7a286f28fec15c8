"""Reading and appending match streams, and keeping the `Match` projection in step.

Rebuilt views are cached in this process by match and version. The cache is disposable:
a view is only ever extended with the events stored after it, so a cached view always equals
a cold replay of the same events (tests prove it), and dropping the cache changes nothing.

Two ways to append. `append` inside the command's transaction, with the Match row locked.
`append_if_at` outside any transaction, in one statement: a compare-and-set on the row's
version that inserts the events only if the row was still at the view's version. The second
saves the BEGIN, the locking read and the COMMIT (two of four round trips, and their CPU); a
writer that loses the race writes nothing and is told so, and the caller decides again under
the lock. The unique (match, seq) constraint stays the last line of defence of both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from threading import Lock
from typing import Any
from uuid import UUID

from cachetools import LRUCache
from django.db import IntegrityError, connections, router, transaction

from games.rules import EndedBy
from matches.errors import VersionConflict

from .committed import Committed, after_commit
from .events import Event
from .models import Match, MatchClock, MatchEvent
from .replay import Decided, MatchView, StoredEvent, extended, replay
from .rows import match_from_row, ratings_columns, returned_columns

_CACHE_SIZE = 2048
# the least recently used view goes first (cachetools; not thread-safe by itself: the lock)
_cache: LRUCache[UUID, MatchView] = LRUCache(maxsize=_CACHE_SIZE)
_cache_lock = Lock()


def stored_events(match_id: UUID, after: int = 0) -> list[StoredEvent]:
    rows = (
        MatchEvent.objects.filter(match_id=match_id, seq__gt=after)
        .order_by("seq")
        .values_list("seq", "type", "payload", "actor_id", "created_at")
    )
    return [StoredEvent(*row) for row in rows]


def load_view(match_id: UUID, *, version: int | None = None, cached: bool = True) -> MatchView:
    """The match rebuilt from its events: the cached view plus the events stored after it.

    `version` is the version the caller knows is committed (the Match row it read): a cached
    view at exactly that version is the answer, with no query; one from beyond it (a
    rolled-back transaction) is thrown away.
    """
    start = None
    if cached:
        with _cache_lock:
            start = _cache.get(match_id)
        if start is not None and version is not None:
            if start.version == version:
                return start  # events are immutable: nothing was stored after it
            if start.version > version:
                forget(match_id)
                start = None
    view = replay(
        stored_events(match_id, start.version if start else 0), start or MatchView(match_id)
    )
    if cached and not transaction.get_connection().in_atomic_block:
        _remember(match_id, view)
    return view


def _numbered(
    view: MatchView, decided: list[Decided], actor_id: int | None, at: datetime
) -> list[StoredEvent]:
    """The events as they are stored: numbered after `view.version`."""
    return [
        StoredEvent(view.version + n, d.event.type, d.event.to_payload(), actor_id, at)
        for n, d in enumerate(decided, 1)
    ]


def _decided(events: Iterable[Event | Decided]) -> list[Decided]:
    """Events given plainly (a match created, a player seated) are folded as replay folds
    them; a command's come with the state its judgement led to."""
    return [e if isinstance(e, Decided) else Decided(e) for e in events]


def cached_view(match_id: UUID) -> MatchView | None:
    """This process's cached view of the match, if any: possibly behind the stored stream
    (another process wrote); `append_if_at` finds that out."""
    with _cache_lock:
        return _cache.get(match_id)


def forget(match_id: UUID | None = None) -> None:
    """Drop cached views (all of them without an id)."""
    with _cache_lock:
        if match_id is None:
            _cache.clear()
        else:
            _cache.pop(match_id, None)


def _remember(match_id: UUID, view: MatchView) -> None:
    with _cache_lock:
        old = _cache.get(match_id)
        if old is None or old.version <= view.version:
            _cache[match_id] = view
        while len(_cache) > _CACHE_SIZE:  # the size as set now (a test makes it smaller)
            _cache.popitem()  # the least recently used


def append(
    match: Match,
    view: MatchView,
    events: Iterable[Event | Decided],
    *,
    actor_id: int | None,
    at: datetime,
) -> MatchView:
    """Store events after `view.version`, update the projection; call inside a transaction.

    The unique (match, seq) constraint is the last line of defence: a writer that lost a
    race gets VersionConflict, never a duplicate or a gap.
    """
    decided = _decided(events)
    stored = _numbered(view, decided, actor_id, at)
    if not stored:
        return view
    new_view = extended(view, stored, decided)
    try:
        _write(match, stored, projection(match, new_view))
    except IntegrityError as exc:
        forget(match.pk)
        raise VersionConflict(current_version=None) from exc
    # Cache only what is committed: a rolled-back append must not survive in memory.
    transaction.on_commit(lambda: _remember(match.pk, new_view))
    after_commit(Committed(new_view, tuple(stored), actor_id))
    return new_view


@dataclass(frozen=True, slots=True)
class ClockRow:
    """The values of a clocked match's MatchClock row (matches/services/deadlines.py) that an
    append writes in the same statement."""

    active: bool
    deadline: datetime | None


def compare_and_set_available() -> bool:
    """`append_if_at` can be used here (PostgreSQL: one statement that updates and inserts)."""
    return connections[router.db_for_write(MatchEvent)].vendor == "postgresql"


@dataclass(frozen=True, slots=True)
class Moved:
    """What `append_if_at` found instead of the view's version: the Match row as the
    statement saw it (None: there is no such match). Nothing was written."""

    match: Match | None


def append_if_at(
    view: MatchView,
    events: Iterable[Event | Decided],
    *,
    actor_id: int | None,
    at: datetime,
    clock: Callable[[MatchView], ClockRow | None] = lambda view: None,
) -> tuple[Match, MatchView] | Moved:
    """Store events after `view.version` in one statement, if the Match row is still at that
    version: the row as written and the new view; `Moved` with the row as it is (and
    nothing written) if it is not. Outside a transaction the statement commits by itself;
    inside one (an Idempotency-Key's record, a test) it holds the row's lock until that
    commits, and the cache learns of it then.

    The UPDATE of the row (`WHERE version = view.version`) comes first and the INSERT of the
    events takes its rows from it: two writers at the same version queue on the row and the
    second finds the version moved. Only the projected columns that change are written,
    against the view's own projection, which the row holds at the view's version since every
    append writes it. The row comes back from the same statement, written or not
    (RETURNING, or the row itself when the version moved), so a command needs no read
    first, nor after a miss. `clock`: the values of the match's MatchClock row at the new
    view, if it keeps one: it is upserted in the same statement.
    """
    assert view.match_id is not None
    decided = _decided(events)
    stored = _numbered(view, decided, actor_id, at)
    if not stored:
        raise ValueError("append_if_at: no events to append")
    new_view = extended(view, stored, decided)
    before = projection_values(view)  # the row's at view.version (every writer's)
    values = projection_values(new_view)
    changed = {name: v for name, v in values.items() if before.get(name, _NONE) != v}
    try:
        written, row = _write_if_at(view.match_id, view.version, stored, changed, clock(new_view))
    except IntegrityError as exc:  # events beyond the row's version: never by this code
        forget(view.match_id)
        raise VersionConflict(current_version=None) from exc
    alias = router.db_for_write(MatchEvent)
    match = None if row is None else match_from_row(alias, row)
    if not written:
        forget(view.match_id)  # the cached view may be behind: the caller reads it again
        return Moved(match)
    assert match is not None
    match_id = view.match_id
    transaction.on_commit(lambda: _remember(match_id, new_view))  # at once in autocommit
    after_commit(Committed(new_view, tuple(stored), actor_id))
    return match, new_view


def _write_if_at(
    match_id: UUID,
    version: int,
    stored: list[StoredEvent],
    changed: dict[str, object],
    clock: ClockRow | None,
) -> tuple[bool, tuple[Any, ...] | None]:
    """The compare-and-set statement: whether the row was at `version` (and so was
    written), and the row as written or as found (None: no such match)."""
    connection = connections[router.db_for_write(MatchEvent)]
    names = tuple(changed)
    sql = _compare_and_set_sql(connection.alias, names, len(stored), clock is not None)
    match_fields = [Match._meta.get_field(name) for name in names]
    params: list[object] = [f.get_db_prep_save(changed[f.name], connection) for f in match_fields]
    params += [Match._meta.pk.get_db_prep_value(match_id, connection), version]
    if clock is not None:
        deadline = _CLOCK_DEADLINE.get_db_prep_save(clock.deadline, connection)
        params += [clock.active, stored[-1].seq, deadline]
    columns = _event_columns()
    for e in stored:
        values = (e.seq, e.type, e.payload, e.actor_id, e.at)
        pairs = zip(columns[1:], values, strict=True)
        params += [field.get_db_prep_save(v, connection) for field, v in pairs]
    params.append(params[len(names)])  # the pk again: the row as found when not written
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    return (False, None) if found is None else (bool(found[0]), found[1:])


@cache
def _compare_and_set_sql(alias: str, sets: tuple[str, ...], count: int, clock: bool) -> str:
    """UPDATE the row if at the version, upsert its clock row, INSERT the events, return the
    row (whether it was written first) with the players' stored ratings
    (`rows.ratings_columns`, which the answer shows): one statement whose INSERT (and upsert)
    take their rows from the UPDATE's (each data-modifying WITH runs to completion, whether or
    not the final SELECT reads it). Not written, the row comes as the statement's snapshot saw it:
    the one another writer committed before, or, when the UPDATE waited for a writer that
    committed after the snapshot, the row before that one (a later compare-and-set finds
    that out too)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(Match._meta.get_field(n).column)} = %s" for n in sets)
    pk = quote(Match._meta.pk.column)
    version = quote(Match._meta.get_field("version").column)
    returned = returned_columns(alias)
    sql = (
        f"WITH moved AS (UPDATE {_MATCH_TABLE} SET {assignments}"
        f" WHERE {pk} = %s AND {version} = %s RETURNING {returned})"
    )
    if clock:
        table = quote(MatchClock._meta.db_table)
        key = quote(MatchClock._meta.pk.column)
        cols = [quote(MatchClock._meta.get_field(n).column) for n in _CLOCK_COLUMNS]
        types = [MatchClock._meta.get_field(n).db_type(connection) for n in _CLOCK_COLUMNS]
        values = ", ".join(f"%s::{t}" for t in types)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in cols)
        sql += (
            f", clock AS (INSERT INTO {table} ({key}, {', '.join(cols)})"
            f" SELECT {pk}, {values} FROM moved ON CONFLICT ({key}) DO UPDATE SET {updates})"
        )
    columns = _event_columns()
    quoted = ", ".join(quote(f.column) for f in columns)
    types = [f.db_type(connection) for f in columns[1:]]  # a foreign key: its target's type
    row = "(" + ", ".join(f"%s::{t}" for t in types) + ")"
    rows = ", ".join([row] * count)
    table = quote(MatchEvent._meta.db_table)
    return (
        f"{sql}, appended AS (INSERT INTO {table} ({quoted}) SELECT moved.{pk}, e.* FROM moved,"
        f" (VALUES {rows}) AS e) SELECT true, {returned}, {ratings_columns(alias, 'moved')}"
        f" FROM moved UNION ALL SELECT false, {returned},"
        f" {ratings_columns(alias, _MATCH_TABLE)} FROM {_MATCH_TABLE}"
        f" WHERE {pk} = %s AND NOT EXISTS (SELECT FROM moved)"
    )


_CLOCK_COLUMNS = ("active", "version", "deadline")
_NONE = object()  # a column the view before did not project (no state yet): written
_CLOCK_DEADLINE = MatchClock._meta.get_field("deadline")


def _write(match: Match, stored: list[StoredEvent], changed: dict[str, object]) -> None:
    """Insert the events and update the projection's changed columns. On PostgreSQL in one
    statement (the INSERT in a WITH clause runs to completion whatever the UPDATE reads): one
    round trip less per command, and no ORM query building. Elsewhere through the ORM."""
    connection = connections[router.db_for_write(MatchEvent)]
    for name, value in changed.items():
        setattr(match, name, value)
    if connection.vendor != "postgresql":
        MatchEvent.objects.bulk_create(
            MatchEvent(
                match=match,
                seq=e.seq,
                type=e.type,
                payload=e.payload,
                actor_id=e.actor_id,
                created_at=e.at,
            )
            for e in stored
        )
        if changed:
            match.save(update_fields=list(changed))
        return
    insert, columns = _insert_sql(len(stored))
    changed = changed or {"version": match.version}  # always set: the version moved
    params: list[object] = []
    for e in stored:
        values = (match.pk, e.seq, e.type, e.payload, e.actor_id, e.at)
        pairs = zip(columns, values, strict=True)
        params += [field.get_db_prep_save(v, connection) for field, v in pairs]
    fields = [Match._meta.get_field(name) for name in changed]
    sets = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
    params += [f.get_db_prep_save(changed[f.name], connection) for f in fields]
    params.append(match.pk)
    with connection.cursor() as cursor:
        cursor.execute(f"{insert} UPDATE {_MATCH_TABLE} SET {sets} WHERE {_MATCH_PK} = %s", params)


_MATCH_TABLE = f'"{Match._meta.db_table}"'
_MATCH_PK = f'"{Match._meta.pk.column}"'


@cache
def _event_columns() -> list[Any]:
    """The fields of an event's row, in the order the INSERTs list them."""
    names = ("match", "seq", "type", "payload", "actor", "created_at")
    return [MatchEvent._meta.get_field(name) for name in names]


@cache
def _insert_sql(count: int) -> tuple[str, list[Any]]:
    """`WITH appended AS (INSERT ... VALUES (...) x count)` and the columns' fields."""
    columns = _event_columns()
    quoted = ", ".join(f'"{f.column}"' for f in columns)
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    values = ", ".join([row] * count)
    table = MatchEvent._meta.db_table
    sql = f'WITH appended AS (INSERT INTO "{table}" ({quoted}) VALUES {values} RETURNING 1)'
    return sql, columns


def project(match: Match, view: MatchView) -> None:
    """Write the read model (status, score, turn, ...) of `view` onto the Match row: only the
    columns that changed (a move changes two or three of them)."""
    changed = projection(match, view)
    for name, value in changed.items():
        setattr(match, name, value)
    if changed:
        match.save(update_fields=list(changed))


def projection(match: Match, view: MatchView) -> dict[str, object]:
    """The columns of the Match row that `view` changes, with their new values."""
    values = projection_values(view)
    return {name: value for name, value in values.items() if getattr(match, name) != value}


def projection_values(view: MatchView) -> dict[str, object]:
    """The projected columns of the Match row at `view`."""
    state = view.state
    values: dict[str, object] = {
        "version": view.version,
        "started_at": view.started_at,
        "last_move_at": view.last_at,
        "finished_at": view.finished_at,
    }
    if view.created is not None:
        values["rated"] = view.created.rated and not view.marked_unrated
    if state is not None:
        values["score0"], values["score1"] = state.score
        values["turn"] = state.to_act
        values["winner"] = state.winner
        values["ended_by"] = str(state.ended_by or "")  # the rules' word (Match.EndedBy)
        values["status"] = status_of(view)
    return values


def status_of(view: MatchView) -> str:
    """The status the projection gives a match at `view` (the one place that decides it)."""
    state = view.state
    if state is not None and state.is_over:
        aborted = state.ended_by == EndedBy.ABORT
        return str(Match.Status.ABORTED if aborted else Match.Status.FINISHED)
    return str(Match.Status.ACTIVE if view.full else Match.Status.WAITING)
