"""The one judgement of a command's action by the rules: its refusal, or the state it leads to.

Every command's actions are judged here, once: the turn checked once, a play resolved once
(against the legal plays of the position, generated once per position and roll:
`matches.store.plays`), the state it leads to folded once. The command path then appends that
state with the events (matches/store/replay.py `Decided`): nothing is judged or applied again
before the append. This is the only place the command path asks the rules to judge.
"""

from __future__ import annotations

from dataclasses import dataclass

import games.rules as rules
from matches.store.dice import DiceSource
from matches.store.plays import chosen_play


@dataclass(frozen=True, slots=True)
class PlayAsked:
    """A player's play as he sent it: notation ("24/18 13/10") or steps ([[24, 18], ...])."""

    player: int
    play: str | list[object]


@dataclass(frozen=True, slots=True)
class RollAsked:
    """A player asks the server to roll for him: the dice are drawn once the turn is his."""

    player: int


Asked = rules.Action | PlayAsked | RollAsked


def judged(
    state: rules.MatchState, asked: Asked, dice: DiceSource
) -> tuple[rules.Action, rules.MatchState]:
    """The action decided and the state after it; a RulesError when the rules refuse it.

    A play (asked, or a `Move` a trusted caller decided) is the legal play it means, found
    once; a roll draws its dice only once the turn is checked (a refused roll spends none).
    Both are then folded as the facts they now are; every other action is judged by the
    rules' own `apply`."""
    if isinstance(asked, PlayAsked | rules.Move):
        rules.check_turn(state, rules.Phase.PLAY, asked.player, "move")
        if isinstance(asked, PlayAsked):
            move = rules.Move(asked.player, chosen_play(state, asked.play).steps)
        else:  # a trusted caller's play: judged as a sent one, recorded as he gave it
            chosen_play(state, [[s.frm, s.to] for s in asked.steps])
            move = asked
        return move, rules.apply(state, move, check=False)
    if isinstance(asked, RollAsked):
        rules.check_turn(state, rules.Phase.ROLL, asked.player, "roll")
        roll = rules.Roll(asked.player, dice.roll())
        return roll, rules.apply(state, roll, check=False)
    return asked, rules.apply(state, asked)
