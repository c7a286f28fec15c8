"""Django loads an app's tables from `<app>.models`; ours live in the store."""

from .store.analysis_models import MatchAnalysis
from .store.community_models import (
    Block,
    Challenge,
    ChatMessage,
    Follow,
    ModerationAction,
    PlayerOnline,
    Report,
    Sanction,
)
from .store.models import (
    Match,
    MatchClock,
    MatchEvent,
    MatchLobby,
    MatchPresence,
    PlayerProfile,
    PlayerSuspension,
)
from .store.tournament_models import Tournament, TournamentEvent, TournamentMatch

__all__ = [
    "Block",
    "Challenge",
    "ChatMessage",
    "Follow",
    "Match",
    "MatchAnalysis",
    "MatchClock",
    "MatchEvent",
    "MatchLobby",
    "MatchPresence",
    "ModerationAction",
    "PlayerOnline",
    "PlayerProfile",
    "PlayerSuspension",
    "Report",
    "Sanction",
    "Tournament",
    "TournamentEvent",
    "TournamentMatch",
]
