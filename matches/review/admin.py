"""Admin: staff review matches here (disputes, cheating reports, support questions).

- Matches: a list with players, mode, length, score, status, times, result and how it ended,
  filters and search by player; a read-only match page with the settings, the players, the
  results of every game and the full event timeline; the board at any event
  (`<match>/board/<seq>/`), the .mat export, aborting a match with a reason (a command through
  `services.match_abort`, recorded as an event) and the dice statistics (`dice/`).
- Match events: read-only; nobody adds, changes or deletes one here (nor anywhere else).
- Player suspensions: the moderation history; suspending deactivates the account.
- Players: ratings, histories, early exits, rating pairs, rebuilding the ratings and marking a
  match unrated (`matches.review.players`).

The pages and actions live in `matches.review.views` (the pure replay in `frames`); this
module wires them into the admin.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.contrib import admin
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.http import HttpRequest
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.timezone import localtime

from matches.selectors import display_name
from matches.store.models import Match, MatchEvent, PlayerSuspension

from . import analysis as analysis_admin
from . import players as player_admin
from . import views as admin_views
from .readonly import ReadOnlyAdmin


def _joined_name(seat: int) -> Subquery:
    """The name seated on `seat` by the match's player_joined event (accounts or not)."""
    return Subquery(
        MatchEvent.objects.filter(match=OuterRef("pk"), type="player_joined", payload__seat=seat)
        .order_by("seq")
        .annotate(name=KT("payload__name"))
        .values("name")[:1]
    )


def _when(moment: datetime | None) -> str:
    """Compact time for the list: "2026-11-29 17:31" in the site's time zone, wrapping only
    between the date and the time."""
    if moment is None:
        return "\u2014"
    local = localtime(moment)
    return format_html(
        "<span style='white-space:nowrap'>{}</span> {}",
        local.strftime("%Y-%m-%d"),
        local.strftime("%H:%M"),
    )


class EndedByFilter(admin.SimpleListFilter):
    title = "ended by"
    parameter_name = "ended_by"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(value, label) for value, label in Match.EndedBy.choices if value]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value():
            return queryset.filter(ended_by=self.value())
        return queryset


