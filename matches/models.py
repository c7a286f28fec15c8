"""Django loads an app's tables from `<app>.models`; ours live in the store."""

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
    "Match",
    "MatchClock",
    "MatchEvent",
    "MatchLobby",
    "MatchPresence",
    "PlayerProfile",
    "PlayerSuspension",
    "Tournament",
    "TournamentEvent",
    "TournamentMatch",
]
