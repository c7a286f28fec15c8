"""Tournaments run by the service: the commands on a tournament's stream (docs/tournaments.md).

Each command locks the tournament's row, folds its events (`matches.tournaments.state`), asks
the pure domain (`matches.tournaments.decide`) what follows, and appends the events it answers
with a compare-and-set on the row's version, in one transaction. What the events decide the
service then does in that same transaction: a paired round's matches are created through the
match commands quick pairing uses (`lobby.open_match`, `play.match_join`: clocks, deadlines
and presence rows with them), their ids recorded in the `round_paired` event, each player told
"your match is ready" through the outbox (`notices.notify`). A withdrawn player's match is
resigned for him.

A match's end is recorded by `record_match` (Celery, once the match's end has committed; the
sweeper finds one whose message was lost); when it completes a round the next one is paired at
once. Repeats change nothing: a board already decided is only marked recorded.

What a committed append sets off outside the core (the start task at the start time, the
pushes to the tournament's followers) is named in the setting `TAVLA_TOURNAMENT_AFTER_COMMIT`
(dotted paths of functions taking a `TournamentCommitted`), as `TAVLA_AFTER_COMMIT` is for
matches.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from games.rules import find_game
from matches.errors import StoreError, VersionConflict
from matches.store.models import Match, PlayerProfile
from matches.store.tournament_models import Tournament, TournamentEvent, TournamentMatch
from matches.tournaments import decide
from matches.tournaments.events import (
    RoundPaired,
    TournamentCancelled,
    event_from_payload,
)
from matches.tournaments.events import (
    TournamentEvent as Fact,
)
from matches.tournaments.refusals import TournamentRefused
from matches.tournaments.settings import TournamentSettings
from matches.tournaments.state import Status, TournamentState, fold, replay

from . import lobby, play, ratings, seeks
from .notices import Notice, notify

logger = logging.getLogger(__name__)

MAX_FOLLOW_UPS = 16  # rounds paired in one go at most (rounds of byes only follow each other)

ENDED_BY = {
    str(Match.EndedBy.BEAROFF): "played",
    str(Match.EndedBy.DROP): "played",
    str(Match.EndedBy.RESIGN): "resigned",
    str(Match.EndedBy.TIMEOUT): "timeout",
    str(Match.EndedBy.FORFEIT): "forfeit",
    str(Match.EndedBy.ABORT): "forfeit",
}
"""How a match's end reads in the tournament (an aborted match: both players lose it)."""


class TournamentNotFound(StoreError):
    code = "tournament_not_found"

    def __init__(self, tournament_id: object) -> None:
        self._say("no_tournament", id=tournament_id)


@dataclass(frozen=True, slots=True)
class TournamentCommitted:
    """Events just stored for one tournament, and the state they lead to."""

    tournament_id: UUID
    state: TournamentState
    events: tuple[Fact, ...]


# -- reading ----------------------------------------------------------------------------------


def load(tournament_id: UUID | str) -> tuple[Tournament, TournamentState]:
    """The row and the state folded from its stream (no lock)."""
    row = Tournament.objects.filter(pk=_pk(tournament_id)).first()
    if row is None:
        raise TournamentNotFound(tournament_id)
    return row, _state_of(row)


def _state_of(row: Tournament) -> TournamentState:
    stored = TournamentEvent.objects.filter(tournament_id=row.pk).order_by("seq")
    return replay(event_from_payload(e.type, e.payload) for e in stored)


def _locked(tournament_id: UUID | str) -> tuple[Tournament, TournamentState]:
    row = Tournament.objects.select_for_update().filter(pk=_pk(tournament_id)).first()
    if row is None:
        raise TournamentNotFound(tournament_id)
    return row, _state_of(row)


def clocks() -> dict[str, dict[str, int]]:
    """The clock presets a tournament may be played with (the site's named clocks)."""
    return ratings.clock_presets()


# -- the commands -----------------------------------------------------------------------------


def create(user: Any, settings: TournamentSettings, now: datetime | None = None) -> Tournament:
    """A new tournament, open for sign-up (InvalidTournamentSettings names a field at fault)."""
    now = now or timezone.now()
    created = decide.create(settings, clocks=tuple(clocks()), now=now)
    with transaction.atomic():
        row = Tournament.objects.create(
            name=settings.name.strip(),
            game=settings.game,
            format=settings.format,
            settings=settings.to_json(),
            starts_at=settings.starts_at,
            created_by=user if user is not None and user.pk else None,
            created_at=now,
        )
        _append(row, TournamentState(), [created], _id(user), now)
    return row


def join(user: Any, tournament_id: UUID | str, now: datetime | None = None) -> TournamentState:
    now = now or timezone.now()
    with transaction.atomic():
        row, state = _locked(tournament_id)
        joined = decide.join(state, user.pk, user.get_username(), play.kind_of(user), now)
        return _append(row, state, [joined], user.pk, now)


