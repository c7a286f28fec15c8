"""A match's history: its plays drawn step by step, its export as a gnubg .mat file, and the
import of a .mat file as a finished match. (Its events, with long-poll:
matches/streams/longpoll.py.)"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.conf import settings
from rest_framework import parsers, renderers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.rules import InvalidMatchFile, RulesError, find_game
from matches import selectors
from matches.interop.exporting import match_to_mat
from matches.interop.importing import import_mat
from matches.services import lobby
from matches.store.models import Match

from .. import requests as rq
from ..bodies import Imported, MatExport
from ..contract import respond
from ..errors import ApiError
from ..idempotency import run_write
from ..names import imported_name_problem
from ..parsers import JSONParser
from ..permissions import Authenticated
from ..renderers import JSONRenderer
from ..schema import operations as docs
from ..throttling import AnonReadThrottle, CreateThrottle
from .common import query, seen_match, valid


class BoardsView(APIView):
    @docs.boards
    def get(self, request: Request, match_id: str) -> Response:
        q = query(rq.BoardsQuerySerializer, request)
        match = seen_match(match_id, request.user)
        seat = q.get("seat")
        if seat is None:  # a player sees his own side; a spectator or hot-seat seat 0's
            mine = request.user.is_authenticated and match.player0_id != request.user.pk
            seat = 1 if mine and match.player1_id == request.user.pk else 0
        return respond(selectors.play_boards(match.pk, match.version, seat, q["after"]))


class MatRenderer(renderers.BaseRenderer):
    media_type = "text/plain"
    format = "mat"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None):  # type: ignore[no-untyped-def]
        return str(data).encode()


class ExportView(APIView):
    renderer_classes = (MatRenderer, JSONRenderer)

    @docs.export
    def get(self, request: Request, match_id: str) -> Response:
        match = seen_match(match_id, request.user)
        if not find_game(match.game).has_gnubg_ids:  # .mat is gnubg's format
            raise ApiError("no_mat_for_long_nardy", detail={"game": match.game})
        text = match_to_mat(match.pk)
        filename = f"tavla-{match.pk}.mat"
        if request.accepted_renderer.format == "json":
            return respond(MatExport(match_id=str(match.pk), filename=filename, mat=text))
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        return Response(text, headers=headers)

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if response.status_code >= 400:  # errors are JSON, whatever format was asked for
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"
        return super().finalize_response(request, response, *args, **kwargs)


class PlainTextParser(parsers.BaseParser):
    media_type = "text/plain"

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return {"text": stream.read().decode("utf-8")}
        except UnicodeDecodeError:
            raise InvalidMatchFile.because("mat_encoding") from None


class ImportView(APIView):
    permission_classes = (Authenticated,)
    throttle_classes = (AnonReadThrottle, CreateThrottle)
    parser_classes = (JSONParser, parsers.MultiPartParser, PlainTextParser)

    @docs.import_mat
    def post(self, request: Request) -> Response:
        return run_write(request, lambda: self.handle(request))

    def handle(self, request: Request) -> Response:
        data = valid(rq.ImportSerializer, request.data)
        if not find_game(data["game"]).has_gnubg_ids:
            raise ApiError("no_mat_for_long_nardy", detail={"game": data["game"]})
        text = data.get("text")
        upload = data.get("file")
        if upload is not None:
            limit = settings.TAVLA_IMPORT_MAX_BYTES
            if upload.size > limit:
                raise ApiError("payload_too_large", detail={"max_bytes": limit})
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise InvalidMatchFile.because("mat_encoding") from None
        if not text:
            raise ApiError(
                "invalid_request", "Send the .mat file or its text.", {"file": ["required"]}
            )
        try:
            imported = import_mat(text, imported_name_problem)
        except RulesError:
            raise
        except (LookupError, ValueError, TypeError) as exc:
            raise InvalidMatchFile.because("mat_not_replayable", problem=str(exc)) from None
        lobby.create_lobby(UUID(imported.match_id), created_by=request.user, imported=True)
        match = Match.objects.select_related("player0", "player1", "lobby").get(
            pk=imported.match_id
        )
        body = Imported(
            match=selectors.match_summary(match, request.user),
            games=imported.games,
            final_score=list(imported.final_score),
            winner=imported.winner,
        )
        return respond(body, 201, {"Location": f"/api/v1/matches/{match.pk}"})
