"""Reading and appending match streams, and keeping the `Match` projection in step.

Rebuilt views are cached in this process by match and version. The cache is disposable:
a view is only ever extended with the events stored after it, so a cached view always equals
a cold replay of the same events (tests prove it), and dropping the cache changes nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from datetime import datetime
from functools import cache
from threading import Lock
from typing import Any
from uuid import UUID

from django.db import IntegrityError, connections, router, transaction

from games.rules import EndedBy
from matches.errors import VersionConflict

from .committed import Committed, after_commit
from .events import Event
from .models import Match, MatchEvent
from .replay import MatchView, StoredEvent, replay

_CACHE_SIZE = 2048
_cache: OrderedDict[UUID, MatchView] = OrderedDict()
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
            _cache.move_to_end(match_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def append(
    match: Match,
    view: MatchView,
    events: Iterable[Event],
    *,
    actor_id: int | None,
    at: datetime,
) -> MatchView:
    """Store events after `view.version`, update the projection; call inside a transaction.

    The unique (match, seq) constraint is the last line of defence: a writer that lost a
    race gets VersionConflict, never a duplicate or a gap.
    """
    stored = []
    seq = view.version
    for event in events:
        seq += 1
        stored.append(StoredEvent(seq, event.type, event.to_payload(), actor_id, at))
    if not stored:
        return view
    new_view = replay(stored, view)
    try:
        _write(match, stored, projection(match, new_view))
    except IntegrityError as exc:
        forget(match.pk)
        raise VersionConflict(current_version=None) from exc
    # Cache only what is committed: a rolled-back append must not survive in memory.
    transaction.on_commit(lambda: _remember(match.pk, new_view))
    after_commit(Committed(new_view, tuple(stored), actor_id))
    return new_view


_ENDED_BY = {
    EndedBy.BEAROFF: Match.EndedBy.POINTS,
    EndedBy.DROP: Match.EndedBy.DROP,
    EndedBy.RESIGN: Match.EndedBy.RESIGN,
    EndedBy.TIMEOUT: Match.EndedBy.TIMEOUT,
    EndedBy.FORFEIT: Match.EndedBy.FORFEIT,
    EndedBy.ABORT: Match.EndedBy.ABORT,
}


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
def _insert_sql(count: int) -> tuple[str, list[Any]]:
    """`WITH appended AS (INSERT ... VALUES (...) x count)` and the columns' fields."""
    names = ("match", "seq", "type", "payload", "actor", "created_at")
    columns = [MatchEvent._meta.get_field(name) for name in names]
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
        values["ended_by"] = _ENDED_BY[state.ended_by] if state.ended_by else ""
        values["status"] = status_of(view)
    return {name: value for name, value in values.items() if getattr(match, name) != value}


def status_of(view: MatchView) -> str:
    """The status the projection gives a match at `view` (the one place that decides it)."""
    state = view.state
    if state is not None and state.is_over:
        aborted = state.ended_by == EndedBy.ABORT
        return str(Match.Status.ABORTED if aborted else Match.Status.FINISHED)
    return str(Match.Status.ACTIVE if view.full else Match.Status.WAITING)