def enter_computer(
    actor_id: int | None, tournament_id: UUID | str, level: str, now: datetime | None = None
) -> TournamentState:
    """Staff enter the site's computer at `level` (one of the game's levels, checked by the
    caller): it plays its matches by itself (matches/services/computer.py), is never
    forfeited for absence (it has no presence) and is never rated (ratings.RATED_KINDS)."""
    now = now or timezone.now()
    with transaction.atomic():
        row, state = _locked(tournament_id)
        user = PlayerProfile.computer_user(level)
        joined = decide.join(state, user.pk, user.get_username(), "computer", now)
        return _append(row, state, [joined], actor_id, now)


def leave(
    user_id: int,
    tournament_id: UUID | str,
    *,
    actor_id: int | None = None,
    reason: str = "left",
    now: datetime | None = None,
) -> TournamentState:
    """Off the list before the start; from a running tournament, withdrawn: paired no more,
    his unfinished match resigned (staff removing a player: `actor_id` theirs, reason
    "removed")."""
    now = now or timezone.now()
    with transaction.atomic():
        row, state = _locked(tournament_id)
        events = decide.leave(state, user_id, reason)
        board = state.current.board_of(user_id) if state.current is not None else None
        after = _append(row, state, events, actor_id if actor_id is not None else user_id, now)
        if state.status == Status.RUNNING and board is not None and board.match_id is not None:
            TournamentMatch.objects.filter(pk=board.match_id).update(recorded=True)
            if not board.decided:
                _resign_for(user_id, UUID(board.match_id), now)
        return _follow(row, after, now)


def cancel(tournament_id: UUID | str, actor_id: int | None, now: datetime | None = None) -> None:
    """Staff cancel a tournament that has not ended (its running matches play on, unrecorded)."""
    now = now or timezone.now()
    with transaction.atomic():
        row, state = _locked(tournament_id)
        if state.is_over:
            raise TournamentRefused("tournament_over")
        _append(row, state, [TournamentCancelled("staff", len(state.entrants))], actor_id, now)


def start(tournament_id: UUID | str, now: datetime | None = None) -> TournamentState:
    """At the start time: sign-up closes; cancelled when too few joined, else seeded by
    rating and the first round's matches created. Before the start time, or after it
    started, nothing (a task early or repeated)."""
    now = now or timezone.now()
    with transaction.atomic():
        row, state = _locked(tournament_id)
        if state.status != Status.UPCOMING or now < row.starts_at:
            return state
        game = row.game
        rated = {e.user_id: seeks.rating_of(e.user_id, game) for e in state.entrants}
        return _decide_on(row, state, decide.start(state, rated), None, now)


def record_match(match_id: UUID | str, now: datetime | None = None) -> bool:
    """A tournament match ended: its result into the standings, and what follows (the next
    round, the end). False when there is nothing to record (not a tournament's match, not
    ended, recorded already)."""
    now = now or timezone.now()
    link = TournamentMatch.objects.filter(pk=_pk(match_id), recorded=False).first()
    if link is None:
        return False
    with transaction.atomic():
        row, state = _locked(link.tournament_id)
        link = TournamentMatch.objects.select_for_update().get(pk=link.pk)
        match = Match.objects.get(pk=link.match_id)
        if link.recorded or match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
            return False
        link.recorded = True
        link.save(update_fields=["recorded"])
        if state.status != Status.RUNNING:
            return False
        board = state.rounds[link.round - 1].boards[link.board]
        if board.decided:
            return False
        seat_players = (match.player0_id, match.player1_id)
        winner = seat_players[match.winner] if match.winner is not None else None
        ended_by = ENDED_BY.get(match.ended_by, "played")
        result = decide.record_result(
            state, link.round, link.board, winner, (match.score0, match.score1), ended_by
        )
        _decide_on(row, state, [result], None, now)
    return True


def advance(tournament_id: UUID | str, now: datetime | None = None) -> TournamentState:
    """Pair the next round (or finish) if the round being played is complete."""
    now = now or timezone.now()
    with transaction.atomic():
        row, state = _locked(tournament_id)
        return _follow(row, state, now)


