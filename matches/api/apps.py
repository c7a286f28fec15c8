from django.apps import AppConfig


class ApiConfig(AppConfig):
    """REST API v1: player kinds, lobby (invites, open challenges, rematches), idempotency."""

    name = "matches.api"
    label = "tavla_api"
    verbose_name = "API"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Cached tokens are forgotten on logout and when their user changes, in every process.
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save, pre_save

        from . import revocation
        from .authentication import forget_token, forget_user_tokens
        from .models import ApiToken

        user = get_user_model()
        post_delete.connect(forget_token, sender=ApiToken, dispatch_uid="tavla-forget-token")
        post_save.connect(forget_user_tokens, sender=user, dispatch_uid="tavla-forget-user-tokens")
        # Revoked sign-ins close the user's sockets; a password change revokes his tokens
        # (matches/api/revocation.py).
        post_delete.connect(
            revocation.token_deleted, sender=ApiToken, dispatch_uid="tavla-token-revoked"
        )
        pre_save.connect(
            revocation.note_password_change, sender=user, dispatch_uid="tavla-password-change"
        )
        post_save.connect(revocation.user_saved, sender=user, dispatch_uid="tavla-user-saved")
        # Registered players' names are reserved for them (reservednames.py).
        from matches.store.models import PlayerProfile

        from .reservednames import profile_saved, user_saved

        post_save.connect(profile_saved, sender=PlayerProfile, dispatch_uid="tavla-reserve-names")
        post_save.connect(user_saved, sender=get_user_model(), dispatch_uid="tavla-reserve-user")
