"""The admin's tournaments: staff create one (the service checks its settings and schedules its
start), cancel it, remove a player (his unfinished match resigned for him), enter the site's
computer at a level, and read its
events. Every change goes through matches/services/tournaments.py: the forms only collect."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from games import bots
from games.rules import GAMES, Variant
from matches.services import tournaments
from matches.store.models import PlayerProfile
from matches.store.tournament_models import Tournament, TournamentEvent
from matches.tournaments.refusals import TournamentRefused
from matches.tournaments.settings import TournamentSettings

SETTINGS_FIELDS = (
    "name", "game", "format", "length", "final_length", "rounds", "clock", "rated", "guests",
    "min_players", "max_players", "signup_opens", "starts_at",
)  # fmt: skip


class TournamentForm(forms.ModelForm):
    """New: the settings. Existing: only a player to remove."""

    name = forms.CharField(max_length=100, required=False)
    game = forms.ChoiceField(
        choices=[(game.name, game.title) for game in GAMES.values()],
        initial=Variant.TAVLA.value,
        required=False,
    )
    format = forms.ChoiceField(
        choices=[("knockout", "knockout"), ("swiss", "swiss")], required=False
    )
    length = forms.IntegerField(min_value=1, initial=3, required=False)
    final_length = forms.IntegerField(min_value=1, required=False)
    rounds = forms.IntegerField(min_value=1, required=False, help_text="Swiss only.")
    clock = forms.CharField(max_length=16, initial="site", required=False)
    rated = forms.BooleanField(initial=True, required=False)
    guests = forms.BooleanField(required=False, help_text="Unrated only.")
    min_players = forms.IntegerField(min_value=2, initial=4, required=False)
    max_players = forms.IntegerField(min_value=2, initial=64, required=False)
    signup_opens = forms.DateTimeField(required=False)
    starts_at = forms.DateTimeField(required=False)
    remove_player = forms.CharField(
        max_length=150, required=False, help_text="A username: withdrawn, his match forfeited."
    )
    enter_computer = forms.CharField(
        max_length=32,
        required=False,
        help_text="A computer level of the tournament's game (e.g. network): the site's"
        " computer joins and plays its matches by itself.",
    )

    class Meta:
        model = Tournament
        fields: tuple[str, ...] = ()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.instance._state.adding:
            return data
        values: dict[str, Any] = {
            k: self.fields[k].initial if data.get(k) in (None, "") else data[k]
            for k in SETTINGS_FIELDS
        }
        for key in ("name", "format", "starts_at"):
            if not values[key]:
                self.add_error(key, "This field is required.")
        if self.errors:
            return data
        settings = TournamentSettings(**values)
        try:
            settings.check(tuple(tournaments.clocks()))
        except TournamentRefused as exc:
            field = exc.field if exc.field in self.fields else None
            self.add_error(field, str(exc))
        data["tournament_settings"] = settings
        return data


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = (
        "name", "format", "game", "status", "players", "rounds_paired", "starts_at", "winner",
    )  # fmt: skip
    list_filter = ("status", "format", "game")
    readonly_fields = (
        "id", "status", "version", "starts_at", "players", "rounds_paired", "winner", "settings",
        "events",
    )  # fmt: skip
    actions = ("cancel",)

    def get_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        if obj is None:
            return SETTINGS_FIELDS
        return (*self.readonly_fields, "remove_player", "enter_computer")

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        return self.readonly_fields if obj is not None else ()

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="events")
    def events(self, obj: Tournament) -> str:
        """The stream, read-only: seq, type, payload, actor, time."""
        rows = TournamentEvent.objects.filter(tournament=obj).order_by("seq")
        return format_html(
            "<table>{}</table>",
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                (
                    (e.seq, e.type, json.dumps(e.payload), e.actor_id or "", e.created_at)
                    for e in rows
                ),
            ),
        )

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            row = tournaments.create(request.user, form.cleaned_data["tournament_settings"])
            obj.__dict__.update(row.__dict__)
            return
        level = form.cleaned_data.get("enter_computer")
        if level:
            self._enter_computer(request, obj, level)
        name = form.cleaned_data.get("remove_player")
        if not name:
            return
        user = get_user_model().objects.filter(username__iexact=name).first()
        try:
            if user is None:
                raise TournamentRefused("not_in_tournament")
            tournaments.leave(user.pk, obj.pk, actor_id=request.user.pk, reason="removed")
        except TournamentRefused as exc:
            self.message_user(request, f"{name}: {exc}", messages.ERROR)

    def _enter_computer(self, request: HttpRequest, obj: Tournament, level: str) -> None:
        _, state = tournaments.load(obj.pk)
        game = state.settings.game if state.settings is not None else "tavla"
        if level not in bots.levels(game):
            names = ", ".join(bots.levels(game))
            self.message_user(request, f"{level}: the levels of {game} are {names}", messages.ERROR)
            return
        try:
            tournaments.enter_computer(request.user.pk, obj.pk, level)
        except TournamentRefused as exc:
            name = PlayerProfile.computer_username(level)
            self.message_user(request, f"{name}: {exc}", messages.ERROR)

    @admin.action(description="Cancel the selected tournaments")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for row in queryset:
            try:
                tournaments.cancel(row.pk, request.user.pk)
            except TournamentRefused as exc:
                self.message_user(request, f"{row.name}: {exc}", messages.WARNING)
