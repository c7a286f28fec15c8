"""The Match row by primary key, read with SQL compiled once per process.

Every state read reads its match's row and every command writes it: two of the hottest
statements of the service. Building them through the ORM (a QuerySet, its WHERE tree, the
compiler) costs more CPU than PostgreSQL spends answering them, so the statement, its columns
and their converters are taken from the ORM's own compiler once, and each call only executes
it and builds the model instance with `Match.from_db`, exactly as the QuerySet would have.
The compare-and-set statement of a command (streams.py `append_if_at`) returns the written row
in the same columns (`returned_columns`), built here too (`match_from_row`).

Both also read the players' stored ratings in the match's game (`ratings_columns`: two scalar
subqueries), which every state shows: a match with a registered or computer player (every
match against the computer) would otherwise pay a query of its own for them on every state
read and every command. The row read FOR UPDATE (a match's end, which writes new ratings in
its transaction) reads none: its state reads them after they are written.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import OuterRef, Subquery

from .models import Match, PlayerRating


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
        return _public_fetch(pk, for_update)
    alias = router.db_for_write(Match) if for_update else router.db_for_read(Match)
    sql = _compiled(alias, True)[0] if for_update else _read_sql(alias)
    connection = connections[alias]
    param = Match._meta.pk.get_db_prep_value(pk, connection)  # SQLite stores it as hex text
    with connection.cursor() as cursor:
        cursor.execute(sql, [param])
        row = cursor.fetchone()
    return None if row is None else match_from_row(alias, row)


def _public_fetch(pk: UUID, for_update: bool) -> Match | None:
    """The same row through a QuerySet (benchmarks' `rows`: the ORM's own path), the ratings
    as the same two subqueries (annotations) when not FOR UPDATE."""
    if for_update:
        return Match.objects.select_for_update().filter(pk=pk).first()
    seats = {f"_rating_{seat}": seat for seat in ("player0", "player1")}
    ratings = {
        name: Subquery(
            PlayerRating.objects.filter(user=OuterRef(seat), game=OuterRef("game")).values(
                "rating"
            )[:1]
        )
        for name, seat in seats.items()
    }
    match = Match.objects.annotate(**ratings).filter(pk=pk).first()
    if match is not None:
        seated = [
            (getattr(match, f"{seat}_id"), getattr(match, name)) for name, seat in seats.items()
        ]
        setattr(match, _RATINGS, {uid: rating for uid, rating in seated if uid is not None})
    return match


@cache
def _read_sql(alias: str) -> str:
    """The ORM's statement of the row by its primary key, the players' ratings
    (`ratings_columns`) after its columns (its select list holds no FROM of its own)."""
    columns, found, rest = _compiled(alias, False)[0].partition(" FROM ")
    if not found:  # pragma: no cover - every SELECT has one
        raise RuntimeError("the Match row query has no FROM")
    table = connections[alias].ops.quote_name(Match._meta.db_table)
    return f"{columns}, {ratings_columns(alias, table)} FROM {rest}"


@cache
def ratings_columns(alias: str, outer: str) -> str:
    """Two scalar subqueries after a Match row's columns, `outer` the row's table or alias:
    the stored rating of `player0` and of `player1` in the match's game (NULL while he has
    none, or no one sits there). `match_from_row` keeps them (`stored_ratings`)."""
    quote = connections[alias].ops.quote_name
    table = quote(PlayerRating._meta.db_table)
    user = quote(PlayerRating._meta.get_field("user").column)
    game = quote(PlayerRating._meta.get_field("game").column)
    rating = quote(PlayerRating._meta.get_field("rating").column)
    match_game = f"{outer}.{quote(Match._meta.get_field('game').column)}"
    return ", ".join(
        f"(SELECT r.{rating} FROM {table} r WHERE r.{user} = "
        f"{outer}.{quote(Match._meta.get_field(seat).column)} AND r.{game} = {match_game})"
        for seat in ("player0", "player1")
    )


def stored_ratings(match: Match) -> dict[int, float | None] | None:
    """The seated players' stored ratings read with this row (user id -> rating, None when
    he has none yet), or None when the row was read without them."""
    return getattr(match, _RATINGS, None)


_RATINGS = "_tavla_stored_ratings"


def returned_columns(alias: str) -> str:
    """The Match row's columns, quoted, in the order `match_from_row` takes them: what a
    statement that writes the row RETURNs."""
    return _compiled(alias, False)[2]


def match_from_row(alias: str, row: tuple[Any, ...]) -> Match:
    """The model instance of a row of `returned_columns`, as the ORM builds it, and the
    players' ratings when `ratings_columns` follow. With the ORM's own path (benchmarks'
    `rows`) the values are converted by each field's documented `from_db_value` instead of
    the compiler's converters."""
    _, names, _, converters = _compiled(alias, False)
    connection = connections[alias]
    values = list(row[: len(names)])
    if "rows" in settings.TAVLA_PUBLIC_PATHS:  # benchmarks only: the documented field API
        fields = [Match._meta.get_field(name) for name in names]
        converters = [
            (pos, [field.from_db_value], None)
            for pos, field in enumerate(fields)
            if hasattr(field, "from_db_value")
        ]
    for pos, convs, expression in converters:
        value = values[pos]
        for converter in convs:
            value = converter(value, expression, connection)
        values[pos] = value
    match = Match.from_db(alias, names, values)
    if len(row) == len(names) + 2:
        seated = zip((match.player0_id, match.player1_id), row[len(names) :], strict=True)
        setattr(match, _RATINGS, {uid: rating for uid, rating in seated if uid is not None})
    return match
