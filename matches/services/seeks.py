"""Quick pairing: a player seeks a match, the server pairs him with the waiting player of the
same settings whose rating is closest (docs/ratings.md, "Quick pairing").

- A pool is the settings a seek asks for: game, match length, cube, clock preset. Only seeks
  of one pool are paired with each other.
- The window: a seek accepts an opponent within `window(waited)` rating points, which widens
  the longer it waits (`TAVLA_SEEK_WINDOW`: +-100 at first, +100 every 10 s, anyone after
  60 s). Two seeks may be paired when their difference is within the wider of their two
  windows (the one who waited longer decides) and within each one's own optional range.
- Pairing is decided under an advisory lock of the pool (`store.locks`): one decision at a
  time per pool, each seeing every seek committed before it. A new seek is committed first
  and then paired in its own transaction, so of two seekers arriving together the second
  decision always sees the first seek: none stays waiting while a partner is there. Both
  seeks are locked and re-read under the pool lock, so a seek is paired once, never with
  its own player (and a player has one waiting seek at most: a unique index).
- A seek lives while its owner is there: each poll (`GET /seeks/{id}`, `touch`) and an open
  WebSocket of his (`touch_users`, from the push streams' hub) move `last_seen`; one not seen
  for `TAVLA_SEEK_TIMEOUT` seconds expires and is never paired (the query excludes it before
  the sweeper marks it).
- Both players are told after commit (`notices`: the push streams' user channel).
- `sweep` (Celery beat) expires seeks, retries pairing with the widened windows and starts
  the computer for seeks that asked for it after N seconds.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

import games.rules as rules
from matches import errors
from matches.errors import StoreError
from matches.store.locks import advisory_lock
from matches.store.models import Match, PlayerRating, Seek

from . import blocks, conduct, lobby, play, reports
from .fibs import START_RATING
from .notices import Notice, notify

logger = logging.getLogger(__name__)


class AlreadyPlaying(StoreError):
    """The player sits in an active online match: finish it before seeking another."""

    code = "already_playing"


class SeekRefused(StoreError):
    """The player left too many matches early lately (docs/ratings.md, "Abuse")."""

    code = "seek_refused"

    def __init__(self, refusal: conduct.Refusal) -> None:
        self.refusal = refusal
        until = refusal.until.astimezone(UTC)
        self.detail = {"early_exits": refusal.early_exits, "until": until.isoformat()}
        self._say("seek_refused", count=refusal.early_exits, until=until)


class SeekNotFound(StoreError):
    code = "not_found"


# -- settings -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Schedule:
    """How a seek's window widens: `base` points at first, `step` more every `every` seconds,
    anyone once it has waited `open_after` seconds."""

    base: float = 100.0
    step: float = 100.0
    every: float = 10.0
    open_after: float = 60.0

    def window(self, waited: float) -> float:
        """+- rating points accepted after `waited` seconds (infinite: anyone)."""
        if waited >= self.open_after:
            return math.inf
        return self.base + self.step * self.stage(waited)

    def stage(self, waited: float) -> int:
        """0, 1, 2, ...: how many times the window has widened (the last is "anyone")."""
        if waited >= self.open_after:
            return int(self.open_after // self.every) + 1
        return int(max(0.0, waited) // self.every)


def schedule() -> Schedule:
    return Schedule(**getattr(settings, "TAVLA_SEEK_WINDOW", {}))


def timeout() -> timedelta:
    """How long a seek lives without its owner's poll (or open socket)."""
    return timedelta(seconds=float(getattr(settings, "TAVLA_SEEK_TIMEOUT", 30)))


def clock_presets() -> dict[str, dict[str, int]]:
    """The clocks a seek may ask for by name: the rules' site clock, and any preset named in
    the setting TAVLA_CLOCK_PRESETS."""
    site = {k: int(v) for k, v in rules.SITE_CLOCK.to_json().items()}
    return {"site": site, **dict(getattr(settings, "TAVLA_CLOCK_PRESETS", {}) or {})}


