"""Registered players' names are theirs: nobody else, guest or account, may be called by a
name that passes for another registered player's username or display name (the leader of the
leaderboard cannot be copied by a guest). Names are compared by `names.name_key` (case,
accents, spacing, look-alike digits set aside) through `ReservedName`, kept here on every
save of a profile or a user (signals connected in ApiConfig.ready)."""

from __future__ import annotations

from typing import Any

from matches.store.models import PlayerProfile

from .models import ReservedName
from .names import name_key

HOLDERS = (PlayerProfile.Kind.REGISTERED, PlayerProfile.Kind.BOT)
TAKEN = "this name belongs to a registered player"


def reserve(profile: PlayerProfile, username: str | None = None) -> None:
    """The reservations of the profile's account: its username and display name, if it is
    a registered (or bot) account; none otherwise."""
    keys = set()
    if profile.kind in HOLDERS:
        username = profile.user.get_username() if username is None else username
        keys = {name_key(username), name_key(profile.display_name)} - {""}
    ReservedName.objects.filter(user_id=profile.user_id).exclude(key__in=keys).delete()
    ReservedName.objects.bulk_create(
        [ReservedName(key=k, user_id=profile.user_id) for k in sorted(keys)],
        ignore_conflicts=True,
    )


def taken(name: str, by: Any = None) -> bool:
    """Whether `name` passes for a registered player's name (other than user `by`'s)."""
    key = name_key(name)
    if not key:
        return False
    found = ReservedName.objects.filter(key=key)
    if by is not None:
        found = found.exclude(user_id=by)
    return found.exists()


def profile_saved(sender: Any, instance: PlayerProfile, raw: bool = False, **kw: Any) -> None:
    if not raw:
        reserve(instance)


def user_saved(sender: Any, instance: Any, raw: bool = False, **kw: Any) -> None:
    """A username changed (the admin, a guest registering): its reservation follows."""
    if raw:
        return
    profile = PlayerProfile.objects.filter(user_id=instance.pk).first()
    if profile is not None:  # not assigned to the user: his own cached profile stays as it is
        reserve(profile, instance.get_username())
