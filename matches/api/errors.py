"""One error format for the whole API, and the exception handler that produces it.

Every error is JSON `{"code": ..., "message": ..., "detail": ...}`:
- `code` is stable (clients switch on it): the rules engine's codes (`illegal_play`, ...), the
  store's (`version_conflict`, ...) and the API's own (`invalid_request`, ...), all listed in
  `ERRORS` with their HTTP status;
- `message` is a sentence a player understands ("point 5 is closed by 2 of your opponent's
  checkers"), in his language (Accept-Language: English, Serbian Latin, Turkish; see
  matches/api/messages.py);
- `detail` is machine-readable context or null: field errors of a malformed request, the
  current version of a conflict, the rules engine's reason for an illegal play; every
  refusal of the rules names its reason code in `detail.rule`.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.rules import InvalidSettings, RulesError
from matches.errors import StoreError, VersionConflict
from matches.tournaments.refusals import InvalidTournamentSettings, TournamentRefused

from .messages import TEMPLATES, say, sentence

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
    "no_cube_in_long_nardy": (
        400,
        "Long nardy is played without the doubling cube: a double in a long nardy match is"
        " refused (so is `cube: true` when creating one, as invalid_request naming `cube`).",
    ),
    "no_mat_for_long_nardy": (
        400,
        "gnubg's .mat format has no long nardy (nor Position or Match IDs): read the match's"
        " events (GET /matches/{id}/events) instead.",
    ),
    # who you are
    "not_authenticated": (401, "This needs a token: `Authorization: Token <key>`."),
    "authentication_failed": (401, "The token is unknown or the account is disabled."),
    "invalid_credentials": (400, "Wrong username or password."),
    # what you may do
    "permission_denied": (403, "You may not do this."),
    "not_a_player": (403, "You do not play in this match: spectators read, they do not act."),
    "invite_required": (403, "This match is joined by its invite code or link only."),
    "seek_refused": (
        403,
        "Quick pairing is closed to you for a while: you left too many online matches before"
        " moving (`detail.early_exits`, `detail.until`; docs/ratings.md).",
    ),
    "hints_not_allowed": (
        403,
        "Hints are given to the player on turn against the computer, in hot-seat and in unrated"
        " matches created with `hints: true`; never in a rated match, never to a spectator.",
    ),
    "not_found": (404, "No such page or object."),
    "no_analysis": (
        404,
        "The match has not been analysed: ask for it with POST /matches/{id}/analysis.",
    ),
    "match_not_found": (404, "No such match (or it is private and you do not play in it)."),
    "tournament_not_found": (404, "No such tournament."),
    "method_not_allowed": (405, "This endpoint does not take that HTTP method."),
    "not_acceptable": (406, "The Accept header asks for a format this endpoint cannot give."),
    # the state of the match
    "version_conflict": (
        409,
        "The match moved on since the version you sent; `detail.current_version` says where"
        " it is: reload and decide again.",
    ),
    "match_full": (409, "The match already has two players (or you sit in it already)."),
    "already_registered": (
        409,
        "Sign-up with a token registers a guest; this account is registered already (log out"
        " to sign up another).",
    ),
    "already_playing": (
        409,
        "You sit in an active online match: finish it before seeking another (quick pairing).",
    ),
    "not_your_turn": (409, "It is not your turn."),
    "tournament_refused": (
        409,
        "The tournament does not allow this now; `detail.reason` says why (signup_closed,"
        " already_joined, tournament_full, guests_not_allowed, not_in_tournament, ...).",
    ),
    "match_not_finished": (
        409,
        "The match is still being played: it is analysed once it is over (docs/analysis.md).",
    ),
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
    "payload_too_large": (
        413,
        "The request body is larger than this endpoint takes; `detail.max_bytes` says how much.",
    ),
    "throttled": (429, "Too many requests; `detail.retry_after` says how many seconds to wait."),
    "too_many_attempts": (
        429,
        "Too many failed logins for this account or from this address: login is locked for"
        " `detail.retry_after` seconds.",
    ),
    "too_many_streams": (
        429,
        "Too many open long-polls or streams from you (or on this server): close one, or"
        " retry after `detail.retry_after` seconds.",
    ),
    "store_error": (500, "The match store refused the write."),
    "events_are_immutable": (500, "An attempt to change a stored event (a bug)."),
    "server_error": (500, "An unexpected error on the server (logged; a bug)."),
    "service_unavailable": (
        503,
        "The service cannot reach its database just now; retry after `Retry-After` seconds.",
    ),  # players among players (issue 28: chat, blocks, challenges, moderation)
    "invalid_message": (
        400,
        "A chat message is 1 to 300 characters of text (no control or direction characters)"
        " or a known quick message.",
    ),
    "chat_muted": (403, "Staff muted you in chat; `detail.until` says until when."),
    "chat_banned": (
        403,
        "Staff banned you from chat; `detail.until` says until when (null: until lifted).",
    ),
    "blocked": (403, "One of you blocked the other: no chat, no challenge between you."),
    "play_banned": (
        403,
        "Staff banned you from play (challenges, quick pairing); `detail.until` says until"
        " when (null: until lifted).",
    ),
    "challenge_pending": (409, "You have a pending challenge to this player already."),
    "challenge_not_pending": (
        409,
        "The challenge was answered, cancelled or expired already (`detail.status`).",
    ),
}

_MESSAGES = {
    "invalid_request": N_("Some fields are missing or wrong: see detail."),
    "parse_error": N_("The request body could not be read: send valid JSON."),
    "not_authenticated": N_("Sign in first: send your token as 'Authorization: Token <key>'."),
    "authentication_failed": N_("Your token is not valid: sign in again."),
    "permission_denied": N_("You may not do this."),
    "not_found": N_("There is nothing here."),
    "method_not_allowed": N_("This endpoint does not take that method."),
    "not_acceptable": N_("This endpoint cannot answer in the format you asked for."),
    "unsupported_media_type": N_("This endpoint does not read that content type."),
    "throttled": N_("Too many requests: wait a little and try again."),
    "payload_too_large": N_("The request is too large."),
    "too_many_attempts": N_("Too many failed sign-ins: wait a while and try again."),
    "too_many_streams": N_("You have too many open connections: close one and try again."),
    "server_error": N_("Something went wrong on the server. Please try again later."),
    "service_unavailable": N_("The service is unavailable just now: try again in a moment."),
    "invalid_credentials": N_("Wrong username or password."),
    "invite_required": N_("This match is joined by its invite code or link only."),
    "store_error": N_("The match store refused the write."),
    "already_registered": N_("This account is registered already: log out to sign up another."),
    "no_analysis": N_("This match has not been analysed: ask for its analysis first."),
    "no_mat_for_long_nardy": N_(
        "The .mat format is for tavla only: long nardy matches are read as their events."
    ),
}
"""The message of each code that has no sentence of its own (a msgid: translated when sent)."""


class ApiError(exceptions.APIException):
    """An API-level refusal with a stable code, a sentence (English: it is translated when
    the response is made, matches/api/messages.py) and optional detail. A fixed sentence is
    its own msgid; one with values is made `because` a reason (`reason`, `params`)."""

    reason: str | None = None
    params: dict[str, Any] = {}  # noqa: RUF012 (replaced, never changed)

    def __init__(
        self, code: str, message: str | None = None, detail: Any = None, status_code: int = 0
    ) -> None:
        self.code = code
        self.status_code = status_code or ERRORS[code][0]
        self.message = message or _MESSAGES.get(code) or ERRORS[code][1]
        self.extra = detail
        super().__init__(self.message, code)

    @classmethod
    def because(cls, code: str, reason: str, /, detail: Any = None, **params: Any) -> ApiError:
        """The error `code` said by a reason of `messages.TEMPLATES` with its values."""
        error = cls(code, TEMPLATES[reason] % params, detail)
        error.reason = reason
        error.params = params
        return error


def message(code: str) -> str:
    """The sentence of a code that has none of its own, in the request's language."""
    return gettext(_MESSAGES.get(code) or ERRORS[code][1])


