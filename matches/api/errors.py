"""One error format for the whole API, and the exception handler that produces it.

Every error is JSON `{"code": ..., "message": ..., "detail": ...}`:
- `code` is stable (clients switch on it): the rules engine's codes (`illegal_play`, ...), the
  store's (`version_conflict`, ...) and the API's own (`invalid_request`, ...), all listed in
  `ERRORS` with their HTTP status;
- `message` is a sentence a player understands ("point 5 is closed by 2 of your opponent's
  checkers");
- `detail` is machine-readable context or null: field errors of a malformed request, the
  current version of a conflict, the rules engine's reason for an illegal play.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.rules.errors import RulesError
from matches.errors import MatchNotFound, StoreError, VersionConflict

# code -> (HTTP status, what it means). The schema documents these; tests check each is used
# with its status.
ERRORS: dict[str, tuple[int, str]] = {
    # malformed input
    "invalid_request": (400, "A field is missing or has a wrong value; `detail` names them."),
    "parse_error": (400, "The body is not valid JSON (or not a valid upload)."),
    "invalid_notation": (400, "The play cannot be read as step notation or [from, to] pairs."),
    "invalid_dice": (400, "Dice must be two numbers from 1 to 6."),
    "invalid_position": (400, "Not a possible backgammon position."),
    "invalid_id": (400, "Not a valid gnubg Position ID or Match ID."),
    "invalid_match_file": (400, "The .mat file cannot be read or replayed; says where and why."),
    "invalid_version": (400, "If-Match / expected_version is not a version number."),
    # who you are
    "not_authenticated": (401, "This needs a token: `Authorization: Token <key>`."),
    "authentication_failed": (401, "The token is unknown or the account is disabled."),
    "invalid_credentials": (400, "Wrong username or password."),
    # what you may do
    "permission_denied": (403, "You may not do this."),
    "not_a_player": (403, "You do not play in this match: spectators read, they do not act."),
    "invite_required": (403, "This match is joined by its invite code or link only."),
    "not_found": (404, "No such page or object."),
    "match_not_found": (404, "No such match (or it is private and you do not play in it)."),
    "method_not_allowed": (405, "This endpoint does not take that HTTP method."),
    "not_acceptable": (406, "The Accept header asks for a format this endpoint cannot give."),
    # the state of the match
    "version_conflict": (
        409,
        "The match moved on since the version you sent; `detail.current_version` says where"
        " it is: reload and decide again.",
    ),
    "match_full": (409, "The match already has two players (or you sit in it already)."),
    "not_your_turn": (409, "It is not your turn."),
    "unsupported_media_type": (415, "Send JSON (or a .mat file where an upload is expected)."),
    # the rules
    "illegal_play": (422, "The play is not legal; `detail.reason` says which rule it breaks."),
    "illegal_action": (422, "That action is not allowed now (e.g. doubling after rolling)."),
    "out_of_time": (
        422,
        "Your time ran out before this arrived: the match is lost on time (README Clocks).",
    ),
    "rules_error": (422, "The rules do not allow this."),
    "idempotency_key_reused": (
        422,
        "This Idempotency-Key was used before for a different request.",
    ),
    "throttled": (429, "Too many requests; `detail.retry_after` says how many seconds to wait."),
    "store_error": (500, "The match store refused the write."),
    "events_are_immutable": (500, "An attempt to change a stored event (a bug)."),
}

_MESSAGES = {
    "invalid_request": "Some fields are missing or wrong: see detail.",
    "parse_error": "The request body could not be read: send valid JSON.",
    "not_authenticated": "Sign in first: send your token as 'Authorization: Token <key>'.",
    "authentication_failed": "Your token is not valid: sign in again.",
    "permission_denied": "You may not do this.",
    "not_found": "There is nothing here.",
    "method_not_allowed": "This endpoint does not take that method.",
    "not_acceptable": "This endpoint cannot answer in the format you asked for.",
    "unsupported_media_type": "This endpoint does not read that content type.",
    "throttled": "Too many requests: wait a little and try again.",
}


class ApiError(exceptions.APIException):
    """An API-level refusal with a stable code, a sentence and optional detail."""

    def __init__(
        self, code: str, message: str | None = None, detail: Any = None, status_code: int = 0
    ) -> None:
        self.code = code
        self.status_code = status_code or ERRORS[code][0]
        self.message = message or ERRORS[code][1]
        self.extra = detail
        super().__init__(self.message, code)


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail}


def error_response(exc: Exception) -> Response | None:
    """The JSON response for a known exception, or None for an unexpected one (a 500)."""
    headers: dict[str, str] = {}
    detail: Any = None
    if isinstance(exc, ApiError):
        return Response(error_body(exc.code, exc.message, exc.extra), status=exc.status_code)
    if isinstance(exc, RulesError):
        code = exc.code if exc.code in ERRORS else "rules_error"
        detail = {"reason": str(exc)} if code in ("illegal_play", "illegal_action") else None
        return Response(error_body(code, _sentence(str(exc)), detail), status=ERRORS[code][0])
    if isinstance(exc, VersionConflict):
        detail = {"current_version": exc.current_version, "expected_version": exc.expected}
        if exc.current_version is not None:
            headers["ETag"] = f'"{exc.current_version}"'
        return Response(
            error_body(exc.code, _sentence(str(exc)), detail), status=409, headers=headers
        )
    if isinstance(exc, StoreError):
        code = exc.code if exc.code in ERRORS else "store_error"
        return Response(error_body(code, _sentence(str(exc))), status=ERRORS[code][0])
    if isinstance(exc, Http404):
        return Response(error_body("not_found", _MESSAGES["not_found"]), status=404)
    if isinstance(exc, DjangoPermissionDenied):
        return Response(error_body("permission_denied", _MESSAGES["permission_denied"]), 403)
    if isinstance(exc, exceptions.ValidationError):
        return Response(
            error_body("invalid_request", _MESSAGES["invalid_request"], exc.detail), status=400
        )
    if isinstance(exc, exceptions.APIException):
        code = str(exc.default_code)
        if code not in ERRORS:
            code = "invalid_request" if exc.status_code == 400 else "permission_denied"
        auth_header = getattr(exc, "auth_header", None)
        if auth_header:
            headers["WWW-Authenticate"] = auth_header
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            headers["Retry-After"] = str(int(exc.wait + 0.999))
            detail = {"retry_after": int(exc.wait + 0.999)}
        message = _MESSAGES.get(code) or _sentence(str(exc.detail))
        if isinstance(exc, exceptions.ParseError):
            detail = {"reason": str(exc.detail)}
        return Response(error_body(code, message, detail), status=exc.status_code, headers=headers)
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every known error as `{"code", "message", "detail"}`."""
    response = error_response(exc)
    if response is not None:
        set_rollback()
    return response


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return "The request was refused."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def match_not_found(match_id: object) -> ApiError:
    return ApiError("match_not_found", str(MatchNotFound(match_id)).capitalize() + ".")


__all__ = ["ERRORS", "ApiError", "error_body", "error_response", "exception_handler"]
