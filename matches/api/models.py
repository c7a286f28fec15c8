"""Tables the API needs beside the match store.

- `PlayerProfile`: what kind of account a user is (registered, guest, bot, the computer).
- `MatchLobby`: how a match is found and joined (invite code, open challenge, a rematch
  reserved for the old opponent), who created or imported it.
- `IdempotencyRecord`: the first response to a write sent with an Idempotency-Key, so a
  repeated request gets the same answer and writes nothing (unique per user and key).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from matches.store.models import Match

INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed on phones
INVITE_LENGTH = 8


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


class PlayerProfile(models.Model):
    class Kind(models.TextChoices):
        REGISTERED = "registered", "Registered player"
        GUEST = "guest", "Guest (no registration)"
        BOT = "bot", "Bot account (third-party program)"
        COMPUTER = "computer", "The site's computer opponent"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tavla_profile"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.REGISTERED)
    display_name = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user} ({self.kind})"


class MatchLobby(models.Model):
    """Lobby data of a match: one row per match created through the API (or imported)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="lobby"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    invite_code = models.CharField(max_length=16, unique=True, default=new_invite_code)
    open_challenge = models.BooleanField(
        default=False, help_text="Listed in the lobby: anyone may accept it."
    )
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Only this user may join (a rematch offered to the old opponent).",
    )
    rematch_of = models.OneToOneField(
        Match,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_lobby",
        help_text="The finished match this one is the rematch of (one rematch per match).",
    )
    imported = models.BooleanField(default=False)

    class Meta:
        indexes = (models.Index(fields=["open_challenge"], name="lobby_open_challenge"),)

    def __str__(self) -> str:
        return f"lobby {self.invite_code} of {self.match_id}"


class IdempotencyRecord(models.Model):
    """A write's first response, kept for its (user, key). The row is inserted before the
    command runs, in the same transaction: a concurrent duplicate waits on the unique index
    and then reads the stored answer."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of method, path and body.")
    status_code = models.PositiveSmallIntegerField(default=0)
    body = models.JSONField(null=True, blank=True)
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_user_key_unique"),
        )
        indexes = (models.Index(fields=["created_at"], name="idempotency_created"),)

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key} -> {self.status_code}"