# -- the sweeper (Celery beat) ------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Make up for lost messages: start the tournaments past their start time, record the
    ended matches nobody recorded, pair the rounds complete but not followed."""
    now = now or timezone.now()
    counts = {"started": 0, "recorded": 0, "advanced": 0}
    due = Tournament.objects.filter(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    for tid in list(due.values_list("pk", flat=True)):
        counts["started"] += _safely(_started, tid, now)
    owed = TournamentMatch.objects.filter(
        recorded=False,
        tournament__status=Tournament.Status.RUNNING,
        match__status__in=(Match.Status.FINISHED, Match.Status.ABORTED),
    )
    for mid in list(owed.values_list("pk", flat=True)):
        counts["recorded"] += _safely(record_match, mid, now)
    idle = Tournament.objects.filter(status=Tournament.Status.RUNNING).exclude(
        boards__recorded=False
    )
    for row in list(idle):
        counts["advanced"] += _safely(_advanced, row, now)
    if any(counts.values()):
        logger.warning("tournament sweep made up for lost messages: %s", counts)
    return counts


def _started(tournament_id: UUID, now: datetime) -> bool:
    return start(tournament_id, now).status != Status.UPCOMING


def _advanced(row: Tournament, now: datetime) -> bool:
    return advance(row.pk, now).version != row.version


def _safely(step: Callable[..., bool], *args: Any) -> int:
    try:
        return int(step(*args))
    except Exception:  # one broken tournament must not stop the sweep
        logger.exception("tournament sweep: a step failed")
        return 0


# -- appending ----------------------------------------------------------------------------------


def _decide_on(
    row: Tournament,
    state: TournamentState,
    events: list[Fact],
    actor_id: int | None,
    now: datetime,
) -> TournamentState:
    """Append what was decided (a paired round with its matches made), then what follows."""
    for event in events:
        state = _append(row, state, [_with_matches(row, state, event, now)], actor_id, now)
    return _follow(row, state, now)


def _follow(row: Tournament, state: TournamentState, now: datetime) -> TournamentState:
    """Pair rounds (or finish) while the round being played is complete."""
    for _ in range(MAX_FOLLOW_UPS):
        nexts = decide.advance(state)
        if not nexts:
            break
        for event in nexts:
            state = _append(row, state, [_with_matches(row, state, event, now)], None, now)
    return state


def _append(
    row: Tournament, state: TournamentState, events: list[Fact], actor_id: int | None, at: datetime
) -> TournamentState:
    """Store the events after `state` (the row's version, compared and set in one UPDATE:
    two writers cannot both append) and project them on the row."""
    before = state.version
    after = state
    for event in events:
        after = fold(after, event)
    TournamentEvent.objects.bulk_create(
        TournamentEvent(
            tournament_id=row.pk,
            seq=before + i,
            type=event.type,
            payload=event.to_payload(),
            actor_id=actor_id,
            created_at=at,
        )
        for i, event in enumerate(events, start=1)
    )
    fields: dict[str, Any] = {
        "version": after.version,
        "status": str(after.status),
        "rounds_paired": len(after.rounds),
        "players": len(after.entrants),
    }
    if after.is_over and not state.is_over:
        fields["finished_at"] = at
        if after.finished is not None:
            fields["winner_id"] = after.finished.winner
    stored = Tournament.objects.filter(pk=row.pk, version=before).update(**fields)
    if stored != 1:
        raise VersionConflict(None, before)
    for name, value in fields.items():
        setattr(row, name, value)
    committed = TournamentCommitted(row.pk, after, tuple(events))
    transaction.on_commit(lambda: _run_hooks(committed))
    return after


def _with_matches(row: Tournament, state: TournamentState, event: Fact, now: datetime) -> Fact:
    """A paired round with its boards' matches created (and their players told)."""
    if not isinstance(event, RoundPaired):
        return event
    settings = state.settings
    assert settings is not None
    clock = clocks()[settings.clock]
    users = get_user_model().objects.in_bulk([p for b in event.boards for p in b if p])
    ids: list[str | None] = []
    notices: list[Notice] = []
    for index, (a, b) in enumerate(event.boards):
        if a is None or b is None:
            ids.append(None)
            continue
        request = lobby.MatchRequest(
            game=settings.game,
            length=event.length,
            cube=event.length > 1 and find_game(settings.game).has_cube,
            clock=clock,
            rated=settings.rated,
        )
        view = lobby.open_match(users[a], request)
        assert view.match_id is not None
        joined = play.match_join(match_id=view.match_id, user=users[b], seat=1, now=now)
        TournamentMatch.objects.create(
            match_id=view.match_id, tournament=row, round=event.round, board=index
        )
        ids.append(str(view.match_id))
        data = {"tournament": str(row.pk), "round": event.round, "board": index}
        notices += [
            Notice(u, "tournament_match", str(view.match_id), joined.version, data) for u in (a, b)
        ]
    notify(notices)
    return replace(event, matches=tuple(ids))


def _resign_for(user_id: int, match_id: UUID, now: datetime) -> None:
    """The withdrawn player's unfinished match: he resigns it (his opponent wins)."""
    user = get_user_model().objects.get(pk=user_id)
    try:
        play.match_resign_match(match_id=match_id, user=user, now=now)
    except Exception:  # ended meanwhile: the withdrawal's result stands
        logger.info("tournament match %s: not resigned for user %s", match_id, user_id)


# -- hooks ----------------------------------------------------------------------------------------


@cache
def hooks() -> tuple[Callable[[TournamentCommitted], object], ...]:
    paths = getattr(django_settings, "TAVLA_TOURNAMENT_AFTER_COMMIT", ())
    return tuple(import_string(path) for path in paths)


def _run_hooks(committed: TournamentCommitted) -> None:
    for hook in hooks():
        try:
            hook(committed)
        except Exception:
            logger.exception("tournament hook %s failed for %s", hook, committed.tournament_id)


def _pk(value: UUID | str) -> UUID:
    if isinstance(value, UUID):
        return value
    try:
        return UUID(str(value))
    except ValueError:
        raise TournamentNotFound(value) from None


def _id(user: Any) -> int | None:
    return None if user is None or not user.pk else int(user.pk)
