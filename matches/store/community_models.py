"""Players among players (issue 28): match chat, follows, blocks, direct challenges, reports
and the staff's sanctions, with their audit log.

Two tables are append-only, as match events are: `ChatMessage` (a line said is never edited
nor removed; staff act on the player, not on his words) and `ModerationAction` (the audit log
of staff actions). Each is guarded three times: `save()` only inserts, `delete()` refuses,
the queryset refuses `update()` and `delete()`, and the database refuses UPDATE and DELETE
with a trigger (migration 0011).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from matches.errors import EventsAreImmutable

from .models import Match

MAX_CHAT = 300  # characters of a chat line
MAX_REPORT = 500  # characters of a report's text


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Reads and inserts only: bulk updates and deletes are refused before reaching the DB."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable(f"{self.model.__name__} rows are append-only: update() refused")

    def delete(self) -> NoReturn:
        raise EventsAreImmutable(f"{self.model.__name__} rows are append-only: delete() refused")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> NoReturn:
        raise EventsAreImmutable(f"{self.model.__name__} rows are append-only")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable(f"{self.model.__name__} rows are append-only")


AppendOnlyManager = models.Manager.from_queryset(AppendOnlyQuerySet)


class AppendOnly(models.Model):
    """A row that is inserted once and never changed nor deleted."""

    objects = AppendOnlyManager()

    class Meta:
        abstract = True
        base_manager_name = "objects"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if (
            not self._state.adding
            or kwargs.get("force_update")
            or kwargs.get("update_fields") is not None
        ):
            raise EventsAreImmutable(f"{type(self).__name__} {self.pk} cannot be changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable(f"{type(self).__name__} {self.pk} cannot be deleted")


class ChatMessage(AppendOnly):
    """One line said in a match: by a player to his opponent (`say`) or among spectators
    (`kibitz`). Either a text or a quick message's code (shown in each reader's language)."""

    class Channel(models.TextChoices):
        SAY = "say", "Players"
        KIBITZ = "kibitz", "Spectators"

    class Quick(models.TextChoices):
        GOOD_LUCK = "good_luck", "Good luck"
        WELL_PLAYED = "well_played", "Well played"
        THANKS = "thanks", "Thanks"
        SORRY_CONNECTION = "sorry_connection", "Sorry, connection"

    id = models.BigAutoField(primary_key=True)
    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="chat", db_index=False)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages"
    )
    text = models.CharField(max_length=MAX_CHAT, null=True, blank=True)
    quick = models.CharField(max_length=24, choices=Quick.choices, null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta(AppendOnly.Meta):
        ordering = ("match", "id")
        indexes = (models.Index(fields=["match", "id"], name="chat_match_id"),)
        constraints = (
            models.CheckConstraint(
                condition=(Q(text__isnull=False) & Q(quick__isnull=True))
                | (Q(text__isnull=True) & Q(quick__isnull=False)),
                name="chat_text_or_quick",
            ),
        )

    def __str__(self) -> str:
        return f"{self.match_id} #{self.pk} {self.channel}"


class Follow(models.Model):
    """`follower` follows `followed`: sees him online and playing, challenges him by name."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
        )

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """`blocker` blocked `blocked`: no chat, no challenge, no pairing, no presence between them."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),)

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"


class Challenge(models.Model):
    """A direct challenge of one player to another, with the settings of the match to play."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        EXPIRED = "expired", "Expired"
        CANCELLED = "cancelled", "Cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    settings = models.JSONField(default=dict, help_text="The match's settings, as requested.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        constraints = (
            models.UniqueConstraint(
                fields=["challenger", "challenged"],
                condition=Q(status="pending"),
                name="challenge_one_pending",
            ),
        )

    def __str__(self) -> str:
        return f"challenge {self.challenger_id} -> {self.challenged_id} ({self.status})"

    def lapsed(self, now: datetime) -> bool:
        return self.status == "pending" and now >= self.expires_at


class Report(models.Model):
    """A player reports another (a message of his, a match, or just him) to staff."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", "Abuse"
        SPAM = "spam", "Spam"
        CHEATING = "cheating", "Cheating"
        OTHER = "other", "Other"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_made"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reports_against"
    )
    message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.PROTECT, related_name="reports"
    )
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.PROTECT, related_name="reports"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.CharField(max_length=MAX_REPORT, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("-created_at",)
        indexes = (models.Index(fields=["status", "-created_at"], name="report_status"),)

    def __str__(self) -> str:
        return f"report #{self.pk} on {self.player} ({self.reason}, {self.status})"


class Sanction(models.Model):
    """A staff sanction in force on a player: muted in chat until a time, banned from chat, or
    banned from play (no challenges, no seeks, no joining). `until` null: until lifted."""

    class Kind(models.TextChoices):
        MUTE = "mute", "Muted in chat"
        CHAT_BAN = "chat_ban", "Banned from chat"
        PLAY_BAN = "play_ban", "Banned from play"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    until = models.DateTimeField(null=True, blank=True)
    note = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.PROTECT, related_name="sanctions"
    )
    created_at = models.DateTimeField(default=timezone.now)
    lifted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes = (models.Index(fields=["user", "kind"], name="sanction_user_kind"),)

    def __str__(self) -> str:
        return f"{self.kind} of {self.user}"

    def in_force(self, now: datetime) -> bool:
        return self.lifted_at is None and (self.until is None or self.until > now)


class ModerationAction(AppendOnly):
    """The audit log: one row per staff action (a sanction given or lifted, a report closed).
    Never changed nor deleted, by anyone."""

    class Kind(models.TextChoices):
        MUTE = "mute", "Muted in chat"
        CHAT_BAN = "chat_ban", "Banned from chat"
        PLAY_BAN = "play_ban", "Banned from play"
        LIFT = "lift", "Sanction lifted"
        CLOSE_REPORT = "close_report", "Report closed"

    id = models.BigAutoField(primary_key=True)
    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="moderation_log"
    )
    until = models.DateTimeField(null=True, blank=True)
    note = models.TextField()
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.PROTECT, related_name="actions"
    )
    sanction = models.ForeignKey(
        Sanction, null=True, blank=True, on_delete=models.PROTECT, related_name="actions"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta(AppendOnly.Meta):
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"{self.kind} of {self.player_id} by {self.staff_id}"


class PlayerOnline(models.Model):
    """When a player last had a WebSocket open (refreshed every few seconds by the hub of the
    process holding it, matches/streams/hub.py): "online" for his friends."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user_id} seen {self.last_seen}"
