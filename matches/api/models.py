"""Tables only the API needs: `IdempotencyRecord`, the first response to a write sent with an
Idempotency-Key, so a repeated request gets the same answer and writes nothing (unique per
user and key). Players' kinds and the lobby are the core's (matches/store/models.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


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


class ApiToken(models.Model):
    """A sign-in: the sha256 of its key, never the key itself (the client got the key once,
    when it signed in). A database dump, a backup or a staff member in the admin sees digests
    that open nothing. An account may hold several (one per sign-in: a phone and a laptop);
    login issues a new one, logout deletes the one used, logout everywhere all of them."""

    digest = models.CharField(max_length=64, unique=True, help_text="sha256 of the key.")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tavla_tokens"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="None: never.")

    class Meta:
        indexes = (models.Index(fields=["user", "created_at"], name="apitoken_user_created"),)

    def __str__(self) -> str:
        return f"token of user {self.user_id} from {self.created_at:%Y-%m-%d %H:%M}"


class ReservedName(models.Model):
    """A name a registered account holds (its username, its display name), by its key
    (names.name_key: case, accents, spacing and look-alikes set aside): nobody else, guest or
    account, may take a name with that key. Kept by the profiles' post_save (apps.py)."""

    key = models.CharField(max_length=64, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["key", "user"], name="reservedname_key_user_unique"),
        )

    def __str__(self) -> str:
        return f"{self.key} (user {self.user_id})"
