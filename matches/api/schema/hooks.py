"""drf-spectacular's postprocessing hook: the table of every error code in the description."""

from __future__ import annotations

from typing import Any

from matches.api.errors import ERRORS

DESCRIPTION = """\
The REST API of tavla, a Balkan backgammon site: matches between players (online, hot-seat,
against the computer), their moves, and a stateless rules service.

**Authentication**: `Authorization: Token <key>` (or `Bearer <key>`), from `POST
/api/v1/auth/signup`, `/auth/login` or `/auth/guest`. Reads of public matches need no token.

**Writes** take the version you decided on (`If-Match: "12"` or `"expected_version": 12`; a
stale one gets 409 `version_conflict` with `detail.current_version`) and an optional
`Idempotency-Key` header (a repeat returns the first response, header `Idempotent-Replayed:
true`, and writes nothing).

**Errors** are JSON `{"code", "message", "detail"}`; `code` is stable:

| code | HTTP | meaning |
| --- | --- | --- |
"""


def add_error_table(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular postprocessing hook: the table of every error code in info."""
    rows = "\n".join(f"| `{code}` | {status} | {text} |" for code, (status, text) in ERRORS.items())
    result.setdefault("info", {})["description"] = DESCRIPTION + rows + "\n"
    return result
