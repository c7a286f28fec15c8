"""Admin of issue 28 (players among players): reports, chat lines, sanctions, the audit log.

- Reports: the report, the reported line with the lines around it (as plain text: a line is
  never rendered as HTML here either), the match; "Sanction this player" opens the sanction
  form filled in; closing reports is an action (logged).
- Chat lines: read-only (the table is append-only).
- Sanctions: mute for a time, ban from chat, ban from play, each with a note, given through
  `services.reports.sanction` (which writes the audit log); lifting is an action (logged).
- The audit log: read-only for everyone, superusers too (the table refuses changes itself).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from matches.services import reports
from matches.store.community_models import ChatMessage, ModerationAction, Report, Sanction

from .readonly import ReadOnlyAdmin

AROUND = 5  # lines shown before and after the reported one


def line_text(line: ChatMessage) -> str:
    """One chat line as plain text (escaped by the admin like any other text)."""
    said = line.text if line.text is not None else f"[{line.quick}]"
    when = timezone.localtime(line.created_at).strftime("%H:%M:%S")
    return f"#{line.pk} {when} {line.author.get_username()} ({line.channel}): {said}"


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ("id", "created_at", "status", "reason", "player", "reporter", "message_text")
    list_filter = ("status", "reason", "created_at")
    search_fields = ("player__username", "reporter__username", "text")
    list_select_related = ("player", "reporter", "message")
    readonly_fields = (
        "reporter",
        "player",
        "reason",
        "text",
        "status",
        "created_at",
        "match_link",
        "message_text",
        "lines_around",
        "sanction_link",
        "history",
    )
    fields = readonly_fields
    actions = ("close_reports",)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="reported line")
    def message_text(self, obj: Report) -> str:
        return line_text(obj.message) if obj.message is not None else "\u2014"

    @admin.display(description="the lines around it")
    def lines_around(self, obj: Report) -> str:
        """The reported line with the lines said just before and after it in the match."""
        if obj.message is None:
            return "\u2014"
        in_match = ChatMessage.objects.filter(match_id=obj.message.match_id).select_related(
            "author"
        )
        before = list(in_match.filter(id__lt=obj.message_id).order_by("-id")[:AROUND])
        after = list(in_match.filter(id__gte=obj.message_id).order_by("id")[: AROUND + 1])
        lines = [*reversed(before), *after]
        return "\n".join(
            ("> " if line.pk == obj.message_id else "  ") + line_text(line) for line in lines
        )

    @admin.display(description="match")
    def match_link(self, obj: Report) -> str:
        if obj.match_id is None:
            return "\u2014"
        url = reverse("admin:matches_match_change", args=[obj.match_id])
        return format_html('<a href="{}">{}</a>', url, str(obj.match_id))

    @admin.display(description="act")
    def sanction_link(self, obj: Report) -> str:
        url = reverse("admin:matches_sanction_add")
        return format_html(
            '<a href="{}?user={}&amp;report={}">Sanction this player</a>',
            url,
            obj.player_id,
            obj.pk,
        )

    @admin.display(description="staff actions on this report")
    def history(self, obj: Report) -> str:
        rows = obj.actions.select_related("staff").order_by("id")
        return "\n".join(
            f"{a.created_at:%Y-%m-%d %H:%M} {a.staff} {a.kind}: {a.note}" for a in rows
        )

    @admin.action(description="Close the selected reports")
    def close_reports(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        for found in queryset:
            reports.close(report=found, by=request.user, note=f"closed by {request.user}")
        self.message_user(request, f"{queryset.count()} reports closed.", messages.SUCCESS)

    def has_close_reports_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("matches.add_sanction")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    list_display = ("id", "created_at", "match_id", "channel", "author", "text", "quick")
    list_filter = ("channel", "created_at")
    search_fields = ("author__username", "text")
    list_select_related = ("author",)
    fields = ("match", "channel", "author", "text", "quick", "created_at")
    readonly_fields = fields


DURATIONS = [
    ("60", "1 hour"),
    ("1440", "1 day"),
    ("10080", "7 days"),
    ("43200", "30 days"),
    ("0", "until lifted (not for a mute)"),
]


class SanctionForm(forms.ModelForm):
    duration = forms.ChoiceField(choices=DURATIONS, initial="60", help_text="From now.")

    class Meta:
        model = Sanction
        fields = ("user", "kind", "duration", "note", "report")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == "mute" and data.get("duration") == "0":
            raise forms.ValidationError("A mute is for a time: choose how long.")
        return data


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """Give a sanction (with a note); it is never edited, only lifted (both logged)."""

    form = SanctionForm
    list_display = ("user", "kind", "until", "in_force", "by", "created_at", "lifted_at", "note")
    list_filter = ("kind", ("lifted_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "note")
    list_select_related = ("user", "by")
    raw_id_fields = ("user", "report")
    actions = ("lift",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ()
        return ("user", "kind", "until", "note", "report", "by", "created_at", "lifted_at")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ("user", "kind", "duration", "note", "report")
        return self.get_readonly_fields(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="in force", boolean=True)
    def in_force(self, obj: Sanction) -> bool:
        return obj.in_force(timezone.now())

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        """Through the service, which writes the audit log in the same transaction."""
        minutes = int(form.cleaned_data["duration"])
        until = timezone.now() + timedelta(minutes=minutes) if minutes else None
        given = reports.sanction(
            user=obj.user,
            kind=obj.kind,
            by=request.user,
            note=obj.note,
            until=until,
            report=obj.report,
        )
        obj.pk, obj.until, obj.by, obj.created_at = (
            given.pk,
            given.until,
            given.by,
            given.created_at,
        )
        obj._state.adding = False

    @admin.action(description="Lift the selected sanctions")
    def lift(self, request: HttpRequest, queryset: QuerySet[Sanction]) -> None:
        for found in queryset:
            reports.lift(sanction=found, by=request.user, note=f"lifted by {request.user}")
        self.message_user(request, "Lifted.", messages.SUCCESS)

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("matches.add_sanction")


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin, admin.ModelAdmin):
    """The audit log: every staff action, never changed nor deleted."""

    list_display = ("id", "created_at", "staff", "kind", "player", "until", "report", "note")
    list_filter = ("kind", "created_at")
    search_fields = ("player__username", "staff__username", "note")
    list_select_related = ("staff", "player", "report")
    fields = ("created_at", "staff", "kind", "player", "until", "note", "report", "sanction")
    readonly_fields = fields
    actions = None
