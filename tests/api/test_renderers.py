"""The API's JSON renderer (matches/api/renderers.py, orjson) writes the bytes DRF's
JSONRenderer writes: on every response shape, and on the values orjson would write otherwise
(datetimes, lazy strings, U+2028) or refuses (big integers, keys that are not strings)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import json
from uuid import UUID

import pytest
from django.utils.translation import gettext_lazy
from rest_framework import renderers

from matches.api.contract import render
from matches.api.renderers import JSONRenderer

from .test_render import SHAPES, build

ours, drf = JSONRenderer(), renderers.JSONRenderer()


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.__name__)
@pytest.mark.parametrize("filled", [True, False], ids=["filled", "nulls"])
def test_every_shape_renders_to_drfs_bytes(shape: type, filled: bool) -> None:
    for _ in range(3):
        data = render(build(shape, filled))
        assert ours.render(data) == drf.render(data)


@dataclasses.dataclass
class Point:
    x: int


ODD = {
    "line and paragraph separators": {"name": "a\u2028b\u2029c"},
    "non-ASCII text": {"name": "Đorđe Šćepanović, Çağla Öztürk"},
    "an aware datetime": {"at": dt.datetime(2026, 5, 1, 12, 0, 9, 12345, tzinfo=dt.UTC)},
    "an offset datetime": {
        "at": dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=3)))
    },
    "a naive datetime, a date and a time": [
        dt.datetime(2026, 5, 1, 12, 0),
        dt.date(2026, 5, 1),
        dt.time(12, 30, 1, 5),
    ],
    "a timedelta": {"delay": dt.timedelta(seconds=12.5)},
    "a Decimal and a UUID": [decimal.Decimal("1.25"), UUID(int=7)],
    "a lazy translation": {"detail": gettext_lazy("Not found.")},
    "an integer beyond 64 bits": {"n": 2**70},
    "keys that are not strings": {1: "a", 2.5: "b", None: "c", False: "d"},
    "tuples and nesting": {"a": (1, [2, (3, {"b": ()})]), "c": {}},
    "floats": [0.1, 1.5, -2.0, 1234.5678],
}


@pytest.mark.parametrize("data", ODD.values(), ids=ODD.keys())
def test_odd_values_render_as_drf_renders_them(data: object) -> None:
    assert ours.render(data) == drf.render(data)


def test_what_drf_refuses_ours_refuses_the_same_way() -> None:
    for data in ({"point": Point(3)}, {"cycle": object()}):
        with pytest.raises(TypeError) as theirs:
            drf.render(data)
        with pytest.raises(TypeError) as mine:
            ours.render(data)
        assert str(mine.value) == str(theirs.value)


def test_indented_and_empty_renderings_are_drfs() -> None:
    data = {"a": [1, 2], "b": "c"}
    for media_type in ("application/json; indent=4", "application/json; indent=0"):
        assert ours.render(data, media_type) == drf.render(data, media_type)
    assert ours.render(data, None, {"indent": 2}) == drf.render(data, None, {"indent": 2})
    assert ours.render(None) == drf.render(None) == b""


def test_a_nan_is_null_where_drf_raises() -> None:
    """One of the two documented differences (no response holds a NaN)."""
    with pytest.raises(ValueError):
        drf.render({"x": float("nan")})
    assert json.loads(ours.render({"x": float("nan")})) == {"x": None}


def test_the_api_answers_through_it(client) -> None:  # type: ignore[no-untyped-def]
    from django.conf import settings

    assert settings.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"] == [
        "matches.api.renderers.JSONRenderer"
    ]
    response = client.get("/api/v1/rules/levels")
    assert response.status_code == 200
    assert isinstance(response.accepted_renderer, JSONRenderer)
