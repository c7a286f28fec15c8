"""The legal plays of a position and roll, computed once per process.

A pure function of (position, dice, first turn), so a process-wide cache is always right: the roll
command that looks for a forced pass, the state response that lists them, the play command
that checks the choice against them and every spectator's state all share one computation.
"""

from __future__ import annotations

from functools import lru_cache

import games.rules as rules
from games.rules import Dice, Play, Position, legal_plays


@lru_cache(maxsize=8192)
def plays_of(position: Position, dice: Dice, first_turn: bool = False) -> tuple[Play, ...]:
    """`first_turn`: long nardy's head rule (a tavla position ignores it)."""
    return tuple(legal_plays(position, dice, first_turn=first_turn))


def first_turn_of(state: rules.MatchState) -> bool:
    """Whether the player on turn is on his first turn of a game with the head rule (long
    nardy: two checkers may leave the head with 6-6, 4-4, 3-3); always False in a game
    without it (tavla), so tavla keeps one cache key."""
    return state.turn is not None and state.game.head_rule and state.first_turn[state.turn]


def plays_on_turn(state: rules.MatchState) -> tuple[Play, ...]:
    """The legal plays of the player on turn (none outside the play phase)."""
    if state.phase != rules.Phase.PLAY or state.dice is None or state.turn is None:
        return ()
    return plays_of(state.position_for(state.turn), state.dice, first_turn_of(state))


def chosen_play(state: rules.MatchState, play: str | list[object]) -> Play:
    """The legal play a player sent: one of the listed plays, as the state gave it (its exact
    notation or steps), found without resolving it again; anything else the rules resolve
    against the same legal plays (other spellings, hits left out) or refuse with their
    reason."""
    if state.phase != rules.Phase.PLAY or state.dice is None or state.turn is None:
        return rules.play_for(state, play)  # refused: there is nothing to play now
    plays = plays_on_turn(state)
    for candidate in plays:
        if isinstance(play, str):
            if candidate.notation == play:
                return candidate
        elif [[s.frm, s.to] for s in candidate.steps] == play:
            return candidate
    position = state.position_for(state.turn)
    first_turn = first_turn_of(state)
    return rules.resolve_play(position, state.dice, play, first_turn=first_turn, legal=plays)
