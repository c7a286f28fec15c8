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


def catalog(path: str) -> dict[str, str]:
    text = (STATIC / "i18n" / path).read_text()
    return dict(re.findall(r'^\s+"?([\w.\-]+)"?: "((?:[^"\\]|\\.)*)",$', text, re.M))


def feature_catalogs() -> list[str]:
    """The catalogs of the screens loaded when asked for (i18n/<feature>/<tag>.js)."""
    return sorted(p.name for p in (STATIC / "i18n").iterdir() if p.is_dir())


@pytest.mark.parametrize("feature", ["", *feature_catalogs()])
def test_every_language_has_every_string(feature: str) -> None:
    folder = f"{feature}/" if feature else ""
    english = catalog(f"{folder}en.js")
    assert len(english) > (100 if not feature else 0)
    for tag in ("sr-Latn", "tr"):
        other = catalog(f"{folder}{tag}.js")
        assert set(other) == set(english), (tag, set(english) ^ set(other))
        for key, text in english.items():
            assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text))


def test_no_string_is_in_two_catalogs() -> None:
    """A feature's strings are its own: the same key twice would depend on the loading order."""
    seen: dict[str, str] = {}
    for feature in ["", *feature_catalogs()]:
        for key in catalog(f"{feature}/en.js" if feature else "en.js"):
            assert key not in seen, (key, seen[key], feature)
            seen[key] = feature


def imports(name: str) -> tuple[set[str], set[str]]:
    """The modules `name` imports at load (static) and when asked for (`import("./x.js")`)."""
    text = (STATIC / name).read_text()
    static = set(re.findall(r'^import\s[^;]*?from\s+"\./([\w]+\.js)"', text, re.M | re.S))
    static |= set(re.findall(r'^import\s+"\./([\w]+\.js)"', text, re.M))
    lazy = set(re.findall(r'import\(\s*"\./([\w]+\.js)"\s*\)', text))
    return static, lazy


def closure(entry: str) -> set[str]:
    found, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(imports(name)[0])
    return found


def test_the_clients_code_and_styles_weigh_under_150_kb() -> None:
    """What a page loads: the style sheet, the modules app.js imports, the modules of the one
    screen asked for (a lazily imported module and what it imports), the language's catalog and
    the catalogs of the features those modules load (loadStrings). Every screen is counted."""
    size = lambda name: (STATIC / name).stat().st_size  # noqa: E731
    core = closure("app.js")
    screens = {lazy for name in STATIC.glob("*.js") for lazy in imports(name.name)[1]}
    assert screens, "no screen is loaded when asked for"
    largest = lambda folder: max(size(f"i18n/{folder}{t}.js") for t in ("en", "sr-Latn", "tr"))  # noqa: E731
    pages = {}
    for screen in sorted(screens | {"app.js"}):
        modules = core | closure(screen)
        text = "".join((STATIC / m).read_text() for m in modules)
        features = set(re.findall(r'loadStrings\("([\w-]+)"\)', text))
        pages[screen] = (
            sum(size(m) for m in modules)
            + size("style.css")
            + largest("")
            + sum(largest(f"{f}/") for f in features)
        )
    every = sum(p.stat().st_size for p in STATIC.rglob("*") if p.suffix in (".js", ".css"))
    print(f"web client: {pages} bytes a page loads by its screen, {every} in all")
    for screen, page in pages.items():
        assert page < 150_000, (screen, page)
    unreached = {p.name for p in STATIC.glob("*.js")} - set().union(core, *map(closure, screens))
    assert not unreached, unreached  # a module no page loads is dead code
