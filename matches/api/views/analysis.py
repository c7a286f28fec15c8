"""The post-game analysis of a match and the hint for the player on turn (docs/analysis.md).
The work is matches/services/analysis.py's; the reads matches/selectors/analysis.py's."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.errors import MatchNotFinished
from matches.selectors import analysis as analysis_reads
from matches.selectors.analysis_shapes import HintPlay, Hints
from matches.services import analysis
from matches.store.analysis_models import MatchAnalysis
from matches.store.models import Match

from ..contract import respond
from ..errors import ApiError
from ..idempotency import run_write
from ..schema import analysis as docs
from ..throttling import AnonReadThrottle, CreateThrottle, RulesThrottle
from .common import seen_match


class ReadOrAuthenticated(BasePermission):
    """Anyone reads (as he may read the match); asking for an analysis needs a token."""

    def has_permission(self, request: Any, view: Any) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


class AnalysisView(APIView):
    permission_classes = (ReadOrAuthenticated,)
    throttle_classes = (AnonReadThrottle, CreateThrottle)

    @docs.analysis_read
    def get(self, request: Request, match_id: str) -> Response:
        match = seen_match(match_id, request.user)
        row = MatchAnalysis.objects.filter(match=match).first()
        if row is None:
            if match.status != Match.Status.FINISHED:
                raise MatchNotFinished.because("match_not_finished")
            raise ApiError("no_analysis")
        row.match = match
        return respond(analysis_reads.match_analysis(row))

    @docs.analysis_request
    def post(self, request: Request, match_id: str) -> Response:
        def handle() -> Response:
            match = seen_match(match_id, request.user)
            row = analysis.request(match)
            row.match = match
            done = row.status == MatchAnalysis.Status.DONE
            return respond(analysis_reads.match_analysis(row), 200 if done else 202)

        return run_write(request, handle)


class HintView(APIView):
    throttle_classes = (AnonReadThrottle, RulesThrottle)

    @docs.hint
    def get(self, request: Request, match_id: str) -> Response:
        match = seen_match(match_id, request.user)
        view, plays = analysis.hint(match, request.user)
        state = view.state
        out = state is not None and state.dice is not None and not state.is_over
        dice = [state.dice.high, state.dice.low] if out and state and state.dice else None
        return respond(
            Hints(
                match_id=match.pk,
                version=view.version,
                dice=dice,
                plays=[HintPlay(p.play, round(p.equity, 6), round(p.error, 6)) for p in plays],
            )
        )
