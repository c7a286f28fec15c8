"""The post-game analysis of stored matches: asked for, made by the Celery task, kept.

The judging is the engine's (`games.bots.analysis.analyse_match`, pure): here a finished
match's events are replayed into its settings, actions and names, the engine's document is
completed with each decision's position, and the result is kept in `MatchAnalysis`
(matches/store/analysis_models.py). The task (matches/tasks/analysis.py) calls `analyse`;
a lost task message is sent again by the sweeper, which asks `owed`. Finished rated matches
are queued by themselves (`auto_queue`, unless `TAVLA_AUTO_ANALYSIS` is off).
"""

from __future__ import annotations

import hashlib
import importlib
import logging
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from uuid import UUID

from django.conf import settings as django_settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

import games.rules as rules
from games import bots
from games.bots import analysis as bots_analysis
from games.bots.analysis import DEFAULT_PLIES, Analysis, analyse_match
from games.rules import Double, Drop, Move, Phase, Take
from matches.errors import HintsNotAllowed, MatchNotFinished
from matches.store.analysis_models import MatchAnalysis, hints_allowed
from matches.store.events import MatchCreated, PlayerJoined
from matches.store.models import Match, PlayerProfile, RatingChange
from matches.store.replay import MatchView
from matches.store.streams import load_view, stored_events

from .access import is_seated

logger = logging.getLogger(__name__)

Status = MatchAnalysis.Status
MAX_ATTEMPTS = 5
"""Tasks sent for one analysis before the sweeper gives up on it (status failed)."""
_ENGINE_MODULES = ("games.bots.analysis", "games.bots.analysis_eval", "games.bots.analysis_equity")


@cache
def engine() -> str:
    """Who makes the analysis: the lookahead and a digest of the networks' weights and the
    engine's code. An analysis made by another engine is made again when asked for."""
    digest = hashlib.sha256()
    files = [Path(bots.WEIGHTS), Path(bots.NARDY_WEIGHTS)]
    files += [Path(str(importlib.import_module(name).__file__)) for name in _ENGINE_MODULES]
    for path in files:
        digest.update(path.read_bytes())
    return f"network-{DEFAULT_PLIES}ply-{digest.hexdigest()[:12]}"


# -- asking for it ---------------------------------------------------------------------------------


def request(match: Match) -> MatchAnalysis:
    """Ask for the analysis of a finished match; its row. Made already by this engine, or
    under way: as it is. New, failed, or made by another engine: queued, and its task sent
    once the transaction commits. Refused (MatchNotFinished) while the match is not over."""
    if match.status != Match.Status.FINISHED:
        raise MatchNotFinished.because("match_not_finished")
    now = timezone.now()
    with transaction.atomic():
        row, created = MatchAnalysis.objects.select_for_update().get_or_create(
            match=match, defaults={"requested_at": now, "attempts": 1}
        )
        if created:
            send_on_commit(match.pk)
        elif row.status == Status.FAILED or (row.status == Status.DONE and row.engine != engine()):
            row.status, row.error, row.requested_at, row.attempts = Status.QUEUED, "", now, 1
            row.save(update_fields=["status", "error", "requested_at", "attempts"])
            send_on_commit(match.pk)
        return row


def send_on_commit(match_id: UUID) -> None:
    """Have the analysis made: the task is sent by `TAVLA_ANALYSIS_SEND` (the delivery
    layer's function, matches/tasks/analysis.py `send`) once the transaction commits."""
    path = getattr(django_settings, "TAVLA_ANALYSIS_SEND", "matches.tasks.analysis.send")
    transaction.on_commit(lambda: import_string(path)(match_id))


def auto_analysed(match_id: UUID) -> bool:
    """Whether a match is analysed without being asked: it counted for the ratings (a
    rating change was written with its end) and TAVLA_AUTO_ANALYSIS is on."""
    if not getattr(django_settings, "TAVLA_AUTO_ANALYSIS", True):
        return False
    return RatingChange.objects.filter(match_id=match_id).exists()


def auto_queue(match_id: UUID) -> bool:
    """Ask once for the analysis of a finished rated match; whether it was asked now."""
    if not auto_analysed(match_id):
        return False
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None or MatchAnalysis.objects.filter(match_id=match_id).exists():
        return False
    request(match)
    return True


def owed(now: datetime, lost: timedelta, running: timedelta, limit: int = 50) -> list[UUID]:
    """Analyses whose task was lost, to be sent again: queued for `lost` with no task
    running it (the message never arrived), or running for `running` (the worker died).
    Each is marked as sent again now; one sent `MAX_ATTEMPTS` times is given up (failed).
    Finished rated matches of the last day never asked for (the process died before its
    hook) are asked for here (their tasks are sent on commit)."""
    stale = MatchAnalysis.objects.filter(
        status=Status.QUEUED, requested_at__lte=now - lost
    ) | MatchAnalysis.objects.filter(status=Status.RUNNING, started_at__lte=now - running)
    ids: list[UUID] = []
    with transaction.atomic():
        for row in stale.select_for_update(skip_locked=True).order_by("requested_at")[:limit]:
            if row.attempts >= MAX_ATTEMPTS:
                row.status, row.error = Status.FAILED, "its task was lost too many times"
                row.save(update_fields=["status", "error"])
                continue
            row.status, row.requested_at, row.attempts = Status.QUEUED, now, row.attempts + 1
            row.save(update_fields=["status", "requested_at", "attempts"])
            ids.append(row.match_id)
    if getattr(django_settings, "TAVLA_AUTO_ANALYSIS", True):
        never = (
            Match.objects.filter(
                status=Match.Status.FINISHED,
                finished_at__gte=now - timedelta(days=1),
                finished_at__lte=now - lost,
                analysis__isnull=True,
                rating_changes__isnull=False,
            )
            .distinct()
            .values_list("pk", flat=True)[:limit]
        )
        for pk in never:
            auto_queue(pk)
    return ids


