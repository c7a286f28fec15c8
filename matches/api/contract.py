"""One source for every response body: a dataclass renders it and documents it.

`serializer_for(Shape)` derives a DRF serializer from a response dataclass
(matches/selectors/shapes.py, matches/api/bodies.py) by its type hints, once per class. The
views render with it (`render`, `respond`) and drf-spectacular documents the same serializer
(its component is named after the dataclass), so the schema cannot say one thing and the
response another. The fuzz test (tests/api/test_fuzz.py) validates every body it gets against
the schema, and tests/api/test_contract.py checks every shape renders.

To add a field to a response: add it (with its type, and `Annotated[..., "what it is"]` when
the name is not enough) to the dataclass and fill it where the dataclass is built. Nothing
else: the serializer, the schema and the rendering follow.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from datetime import datetime
from functools import cache
from threading import RLock
from typing import Any, Literal, Union
from uuid import UUID

from django.conf import settings
from django.utils import timezone
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import build_array_type
from rest_framework import serializers
from rest_framework.response import Response

from matches.selectors.kept import by_identity
from matches.selectors.shapes import Key

_lock = RLock()  # re-entered: a shape's fields build the serializers of nested shapes


def serializer_for(shape: type) -> type[serializers.Serializer]:
    """The DRF serializer of a response dataclass (cached: one class per shape)."""
    with _lock:
        return _serializer_for(shape)


@cache
def _serializer_for(shape: type) -> type[serializers.Serializer]:
    if not dataclasses.is_dataclass(shape):
        raise TypeError(f"{shape!r} is not a response dataclass")
    hints = typing.get_type_hints(shape, include_extras=True)
    fields: dict[str, serializers.Field] = {}
    for f in dataclasses.fields(shape):
        hint, key, help_text = _unwrap(hints[f.name])
        name = key or f.name
        # DRF copies declared fields from their constructor arguments: `source` goes there.
        fields[name] = _field(hint, help_text, **({"source": f.name} if key else {}))
    attrs: dict[str, Any] = {
        **fields,
        "__doc__": (shape.__doc__ or "").strip() if _own_doc(shape) else "",
        "__module__": shape.__module__,
    }
    return type(f"{shape.__name__}Serializer", (serializers.Serializer,), attrs)


def _own_doc(shape: type) -> bool:
    """A dataclass without a docstring gets a generated one ("Name(a: int, ...)"): skip it."""
    doc = shape.__doc__ or ""
    return bool(doc) and not doc.startswith(f"{shape.__name__}(")


def _unwrap(hint: Any) -> tuple[Any, str | None, str]:
    key, help_text = None, ""
    if typing.get_origin(hint) is typing.Annotated:
        hint, *extras = typing.get_args(hint)
        for extra in extras:
            if isinstance(extra, Key):
                key = extra.name
            elif isinstance(extra, str):
                help_text = extra
    return hint, key, help_text


def _field(hint: Any, help_text: str = "", **kw: Any) -> serializers.Field:
    """The DRF field of a type hint."""
    if help_text:
        kw["help_text"] = help_text
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"unsupported union {hint!r}: use X | None")
        return _field(rest[0], allow_null=True, **kw)
    if origin is Literal:
        return serializers.ChoiceField(choices=list(args), **kw)
    if origin is list:
        (item,) = args
        item_hint, _, item_help = _unwrap(item)
        if isinstance(item_hint, type) and dataclasses.is_dataclass(item_hint):
            return serializer_for(item_hint)(many=True, **kw)
        child = _field(item_hint, item_help)
        if child.allow_null and isinstance(child, serializers.Serializer):
            return NullableItems(child=child, **kw)
        return serializers.ListField(child=child, **kw)
    if origin is dict or hint is Any:
        return serializers.JSONField(**kw)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return serializer_for(hint)(**kw)
    simple = _SIMPLE.get(hint)
    if simple is None:
        raise TypeError(f"no response field for {hint!r}")
    return simple(**kw)


class NullableItems(serializers.ListField):
    """A list of objects some of which may be null (the players: null for a free seat)."""


class NullableItemsSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    """drf-spectacular documents a list's items as never null; these items may be."""

    target_class = NullableItems

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        component = auto_schema.resolve_serializer(self.target.child, direction)
        return build_array_type({"allOf": [component.ref], "nullable": True})


_SIMPLE: dict[Any, type[serializers.Field]] = {
    int: serializers.IntegerField,
    float: serializers.FloatField,
    bool: serializers.BooleanField,
    str: serializers.CharField,
    datetime: serializers.DateTimeField,
    UUID: serializers.UUIDField,
}


# -- rendering ------------------------------------------------------------------------------
#
# Rendering goes through a function compiled once per shape from its derived serializer's
# fields, so the body is exactly what `serializer.to_representation` gives (the same keys in
# the same order, the same conversion per field class, None for a None attribute), without
# DRF's per-field machinery (get_attribute, _readable_fields, ...), which cost about a
# millisecond per match state. Field classes with a conversion of their own still call the
# DRF field: a choice only when the value is not a string among string choices, a datetime
# once per instant and time zone (`_datetimes`), anything not listed below always.
# tests/api/test_render.py compares the two on every shape, in more than one time zone.

