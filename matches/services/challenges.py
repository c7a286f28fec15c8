"""Direct challenges (issue 28): a player challenges another by name with a match's settings.

The challenged player hears it on his socket (a notice of kind `challenge`, through the
outbox: matches/services/notices.py), and accepts (the online match is made with both seated:
it starts at once) or declines; the challenger may cancel it, and hears the answer (a notice
of kind `challenge_answered`). A challenge is pending for `LIFETIME`, then expired (decided
when it is next read or answered: nothing needs to run at the minute). Refused between blocked
players and for a player banned from play; one pending challenge per pair and direction.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from matches.errors import StoreError
from matches.store.community_models import Challenge
from matches.store.models import Match

from . import blocks, lobby, play, reports
from .notices import Notice, notify

LIFETIME = timedelta(seconds=60)
PENDING, ACCEPTED, DECLINED = "pending", "accepted", "declined"  # Challenge.Status
EXPIRED, CANCELLED = "expired", "cancelled"
SETTINGS = (
    "game",
    "length",
    "cube",
    "crawford",
    "jacoby",
    "backgammon_value",
    "next_game_starter",
    "clock",
    "public",
    "rated",
)


class ChallengePending(StoreError):
    code = "challenge_pending"

    def __init__(self) -> None:
        self._say("challenge_pending")


class ChallengeNotPending(StoreError):
    code = "challenge_not_pending"

    def __init__(self, status: str) -> None:
        self.detail = {"status": status}
        self._say("challenge_not_pending", status=status)


class ChallengeNotFound(StoreError):
    code = "not_found"

    def __init__(self) -> None:
        self._say("challenge_none")


def expire(now: datetime | None = None, **where: Any) -> int:
    """Mark the lapsed pending challenges (of `where`) expired."""
    now = now or timezone.now()
    return Challenge.objects.filter(status=PENDING, expires_at__lte=now, **where).update(
        status=EXPIRED, answered_at=now
    )


def challenge(user: Any, to: Any, settings: dict[str, Any]) -> Challenge:
    """`user` challenges `to` with these (validated) settings of an online match."""
    if user.pk == to.pk:
        raise blocks.CannotBlockYourself()
    reports.check_play(user.pk)
    blocks.check_between(user.pk, to.pk)
    now = timezone.now()
    expire(now, challenger_id=user.pk, challenged_id=to.pk)
    kept = {k: settings[k] for k in SETTINGS if k in settings}
    try:
        with transaction.atomic():
            made = Challenge.objects.create(
                challenger=user,
                challenged=to,
                settings=kept,
                created_at=now,
                expires_at=now + LIFETIME,
            )
            notify([Notice(to.pk, "challenge", data={"challenge": as_json(made)})])
    except IntegrityError:
        raise ChallengePending() from None
    return made


def pending(user: Any, now: datetime | None = None) -> tuple[list[Challenge], list[Challenge]]:
    """(incoming, outgoing) pending challenges of the user, newest first."""
    now = now or timezone.now()
    expire(now, challenged_id=user.pk)
    expire(now, challenger_id=user.pk)
    rows = list(
        Challenge.objects.select_related(
            "challenger__tavla_profile", "challenged__tavla_profile"
        ).filter(Q(challenger_id=user.pk) | Q(challenged_id=user.pk), status=PENDING)
    )
    return [c for c in rows if c.challenged_id == user.pk], [
        c for c in rows if c.challenger_id == user.pk
    ]


def _mine(user: Any, challenge_id: Any, *, as_challenged: bool) -> Challenge:
    field = "challenged_id" if as_challenged else "challenger_id"
    try:
        wanted = uuid.UUID(str(challenge_id))
    except ValueError:
        raise ChallengeNotFound() from None
    found = Challenge.objects.select_for_update().filter(pk=wanted, **{field: user.pk})
    row = found.first()
    if row is None:
        raise ChallengeNotFound()
    now = timezone.now()
    if row.lapsed(now):
        row.status, row.answered_at = EXPIRED, now
        row.save(update_fields=["status", "answered_at"])
    if row.status != PENDING:
        raise ChallengeNotPending(row.status)
    return row


def _answered(row: Challenge, status: str, match: Match | None = None) -> Challenge:
    row.status, row.answered_at = status, timezone.now()
    row.match = match
    row.save(update_fields=["status", "answered_at", "match"])
    told = row.challenger_id if status != CANCELLED else row.challenged_id
    data = {"challenge": as_json(row)}
    notify([Notice(told, "challenge_answered", str(match.pk) if match else None, None, data)])
    return row


def accept(user: Any, challenge_id: Any) -> Challenge:
    """The challenged player accepts: the match is made, the challenger on seat 0, he on seat 1."""
    with transaction.atomic():
        row = _mine(user, challenge_id, as_challenged=True)
        reports.check_play(user.pk)
        reports.check_play(row.challenger_id)
        blocks.check_between(row.challenger_id, user.pk)
        s = row.settings
        request = lobby.MatchRequest(
            mode=str(Match.Mode.ONLINE),
            game=s["game"],
            length=s["length"],
            cube=s["cube"],
            crawford=s["crawford"],
            jacoby=s["jacoby"],
            backgammon_value=s["backgammon_value"],
            next_game_starter=s.get("next_game_starter"),
            clock=s.get("clock"),
            public=s.get("public", True),
            seat=0,
            open_challenge=False,
            rated=s.get("rated"),
        )
        view = lobby.open_match(row.challenger, request)
        match = Match.objects.get(pk=view.match_id)
        play.match_join(match_id=match.pk, user=user, seat=1)
        match.refresh_from_db()
        return _answered(row, ACCEPTED, match)


def decline(user: Any, challenge_id: Any) -> Challenge:
    with transaction.atomic():
        return _answered(_mine(user, challenge_id, as_challenged=True), DECLINED)


def cancel(user: Any, challenge_id: Any) -> Challenge:
    with transaction.atomic():
        return _answered(_mine(user, challenge_id, as_challenged=False), CANCELLED)


def _person(user: Any) -> dict[str, str]:
    profile = getattr(user, "tavla_profile", None)
    name = user.get_username()
    return {"name": name, "display_name": (profile.display_name if profile else "") or name}


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def as_json(row: Challenge) -> dict[str, Any]:
    """The challenge as the API shows it (`Challenge` of matches/selectors/community.py; a
    test compares the two), for the notices."""
    return {
        "id": str(row.pk),
        "from": _person(row.challenger),
        "to": _person(row.challenged),
        "settings": dict(row.settings),
        "status": row.status,
        "match": str(row.match_id) if row.match_id else None,
        "created_at": _iso(row.created_at),
        "expires_at": _iso(row.expires_at),
    }
