"""Admin: the post-game analysis of a match on its page, and the players whose error rate is
far below what their rating predicts (docs/analysis.md). A signal for staff to look at (a
strong new player, a player who plays better on some days), never a verdict."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.template.response import TemplateResponse

from games.rules import Variant
from matches.selectors.analysis import error_rate_outliers
from matches.store.analysis_models import MatchAnalysis
from matches.store.models import Match

MARKED_SHOWN = 60


def match_analysis(match: Match) -> dict[str, Any]:
    """The match page's analysis: its row, the players' figures and the marked decisions."""
    row = MatchAnalysis.objects.filter(match=match).first()
    if row is None or row.status != MatchAnalysis.Status.DONE or not row.result:
        return {"analysis": row}
    players = row.result["players"]
    marked = [
        {"game": number, "name": players[d["player"]]["name"], **d}
        for number, game in enumerate(row.result["games"], start=1)
        for d in game["decisions"]
        if d["mark"]
    ]
    return {"analysis": row, "analysis_players": players, "analysis_marked": marked[:MARKED_SHOWN]}


def outliers_view(model_admin: Any, request: HttpRequest) -> Any:
    """Registered players whose error rate over their last rated matches is far below the fit
    of error rate against rating over all analysed players."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    game = request.GET.get("game") or Variant.TAVLA.value
    if game not in {v.value for v in Variant}:
        game = Variant.TAVLA.value
    last, least, k = 20, 3, _number(request.GET.get("k"), 2.5)
    fit = error_rate_outliers(game, last=last, least=least, k=k)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Match._meta,
        "title": "Error rates far below the rating's",
        "fit": fit,
        "game": game,
        "games": [v.value for v in Variant],
        "last": last,
        "least": least,
        "k": k,
    }
    return TemplateResponse(request, "admin/matches/match/analysis_outliers.html", context)


def _number(text: str | None, default: float) -> float:
    try:
        value = float(text) if text else default
    except ValueError:
        return default
    return value if 0 < value < 10 else default
