"""Ratings: the FIBS formula (matches/services/fibs.py) applied to rated matches, per game.

A projection of the event streams (docs/ratings.md):

- Rated: a finished online match to a number of points, created `rated` (the default, but
  not with a custom clock shorter than the minimum: `clock_may_be_rated`) and not marked
  unrated by staff, between two different accounts that were registered players or bots when
  they sat down. It counts however it ended (points, resignation, dropped double, time,
  forfeit), if each side played `TAVLA_RATED_MIN_MOVES` turns and the pair has not had
  `TAVLA_RATED_PAIR_PER_DAY` counted matches in the 24 hours before (`FairPlay`). Unrated:
  aborted, hot-seat, computer, imported, money play, guests.
- Live: the command that stores the end of a rated match applies it in the same transaction
  (`lock_before_end` before its events are inserted, `on_match_end` after), so a rating is
  never lost (it commits with the event) nor counted twice (the end is stored once).
- Order: a per-game advisory lock is taken before the ending events are inserted and held
  to commit, so the ids of the events that end rated matches of one game increase in the
  order the ratings are applied. `rebuild` folds the matches in that order (the event's id,
  `RatingChange.order`) and gets exactly the live values (tests/ratings/).
- Staff marking a match unrated appends a `marked_unrated` event and recomputes the game.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

import games.rules as rules
from matches.errors import MatchNotFound
from matches.store.events import MarkedUnrated
from matches.store.locks import advisory_lock
from matches.store.models import Match, MatchEvent, PlayerProfile, PlayerRating, RatingChange
from matches.store.replay import MatchView, Seat, StoredEvent, replay
from matches.store.streams import append, load_view

from . import fibs

logger = logging.getLogger(__name__)

RATED_KINDS = frozenset({"registered", "bot"})
"""Accounts that are rated (FIBS rates its bots too); guests and the computer never are."""


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A rated match as the ratings see it."""

    match_id: UUID
    game: str
    length: int
    winner_id: int
    loser_id: int
    finished_at: datetime
    order: int  # the id of the event that ended the match


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in one game's table while folding."""

    rating: float = fibs.START_RATING
    experience: int = 0
    matches: int = 0
    wins: int = 0
    last_match_at: datetime | None = None


# -- fair play: the clock a rated match needs, the play it needs, the pairs' cap ------------------

CLOCK_FIELDS = ("delay", "reserve", "max_move", "reconnect")
PAIR_WINDOW = timedelta(days=1)


def clock_presets() -> dict[str, dict[str, int]]:
    """The named clocks: the rules' site clock and any preset of the setting
    TAVLA_CLOCK_PRESETS (quick pairing offers the same names)."""
    site = {k: int(v) for k, v in rules.SITE_CLOCK.to_json().items()}
    return {"site": site, **dict(getattr(settings, "TAVLA_CLOCK_PRESETS", {}) or {})}


def _seconds(clock: Mapping[str, Any]) -> dict[str, float]:
    """Every field in seconds; one a clock leaves out is the site's (as the rules read it)."""
    full = {**rules.SITE_CLOCK.to_json(), **clock}
    return {k: float(full[k]) for k in CLOCK_FIELDS}


def minimum_clock() -> dict[str, float]:
    """The shortest custom clock a rated match may have (TAVLA_RATED_MIN_CLOCK; the site's)."""
    return _seconds(getattr(settings, "TAVLA_RATED_MIN_CLOCK", None) or {})


def is_preset(clock: Mapping[str, Any] | None) -> bool:
    """The clock is one of the site's named clocks (not a creator's own)."""
    if clock is None:
        return False
    mine = _seconds(clock)
    return any(mine == _seconds(p) for p in clock_presets().values())


def clock_may_be_rated(clock: Mapping[str, Any] | None) -> bool:
    """Whether a match with this clock may be rated. No clock: nobody can lose on time. A
    preset: the site chose it. A custom clock: each field at least the minimum's (a
    reconnect of 0 turns the forfeit rule off, which is never a trap). Else a creator could
    set a clock his opponent loses on before he can move (issue 24: 1 s, no reserve)."""
    if clock is None or is_preset(clock):
        return True
    least = minimum_clock()
    for name, value in _seconds(clock).items():
        if name == "reconnect" and value == 0:
            continue
        if value < least[name]:
            return False
    return True


