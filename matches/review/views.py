"""The admin's review pages and the staff actions.

Nothing here changes an event. The pages show the pure replay of `frames` (loaded here: the
events, who acted, the players' names); the actions (abort, suspend, lift) are the services'
(matches/services/moderation.py), with the permission checks and forms here.

The views are mounted by `matches.admin` under the admin site (`admin_view` requires an
active staff user); each also checks the model permission it needs.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone

from games.rules import RulesError, Variant, find_game
from matches.errors import MatchNotFound, StoreError
from matches.interop.exporting import match_to_mat
from matches.selectors import display_name
from matches.services import moderation
from matches.store.events import PlayerJoined
from matches.store.models import Match, PlayerSuspension
from matches.store.replay import StoredEvent
from matches.store.streams import stored_events

from . import dice_stats
from .board_svg import board_svg
from .frames import Frame, NoSuchEvent, Replay, build_replay, picture, position_facts

# -- loading a match's replay ------------------------------------------------------------------


def replay_match(match: Match) -> Replay:
    """The replay of a stored match, with who acted and the players' chosen names."""
    events = stored_events(match.pk)
    seated = [s.user_id for s in _seats(events)]
    users = (
        get_user_model()
        .objects.filter(
            pk__in={i for i in [*seated, *(e.actor_id for e in events)] if i is not None}
        )
        .select_related("tavla_profile")
    )
    display = {u.pk: display_name(u) for u in users}
    return build_replay(match.pk, events, display, display)


def _seats(events: list[StoredEvent]) -> list[PlayerJoined]:
    return [e.event for e in events if e.type == "player_joined"]  # type: ignore[misc]


def _frame(data: Replay, seq: int) -> Frame:
    try:
        return data.frame(seq)
    except NoSuchEvent as exc:
        raise Http404(str(exc)) from None


# -- views -----------------------------------------------------------------------------------


def match_or_404(match_id: Any) -> Match:
    try:
        return get_object_or_404(Match, pk=UUID(str(match_id)))
    except ValueError:
        raise Http404("no such match") from None


def board_view(model_admin: Any, request: HttpRequest, object_id: str, seq: int) -> Any:
    """The board at event `seq` of a match, with navigation through the match."""
    match = match_or_404(object_id)
    if not model_admin.has_view_permission(request, match):
        raise PermissionDenied
    if request.GET.get("seq", "").isdigit():  # the "go to" box without JavaScript
        url = reverse("admin:matches_match_board", args=[match.pk, int(request.GET["seq"])])
        return HttpResponseRedirect(url)
    data = replay_match(match)
    if not data.frames:
        raise Http404("this match has no events")
    frame = _frame(data, seq)
    names = data.names
    svg = board_svg(picture(frame, names))
    last = len(data.frames)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Match._meta,
        "title": f"Board at event {seq} of {last}",
        "match": match,
        "frame": frame,
        "svg": svg,
        "facts": position_facts(frame, names),
        "names": names,
        "last_seq": last,
        "prev_seq": seq - 1 if seq > 1 else None,
        "next_seq": seq + 1 if seq < last else None,
        "games": data.games,
        "nearby": data.frames[max(0, seq - 6) : min(last, seq + 5)],
        "clock_settings": match.clock,
        "exports_mat": exports_mat(match),
    }
    return TemplateResponse(request, "admin/matches/match/board.html", context)


def board_svg_view(model_admin: Any, request: HttpRequest, object_id: str, seq: int) -> Any:
    """The picture alone, as an SVG document (to save or attach to a support ticket)."""
    match = match_or_404(object_id)
    if not model_admin.has_view_permission(request, match):
        raise PermissionDenied
    data = replay_match(match)
    frame = _frame(data, seq)
    svg = board_svg(picture(frame, data.names))
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="tavla-{match.pk}-{seq}.svg"'
    return response


def exports_mat(match: Match) -> bool:
    """Whether the match can be exported as a .mat file: gnubg's format, for the games gnubg's
    IDs describe."""
    return find_game(match.game).has_gnubg_ids


def export_view(model_admin: Any, request: HttpRequest, object_id: str) -> Any:
    """The match as a gnubg .mat file, downloaded."""
    match = match_or_404(object_id)
    if not model_admin.has_view_permission(request, match):
        raise PermissionDenied
    if not exports_mat(match):
        raise Http404(f"the .mat format has no {find_game(match.game).title}")
    try:
        text = match_to_mat(match.pk)
    except MatchNotFound:
        raise Http404("this match has no events") from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tavla-{match.pk}.mat"'
    return response


class AbortForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Recorded in the match's aborted event, with your username.",
    )


def may_abort(request: HttpRequest, match: Match) -> bool:
    """Staff with the change permission on matches may abort a match that is not over."""
    return request.user.has_perm("matches.change_match") and match.status in (
        Match.Status.WAITING,
        Match.Status.ACTIVE,
    )


def abort_view(model_admin: Any, request: HttpRequest, object_id: str) -> Any:
    match = match_or_404(object_id)
    if not request.user.has_perm("matches.change_match"):
        raise PermissionDenied
    change_url = reverse("admin:matches_match_change", args=[match.pk])
    if not may_abort(request, match):
        messages.error(request, f"This match is {match.get_status_display().lower()}.")
        return HttpResponseRedirect(change_url)
    form = AbortForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            moderation.staff_abort(
                match_id=match.pk, by=request.user, reason=form.cleaned_data["reason"]
            )
        except (RulesError, StoreError) as exc:  # refused: say why, nothing was written
            messages.error(request, f"The match was not aborted: {exc}")
        else:
            messages.success(request, "The match was aborted; the reason is in its events.")
        return HttpResponseRedirect(change_url)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Match._meta,
        "title": "Abort match",
        "match": match,
        "form": form,
    }
    return TemplateResponse(request, "admin/matches/match/abort.html", context)


