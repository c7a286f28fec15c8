"""What the site answers when a request fails outside a view's own error handling.

- `BodyLimitMiddleware` (first in MIDDLEWARE): a body longer than the path's limit is refused
  with 413 before a byte of it is read (`Content-Length`; a body without one is read as empty
  by Django). `/api/v1/matches/import` takes `TAVLA_IMPORT_MAX_BYTES`, every other request
  `TAVLA_MAX_BODY_BYTES`.
- Django's error handlers (`handler400/403/404/500` in urls.py): the API's JSON error shape
  with a stable code for API clients (paths under /api/, or any client that does not ask for
  HTML), Django's HTML pages for a browser. A database that cannot be reached (a connection
  error anywhere in the request) is 503 `service_unavailable` with `Retry-After`, not a 500.
"""

from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from matches.api.errors import error_body, message

logger = logging.getLogger(__name__)


def wants_json(request: HttpRequest) -> bool:
    """An API client: a path under /api/, or an Accept header that does not ask for HTML."""
    if request.path.startswith("/api/"):
        return True
    accept = request.headers.get("Accept", "")
    return "text/html" not in accept


def json_error(code: str, status: int, detail: object = None, **headers: str) -> JsonResponse:
    response = JsonResponse(error_body(code, message(code), detail), status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def body_limit(path: str) -> int:
    if path.rstrip("/") == "/api/v1/matches/import":
        return int(settings.TAVLA_IMPORT_MAX_BYTES)
    return int(settings.TAVLA_MAX_BODY_BYTES)


class BodyLimitMiddleware:
    def __init__(self, get_response: object) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raw = request.META.get("CONTENT_LENGTH") or "0"
        limit = body_limit(request.path)
        try:
            length = int(raw)
        except ValueError:
            length = -1
        if length < 0:
            return json_error("invalid_request", 400, {"Content-Length": ["not a number"]})
        if length > limit:
            response = json_error("payload_too_large", 413, {"max_bytes": limit})
            response["Connection"] = "close"  # the unread body is not worth waiting for
            return response
        return self.get_response(request)  # type: ignore[operator,no-any-return]


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return json_error("invalid_request", 400, {"reason": type(exception).__name__})
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return json_error("permission_denied", 403)
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return json_error("not_found", 404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """Called while the exception is being handled: a lost database is 503, not a bug."""
    exc = sys.exc_info()[1]
    if isinstance(exc, OperationalError | InterfaceError):
        retry = str(int(settings.TAVLA_RETRY_AFTER_SECONDS))
        if wants_json(request):
            return json_error("service_unavailable", 503, None, Retry_After=retry)
        response = HttpResponse("Service unavailable: try again in a moment.", status=503)
        response["Retry-After"] = retry
        return response
    if wants_json(request):
        return json_error("server_error", 500)
    return defaults.server_error(request)


def locked_out(
    request: HttpRequest, original_response: object = None, credentials: object = None
) -> HttpResponse:
    """django-axes' answer to a login while locked (AXES_LOCKOUT_CALLABLE): 429 with
    Retry-After, the API's JSON for API clients, a short page for the admin's form."""
    retry = int(float(settings.AXES_COOLOFF_MINUTES) * 60)
    if wants_json(request):
        return json_error("too_many_attempts", 429, {"retry_after": retry}, Retry_After=str(retry))
    response = HttpResponse(
        "Too many failed sign-ins: this account (or your address) is locked for a while.",
        status=429,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(retry)
    return response