@dataclass(frozen=True, slots=True)
class FairPlay:
    """What a finished match needs to count beyond its settings and players (read from the
    settings at each decision; `rebuild` uses them as they are when it runs)."""

    min_moves: int = 3  # turns each side played (moves and forced passes)
    pair_per_day: int = 4  # counted matches of one pair per game within 24 h (0: no cap)

    @classmethod
    def now(cls) -> FairPlay:
        return cls(
            min_moves=int(getattr(settings, "TAVLA_RATED_MIN_MOVES", 3)),
            pair_per_day=int(getattr(settings, "TAVLA_RATED_PAIR_PER_DAY", 4)),
        )

    def enough_play(self, turns: Mapping[int, int]) -> bool:
        """Each seat played `min_moves` turns: a match resigned at once rates nobody."""
        return all(turns.get(seat, 0) >= self.min_moves for seat in (0, 1))

    def pair_allows(self, earlier: Sequence[datetime], finished_at: datetime) -> bool:
        """`earlier`: when the pair's counted matches of the game ended (before this one in
        the ratings' order): fewer than `pair_per_day` within the 24 hours before."""
        if self.pair_per_day <= 0:
            return True
        since = finished_at - PAIR_WINDOW
        return sum(1 for at in earlier if at > since) < self.pair_per_day


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def turns_of(events: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[int, int]:
    """Turns played per seat, from (type, payload) of a stream's events."""
    turns: dict[int, int] = {}
    for kind, payload in events:
        if kind in TURN_EVENTS:
            seat = int(payload["seat"])
            turns[seat] = turns.get(seat, 0) + 1
    return turns


TURN_EVENTS = ("moved", "passed")


def stored_turns(match_id: UUID) -> dict[int, int]:
    """Turns played per seat of a stored match (one grouped query)."""
    rows = (
        MatchEvent.objects.filter(match_id=match_id, type__in=TURN_EVENTS)
        .values_list("payload__seat")
        .annotate(n=Count("pk"))
    )
    return {int(seat): int(n) for seat, n in rows}


# -- which matches are rated ---------------------------------------------------------------------


def may_be_rated(view: MatchView) -> bool:
    """What the settings and seats say, before the players' kinds: an online match to a
    number of points, created rated, not marked unrated, two accounts in the seats."""
    created = view.created
    if created is None or created.mode != "online" or created.length < 1:
        return False
    if not created.rated or view.marked_unrated:
        return False
    ids = [s.user_id for s in view.seats if s is not None]
    return len(ids) == 2 and None not in ids and ids[0] != ids[1]


def seat_kind(seat: Seat, profiles: Mapping[int, str]) -> str:
    """The kind a seat was played as: recorded in player_joined; for older streams the
    account's profile now."""
    if seat.kind:
        return seat.kind
    if seat.user_id is not None and seat.user_id in profiles:
        return profiles[seat.user_id]
    return PlayerProfile.without_profile()


def rated_result(
    view: MatchView,
    order: int,
    profiles: Mapping[int, str],
    turns: Mapping[int, int],
    fair: FairPlay,
) -> RatedResult | None:
    """The rated result of a match at `view`, or None if the match is not rated (yet): its
    settings and players, and enough play (`turns` per seat). The pairs' cap is the fold's."""
    state = view.state
    if state is None or not state.is_over or state.winner is None:
        return None
    if state.ended_by == rules.EndedBy.ABORT or not may_be_rated(view):
        return None
    if not fair.enough_play(turns):
        return None
    seats = [s for s in view.seats if s is not None]
    if any(seat_kind(s, profiles) not in RATED_KINDS for s in seats):
        return None
    winner, loser = view.seats[state.winner], view.seats[1 - state.winner]
    if winner is None or loser is None or winner.user_id is None or loser.user_id is None:
        return None  # pragma: no cover - may_be_rated saw two accounts
    created = view.created
    assert created is not None and view.match_id is not None and view.finished_at is not None
    return RatedResult(
        match_id=view.match_id,
        game=created.game,
        length=created.length,
        winner_id=winner.user_id,
        loser_id=loser.user_id,
        finished_at=view.finished_at,
        order=order,
    )


def profile_kinds(user_ids: Iterable[int | None]) -> dict[int, str]:
    ids = {i for i in user_ids if i is not None}
    if not ids:
        return {}
    return dict(PlayerProfile.objects.filter(user_id__in=ids).values_list("user_id", "kind"))


def _unrecorded_kinds(view: MatchView) -> dict[int, str]:
    """Profiles only for seats whose kind the stream does not record (older streams)."""
    return profile_kinds(s.user_id for s in view.seats if s is not None and not s.kind)


# -- the fold ----------------------------------------------------------------------------------


def apply(table: dict[int, Standing], result: RatedResult) -> list[RatingChange]:
    """Fold one rated match into `table` (user id -> standing); the two history rows."""
    winner = table.get(result.winner_id, Standing())
    loser = table.get(result.loser_id, Standing())
    change = fibs.rate(
        fibs.Standing(winner.rating, winner.experience),
        fibs.Standing(loser.rating, loser.experience),
        result.length,
    )
    rows = []
    for me, them, delta, won in (
        (winner, loser, change.winner, True),
        (loser, winner, change.loser, False),
    ):
        user_id = result.winner_id if won else result.loser_id
        rows.append(
            RatingChange(
                match_id=result.match_id,
                user_id=user_id,
                opponent_id=result.loser_id if won else result.winner_id,
                game=result.game,
                order=result.order,
                length=result.length,
                won=won,
                rating_before=me.rating,
                rating_after=me.rating + delta,
                opponent_rating=them.rating,
                experience_before=me.experience,
                finished_at=result.finished_at,
            )
        )
        table[user_id] = Standing(
            rating=me.rating + delta,
            experience=me.experience + result.length,
            matches=me.matches + 1,
            wins=me.wins + won,
            last_match_at=result.finished_at,
        )
    return rows


# -- live: in the transaction that stores the end of a match ------------------------------------


def lock_before_end(view: MatchView, ending: rules.MatchState) -> None:
    """Called by the command path before it inserts the events that end a match: a match that
    may be rated takes its game's lock first (see the module docstring: the order)."""
    if ending.is_over and ending.ended_by != rules.EndedBy.ABORT and may_be_rated(view):
        assert view.created is not None
        advisory_lock(game_lock(view.created.game))


def on_match_end(view: MatchView) -> RatedResult | None:
    """Called by the command path right after it stored the end of a match (same transaction,
    `lock_before_end` taken): rate it if it is rated."""
    if view.match_id is None or not may_be_rated(view):
        return None
    order = (
        MatchEvent.objects.filter(match_id=view.match_id, seq=view.version)
        .values_list("id", flat=True)
        .get()
    )
    fair = FairPlay.now()
    result = rated_result(view, order, _unrecorded_kinds(view), stored_turns(view.match_id), fair)
    if result is None:
        return None
    if fair.pair_per_day > 0:  # the pair's counted matches before this one (the game's lock)
        earlier = RatingChange.objects.filter(
            game=result.game,
            user_id=result.winner_id,
            opponent_id=result.loser_id,
            finished_at__gt=result.finished_at - PAIR_WINDOW,
        ).values_list("finished_at", flat=True)
        if not fair.pair_allows(list(earlier), result.finished_at):
            logger.info("match %s not rated: the pair's daily cap", result.match_id)
            return None
    players = (result.winner_id, result.loser_id)
    rows = PlayerRating.objects.filter(user_id__in=players, game=result.game)
    table = {row.user_id: _standing(row) for row in rows}
    history = apply(table, result)
    PlayerRating.objects.bulk_create(  # one upsert for both players
        [_row(uid, result.game, table[uid]) for uid in players],
        update_conflicts=True,
        unique_fields=["user", "game"],
        update_fields=["rating", "experience", "matches", "wins", "last_match_at"],
    )
    RatingChange.objects.bulk_create(history)
    return result


def game_lock(game: str) -> str:
    return f"ratings:{game}"


def _standing(row: PlayerRating) -> Standing:
    return Standing(row.rating, row.experience, row.matches, row.wins, row.last_match_at)


def _row(user_id: int, game: str, s: Standing) -> PlayerRating:
    return PlayerRating(
        user_id=user_id,
        game=game,
        rating=s.rating,
        experience=s.experience,
        matches=s.matches,
        wins=s.wins,
        last_match_at=s.last_match_at,
    )


# -- the projection rebuilt from the events ------------------------------------------------------

REBUILD_BATCH = 200  # matches whose events are read per query


@dataclass(frozen=True, slots=True)
class Rebuilt:
    game: str
    matches: int
    players: int


def rebuild(game: str | None = None) -> list[Rebuilt]:
    """Recompute every rating (of one game, or all) from the stored events, each game in one
    transaction under its lock: what is stored afterwards equals what live play wrote."""
    games = [game] if game else [v.value for v in rules.Variant]
    out = []
    for name in games:
        with transaction.atomic():
            advisory_lock(game_lock(name))
            out.append(_rebuild_game(name))
    return out


def _rebuild_game(game: str) -> Rebuilt:
    fair = FairPlay.now()
    results = sorted(rated_results(game, fair), key=lambda r: r.order)
    table: dict[int, Standing] = {}
    history: list[RatingChange] = []
    pairs: dict[tuple[int, int], list[datetime]] = {}
    counted = 0
    for result in results:  # the live order: each decision sees the pair's earlier ones
        earlier = pairs.setdefault(pair_key(result.winner_id, result.loser_id), [])
        if not fair.pair_allows(earlier, result.finished_at):
            continue
        earlier.append(result.finished_at)
        history += apply(table, result)
        counted += 1
    RatingChange.objects.filter(game=game).delete()
    PlayerRating.objects.filter(game=game).delete()
    PlayerRating.objects.bulk_create(_row(uid, game, s) for uid, s in table.items())
    RatingChange.objects.bulk_create(history, batch_size=1000)
    logger.info("ratings of %s rebuilt: %s matches, %s players", game, counted, len(table))
    return Rebuilt(game, counted, len(table))


def rated_results(game: str, fair: FairPlay | None = None) -> list[RatedResult]:
    """Every match of a game that counts by its settings, players and play, read from the
    events (the pairs' cap is applied by the fold, in order). The Match rows only narrow the
    search (finished online match play): the replayed streams decide."""
    fair = fair or FairPlay.now()
    candidates = list(
        Match.objects.filter(
            game=game, mode=Match.Mode.ONLINE, status=Match.Status.FINISHED, length__gte=1
        ).values_list("pk", flat=True)
    )
    out: list[RatedResult] = []
    for start in range(0, len(candidates), REBUILD_BATCH):
        batch = candidates[start : start + REBUILD_BATCH]
        streams = _streams(batch)
        views = {mid: _replayed(mid, events) for mid, events in streams.items()}
        profiles = profile_kinds(
            s.user_id for v, _ in views.values() for s in v.seats if s is not None and not s.kind
        )
        for mid, (view, order) in views.items():
            turns = turns_of((e.type, e.payload) for _, e in streams[mid])
            result = rated_result(view, order, profiles, turns, fair)
            if result is not None:
                out.append(result)
    return out


def _streams(match_ids: list[UUID]) -> dict[UUID, list[tuple[int, StoredEvent]]]:
    rows = (
        MatchEvent.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "seq")
        .values_list("match_id", "id", "seq", "type", "payload", "actor_id", "created_at")
    )
    streams: dict[UUID, list[tuple[int, StoredEvent]]] = {}
    for match_id, event_id, *rest in rows:
        streams.setdefault(match_id, []).append((event_id, StoredEvent(*rest)))
    return streams


