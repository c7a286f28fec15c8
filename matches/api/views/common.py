"""What every view of the API shares: reading the input, the version a write was decided on,
and the state of a match as a response."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response

from matches import selectors
from matches.errors import VersionConflict
from matches.services import presence
from matches.store.models import Match
from matches.store.replay import MatchView

from ..contract import respond
from ..errors import ApiError
from ..permissions import load_match, readable_match
from ..states import state_body

MAX_VERSION = 2**31 - 1
# ASCII digits only: "²".isdigit() is True and int("²") fails (an If-Match of b"\xb2" was a 500)
VERSION_RE = re.compile(r"[0-9]{1,10}")


def valid(serializer_class: type, data: Any) -> dict[str, Any]:
    """The validated data of a request body or query (400 `invalid_request` otherwise).

    An empty body or query (a roll, a state read) always validates the same way: its result is
    kept per serializer, so the hot requests build no serializer (their fields are deep-copied
    per instance)."""
    if isinstance(data, Mapping) and not data:
        kept = _EMPTY.get(serializer_class)
        if kept is None:
            kept = _EMPTY.setdefault(serializer_class, _validate(serializer_class, {}))
        return copy.deepcopy(kept)  # a caller may change what it gets
    return _validate(serializer_class, data)


_EMPTY: dict[type, dict[str, Any]] = {}


def _validate(serializer_class: type, data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def query(serializer_class: type, request: Request) -> dict[str, Any]:
    return valid(serializer_class, request.query_params)


def parse_if_match(value: str | None) -> int | None:
    """If-Match: `"12"`, `W/"12"` or `12`; None when absent."""
    if value is None:
        return None
    text = value.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not VERSION_RE.fullmatch(text) or int(text) > MAX_VERSION:
        raise ApiError(
            "invalid_version",
            'If-Match must be a version number like "12" (the ETag of the state).',
            {"If-Match": [value[:40]]},
        )
    return int(text)


def body_version(data: Any) -> int | None:
    """`expected_version` of a JSON body: a whole number, or 400 `invalid_version`."""
    if not isinstance(data, dict) or data.get("expected_version") is None:
        return None
    value = data["expected_version"]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VERSION:
        raise ApiError(
            "invalid_version",
            "Send expected_version as a version number like 12 (the state's version).",
            {"expected_version": [str(value)[:40]]},
        )
    return value


def expected_version(request: Request) -> int | None:
    """The version a write was decided on: If-Match or `expected_version`, or None."""
    return agreed_version(request.headers.get("If-Match"), request.data)


def agreed_version(if_match: str | None, data: Any) -> int | None:
    """The version of an If-Match value and a body's `expected_version`, or None."""
    header = parse_if_match(if_match)
    body = body_version(data)
    if header is not None and body is not None and header != body:
        raise ApiError(
            "invalid_version",
            "If-Match and expected_version disagree: send one of them.",
            {"If-Match": header, "expected_version": body},
        )
    return header if header is not None else body


def state_response(
    match: Match | Any,
    view: MatchView,
    user: Any,
    *,
    status: int = 200,
    seat: int | None = None,
) -> Response:
    """The state as the response of a read or a write. `match` is the Match row, or its id
    when the seats just changed (then it is read again)."""
    if not isinstance(match, Match):
        match = load_match(match)
    headers = {"ETag": f'"{view.version}"'}
    if status == 201:
        headers["Location"] = f"/api/v1/matches/{match.pk}"
    return respond(selectors.match_state(match, view, user, seat=seat), status, headers)


def read_state_response(match: Match, view: MatchView, user: Any, seat: int | None) -> Response:
    """The state as the response of a read: rendered once per view and inputs (states.py)."""
    return Response(state_body(match, view, user, seat), headers={"ETag": f'"{view.version}"'})


def with_current_version(exc: VersionConflict, match_id: Any) -> VersionConflict:
    """A conflict found by the store's unique index does not know the version: look it up."""
    if exc.current_version is None:
        current = Match.objects.filter(pk=match_id).values_list("version", flat=True).first()
        exc.current_version = current
    return exc


def seen_match(match_id: Any, user: Any) -> Match:
    """The match a user's request is about, if he may read it (404 otherwise); a seated
    player of a clocked online match is marked connected by it (README "Clocks")."""
    match = readable_match(match_id, user)
    presence.touch(match, user)
    return match
