"""The Match row by primary key, read with SQL compiled once per process.

Every state read reads its match's row and every command writes it: two of the hottest
statements of the service. Building them through the ORM (a QuerySet, its WHERE tree, the
compiler) costs more CPU than PostgreSQL spends answering them, so the statement, its columns
and their converters are taken from the ORM's own compiler once, and each call only executes
it and builds the model instance with `Match.from_db`, exactly as the QuerySet would have.
The compare-and-set statement of a command (streams.py `append_if_at`) returns the written row
in the same columns (`returned_columns`), built here too (`match_from_row`).
"""

from __future__ import annotations

from functools import cache
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import connections, router, transaction

from .models import Match


@cache
def _compiled(
    alias: str, for_update: bool
) -> tuple[str, list[str], str, list[tuple[int, Any, Any]]]:
    """(SQL with one parameter, the field names, the columns as a select list, the converters
    per column) of the ORM's `Match.objects[.select_for_update()].filter(pk=...)`."""
    qs = Match.objects.using(alias)
    if for_update:
        qs = qs.select_for_update()
    compiler = qs.filter(pk=UUID(int=0)).query.get_compiler(alias)
    with transaction.atomic(using=alias):  # FOR UPDATE is compiled only inside one
        sql, params = compiler.as_sql()
    if len(params) != 1:  # pragma: no cover - the pk is the only parameter
        raise RuntimeError(f"unexpected parameters for the Match row query: {params!r}")
    columns = [col for col, _, _ in compiler.select]
    names = [col.target.attname for col in columns]
    quote = connections[alias].ops.quote_name
    listed = ", ".join(quote(col.target.column) for col in columns)
    converters = [
        (pos, convs, expression)
        for pos, (convs, expression) in compiler.get_converters(columns).items()
    ]
    return sql, names, listed, converters


def fetch_match(pk: UUID, *, for_update: bool = False) -> Match | None:
    """The Match row (locked FOR UPDATE if asked: inside a transaction), None if none."""
    if "rows" in settings.TAVLA_PUBLIC_PATHS:  # benchmarks only: the ORM's own path
        qs = Match.objects.select_for_update() if for_update else Match.objects
        return qs.filter(pk=pk).first()
    alias = router.db_for_write(Match) if for_update else router.db_for_read(Match)
    sql = _compiled(alias, for_update)[0]
    connection = connections[alias]
    param = Match._meta.pk.get_db_prep_value(pk, connection)  # SQLite stores it as hex text
    with connection.cursor() as cursor:
        cursor.execute(sql, [param])
        row = cursor.fetchone()
    return None if row is None else match_from_row(alias, row)


def returned_columns(alias: str) -> str:
    """The Match row's columns, quoted, in the order `match_from_row` takes them: what a
    statement that writes the row RETURNs."""
    return _compiled(alias, False)[2]


def match_from_row(alias: str, row: tuple[Any, ...]) -> Match:
    """The model instance of a row of `returned_columns`, as the ORM builds it. With the
    ORM's own path (benchmarks' `rows`) the row is read again through a QuerySet instead."""
    _, names, _, converters = _compiled(alias, False)
    if "rows" in settings.TAVLA_PUBLIC_PATHS:  # benchmarks only: the ORM's own path
        return Match.objects.using(alias).get(pk=row[names.index("id")])
    connection = connections[alias]
    values = list(row)
    for pos, convs, expression in converters:
        value = values[pos]
        for converter in convs:
            value = converter(value, expression, connection)
        values[pos] = value
    return Match.from_db(alias, names, values)