# -- making it -------------------------------------------------------------------------------------


def analyse(match_id: UUID) -> str:
    """Make the analysis of a match (the task's work); returns the status it is left in.
    Made already by this engine: nothing is done again."""
    with transaction.atomic():
        row = MatchAnalysis.objects.select_for_update().filter(match_id=match_id).first()
        if row is None:
            match = Match.objects.filter(pk=match_id).first()
            if match is None or match.status != Match.Status.FINISHED:
                return "missing"
            row = MatchAnalysis.objects.create(match=match)
        if row.status == Status.DONE and row.engine == engine():
            return str(row.status)
        row.status, row.started_at = Status.RUNNING, timezone.now()
        row.save(update_fields=["status", "started_at"])
    try:
        version, document = match_document(match_id)
    except Exception as exc:
        logger.exception("the analysis of match %s failed", match_id)
        MatchAnalysis.objects.filter(match_id=match_id).update(
            status=Status.FAILED, error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        return str(Status.FAILED)
    players = document["players"]
    MatchAnalysis.objects.filter(match_id=match_id).update(
        status=Status.DONE,
        engine=engine(),
        match_version=version,
        result=document,
        error="",
        pr0=players[0]["pr"],
        pr1=players[1]["pr"],
        unforced0=players[0]["unforced"],
        unforced1=players[1]["unforced"],
        finished_at=timezone.now(),
    )
    return str(Status.DONE)


def match_document(match_id: UUID) -> tuple[int, dict[str, Any]]:
    """(the version analysed, the document): the engine's, each decision with its position."""
    stored = list(stored_events(match_id))
    events = [s.event for s in stored]
    created = events[0] if events else None
    if not isinstance(created, MatchCreated):
        raise ValueError(f"match {match_id} has no stream")
    names = _names(events)
    actions = [a for a in (e.to_action() for e in events) if a is not None]
    settings = created.settings()
    analysis = analyse_match(settings, actions, names)
    return stored[-1].seq, _document(analysis, _positions(settings, actions))


def _names(events: list[Any]) -> tuple[str, str]:
    """The players' names as the record shows them: the name each account chose (the
    computer's "Computer (level)"), else the recorded one (imported players)."""
    joined = {e.seat: e for e in events if isinstance(e, PlayerJoined)}
    users = [e.user_id for e in joined.values() if e.user_id is not None]
    chosen = dict(
        PlayerProfile.objects.filter(user_id__in=users)
        .exclude(display_name="")
        .values_list("user_id", "display_name")
    )
    names = []
    for seat in (0, 1):
        e = joined.get(seat)
        name = (chosen.get(e.user_id) if e.user_id is not None else None) or e.name if e else ""
        names.append(name or f"Player {seat + 1}")
    return names[0], names[1]


def _positions(settings: rules.MatchSettings, actions: list[rules.Action]) -> list[list[Any]]:
    """Per game, the position before each decision the engine judges (the same ones: a
    play with the dice out, a double before a roll, an answer to a double), from the side of
    the player on roll (the doubler's at a take or drop, as gnubg shows cube decisions)."""
    state = rules.MatchState.new(settings, check=False)
    games: list[list[Any]] = []
    for action in actions:
        judged = (
            (isinstance(action, Move) and state.phase == Phase.PLAY)
            or (isinstance(action, Double) and state.phase == Phase.ROLL)
            or (isinstance(action, Take | Drop) and state.phase == Phase.DOUBLED)
        )
        if judged:
            while len(games) < state.game_number:
                games.append([])
            on_roll = state.turn if state.turn is not None else 0
            games[state.game_number - 1].append(state.position_for(on_roll))
        state = rules.apply(state, action, check=False)
    return games


def _document(analysis: Analysis, positions: list[list[Any]]) -> dict[str, Any]:
    document = analysis.to_json()
    for number, (game, decided) in enumerate(zip(document["games"], analysis.games, strict=True)):
        where = positions[number] if number < len(positions) else []
        if len(where) != len(decided):
            raise ValueError(f"game {number + 1}: {len(decided)} decisions, {len(where)} positions")
        for item, decision, position in zip(game["decisions"], decided, where, strict=True):
            item["equity"] = None if decision.equity is None else round(decision.equity, 6)
            item["position"] = position.to_json()
            item["position_id"] = (
                rules.position_id(position) if rules.game_of(position).has_gnubg_ids else None
            )
    return document


# -- hints -----------------------------------------------------------------------------------------


def hint(match: Match, user: Any) -> tuple[MatchView, list[bots_analysis.Hint]]:
    """The best plays for the user on turn with his dice out (the view they are for, the
    plays; none before he rolls or once the match is over). Only where the match allows
    hints and only to a player seated in it (HintsNotAllowed otherwise: never in a rated
    match, never to a spectator); NotYourTurn while the other side is to act."""
    if not hints_allowed(match) or not is_seated(match, user):
        raise HintsNotAllowed.because("hints_not_allowed")
    view = load_view(match.pk, version=match.version)
    state = view.state
    if state is None or state.is_over or not view.full:
        return view, []
    if state.to_act not in view.seats_of(user.pk):
        raise rules.NotYourTurn.because("not_your_turn", what="move")
    return view, bots_analysis.hints(state)
