"""Admin: players, their ratings and the data to spot manipulation (docs/ratings.md).

- Players (the profiles): a list with kind, ratings and early exits; a read-only page with the
  ratings per game, the rating history, the early exits and the opponents (rated matches
  between the two, wins, rating gained from each other).
- Rating pairs (`pairs/`): every pair of players by rated matches between them, most first,
  with the rating the first gained from the second: two accounts feeding one another show
  up at the top; pairs with many rated matches lately are flagged and listed first.
- Rebuild (`rebuild/`): `services.ratings.rebuild` and the early exits, from the events.
- Marking a match unrated is on the match's page (`services.ratings.mark_unrated`, an event).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone

from games.rules import RulesError, Variant
from matches.errors import StoreError
from matches.selectors import players as player_reads
from matches.services import conduct, ratings
from matches.store.models import EarlyExit, Match, PlayerProfile, PlayerRating, RatingChange

from .readonly import ReadOnlyAdmin
from .views import match_or_404

HISTORY_SHOWN = 50
PAIRS_SHOWN = 100


def may_rerate(request: HttpRequest) -> bool:
    """Staff who may abort matches may also take one out of the ratings and rebuild them."""
    return bool(request.user.has_perm("matches.change_match"))


@admin.register(PlayerProfile)
class PlayerProfileAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ("username", "display_name", "kind", "tavla", "long_nardy", "early_exits")
    list_filter = ("kind",)
    search_fields = ("user__username", "display_name")
    list_select_related = ("user",)
    ordering = ("user__username",)
    fields = ("user", "kind", "display_name", "created_at")
    readonly_fields = fields
    show_full_result_count = False

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).prefetch_related("user__ratings")

    @admin.display(description="username", ordering="user__username")
    def username(self, obj: PlayerProfile) -> str:
        return obj.user.get_username()

    def _rating(self, obj: PlayerProfile, game: str) -> str:
        for row in obj.user.ratings.all():
            if row.game == game:
                return f"{row.rating:.2f} ({row.experience})"
        return "\u2014"

    @admin.display(description="tavla (experience)")
    def tavla(self, obj: PlayerProfile) -> str:
        return self._rating(obj, Variant.TAVLA.value)

    @admin.display(description="long nardy (experience)")
    def long_nardy(self, obj: PlayerProfile) -> str:
        return self._rating(obj, Variant.LONG_NARDY.value)

    @admin.display(description="early exits")
    def early_exits(self, obj: PlayerProfile) -> int:
        return EarlyExit.objects.filter(user_id=obj.user_id).count()

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> Any:
        extra = {"may_rerate": may_rerate(request), **(extra_context or {})}
        return super().changelist_view(request, extra)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        profile = self.get_object(request, object_id)
        extra: dict[str, Any] = dict(extra_context or {})
        if profile is not None:
            user = profile.user
            recent, until = conduct.standing(user, timezone.now())
            extra.update(
                player=user,
                ratings=PlayerRating.objects.filter(user=user).order_by("game"),
                history=RatingChange.objects.filter(user=user)
                .select_related("opponent")
                .order_by("-order")[:HISTORY_SHOWN],
                exits=EarlyExit.objects.filter(user=user).order_by("-at")[:HISTORY_SHOWN],
                exits_recent=recent,
                refused_until=until,
                pairs=list(player_reads.rating_pairs(user)[:PAIRS_SHOWN]),
                counts=player_reads.match_counts(user),
            )
        return super().change_view(request, object_id, form_url, extra)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view

        def bind(func: Any) -> Any:
            return view(lambda request, *args, **kw: func(self, request, *args, **kw))

        return [
            path("pairs/", bind(pairs_view), name="matches_playerprofile_pairs"),
            path("rebuild/", bind(rebuild_view), name="matches_playerprofile_rebuild"),
            *super().get_urls(),
        ]


def pairs_view(model_admin: Any, request: HttpRequest) -> Any:
    """Pairs of players by rated matches between them (manipulation shows up at the top)."""
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    game = request.GET.get("game") or None
    if game not in (None, *(v.value for v in Variant)):
        game = None
    flag_matches, flag_period = player_reads.pair_flag()
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": PlayerProfile._meta,
        "title": "Rating pairs: rated matches between two players",
        "pairs": list(player_reads.rating_pairs(game=game)[:PAIRS_SHOWN]),
        "flag_matches": flag_matches,
        "flag_days": flag_period.total_seconds() / 86400,
        "pair_per_day": getattr(settings, "TAVLA_RATED_PAIR_PER_DAY", 4),
        "game": game or "",
        "games": [v.value for v in Variant],
    }
    return TemplateResponse(request, "admin/matches/playerprofile/pairs.html", context)


def rebuild_view(model_admin: Any, request: HttpRequest) -> Any:
    if not may_rerate(request):
        raise PermissionDenied
    if request.method == "POST":
        done = ratings.rebuild()
        exits = conduct.rebuild()
        summary = ", ".join(f"{r.game}: {r.matches} matches, {r.players} players" for r in done)
        messages.success(
            request, f"Ratings rebuilt from the events ({summary}); {exits} early exits."
        )
        return HttpResponseRedirect(reverse("admin:matches_playerprofile_changelist"))
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": PlayerProfile._meta,
        "title": "Rebuild the ratings",
    }
    return TemplateResponse(request, "admin/matches/playerprofile/rebuild.html", context)


# -- on the match's page ---------------------------------------------------------------------------


class UnratedForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Recorded in the match's marked_unrated event, with your username.",
    )


def may_mark_unrated(request: HttpRequest, match: Match) -> bool:
    return may_rerate(request) and match.rated and match.status != Match.Status.ABORTED


def unrated_view(model_admin: Any, request: HttpRequest, object_id: str) -> Any:
    match = match_or_404(object_id)
    if not may_rerate(request):
        raise PermissionDenied
    change_url = reverse("admin:matches_match_change", args=[match.pk])
    if not may_mark_unrated(request, match):
        messages.error(request, "This match does not count for the ratings.")
        return HttpResponseRedirect(change_url)
    form = UnratedForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            ratings.mark_unrated(
                match_id=match.pk, by=request.user, reason=form.cleaned_data["reason"]
            )
        except (RulesError, StoreError) as exc:
            messages.error(request, f"The match was not marked: {exc}")
        else:
            messages.success(request, "The match no longer counts; the ratings were recomputed.")
        return HttpResponseRedirect(change_url)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Match._meta,
        "title": "Mark the match unrated",
        "match": match,
        "form": form,
        "changes": RatingChange.objects.filter(match=match).select_related("user"),
    }
    return TemplateResponse(request, "admin/matches/match/unrated.html", context)


def match_ratings(match: Match) -> QuerySet[RatingChange]:
    """What the match did to its players' ratings (empty: it was not rated)."""
    return RatingChange.objects.filter(match=match).select_related("user").order_by("-won")
