"""The API's JSON parser: DRF's, refusing what would otherwise end in a server error.

A body nested deeper than `MAX_DEPTH` (no request of this API nests more than a few levels)
is a 400 `parse_error`: JSON nested 1,000 deep used to exhaust the interpreter's recursion
limit while parsing or validating it (a 500 on every JSON endpoint, anonymous ones included).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32
_OPEN = frozenset(b"[{")
_CLOSE = frozenset(b"]}")


def too_deep(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets outside strings nest deeper than `limit` (a scan, no recursion)."""
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in _OPEN:
            depth += 1
            if depth > limit:
                return True
        elif byte in _CLOSE:
            depth -= 1
    return False


def loads(raw: bytes) -> Any:
    """JSON from bytes, or ParseError (never RecursionError or a decoding error)."""
    if too_deep(raw):
        raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        text = raw.decode(settings.DEFAULT_CHARSET)
        return json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ParseError(f"JSON parse error - {exc}"[:200]) from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        return loads(stream.read() if stream is not None else b"")
