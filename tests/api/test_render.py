"""The compiled renderer (matches/api/contract.py `render`) gives exactly what the derived DRF
serializer gives, for every response shape: the body, and so the schema, cannot drift."""

from __future__ import annotations

import dataclasses
import itertools
import json
import types
import typing
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Literal, Union
from uuid import UUID, uuid4

import pytest

from games.rules import Dice, Position
from matches.api import bodies
from matches.api.contract import render, render_with_drf
from matches.selectors import shapes
from matches.selectors.state import board_json, plays_json

SHAPES = [
    shape
    for module in (shapes, bodies)
    for name, shape in vars(module).items()
    if dataclasses.is_dataclass(shape) and isinstance(shape, type) and name != "Key"
]
CORPUS = Path(__file__).resolve().parent.parent / "data" / "moves-public.jsonl"


def sample(hint: Any, filled: bool, counter: itertools.count[int]) -> Any:
    """A value of a type hint: every optional field None (`filled` False) or set."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    n = next(counter)
    if origin is typing.Annotated:
        return sample(args[0], filled, counter)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        return sample(rest[0], filled, counter) if filled else None
    if origin is Literal:
        return args[n % len(args)]
    if origin is list:
        return [sample(args[0], filled, counter) for _ in range(1 + n % 3)]
    if origin is dict or hint is Any:
        return {"seat": n, "dice": [3, 5], "nested": {"x": None, "y": 1.5}}
    if dataclasses.is_dataclass(hint):
        return build(hint, filled, counter)
    zone = timezone(timedelta(hours=n % 3)) if n % 2 else UTC
    values: dict[Any, Any] = {
        int: n,
        float: n + 0.25,
        bool: bool(n % 2),
        str: f"text {n} ünïcode",
        datetime: datetime(2026, 5, 1, 12, n % 60, 9, 123456 * (n % 2), tzinfo=zone),
        UUID: uuid4(),
    }
    return values[hint]


def build(shape: type, filled: bool, counter: itertools.count[int] | None = None) -> Any:
    counter = counter or itertools.count()
    hints = typing.get_type_hints(shape, include_extras=True)
    return shape(
        **{f.name: sample(hints[f.name], filled, counter) for f in dataclasses.fields(shape)}
    )


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.__name__)
@pytest.mark.parametrize("filled", [True, False], ids=["filled", "nulls"])
def test_render_equals_the_serializer(shape: type, filled: bool) -> None:
    for _ in range(3):  # lists of 1 to 3 items, other literals, other time zones
        value = build(shape, filled)
        fast, drf = render(value), render_with_drf(value)
        assert fast == drf
        assert json.dumps(fast) == json.dumps(drf)  # the same keys in the same order


def test_legal_plays_of_the_corpus_render_as_the_serializer_does() -> None:
    """Real positions: legal plays (rendered once per position and roll, then reused)."""
    lines = CORPUS.read_text().splitlines()[:150]
    for line in lines:
        row = json.loads(line)
        position, dice = Position.from_json(row["position"]), Dice.of(*row["dice"])
        plays = plays_json(position, dice)
        board = board_json(position)
        assert render(plays) == render_with_drf(plays)
        assert render(plays) == render(plays_json(position, dice))  # the kept copy
        assert render(board) == render_with_drf(board)


@pytest.mark.parametrize("zone", ["UTC", "Europe/Belgrade", "Asia/Tokyo"])
def test_a_remembered_datetime_follows_the_current_time_zone(zone: str) -> None:
    """A datetime's rendering is remembered per instant and current time zone: rendered in
    one zone, then in another, each is what DRF gives in that zone."""
    from django.utils import timezone as django_timezone

    value = build(shapes.MatchState, True)
    render(value)  # remembered in the default zone first
    with django_timezone.override(zone):
        assert render(value) == render_with_drf(value)
    assert render(value) == render_with_drf(value)


def test_a_choice_that_is_not_a_string_is_converted_as_drf_converts_it() -> None:
    """The fast path of a choice is for strings among string choices; anything else (an
    enum member, a number) goes through DRF's ChoiceField."""
    from enum import StrEnum

    class Phase(StrEnum):
        ROLL = "roll"

    value = dataclasses.replace(build(shapes.MatchState, True), phase=Phase.ROLL)
    assert render(value) == render_with_drf(value)
    assert type(render(value)["phase"]) is type(render_with_drf(value)["phase"])