def _replayed(match_id: UUID, events: list[tuple[int, StoredEvent]]) -> tuple[MatchView, int]:
    """The match's final view and the id of the event that ended it (0: not over)."""
    view = MatchView(match_id)
    order = 0
    for event_id, stored in events:
        was_over = view.state is not None and view.state.is_over
        view = replay((stored,), view)
        if not was_over and view.state is not None and view.state.is_over:
            order = event_id
    return view, order


# -- staff: a match out of the ratings ----------------------------------------------------------


def mark_unrated(*, match_id: UUID, by: Any, reason: str) -> MatchView:
    """Take a match out of the ratings: a `marked_unrated` event (staff as its actor), then the
    game's ratings recomputed without it, in one transaction. Marking again changes nothing."""
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except (Match.DoesNotExist, ValueError, TypeError, ValidationError):
            raise MatchNotFound(match_id) from None
        view = load_view(match.pk, version=match.version)
        if view.marked_unrated or view.created is None:
            return view
        advisory_lock(game_lock(view.created.game))
        counted = RatingChange.objects.filter(match_id=match.pk).exists()
        view = append(
            match,
            view,
            [MarkedUnrated(reason=reason)],
            actor_id=getattr(by, "pk", None),
            at=timezone.now(),
        )
        if counted:
            _rebuild_game(match.game)
    return view
