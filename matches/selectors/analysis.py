"""Reads of the post-game analysis (docs/analysis.md): a match's, as the API shows it; a
player's PR per game over his analysed rated matches; and, for the admin, the registered
players whose error rate is far below what their rating predicts.

The analyses are made by matches/services/analysis.py; here they are only read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from games.rules import find_game
from matches.store.analysis_models import MatchAnalysis
from matches.store.models import PlayerProfile, PlayerRating, RatingChange

from . import analysis_shapes as shapes
from .shapes import GamePerformance, MatchPr
from .state import board_json

HISTORY = 100
"""Matches in a player's PR history (the latest)."""


def match_analysis(row: MatchAnalysis) -> shapes.MatchAnalysis:
    """The API's body of an analysis row: games and players once it is done."""
    done = row.status == MatchAnalysis.Status.DONE and row.result is not None
    game = find_game(row.match.game)
    return shapes.MatchAnalysis(
        match_id=row.match_id,
        status=row.status,
        engine=row.engine or None,
        requested_at=row.requested_at,
        finished_at=row.finished_at if done else None,
        error=row.error or None,
        games=[_game(g, game) for g in row.result["games"]] if done and row.result else None,
        players=[_player(p) for p in row.result["players"]] if done and row.result else None,
    )


def _game(data: dict[str, Any], game: Any) -> shapes.AnalysedGame:
    return shapes.AnalysedGame([_decision(d, game) for d in data["decisions"]])


def _decision(d: dict[str, Any], game: Any) -> shapes.AnalysedDecision:
    board = None
    if not game.has_gnubg_ids:
        board = board_json(game.position_from_json(d["position"]))
    return shapes.AnalysedDecision(
        player=d["player"],
        action=d["action"],
        dice=d["dice"],
        played=d["played"],
        best=d["best"],
        error=d["error"],
        mark=d["mark"],
        luck=d["luck"],
        equity=d.get("equity"),
        position_id=d.get("position_id"),
        board=board,
    )


def _player(p: dict[str, Any]) -> shapes.AnalysedPlayer:
    marks = p["marks"]
    return shapes.AnalysedPlayer(
        name=p["name"],
        unforced=p["unforced"],
        error_rate=p["error_rate"],
        pr=p["pr"],
        luck=p["luck"],
        checker_unforced=p["checker_unforced"],
        checker_error_rate=p["checker_error_rate"],
        marks=shapes.MarkCounts(marks["doubtful"], marks["bad"], marks["very bad"]),
        result=p["result"],
        luck_adjusted=p["luck_adjusted"],
    )


# -- a player's PR -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Analysed:
    """One player's side of one analysed rated match."""

    match_id: Any
    game: str
    finished_at: Any
    pr: float
    unforced: int


def analysed_rated(user: Any, game: str | None = None) -> list[Analysed]:
    """His analysed rated matches (those with a rating change), latest first."""
    changes = RatingChange.objects.filter(
        user=user, match__analysis__status=MatchAnalysis.Status.DONE
    )
    if game is not None:
        changes = changes.filter(game=game)
    rows = changes.order_by("-order").values_list(
        "match_id",
        "game",
        "finished_at",
        "match__player0_id",
        "match__analysis__pr0",
        "match__analysis__pr1",
        "match__analysis__unforced0",
        "match__analysis__unforced1",
    )
    out = []
    for match_id, g, at, player0, pr0, pr1, unforced0, unforced1 in rows:
        seat = 0 if player0 == user.pk else 1
        pr, unforced = (pr0, unforced0) if seat == 0 else (pr1, unforced1)
        if pr is not None and unforced:
            out.append(Analysed(match_id, g, at, float(pr), int(unforced)))
    return out


def pr_over(matches: list[Analysed]) -> float:
    """XG's PR over several matches: 500 x total error / total unforced decisions (each
    match's PR weighted by its decisions)."""
    unforced = sum(m.unforced for m in matches)
    return sum(m.pr * m.unforced for m in matches) / unforced if unforced else 0.0


def performance(user: Any) -> list[GamePerformance]:
    """His PR per game over his analysed rated matches, and per match (oldest first)."""
    by_game: dict[str, list[Analysed]] = {}
    for m in analysed_rated(user):
        by_game.setdefault(m.game, []).append(m)
    return [
        GamePerformance(
            game=game,  # type: ignore[arg-type]
            matches=len(ms),
            unforced=sum(m.unforced for m in ms),
            pr=round(pr_over(ms), 3),
            history=[MatchPr(m.match_id, m.finished_at, m.pr) for m in reversed(ms[:HISTORY])],
        )
        for game, ms in sorted(by_game.items())
    ]


# -- the admin: error rates far below the rating's ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Outlier:
    """A player whose error rate over his last rated matches is far below what the fit of
    error rate against rating predicts for his rating: a signal to look at, not a verdict."""

    user: Any
    rating: float
    matches: int
    error_rate: float
    expected: float
    deviations: float  # how many standard deviations of the fit below the prediction


@dataclass(frozen=True, slots=True)
class Fit:
    """error rate = intercept + slope x rating, over `players`, with the residuals' spread."""

    players: int
    intercept: float
    slope: float
    spread: float
    outliers: list[Outlier]


def error_rate_outliers(game: str, last: int = 20, least: int = 3, k: float = 2.5) -> Fit:
    """Fit the error rate (mEMG, over each registered player's `last` analysed rated
    matches, at least `least` of them) against his rating by least squares over all such
    players, and list those more than `k` standard deviations of the residuals better than
    the line predicts, most extreme first."""
    registered = PlayerProfile.objects.filter(
        Q(kind=PlayerProfile.Kind.REGISTERED) | Q(kind=PlayerProfile.Kind.BOT)
    ).values_list("user_id", flat=True)
    ratings = PlayerRating.objects.filter(game=game, user_id__in=registered).select_related("user")
    points: list[tuple[Any, float, int, float]] = []
    for row in ratings:
        mine = analysed_rated(row.user, game)[:last]
        if len(mine) >= least:
            points.append((row.user, row.rating, len(mine), 2.0 * pr_over(mine)))
    if len(points) < 3:
        return Fit(len(points), 0.0, 0.0, 0.0, [])
    xs = [p[1] for p in points]
    ys = [p[3] for p in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
    intercept = my - slope * mx
    residuals = [y - (intercept + slope * x) for x, y in zip(xs, ys, strict=True)]
    spread = math.sqrt(sum(r * r for r in residuals) / (len(points) - 2))
    outliers = [
        Outlier(user, rating, n, rate, intercept + slope * rating, -r / spread)
        for (user, rating, n, rate), r in zip(points, residuals, strict=True)
        if spread > 0 and r < -k * spread
    ]
    outliers.sort(key=lambda o: -o.deviations)
    return Fit(len(points), intercept, slope, spread, outliers)
