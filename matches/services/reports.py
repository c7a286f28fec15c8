"""Reports by players and the staff's answers to them (issue 28): mutes, chat bans, play bans.

A player reports another (a chat message of his, a match, or just him). Staff read the reports
in the admin (matches/review/admin.py) and sanction: mute in chat until a time, ban from chat,
ban from play (no direct challenges, no seeks), each with a note. Every staff action is one
row of the append-only audit log (`ModerationAction`), written in the same transaction as the
sanction. A sanctioned player is refused with the code and `detail.until` (null: until staff
lift it). Suspending an account outright stays `moderation.suspend` (PlayerSuspension).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from matches.errors import MatchNotFound, StoreError
from matches.store.community_models import (
    MAX_REPORT,
    ChatMessage,
    ModerationAction,
    Report,
    Sanction,
)
from matches.store.models import Match

from .access import can_read


class Sanctioned(StoreError):
    """Refused by a sanction in force; `detail.until` says until when (null: until lifted)."""

    def __init__(self, sanction: Sanction) -> None:
        self.until = sanction.until
        self.detail = {"until": None if sanction.until is None else _iso(sanction.until)}
        self._say(self.reason_code, until=sanction.until)

    reason_code = ""


class ChatMuted(Sanctioned):
    code = "chat_muted"
    reason_code = "chat_muted"


class ChatBanned(Sanctioned):
    code = "chat_banned"
    reason_code = "chat_banned"


class PlayBanned(Sanctioned):
    code = "play_banned"
    reason_code = "play_banned"


class BadReport(StoreError):
    code = "invalid_request"


MUTE, CHAT_BAN, PLAY_BAN = "mute", "chat_ban", "play_ban"  # Sanction.Kind
REFUSALS: dict[str, type[Sanctioned]] = {
    CHAT_BAN: ChatBanned,
    MUTE: ChatMuted,
    PLAY_BAN: PlayBanned,
}


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def in_force(user_id: int, kinds: tuple[str, ...], now: datetime | None = None) -> Sanction | None:
    """The sanction of one of these kinds in force on the user that ends last, if any."""
    now = now or timezone.now()
    found = list(
        Sanction.objects.filter(user_id=user_id, kind__in=kinds, lifted_at__isnull=True).filter(
            Q(until__isnull=True) | Q(until__gt=now)
        )
    )
    if not found:
        return None
    # a ban before a mute; then the one that lasts longest
    order = {CHAT_BAN: 0, PLAY_BAN: 0, MUTE: 1}
    return min(
        found,
        key=lambda s: (order[s.kind], -(s.until or datetime.max.replace(tzinfo=UTC)).timestamp()),
    )


def check_chat(user_id: int, now: datetime | None = None) -> None:
    """Refused `chat_banned` or `chat_muted` while a sanction of chat is in force."""
    found = in_force(user_id, (CHAT_BAN, MUTE), now)
    if found is not None:
        raise REFUSALS[found.kind](found)


def check_play(user_id: int, now: datetime | None = None) -> None:
    found = in_force(user_id, (PLAY_BAN,), now)
    if found is not None:
        raise PlayBanned(found)


# -- reports --------------------------------------------------------------------------------


def report(
    *,
    reporter: Any,
    player: Any,
    reason: str,
    text: str = "",
    message_id: int | None = None,
    match_id: Any = None,
) -> Report:
    """A player's report; the message must be the reported player's, in a match the reporter
    may read (an unknown or unreadable one is refused as not found)."""
    if player.pk == reporter.pk:
        raise BadReport.because("report_self")
    message = None
    match = None
    if message_id is not None:
        message = ChatMessage.objects.select_related("match").filter(pk=message_id).first()
        if message is None or not can_read(message.match, reporter):
            raise BadReport.because("report_message")
        if message.author_id != player.pk:
            raise BadReport.because("report_author")
        match = message.match
    if match_id is not None:
        match = Match.objects.filter(pk=match_id).first()
        if match is None or not can_read(match, reporter):
            raise MatchNotFound(match_id)
    return Report.objects.create(
        reporter=reporter,
        player=player,
        message=message,
        match=match,
        reason=reason,
        text=text.strip()[:MAX_REPORT],
    )


# -- the staff's actions (the admin calls these; it checked who may) -------------------------


def sanction(
    *,
    user: Any,
    kind: str,
    by: Any,
    note: str,
    until: datetime | None = None,
    report: Report | None = None,
) -> Sanction:
    """Mute, chat-ban or play-ban a player, with the staff's note; logged in the audit log."""
    if kind == MUTE and until is None:
        raise BadReport.because("mute_needs_end")
    with transaction.atomic():
        given = Sanction.objects.create(
            user=user, kind=kind, until=until, note=note, by=by, report=report
        )
        ModerationAction.objects.create(
            staff=by,
            kind=kind,
            player=user,
            until=until,
            note=note,
            report=report,
            sanction=given,
        )
    return given


def lift(*, sanction: Sanction, by: Any, note: str) -> None:
    """End a sanction now (logged)."""
    with transaction.atomic():
        row = Sanction.objects.select_for_update().get(pk=sanction.pk)
        if row.lifted_at is not None:
            return
        row.lifted_at = timezone.now()
        row.save(update_fields=["lifted_at"])
        ModerationAction.objects.create(
            staff=by,
            kind="lift",
            player_id=row.user_id,
            note=note,
            report=row.report,
            sanction=row,
        )


def close(*, report: Report, by: Any, note: str) -> None:
    """Close a report (logged)."""
    with transaction.atomic():
        row = Report.objects.select_for_update().get(pk=report.pk)
        if row.status == "closed":
            return
        row.status = "closed"
        row.save(update_fields=["status"])
        ModerationAction.objects.create(
            staff=by,
            kind="close_report",
            player_id=row.player_id,
            note=note,
            report=row,
        )