_CONVERT: dict[type[serializers.Field], str] = {
    serializers.IntegerField: "int(v)",
    serializers.FloatField: "float(v)",
    serializers.CharField: "str(v)",
    serializers.JSONField: "v",
}

# Frozen shapes whose instances are shared between responses (the legal plays of a position
# and roll are built once per process): their rendered form is kept with them, by identity.
_MEMOIZED = ("LegalPlay",)
_MEMO_MAX = 50_000


@cache
def _renderer(shape: type) -> Callable[[Any], Any]:
    with _lock:
        return _compile(serializer_for(shape)())


def _compile(serializer: serializers.Serializer) -> Callable[[Any], Any]:
    """A function rendering an instance as `serializer.to_representation` does."""
    namespace: dict[str, Any] = {}
    lines = ["def render(o):", "    out = {}"]
    for n, field in enumerate(serializer.fields.values()):
        lines.append(f"    v = o.{field.source}")
        lines.append(
            f"    out[{field.field_name!r}] = None if v is None else {_expr(field, n, namespace)}"
        )
    lines.append("    return out")
    exec("\n".join(lines), namespace)  # built from the shape's own field names
    render: Callable[[Any], Any] = namespace["render"]
    name = type(serializer).__name__.removesuffix("Serializer")
    return by_identity(render, _MEMO_MAX) if name in _MEMOIZED else render


def _expr(field: serializers.Field, n: int, namespace: dict[str, Any]) -> str:
    """The expression converting the attribute `v` (not None) as `field` would."""
    if isinstance(field, serializers.ListSerializer):
        namespace[f"f{n}"] = _compile(field.child)
        return f"[f{n}(i) for i in v]"
    if isinstance(field, serializers.Serializer):
        namespace[f"f{n}"] = _compile(field)
        return f"f{n}(v)"
    if type(field) in (serializers.ListField, NullableItems):
        namespace[f"f{n}"] = _child(field.child, namespace, n)
        return f"[None if i is None else f{n}(i) for i in v]"
    if type(field) is serializers.UUIDField and field.uuid_format == "hex_verbose":
        return "str(v)"
    if type(field) is serializers.ChoiceField and all(type(c) is str for c in field.choices):
        # DRF maps str(v) to its choice: with string choices a string is its own choice
        namespace[f"f{n}"] = field.to_representation
        return f"v if v.__class__ is str else f{n}(v)"
    if type(field) is serializers.DateTimeField and settings.USE_TZ:
        namespace[f"f{n}"] = _datetimes(field.to_representation)
        return f"f{n}(v)"
    if type(field) is serializers.BooleanField:
        namespace[f"f{n}"] = field.to_representation
        return f"v if v.__class__ is bool else f{n}(v)"
    if type(field) in _CONVERT and not getattr(field, "binary", False):
        return _CONVERT[type(field)]
    namespace[f"f{n}"] = field.to_representation
    return f"f{n}(v)"


def _child(field: serializers.Field, namespace: dict[str, Any], n: int) -> Callable[[Any], Any]:
    """A list item's conversion as a function."""
    if isinstance(field, serializers.Serializer):
        return _compile(field)
    inner: dict[str, Any] = {}
    code = f"def item(v):\n    return {_expr(field, 0, inner)}"
    exec(code, inner)
    item: Callable[[Any], Any] = inner["item"]
    return item


def _datetimes(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """DRF's conversion of a datetime, remembered per instant and current time zone (what
    it depends on with USE_TZ: the instant is shown in that zone). A state shows the same
    few instants (created, started, finished) on every read of its version."""
    memo: dict[tuple[Any, Any], Any] = {}

    def remembered(v: Any) -> Any:
        key = (v, timezone.get_current_timezone())
        out = memo.get(key)
        if out is None:
            out = convert(v)
            if len(memo) >= _MEMO_MAX:
                memo.clear()
            memo[key] = out
        return out

    return remembered


def render(value: Any) -> Any:
    """The JSON-ready form of a response dataclass (or a list of them)."""
    if isinstance(value, list):
        return [render(item) for item in value]
    if "render" in settings.TAVLA_PUBLIC_PATHS:  # benchmarks only: DRF's own serializer
        return render_with_drf(value)
    return _renderer(type(value))(value)  # type: ignore[arg-type]


def render_with_drf(value: Any) -> Any:
    """The same through the DRF serializer itself (what `render` must equal: tests, and the
    yardstick of benchmarks/render_bench.py)."""
    if isinstance(value, list):
        return [render_with_drf(item) for item in value]
    return _drf(type(value)).to_representation(value)  # type: ignore[arg-type]


@cache
def _drf(shape: type) -> serializers.Serializer:
    with _lock:
        return serializer_for(shape)()


def respond(value: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(render(value), status=status, headers=headers)


def many(shape: type) -> serializers.Serializer:
    """For the schema: a list of `shape`."""
    return serializer_for(shape)(many=True)


__all__ = ["many", "render", "respond", "serializer_for"]
