"""Reads: the state of one match from a caller's side, and the lists of matches."""

from .state import (
    Side,
    acting_seat,
    board_json,
    live_matches,
    match_state,
    match_summary,
    matches_of,
    next_steps_json,
    open_challenges,
    plays_json,
    side_for,
)

__all__ = [
    "Side",
    "acting_seat",
    "board_json",
    "live_matches",
    "match_state",
    "match_summary",
    "matches_of",
    "next_steps_json",
    "open_challenges",
    "plays_json",
    "side_for",
]
