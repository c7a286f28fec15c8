"""Process-level views (nothing about the game): the front door and the health check."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from matches.api import cacheguard
from matches.web.views import shell, wants_html

LINKS = {
    "api": "/api/v1/",
    "schema": "/api/v1/schema",
    "docs": "/api/v1/docs",
    "redoc": "/api/v1/redoc",
    "admin": "/admin/",
    "health": "/healthz",
    "web": "/",
}
PAGE_LINKS = {
    "API": LINKS["api"],
    "OpenAPI": LINKS["schema"],
    "Swagger UI": LINKS["docs"],
    "Redoc": LINKS["redoc"],
}
"""The web page's footer: where a developer finds the API."""


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """`/`, negotiated on Accept: the web client for a browser; for every other client, where
    the API and its documentation are (JSON)."""
    if wants_html(request):
        response = shell(request, PAGE_LINKS)
    else:
        response = JsonResponse({"name": "tavla", **LINKS})
    response["Vary"] = "Accept"
    return response


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The load balancer's probe. 503 `{"status": "error", "database": ...}` when this web
    process cannot reach its database (it cannot serve: take it out of rotation); 200
    `{"status": "degraded", "cache": ...}` when the shared cache is out (it serves without it:
    tokens from the database, throttles per process); else 200 `{"status": "ok"}`."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any database failure means "take me out of rotation"
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    degraded = cacheguard.health()
    if degraded:
        return JsonResponse({"status": "degraded", **degraded})
    return JsonResponse({"status": "ok"})
