"""Reads: the state of one match from a caller's side, and the lists of matches. Each read
returns a shape (matches/selectors/shapes.py) that the API renders and documents."""

from . import shapes
from .boards import play_boards
from .ratings import ratings_for_rows
from .state import (
    StateInputs,
    acting_seat,
    clock_json,
    display_name,
    forget_player,
    games_json,
    live_matches,
    match_state,
    match_summary,
    matches_of,
    next_steps_json,
    open_challenges,
    plays_json,
    row_side,
    rules_plays,
    side_for,
    state_inputs,
    state_of,
)

__all__ = [
    "StateInputs",
    "acting_seat",
    "clock_json",
    "display_name",
    "forget_player",
    "games_json",
    "live_matches",
    "match_state",
    "match_summary",
    "matches_of",
    "next_steps_json",
    "open_challenges",
    "play_boards",
    "plays_json",
    "ratings_for_rows",
    "row_side",
    "rules_plays",
    "shapes",
    "side_for",
    "state_inputs",
    "state_of",
]