# -- asking -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeekRequest:
    """What a seeker asks for (the API validated each field)."""

    game: str = "tavla"
    length: int = 5
    cube: bool = True
    clock: str = "site"
    rating_min: float | None = None
    rating_max: float | None = None
    computer_level: str = ""
    computer_after: int | None = None


def rating_of(user_id: int, game: str) -> float:
    row = PlayerRating.objects.filter(user_id=user_id, game=game).values_list("rating", flat=True)
    found = row.first()
    return START_RATING if found is None else float(found)


def playing(user_ids: list[int]) -> set[int]:
    """Which of these users sit in an active online match."""
    rows = Match.objects.filter(
        Q(player0_id__in=user_ids) | Q(player1_id__in=user_ids),
        status=Match.Status.ACTIVE,
        mode=Match.Mode.ONLINE,
    ).values_list("player0_id", "player1_id")
    wanted = set(user_ids)
    return {uid for pair in rows for uid in pair if uid in wanted}


def seek(user: Any, request: SeekRequest, *, now: datetime | None = None) -> Seek:
    """Post a seek (it replaces the player's waiting one) and try to pair it at once."""
    now = now or timezone.now()
    if request.cube and not rules.find_game(request.game).has_cube:
        request = replace(request, cube=False)  # a game without the cube (the API refuses one)
    if request.clock not in clock_presets():
        presets = ", ".join(clock_presets())
        raise errors.refused(rules.InvalidSettings, "seek_clock", "clock", presets=presets)
    if playing([user.pk]):
        raise AlreadyPlaying.because("already_playing")
    refused = conduct.refusal(user, now)
    if refused is not None:
        raise SeekRefused(refused)
    reports.check_play(user.pk, now)  # banned from play by staff (issue 28)
    created = _create(user, request, now)
    return pair(created.pk, now=now)


def _create(user: Any, request: SeekRequest, now: datetime) -> Seek:
    rating = rating_of(user.pk, request.game)
    for attempt in range(2):
        try:
            with transaction.atomic():
                mine = Seek.objects.select_for_update().filter(
                    user_id=user.pk, status=Seek.Status.WAITING
                )
                mine.update(status=Seek.Status.CANCELLED, ended_at=now)
                return Seek.objects.create(
                    user=user,
                    game=request.game,
                    length=request.length,
                    cube=request.cube,
                    clock_preset=request.clock,
                    rating=rating,
                    rating_min=request.rating_min,
                    rating_max=request.rating_max,
                    computer_level=request.computer_level,
                    computer_after=request.computer_after,
                    created_at=now,
                    last_seen=now,
                )
        except IntegrityError:  # his other request inserted one in between: replace it too
            if attempt:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def cancel(user: Any, seek_id: Any, *, now: datetime | None = None) -> Seek:
    """Withdraw a waiting seek; a seek already paired (or over) is returned as it is."""
    now = now or timezone.now()
    with transaction.atomic():
        found = _own(user, seek_id, lock=True)
        if found.status == Seek.Status.WAITING:
            found.status = Seek.Status.CANCELLED
            found.ended_at = now
            found.save(update_fields=["status", "ended_at"])
        return found


def look(user: Any, seek_id: Any, *, now: datetime | None = None) -> Seek:
    """The owner polls his seek: he is there (the seek lives on); a waiting one is tried again
    when its window widened since the last try, or the computer is due."""
    now = now or timezone.now()
    found = _own(user, seek_id)
    if found.status != Seek.Status.WAITING:
        return found
    touch(found, now)
    if _due(found, now):
        return pair(found.pk, now=now)
    return found


def touch(found: Seek, now: datetime) -> None:
    """The owner is there now (a poll; an open socket once the push streams say so)."""
    Seek.objects.filter(pk=found.pk, status=Seek.Status.WAITING, last_seen__lt=now).update(
        last_seen=now
    )
    found.last_seen = max(found.last_seen, now)


