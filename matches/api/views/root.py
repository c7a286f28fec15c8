"""The API's front door: where things are, and a JSON 404 for every path it does not have."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..bodies import ApiIndex
from ..contract import respond
from ..errors import ApiError
from ..schema import operations as docs

PREFIX = "/api/v1/"

INDEX = ApiIndex(
    api=PREFIX,
    schema=f"{PREFIX}schema",
    docs=f"{PREFIX}docs",
    redoc=f"{PREFIX}redoc",
    matches=f"{PREFIX}matches",
    rules=f"{PREFIX}rules/legal-plays",
    leaderboard=f"{PREFIX}leaderboard",
    seeks=f"{PREFIX}seeks",
)


class IndexView(APIView):
    @docs.api_index
    def get(self, request: Request) -> Response:
        return respond(INDEX)


class NotFoundView(APIView):
    """Every other path under /api/v1/, any method: 404 `not_found` as JSON (never Django's
    HTML page), saying when a trailing slash is the only trouble."""

    schema = None  # not an operation

    def dispatch_not_found(self, request: Request, rest: str) -> Response:
        path = request.path
        if path.endswith("/") and len(path) > len(PREFIX):
            raise ApiError.because("not_found", "trailing_slash", path=path, without=path[:-1])
        raise ApiError.because("not_found", "no_path", path=path, docs=f"{PREFIX}docs")

    def get(self, request: Request, rest: str = "") -> Any:
        return self.dispatch_not_found(request, rest)

    post = put = patch = delete = head = options = get
