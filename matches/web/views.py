"""The shell of the web client: one HTML page; the ES modules do the rest through the API."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def wants_html(request: HttpRequest) -> bool:
    """A browser navigating here (Accept: text/html before any JSON), not an API client."""
    accept = request.headers.get("Accept", "")
    html = accept.find("text/html")
    if html < 0:
        return False
    json_at = accept.find("application/json")
    return json_at < 0 or html < json_at


def shell(request: HttpRequest, links: Mapping[str, str]) -> HttpResponse:
    """The page (the client picks the language from the browser, or the player's choice); its
    footer links `links` (name -> path: the API and its documentation)."""
    return render(request, "web/shell.html", {"links": links.items()})