def touch_users(user_ids: list[int], now: datetime | None = None) -> int:
    """These users have a connection open (a WebSocket): their waiting seeks live on. One
    UPDATE for all; how many seeks it moved."""
    now = now or timezone.now()
    return Seek.objects.filter(
        user_id__in=user_ids, status=Seek.Status.WAITING, last_seen__lt=now
    ).update(last_seen=now)


def _own(user: Any, seek_id: Any, *, lock: bool = False) -> Seek:
    try:
        pk = UUID(str(seek_id))
    except ValueError:
        raise SeekNotFound.because("no_seek", id=str(seek_id)[:40]) from None
    rows = Seek.objects.select_for_update() if lock else Seek.objects.all()
    found = rows.filter(pk=pk, user_id=user.pk).first()
    if found is None:  # another player's seek is none of your business
        raise SeekNotFound.because("no_seek", id=pk)
    return found


def _due(found: Seek, now: datetime) -> bool:
    waited = (now - found.created_at).total_seconds()
    if schedule().stage(waited) > found.tried_step:
        return True
    return found.computer_after is not None and waited >= found.computer_after


# -- pairing ------------------------------------------------------------------------------------


def pool_lock(found: Seek) -> str:
    return f"seeks:{found.game}:{found.length}:{int(found.cube)}:{found.clock_preset}"


def expired(found: Seek, now: datetime) -> bool:
    return found.last_seen < now - timeout()


def waited(found: Seek, now: datetime) -> float:
    return (now - found.created_at).total_seconds()


def acceptable(a: Seek, b: Seek, now: datetime) -> bool:
    """May a and b play each other now? Two players, the rating difference within the wider of
    their windows, each one's rating within the other's own range."""
    if a.user_id == b.user_id:
        return False
    windows = schedule()
    widest = max(windows.window(waited(a, now)), windows.window(waited(b, now)))
    if abs(a.rating - b.rating) > widest:
        return False
    return _in_range(b.rating, a) and _in_range(a.rating, b)


def _in_range(rating: float, found: Seek) -> bool:
    if found.rating_min is not None and rating < found.rating_min:
        return False
    return found.rating_max is None or rating <= found.rating_max


Started = tuple[Seek, Seek | None, int]  # the seek, its partner (None: the computer), version


def pair(seek_id: UUID, *, now: datetime | None = None) -> Seek:
    """Pair one waiting seek with the closest acceptable one of its pool, or with the computer
    when it asked for it and waited long enough; one transaction under the pool's lock."""
    return _pair(seek_id, now or timezone.now())[0]


def _pair(seek_id: UUID, now: datetime) -> tuple[Seek, list[Started]]:
    """The seek after the attempt, and the pairs this attempt started."""
    started: list[Started] = []
    with transaction.atomic():
        found = Seek.objects.filter(pk=seek_id).first()
        if found is None:
            raise SeekNotFound.because("no_seek", id=seek_id)
        if found.status != Seek.Status.WAITING:
            return found, []
        advisory_lock(pool_lock(found))
        found = Seek.objects.select_for_update().get(pk=seek_id)
        if found.status == Seek.Status.WAITING:
            started = _decide(found, _candidates(found, now), now)
    _tell(started)
    found.refresh_from_db()
    return found, started


def _candidates(found: Seek, now: datetime) -> list[Seek]:
    """The other waiting, live seeks of the pool, oldest first (under the pool lock)."""
    return list(
        Seek.objects.filter(
            status=Seek.Status.WAITING,
            game=found.game,
            length=found.length,
            cube=found.cube,
            clock_preset=found.clock_preset,
            last_seen__gte=now - timeout(),
        )
        .exclude(pk=found.pk)
        .exclude(user_id=found.user_id)
        .order_by("created_at", "pk")
    )


