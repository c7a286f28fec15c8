"""Django loads an app's tables from `<app>.models`; ours live in the store."""

from .store.models import Match, MatchClock, MatchEvent, MatchPresence, PlayerSuspension

__all__ = ["Match", "MatchClock", "MatchEvent", "MatchPresence", "PlayerSuspension"]
