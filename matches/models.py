"""Django loads an app's tables from `<app>.models`; ours live in the store."""

from .store.analysis_models import MatchAnalysis
from .store.models import (
    Match,
    MatchClock,
    MatchEvent,
    MatchLobby,
    MatchPresence,
    PlayerProfile,
    PlayerSuspension,
)

__all__ = [
    "Match",
    "MatchAnalysis",
    "MatchClock",
    "MatchEvent",
    "MatchLobby",
    "MatchPresence",
    "PlayerProfile",
    "PlayerSuspension",
]
