"""Admin: matches are browsed and reviewed here; their events can be read, never edited."""

from django.contrib import admin
from django.http import HttpRequest

from .models import Match, MatchEvent


class MatchEventInline(admin.TabularInline):
    model = MatchEvent
    fields = ("seq", "type", "payload", "actor", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "mode", "length", "status", "score0", "score1", "version", "created_at")
    list_filter = ("status", "mode", "length", "cube")
    search_fields = ("id", "player0__username", "player1__username")
    date_hierarchy = "created_at"
    raw_id_fields = ("player0", "player1")
    inlines = (MatchEventInline,)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # events protect their match; aborting is a command, not a delete


@admin.register(MatchEvent)
class MatchEventAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "type", "actor", "created_at")
    list_filter = ("type",)
    search_fields = ("match__id",)
    list_select_related = ("match", "actor")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
