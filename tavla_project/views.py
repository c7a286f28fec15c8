"""Process-level views (nothing about the game): the front door and the health check."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import format_html_join
from django.views.decorators.http import require_GET

LINKS = {
    "api": "/api/v1/",
    "schema": "/api/v1/schema",
    "docs": "/api/v1/docs",
    "redoc": "/api/v1/redoc",
    "admin": "/admin/",
    "health": "/healthz",
}


def wants_html(request: HttpRequest) -> bool:
    """Browsers name text/html in Accept; API clients send JSON, */* or nothing."""
    return "text/html" in request.headers.get("Accept", "")


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """Where the API and its documentation are: JSON for clients, a page of links for a
    browser (the web client, when installed, takes over the page)."""
    if wants_html(request):
        links = ((url, name) for name, url in LINKS.items())
        items = format_html_join("", '<li><a href="{}">{}</a></li>', links)
        return HttpResponse(
            f"<!doctype html><html><head><title>tavla</title></head><body>"
            f"<h1>tavla</h1><ul>{items}</ul></body></html>"
        )
    return JsonResponse({"name": "tavla", **LINKS})


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when this web process can reach its database; 503 otherwise (load balancer probe)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any database failure means "take me out of rotation"
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    return JsonResponse({"status": "ok"})