class LengthFilter(admin.SimpleListFilter):
    title = "length"
    parameter_name = "length"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        lengths = Match.objects.order_by("length").values_list("length", flat=True).distinct()
        return [(str(n), "money play" if n == 0 else f"{n} point{'s' * (n > 1)}") for n in lengths]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() is not None and self.value().isdigit():
            return queryset.filter(length=int(self.value()))
        return queryset


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = (
        "short_id",
        "players",
        "game",
        "mode",
        "length_display",
        "score",
        "status",
        "started",
        "last_move",
        "result",
    )
    list_display_links = ("short_id",)
    list_filter = (
        "status",
        "game",
        "mode",
        EndedByFilter,
        LengthFilter,
        "cube",
        "rated",
        ("started_at", admin.DateFieldListFilter),
        ("last_move_at", admin.DateFieldListFilter),
    )
    search_fields = ("player0__username", "player1__username")
    search_help_text = "A player's name, username or seated name, or a match id."
    date_hierarchy = "created_at"
    list_select_related = (
        "player0",
        "player1",
        "player0__tavla_profile",
        "player1__tavla_profile",
    )
    list_per_page = 50
    show_full_result_count = False
    fieldsets = (
        (
            "Settings",
            {
                "fields": (
                    "id",
                    ("game", "mode", "length", "public"),
                    ("cube", "crawford", "jacoby", "backgammon_value"),
                    "next_game_starter",
                    "computer_level",
                    "clock",
                    "rated",
                )
            },
        ),
        (
            "State (projected from the events)",
            {
                "fields": (
                    ("status", "ended_by", "winner"),
                    ("score0", "score1", "turn", "version"),
                    ("created_at", "started_at"),
                    ("last_move_at", "finished_at"),
                )
            },
        ),
    )
    readonly_fields = (
        "id",
        "game",
        "mode",
        "length",
        "public",
        "cube",
        "crawford",
        "jacoby",
        "backgammon_value",
        "next_game_starter",
        "computer_level",
        "clock",
        "rated",
        "player0",
        "player1",
        "status",
        "ended_by",
        "winner",
        "score0",
        "score1",
        "turn",
        "version",
        "created_at",
        "started_at",
        "last_move_at",
        "finished_at",
    )

    # -- the list ---------------------------------------------------------------------------

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(name0=_joined_name(0), name1=_joined_name(1))

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet, search_term: str
    ) -> tuple[QuerySet, bool]:
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            return queryset.filter(pk=uuid.UUID(term)), False
        except ValueError:
            pass
        seated = MatchEvent.objects.filter(
            type="player_joined", payload__name__icontains=term
        ).values("match_id")
        found = queryset.filter(
            Q(player0__username__icontains=term)
            | Q(player1__username__icontains=term)
            | Q(player0__tavla_profile__display_name__icontains=term)
            | Q(player1__tavla_profile__display_name__icontains=term)
            | Q(pk__in=seated)
        )
        return found, False

    @admin.display(description="match", ordering="created_at")
    def short_id(self, obj: Match) -> str:
        return str(obj.pk)[:8]

    @admin.display(description="players")
    def players(self, obj: Match) -> str:
        return format_html(
            "<span style='white-space:nowrap'>{}</span> <span style='color:#888'>v</span> "
            "<span style='white-space:nowrap'>{}</span>",
            self._name(obj, 0),
            self._name(obj, 1),
        )

    @staticmethod
    def _name(obj: Match, seat: int) -> str:
        """The name the player chose (his username as a tooltip), or the seated name."""
        user = getattr(obj, f"player{seat}")
        name = getattr(obj, f"name{seat}", None)
        if user is not None:
            return format_html(
                "<span title='{}'>{}</span>", user.get_username(), display_name(user)
            )
        return name or "—"

    @admin.display(description="started", ordering="started_at")
    def started(self, obj: Match) -> str:
        return _when(obj.started_at)

    @admin.display(description="last move", ordering="last_move_at")
    def last_move(self, obj: Match) -> str:
        return _when(obj.last_move_at)

    @admin.display(description="length", ordering="length")
    def length_display(self, obj: Match) -> str:
        return "money" if obj.length == 0 else str(obj.length)

    @admin.display(description="score")
    def score(self, obj: Match) -> str:
        return f"{obj.score0}\u2013{obj.score1}"  # an en dash

    @admin.display(description="result (ended by)", ordering="ended_by")
    def result(self, obj: Match) -> str:
        if obj.status == Match.Status.ABORTED:
            return "aborted"
        if obj.winner is None:
            return "\u2014"
        return format_html(
            "{} won<br><span style='color:#666'>({})</span>",
            self._name(obj, obj.winner),
            obj.get_ended_by_display().lower(),
        )

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> Any:
        extra = {
            "dice_url": reverse("admin:matches_match_dice"),
            "outliers_url": reverse("admin:matches_match_analysis_outliers"),
            **(extra_context or {}),
        }
        return super().changelist_view(request, extra)

    # -- the match page ----------------------------------------------------------------------

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        match = self.get_object(request, object_id)
        extra: dict[str, Any] = dict(extra_context or {})
        if match is not None:
            data = admin_views.replay_match(match)
            players = []
            for seat in (0, 1):
                user = getattr(match, f"player{seat}")
                players.append(
                    {
                        "seat": seat,
                        "name": data.names[seat],
                        "user": user,
                        "user_url": reverse("admin:auth_user_change", args=[user.pk])
                        if user is not None
                        else "",
                    }
                )
            extra.update(
                replay=data,
                players=players,
                last_seq=len(data.frames),
                may_abort=admin_views.may_abort(request, match),
                may_mark_unrated=player_admin.may_mark_unrated(request, match),
                rating_changes=player_admin.match_ratings(match),
                may_suspend=admin_views.may_suspend(request),
                winner_name=data.names[match.winner] if match.winner is not None else "",
                exports_mat=admin_views.exports_mat(match),
                **analysis_admin.match_analysis(match),
            )
        return super().change_view(request, object_id, form_url, extra)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view

        def bind(func: Any) -> Any:
            return view(lambda request, *args, **kw: func(self, request, *args, **kw))

        return [
            path("dice/", bind(admin_views.dice_view), name="matches_match_dice"),
            path(
                "analysis-outliers/",
                bind(analysis_admin.outliers_view),
                name="matches_match_analysis_outliers",
            ),
            path(
                "<path:object_id>/board/<int:seq>/",
                bind(admin_views.board_view),
                name="matches_match_board",
            ),
            path(
                "<path:object_id>/board/<int:seq>.svg",
                bind(admin_views.board_svg_view),
                name="matches_match_board_svg",
            ),
            path(
                "<path:object_id>/export.mat",
                bind(admin_views.export_view),
                name="matches_match_export",
            ),
            path(
                "<path:object_id>/abort/",
                bind(admin_views.abort_view),
                name="matches_match_abort",
            ),
            path(
                "<path:object_id>/unrated/",
                bind(player_admin.unrated_view),
                name="matches_match_unrated",
            ),
            *super().get_urls(),
        ]


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """The raw stream, read-only: for looking at a payload exactly as it is stored."""

    list_display = ("match_link", "seq", "type", "actor", "created_at", "board")
    list_display_links = ("seq",)
    list_filter = ("type", ("created_at", admin.DateFieldListFilter))
    search_fields = ("actor__username",)
    search_help_text = "A match id, or the username of the acting user."
    list_select_related = ("match", "actor")
    ordering = ("-pk",)  # newest first, by the primary key's index
    fields = ("match", "seq", "type", "payload", "actor", "created_at", "board")
    readonly_fields = fields
    show_full_result_count = False

    def get_actions(self, request: HttpRequest) -> dict:
        return {}  # not even "delete selected"

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet, search_term: str
    ) -> tuple[QuerySet, bool]:
        term = search_term.strip()
        if not term:
            return queryset, False
        try:
            return queryset.filter(match_id=uuid.UUID(term)), False
        except ValueError:
            return queryset.filter(actor__username__icontains=term), False

    @admin.display(description="match", ordering="match_id")
    def match_link(self, obj: MatchEvent) -> str:
        url = reverse("admin:matches_match_change", args=[obj.match_id])
        return format_html('<a href="{}">{}</a>', url, str(obj.match_id)[:8])

    @admin.display(description="board")
    def board(self, obj: MatchEvent) -> str:
        url = reverse("admin:matches_match_board", args=[obj.match_id, obj.seq])
        return format_html('<a href="{}">board after #{}</a>', url, obj.seq)