# -- dice statistics ---------------------------------------------------------------------------

PERIODS = {"all": None, "365": 365, "30": 30, "7": 7}
GAMES = [v.value for v in Variant]


def dice_view(model_admin: Any, request: HttpRequest) -> Any:
    if not model_admin.has_view_permission(request):
        raise PermissionDenied
    username = request.GET.get("player", "").strip()
    side = request.GET.get("side", "own")
    period = request.GET.get("period", "all")
    game = request.GET.get("game", "")
    if game not in GAMES:
        game = ""
    days = PERIODS.get(period)
    since = timezone.now() - timedelta(days=days) if days else None
    player = None
    error = ""
    if "\x00" in username:  # PostgreSQL refuses it in a query: a clear answer, not a 500
        error = f"No user is called {username!r}: a username has no NUL character."
    elif username:
        player = get_user_model().objects.filter(username=username).first()
        if player is None:
            error = f"No user is called {username!r}."
    if player is not None:
        report = dice_stats.player_report(
            player, opponents=side == "opponents", since=since, game=game or None
        )
    else:
        report = dice_stats.site_report(since=since, game=game or None)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Match._meta,
        "title": f"Dice statistics: {report.subject}",
        "report": report,
        "player": player,
        "username": username,
        "side": side,
        "period": period,
        "game": game,
        "games": [("", "every game"), *((g, g) for g in GAMES)],
        "periods": [("all", "all time"), ("365", "last year"), ("30", "30 days"), ("7", "7 days")],
        "error": error,
        "min_expected": dice_stats.MIN_EXPECTED,
        "alpha": dice_stats.ALPHA,
    }
    status = 400 if error and "\x00" in username else 200
    return TemplateResponse(request, "admin/matches/dice_stats.html", context, status=status)


# -- moderation: suspending a player -----------------------------------------------------------


class SuspendForm(forms.Form):
    username = forms.CharField(max_length=150)
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60}),
        help_text="Kept in the player's moderation history with your username and the time.",
    )
    match = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_username(self) -> Any:
        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(f"No user is called {name!r}.")
        if user.pk == self.request.user.pk:
            raise forms.ValidationError("You cannot suspend yourself.")
        if user.is_superuser and not self.request.user.is_superuser:
            raise forms.ValidationError("Only a superuser can suspend a superuser.")
        if not user.is_active:
            raise forms.ValidationError(f"{name} is already inactive.")
        return user

    def clean_match(self) -> Match | None:
        pk = self.cleaned_data.get("match")
        return Match.objects.filter(pk=pk).first() if pk else None


def may_suspend(request: HttpRequest) -> bool:
    return request.user.has_perm("matches.add_playersuspension") and request.user.has_perm(
        "auth.change_user"
    )


def suspend_view(model_admin: Any, request: HttpRequest) -> Any:
    if not may_suspend(request):
        raise PermissionDenied
    initial = {}
    status = 200
    if "user" in request.GET:
        raw = request.GET["user"]
        target = None
        if raw.isascii() and raw.isdigit() and len(raw) < 19:
            target = get_user_model().objects.filter(pk=int(raw)).first()
        else:  # a link to this page names the user by id: anything else is a bad link
            messages.error(request, f"?user= takes a user's id (a number), not {raw!r}.")
            status = 400
        if target is not None:
            initial["username"] = target.get_username()
    if "match" in request.GET:
        initial["match"] = request.GET["match"]
    form = SuspendForm(request.POST or None, initial=initial, request=request)
    if request.method == "POST" and form.is_valid():
        target = form.cleaned_data["username"]
        record = moderation.suspend(
            user=target,
            by=request.user,
            reason=form.cleaned_data["reason"],
            match=form.cleaned_data["match"],
        )
        messages.success(request, f"Suspended {target.get_username()}: the account is inactive.")
        return HttpResponseRedirect(
            reverse("admin:matches_playersuspension_change", args=[record.pk])
        )
    recent = PlayerSuspension.objects.none()
    if initial.get("username"):
        recent = PlayerSuspension.objects.filter(user__username=initial["username"])[:10]
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": PlayerSuspension._meta,
        "title": "Suspend a player",
        "form": form,
        "history": recent,
    }
    return TemplateResponse(
        request, "admin/matches/playersuspension/suspend.html", context, status=status
    )


class LiftForm(forms.Form):
    reason = forms.CharField(
        max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3, "cols": 60})
    )


def lift_view(model_admin: Any, request: HttpRequest, object_id: str) -> Any:
    if not may_suspend(request):
        raise PermissionDenied
    record = get_object_or_404(PlayerSuspension, pk=object_id)
    url = reverse("admin:matches_playersuspension_change", args=[record.pk])
    if record.lifted_at is not None:
        messages.info(request, "This suspension was already lifted.")
        return HttpResponseRedirect(url)
    form = LiftForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        moderation.lift(suspension=record, by=request.user, reason=form.cleaned_data["reason"])
        record.refresh_from_db()
        record.user.refresh_from_db()
        state = "active again" if record.user.is_active else "still suspended by another record"
        messages.success(request, f"Suspension lifted: {record.user} is {state}.")
        return HttpResponseRedirect(url)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": PlayerSuspension._meta,
        "title": f"Lift the suspension of {record.user}",
        "form": form,
        "record": record,
    }
    return TemplateResponse(request, "admin/matches/playersuspension/lift.html", context)
