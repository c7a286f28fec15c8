"""The site's root: the web client's shell for browsers, pointers to the API for API clients
(one view, negotiated on Accept); the shell's static files are served by the project itself;
the UI catalogs of every language have the same strings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

STATIC = Path(__file__).resolve().parents[2] / "matches" / "web" / "static" / "web"
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_a_browser_gets_the_page() -> None:
    r = Client().get("/", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert r.status_code == 200
    assert r["Content-Type"].startswith("text/html")
    assert "Accept" in r["Vary"]
    html = r.content.decode()
    assert '<script type="module" src="/static/web/app.js">' in html
    assert 'href="/static/web/style.css"' in html
    assert "http://" not in html and "https://" not in html  # nothing from elsewhere
    for path in ("/api/v1/", "/api/v1/schema", "/api/v1/docs", "/api/v1/redoc"):
        assert f'href="{path}"' in html  # the footer: where a developer finds the API


@pytest.mark.parametrize("accept", ["application/json", "*/*", "", "application/json, text/html"])
def test_an_api_client_gets_json(accept: str) -> None:
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    r = Client().get("/", **headers)
    assert r.status_code == 200
    assert r["Content-Type"] == "application/json"
    assert "Accept" in r["Vary"]
    assert r.json() == {
        "name": "tavla",
        "api": "/api/v1/",
        "schema": "/api/v1/schema",
        "docs": "/api/v1/docs",
        "redoc": "/api/v1/redoc",
        "admin": "/admin/",
        "health": "/healthz",
        "web": "/",
    }


def test_the_modules_and_styles_are_served_by_the_project() -> None:
    names = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    assert {"app.js", "api.js", "stream.js", "board.js", "match.js", "style.css"} <= names
    for name in names:
        assert finders.find(f"web/{name}"), name
        if name.endswith(".wav"):  # the sounds: small files of the project's own
            assert (STATIC / name).stat().st_size < 8_000, name
            continue
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), name  # no CDN
        for imported in re.findall(r'from "\./([^"]+)"', text):
            assert (STATIC / Path(name).parent / imported).is_file(), (name, imported)


def catalog(tag: str) -> dict[str, str]:
    text = (STATIC / "i18n" / f"{tag}.js").read_text()
    return dict(re.findall(r'^\s+"?([\w.\-]+)"?: "((?:[^"\\]|\\.)*)",$', text, re.M))


def test_every_language_has_every_string() -> None:
    english = catalog("en")
    assert len(english) > 100
    for tag in ("sr-Latn", "tr"):
        other = catalog(tag)
        assert set(other) == set(english), (tag, set(english) ^ set(other))
        for key, text in english.items():
            assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text))


def test_the_clients_code_and_styles_weigh_under_150_kb() -> None:
    """What a page loads: every ES module and the style sheet, and one catalog (its language's:
    i18n.js imports only that one)."""
    sizes = {p.relative_to(STATIC).as_posix(): p.stat().st_size for p in STATIC.rglob("*")}
    code = sum(n for name, n in sizes.items() if name.endswith((".js", ".css")) and "/" not in name)
    catalogs = [n for name, n in sizes.items() if name.startswith("i18n/")]
    page = code + max(catalogs)
    print(f"web client: {page} bytes a page loads, {code + sum(catalogs)} in all")
    assert page < 150_000, page
