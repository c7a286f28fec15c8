"""Routes of API v1 (mounted at /api/v1/ by matches/urls.py)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from .views import (
    accounts,
    analysis,
    commands,
    community,
    history,
    lobby,
    matches,
    players,
    root,
    seeks,
    tournaments,
)
from .views import rules as rules_service

M = "matches/<str:match_id>"
REDOC_PAGE = "tavla_api/redoc.html"  # without the web fonts from a CDN: works offline

urlpatterns = [
    path("", root.IndexView.as_view(), name="index"),
    # accounts
    path("auth/signup", accounts.SignupView.as_view(), name="signup"),
    path("auth/login", accounts.LoginView.as_view(), name="login"),
    path("auth/logout", accounts.LogoutView.as_view(), name="logout"),
    path("auth/guest", accounts.GuestView.as_view(), name="guest"),
    path("me", accounts.MeView.as_view(), name="me"),
    # lobby
    path("matches", matches.MatchesView.as_view(), name="matches"),
    path("matches/challenges", matches.ChallengesView.as_view(), name="challenges"),
    path("matches/live", matches.LiveView.as_view(), name="live"),
    path("matches/import", history.ImportView.as_view(), name="import"),
    path("invites/<str:code>", lobby.InviteView.as_view(), name="invite"),
    path("invites/<str:code>/join", lobby.InviteJoinView.as_view(), name="invite-join"),
    # one match
    path(M, matches.MatchDetailView.as_view(), name="match"),
    path(f"{M}/join", lobby.JoinView.as_view(), name="join"),
    path(f"{M}/abort", commands.AbortView.as_view(), name="abort"),
    path(f"{M}/rematch", lobby.RematchView.as_view(), name="rematch"),
    path(f"{M}/roll", commands.RollView.as_view(), name="roll"),
    path(f"{M}/play", commands.PlayView.as_view(), name="play"),
    path(f"{M}/double", commands.DoubleView.as_view(), name="double"),
    path(f"{M}/take", commands.TakeView.as_view(), name="take"),
    path(f"{M}/drop", commands.DropView.as_view(), name="drop"),
    path(f"{M}/resign", commands.ResignView.as_view(), name="resign"),
    path(f"{M}/resign-match", commands.ResignMatchView.as_view(), name="resign-match"),
    path(f"{M}/accept", commands.AcceptView.as_view(), name="accept"),
    path(f"{M}/reject", commands.RejectView.as_view(), name="reject"),
    path(f"{M}/legal-next-steps", commands.NextStepsView.as_view(), name="legal-next-steps"),
    # events (long-poll) and stream (SSE): matches/streams/urls.py, mounted beside these
    path(f"{M}/heartbeat", commands.HeartbeatView.as_view(), name="heartbeat"),
    path(f"{M}/boards", history.BoardsView.as_view(), name="boards"),
    path(f"{M}/export", history.ExportView.as_view(), name="export"),
    path(f"{M}/analysis", analysis.AnalysisView.as_view(), name="analysis"),
    path(f"{M}/hint", analysis.HintView.as_view(), name="hint"),
    # players, ratings, quick pairing (docs/ratings.md)
    path("players/<str:name>", players.PlayerView.as_view(), name="player"),
    path("players/<str:name>/matches", players.PlayerMatchesView.as_view(), name="player-matches"),
    path("players/<str:name>/ratings", players.PlayerRatingsView.as_view(), name="player-ratings"),
    path("leaderboard", players.LeaderboardView.as_view(), name="leaderboard"),
    path("seeks", seeks.SeeksView.as_view(), name="seeks"),
    path("seeks/<str:seek_id>", seeks.SeekView.as_view(), name="seek"),
    # tournaments (docs/tournaments.md)
    path("tournaments", tournaments.TournamentsView.as_view(), name="tournaments"),
    path(
        "tournaments/<str:tournament_id>", tournaments.TournamentView.as_view(), name="tournament"
    ),
    path(
        "tournaments/<str:tournament_id>/join",
        tournaments.TournamentJoinView.as_view(),
        name="tournament-join",
    ),
    path(
        "tournaments/<str:tournament_id>/leave",
        tournaments.TournamentLeaveView.as_view(),
        name="tournament-leave",
    ),
    path(
        "tournaments/<str:tournament_id>/standings",
        tournaments.TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    # stateless rules
    path("rules/legal-plays", rules_service.LegalPlaysView.as_view(), name="legal-plays"),
    path(
        "rules/legal-next-steps",
        rules_service.RulesNextStepsView.as_view(),
        name="rules-legal-next-steps",
    ),
    path("rules/levels", rules_service.LevelsView.as_view(), name="levels"),
    path("rules/games", rules_service.GamesView.as_view(), name="rules-games"),
    # players among players (issue 28: chat, follows, blocks, challenges, reports)
    path(f"{M}/chat", community.ChatView.as_view(), name="chat"),
    path("players/<str:name>/follow", community.FollowView.as_view(), name="player-follow"),
    path("players/<str:name>/block", community.BlockView.as_view(), name="player-block"),
    path("me/following", community.FollowingView.as_view(), name="me-following"),
    path("me/blocked", community.BlockedView.as_view(), name="me-blocked"),
    path("challenges", community.ChallengesView.as_view(), name="direct-challenges"),
    path("challenges/<str:challenge_id>", community.ChallengeView.as_view(), name="challenge"),
    path(
        "challenges/<str:challenge_id>/accept",
        community.ChallengeAcceptView.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenges/<str:challenge_id>/decline",
        community.ChallengeDeclineView.as_view(),
        name="challenge-decline",
    ),
    path("reports", community.ReportsView.as_view(), name="reports"),
    # documentation
    path("schema", SpectacularAPIView.as_view(api_version="v1"), name="schema"),
    path("docs", SpectacularSwaggerView.as_view(url_name="matches:schema"), name="docs"),
    path(
        "redoc",
        SpectacularRedocView.as_view(url_name="matches:schema", template_name=REDOC_PAGE),
        name="redoc",
    ),
]
