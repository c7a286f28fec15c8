"""tavla_project.middleware: Django's language and message middleware, made cheaper, behave
as Django's own (compared side by side)."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.messages import get_messages
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.test import RequestFactory
from django.utils import translation
from django.utils.functional import empty

from tavla_project.middleware import Language, LazyMessages

HEADERS = [
    None,
    "",
    "tr",
    "tr-TR,tr;q=0.9,en;q=0.8",
    "sr-Latn-RS",
    "sr",
    "de-DE,de;q=0.9",
    "*",
    "fr;q=0.2, tr;q=0.1",
    "xx-invalid;;;q=abc",
    "en-US,en;q=0.5",
]
COOKIES = [None, "tr", "sr-latn", "de", "!!"]


def ok(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@pytest.mark.parametrize("cookie", COOKIES)
@pytest.mark.parametrize("accept", HEADERS)
def test_the_language_is_djangos(accept: str | None, cookie: str | None) -> None:
    factory = RequestFactory()
    extra = {} if accept is None else {"HTTP_ACCEPT_LANGUAGE": accept}
    answers = []
    for middleware in (LocaleMiddleware(ok), Language(ok)):
        request = factory.get("/api/v1/rules/levels", **extra)
        if cookie is not None:
            request.COOKIES["django_language"] = cookie
        try:
            response = middleware(request)
            answers.append((request.LANGUAGE_CODE, response["Content-Language"], response["Vary"]))
        finally:
            translation.deactivate()
    assert answers[0] == answers[1]


def chain(view: object, lazy: bool) -> object:
    messages_mw = (LazyMessages if lazy else MessageMiddleware)(view)  # type: ignore[arg-type]
    return SessionMiddleware(messages_mw)


@pytest.mark.django_db
@pytest.mark.parametrize("lazy", [False, True])
def test_a_message_reaches_the_next_page(lazy: bool) -> None:
    def add(request: HttpRequest) -> HttpResponse:
        messages.success(request, "The match no longer counts.")
        return HttpResponse("added")

    shown: list[str] = []

    def show(request: HttpRequest) -> HttpResponse:
        shown.extend(str(m) for m in get_messages(request))
        return HttpResponse("shown")

    factory = RequestFactory()
    first = chain(add, lazy)(factory.get("/admin/"))
    request = factory.get("/admin/")
    request.COOKIES.update({k: v.value for k, v in first.cookies.items()})
    chain(show, lazy)(request)
    assert shown == ["The match no longer counts."]


@pytest.mark.django_db
def test_unused_messages_are_never_built_and_set_no_cookie() -> None:
    def view(request: HttpRequest) -> HttpResponse:
        return HttpResponse("api")

    request = RequestFactory().get("/api/v1/rules/levels")
    response = chain(view, lazy=True)(request)
    assert not response.cookies
    assert request._messages._wrapped is empty  # type: ignore[attr-defined]