@admin.register(PlayerSuspension)
class PlayerSuspensionAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """Moderation history. Suspend with the "Suspend a player" page, lift from a record."""

    list_display = ("user", "in_force", "suspended_at", "suspended_by", "reason", "lifted_at")
    list_filter = (("lifted_at", admin.EmptyFieldListFilter), "suspended_at")
    search_fields = ("user__username", "suspended_by__username", "reason")
    list_select_related = ("user", "suspended_by", "lifted_by")
    readonly_fields = (
        "user",
        "reason",
        "match",
        "suspended_by",
        "suspended_at",
        "lifted_by",
        "lifted_at",
        "lift_reason",
    )
    fields = readonly_fields

    @admin.display(description="in force", boolean=True)
    def in_force(self, obj: PlayerSuspension) -> bool:
        return obj.active

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> Any:
        extra = {"may_suspend": admin_views.may_suspend(request), **(extra_context or {})}
        return super().changelist_view(request, extra)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> Any:
        extra = {"may_suspend": admin_views.may_suspend(request), **(extra_context or {})}
        return super().change_view(request, object_id, form_url, extra)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view

        def bind(func: Any) -> Any:
            return view(lambda request, *args, **kw: func(self, request, *args, **kw))

        return [
            path(
                "suspend/", bind(admin_views.suspend_view), name="matches_playersuspension_suspend"
            ),
            path(
                "<path:object_id>/lift/",
                bind(admin_views.lift_view),
                name="matches_playersuspension_lift",
            ),
            *super().get_urls(),
        ]


from . import community_admin  # noqa: E402, F401  (issue 28: reports, sanctions, audit log)