def _decide(found: Seek, others: list[Seek], now: datetime) -> list[Started]:
    """Under the pool lock: pair `found` (locked, waiting) if it can be; the pairs started."""
    if expired(found, now):
        _end(found, str(Seek.Status.EXPIRED), now)
        return []
    busy = playing([found.user_id, *(o.user_id for o in others)])
    if found.user_id in busy:  # he started another online match meanwhile
        _end(found, str(Seek.Status.CANCELLED), now)
        return []
    busy |= blocks.pairs_blocked(found.user_id, (o.user_id for o in others))  # never paired
    fits = [o for o in others if o.user_id not in busy and acceptable(found, o, now)]
    for best in sorted(fits, key=lambda o: (abs(o.rating - found.rating), o.created_at)):
        partner = Seek.objects.select_for_update().get(pk=best.pk)
        if partner.status == Seek.Status.WAITING:  # not cancelled by its owner meanwhile
            return [(found, partner, _start(found, partner, now))]
    if found.computer_after is not None and waited(found, now) >= found.computer_after:
        return [(found, None, _start_computer(found, now))]
    found.tried_step = schedule().stage(waited(found, now))
    found.save(update_fields=["tried_step"])
    return []


def _start(a: Seek, b: Seek, now: datetime) -> int:
    """The match of two paired seeks: online, the older seek's player on seat 0, the other
    seated at once, so the opening roll is made: it starts for both. Its version."""
    first, second = sorted((a, b), key=lambda s: (s.created_at, str(s.pk)))
    request = lobby.MatchRequest(
        mode=str(Match.Mode.ONLINE),
        game=first.game,
        length=first.length,
        cube=first.cube,
        clock=clock_presets()[first.clock_preset],
        open_challenge=False,
    )
    view = lobby.open_match(first.user, request)
    assert view.match_id is not None
    joined = play.match_join(match_id=view.match_id, user=second.user, seat=1)
    for s in (a, b):
        s.status, s.match_id, s.ended_at = Seek.Status.PAIRED, view.match_id, now
        s.save(update_fields=["status", "match", "ended_at"])
    return joined.version


def _start_computer(found: Seek, now: datetime) -> int:
    request = lobby.MatchRequest(
        mode=str(Match.Mode.COMPUTER),
        game=found.game,
        length=found.length,
        cube=found.cube,
        level=found.computer_level,
    )
    view = lobby.open_match(found.user, request)
    found.status, found.match_id, found.ended_at = Seek.Status.PAIRED, view.match_id, now
    found.save(update_fields=["status", "match", "ended_at"])
    return view.version


def _end(found: Seek, status: str, now: datetime) -> None:
    found.status, found.ended_at = status, now
    found.save(update_fields=["status", "ended_at"])


def _tell(started: list[Started]) -> None:
    """Both players hear of their match (after commit: the push streams' user channel)."""
    notify(
        Notice(s.user_id, "seek_paired", str(s.match_id), version, {"seek": str(s.pk)})
        for first, second, version in started
        for s in (first, second)
        if s is not None
    )


# -- the sweeper (Celery beat) ---------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Expire the seeks whose owners are gone; try the others again (windows widen, the
    computer becomes due). Counts of seeks expired and paired by this sweep."""
    now = now or timezone.now()
    gone = Seek.objects.filter(status=Seek.Status.WAITING, last_seen__lt=now - timeout())
    counts = {"expired": gone.update(status=Seek.Status.EXPIRED, ended_at=now), "paired": 0}
    waiting = Seek.objects.filter(status=Seek.Status.WAITING).order_by("created_at", "pk")
    for found in list(waiting):
        if not _due(found, now):
            continue
        try:
            _, started = _pair(found.pk, now)
        except Exception:  # one bad seek must not stop the sweep
            logger.exception("seek %s: pairing failed", found.pk)
            continue
        counts["paired"] += sum(1 + (second is not None) for _, second, _ in started)
    return counts