class Limited(exceptions.Throttled):
    """A 429 with its own code (`too_many_streams`, `too_many_attempts`) and Retry-After."""

    def __init__(self, code: str, wait: float) -> None:
        self.tavla_code = code
        super().__init__(wait=max(1.0, wait))


def error_body(code: str, message: str, detail: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail}


def error_response(exc: Exception) -> Response | None:
    """The JSON response for a known exception, or None for an unexpected one (a 500).
    Messages are in the request's language; codes never change."""
    headers: dict[str, str] = {}
    detail: Any = None
    if isinstance(exc, ApiError):
        message = sentence(say(exc if exc.reason else exc.message))
        return Response(error_body(exc.code, message, exc.extra), status=exc.status_code)
    if isinstance(exc, InvalidSettings):  # a setting the rules refuse: that field is wrong
        message = gettext(_MESSAGES["invalid_request"])
        detail = {exc.field: [say(exc)], **_rule(exc)}
        return Response(error_body("invalid_request", message, detail), 400)
    if isinstance(exc, InvalidTournamentSettings):  # that field is wrong
        message = gettext(_MESSAGES["invalid_request"])
        detail = {exc.field: [sentence(say(exc))], "reason": exc.reason}
        return Response(error_body("invalid_request", message, detail), 400)
    if isinstance(exc, TournamentRefused):
        detail = {"reason": exc.reason}
        return Response(error_body("tournament_refused", sentence(say(exc)), detail), 409)
    if isinstance(exc, RulesError):
        code = exc.code if exc.code in ERRORS else "rules_error"
        reason = say(exc)
        if code in ("illegal_play", "illegal_action", "not_your_turn"):
            detail = {"reason": reason, **_rule(exc)}
        else:
            detail = _rule(exc) or None
        return Response(error_body(code, sentence(reason), detail), status=ERRORS[code][0])
    if isinstance(exc, VersionConflict):
        detail = {"current_version": exc.current_version, "expected_version": exc.expected}
        if exc.current_version is not None:
            headers["ETag"] = f'"{exc.current_version}"'
        return Response(
            error_body(exc.code, sentence(say(exc)), detail), status=409, headers=headers
        )
    if isinstance(exc, StoreError):
        code = exc.code if exc.code in ERRORS else "store_error"
        detail = getattr(exc, "detail", None)
        return Response(error_body(code, sentence(say(exc)), detail), status=ERRORS[code][0])
    if isinstance(exc, Http404):
        return Response(error_body("not_found", gettext(_MESSAGES["not_found"])), status=404)
    if isinstance(exc, DjangoPermissionDenied):
        message = gettext(_MESSAGES["permission_denied"])
        return Response(error_body("permission_denied", message), 403)
    if isinstance(exc, exceptions.ValidationError):
        message = gettext(_MESSAGES["invalid_request"])
        return Response(error_body("invalid_request", message, exc.detail), status=400)
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
            code = getattr(exc, "tavla_code", code)
        known = _MESSAGES.get(code)
        message = gettext(known) if known else sentence(say(str(exc.detail)))
        if isinstance(exc, exceptions.ParseError):
            detail = {"reason": str(exc.detail)}
        return Response(error_body(code, message, detail), status=exc.status_code, headers=headers)
    return None


def _rule(exc: RulesError) -> dict[str, str]:
    """`detail.rule`: the reason code of a refusal of the rules, if it has one."""
    return {"rule": exc.reason} if exc.reason else {}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: every known error as `{"code", "message", "detail"}`."""
    response = error_response(exc)
    if response is not None:
        set_rollback()
    return response


def match_not_found(match_id: object) -> ApiError:
    return ApiError.because("match_not_found", "no_match", id=match_id)


__all__ = [
    "ERRORS",
    "ApiError",
    "Limited",
    "error_body",
    "error_response",
    "exception_handler",
    "message",
]
