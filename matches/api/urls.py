"""Routes of API v1 (mounted at /api/v1/ by matches/urls.py)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from . import auth_views, rules_views, views

M = "matches/<str:match_id>"

urlpatterns = [
    # accounts
    path("auth/signup", auth_views.SignupView.as_view(), name="signup"),
    path("auth/login", auth_views.LoginView.as_view(), name="login"),
    path("auth/logout", auth_views.LogoutView.as_view(), name="logout"),
    path("auth/guest", auth_views.GuestView.as_view(), name="guest"),
    path("me", auth_views.MeView.as_view(), name="me"),
    # lobby
    path("matches", views.MatchListCreateView.as_view(), name="matches"),
    path("matches/challenges", views.ChallengeListView.as_view(), name="challenges"),
    path("matches/live", views.LiveListView.as_view(), name="live"),
    path("matches/import", views.ImportView.as_view(), name="import"),
    path("invites/<str:code>", views.InviteView.as_view(), name="invite"),
    path("invites/<str:code>/join", views.InviteJoinView.as_view(), name="invite-join"),
    # one match
    path(M, views.MatchDetailView.as_view(), name="match"),
    path(f"{M}/join", views.JoinView.as_view(), name="join"),
    path(f"{M}/abort", views.AbortView.as_view(), name="abort"),
    path(f"{M}/rematch", views.RematchView.as_view(), name="rematch"),
    path(f"{M}/roll", views.RollView.as_view(), name="roll"),
    path(f"{M}/play", views.PlayView.as_view(), name="play"),
    path(f"{M}/double", views.DoubleView.as_view(), name="double"),
    path(f"{M}/take", views.TakeView.as_view(), name="take"),
    path(f"{M}/drop", views.DropView.as_view(), name="drop"),
    path(f"{M}/resign", views.ResignView.as_view(), name="resign"),
    path(f"{M}/accept", views.AcceptView.as_view(), name="accept"),
    path(f"{M}/reject", views.RejectView.as_view(), name="reject"),
    path(f"{M}/legal-next-steps", views.NextStepsView.as_view(), name="legal-next-steps"),
    path(f"{M}/events", views.EventsView.as_view(), name="events"),
    path(f"{M}/heartbeat", views.HeartbeatView.as_view(), name="heartbeat"),
    path(f"{M}/export", views.ExportView.as_view(), name="export"),
    # stateless rules
    path("rules/legal-plays", rules_views.LegalPlaysView.as_view(), name="legal-plays"),
    path(
        "rules/legal-next-steps",
        rules_views.RulesNextStepsView.as_view(),
        name="rules-legal-next-steps",
    ),
    path("rules/levels", rules_views.LevelsView.as_view(), name="levels"),
    # documentation
    path("schema", SpectacularAPIView.as_view(api_version="v1"), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="matches:schema"), name="docs"),
    path("redoc", SpectacularRedocView.as_view(url_name="matches:schema"), name="redoc"),
]
