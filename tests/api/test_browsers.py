"""What browser clients need: CORS for allowed origins (a preflight answered before any
authentication), and the API's documentation pages working offline."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.api.conftest import API

pytestmark = pytest.mark.django_db

ORIGIN = "https://play.tavla.example"


@pytest.fixture(autouse=True)
def _origins(settings) -> None:  # type: ignore[no-untyped-def]
    settings.CORS_ALLOWED_ORIGINS = [ORIGIN]


def test_a_preflight_gets_the_cors_headers_not_401() -> None:
    r = Client().options(
        f"{API}/matches/0b9e0d9c-55a5-4e0e-8f3e-7d3f3f3b1c11/play",
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, if-match, "
        "idempotency-key",
    )
    assert r.status_code == 200
    assert r["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in r["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in r["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed


def test_responses_to_an_allowed_origin_expose_the_api_headers() -> None:
    r = Client().get(f"{API}/rules/levels", HTTP_ORIGIN=ORIGIN)
    assert r.status_code == 200 and r["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip().lower() for h in r["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "location", "idempotent-replayed", "retry-after"} <= exposed
    refused = Client().get(f"{API}/me", HTTP_ORIGIN=ORIGIN)  # an error is readable too
    assert refused.status_code == 401 and refused["Access-Control-Allow-Origin"] == ORIGIN


def test_other_origins_get_no_cors_headers() -> None:
    r = Client().options(
        f"{API}/matches",
        HTTP_ORIGIN="https://elsewhere.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )
    assert "Access-Control-Allow-Origin" not in r
    page = Client().get("/admin/login/", HTTP_ORIGIN=ORIGIN)  # only the API is shared
    assert "Access-Control-Allow-Origin" not in page


@pytest.mark.parametrize("page", ["docs", "redoc"])
def test_the_docs_pages_use_only_local_assets(page: str) -> None:
    r = Client().get(f"{API}/{page}")
    assert r.status_code == 200
    html = r.content.decode()
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html), html[:2000]
    assert "cdn" not in html.lower()
    assets = re.findall(r"""(?:src|href)\s*=\s*["']/static/([^"'?]+)""", html)
    assert any(a.endswith(".js") for a in assets), html[:2000]
    for asset in assets:
        assert finders.find(asset), f"{asset} is not in the static files"
