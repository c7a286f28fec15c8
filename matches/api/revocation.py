"""Revoked sign-ins reach the user's open sockets, and a password change revokes them.

A token stops being valid when it is deleted (logout, logout everywhere, dropped as the oldest,
a password change), when its account is deactivated (suspended by staff, unticked in the
admin) or when it expires. HTTP requests see it on the next request; an open WebSocket would
not, so the functions named in `TAVLA_SIGNED_OUT` (each taking the user's id) are told once the
transaction commits, and the streams close that user's sockets whose token is no longer valid
(close code 4401; matches/streams/hub.py). The hint may be lost (the channel layer down): the
web processes also check every open socket's token against the database every
`TAVLA_WS_AUTH_RECHECK_SECONDS`.

A password change (`set_password` then `save`, as the admin's password form, Django's
password views and `manage.py changepassword` do) deletes every token of the account: a
leaked token stops working when its owner changes his password. Setting the first password of
an account that had none (a guest registering keeps his token) is not a change, and neither is
Django's rehash of the same password at login with a new hasher.
"""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import is_password_usable
from django.db import transaction
from django.utils.module_loading import import_string

from .models import ApiToken

logger = logging.getLogger(__name__)


@cache
def hooks() -> tuple[Any, ...]:
    return tuple(import_string(path) for path in getattr(settings, "TAVLA_SIGNED_OUT", ()))


def signed_out(user_id: int) -> None:
    """Tell the hooks once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: _tell(user_id))


def _tell(user_id: int) -> None:
    for hook in hooks():
        try:
            hook(user_id)
        except Exception:
            logger.exception("signed-out hook %s failed for user %s", hook, user_id)


def token_deleted(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
    """post_delete of a token."""
    signed_out(instance.user_id)


def note_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """pre_save of a user: `set_password` was called (Django keeps the raw password in
    `_password` until the save; a rehash at login clears it first) on an account whose
    stored password was usable and differs."""
    if instance.pk is None or getattr(instance, "_password", None) is None:
        return
    old = type(instance).objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and is_password_usable(old) and old != instance.password:
        instance._tavla_password_changed = True


def user_saved(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    """post_save of a user: a changed password revokes every token; any other change (made
    inactive, made staff or not) may make his sockets' tokens invalid: they are checked."""
    if created:
        return
    if getattr(instance, "_tavla_password_changed", False):
        instance._tavla_password_changed = False
        ApiToken.objects.filter(user_id=instance.pk).delete()  # each deletion tells the hooks
    signed_out(instance.pk)
