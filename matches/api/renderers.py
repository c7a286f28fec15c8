"""The API's JSON renderer: DRF's, with the encoding done by orjson.

A match state is a few kilobytes of JSON (a roll's answer lists every legal play), and
`json.dumps` through DRF's encoder spent more CPU on it than building it: built and encoded,
0.22 ms per state with DRF's renderer, 0.09 with this one (benchmarks/encode_bench.py).
orjson writes the same bytes: compact, UTF-8 (DRF's `UNICODE_JSON`), keys in order. What
orjson does not do as DRF does, it is told to leave to DRF: datetimes and dataclasses go to
DRF's encoder (`default`), U+2028 and U+2029 are escaped as DRF escapes them, and whatever
orjson refuses (an integer beyond 64 bits, a key that is not a string, a lone surrogate,
nesting beyond 254) is rendered by DRF itself, so it gives what DRF gives, or fails as DRF
fails. An indented rendering (`Accept: application/json; indent=4`) is DRF's too.

Two differences remain, both only for values no response of this API holds: a NaN or an
infinity becomes `null` (DRF's strict JSON raises), and a float with an exponent is written
as `1e16` (Python writes `1e+16`): the same number to any JSON reader.
tests/api/test_renderers.py holds the renderer to DRF's bytes on every response shape.
"""

from __future__ import annotations

from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_default = JSONEncoder().default  # DRF's conversions: lazy strings, dates, Decimal, UUID, ...
_LS, _PS = "\u2028".encode(), "\u2029".encode()


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if (
            self.get_indent(accepted_media_type, renderer_context or {}) is not None
            or self.ensure_ascii
            or not self.compact
        ):
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=_default, option=_OPTIONS)
        except orjson.JSONEncodeError:
            return super().render(data, accepted_media_type, renderer_context)
        if _LS in out or _PS in out:  # a strict subset of JavaScript, as DRF makes it
            out = out.replace(_LS, b"\\u2028").replace(_PS, b"\\u2029")
        return out
