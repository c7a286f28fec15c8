"""What a computer player does now (`decide`), and whole matches between two players on the
rules' state machine.

`decide` is the one place that turns a player's answers (resign? double? which play? take?)
into the rules action he takes: the site's computer opponent (matches/services/computer.py)
sends it through the store, `play_match` applies it here with every action checked by the
rules, for tests (a player never makes an illegal cube action) and for measuring cube
decisions (benchmarks/bots_bench.py --cube).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.rules import (
    AcceptResign,
    Action,
    Dice,
    Double,
    Drop,
    MatchSettings,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    RejectResign,
    Resign,
    Roll,
    Take,
    apply,
)

from .base import Player

MAX_ACTIONS = 20_000
"""A guard: a 25-point match between sane players takes a few thousand actions."""


def decide(player: Player, state: MatchState, seat: int, roll: Callable[[], Dice]) -> Action:
    """What `player`, on `seat`, does now that he must act: resign, double or roll (with the
    dice `roll` gives: the server's, or a seeded simulation's), his play, take or drop,
    accept or reject. Either game: in long nardy the rules never offer the cube
    (`may_double` is false) and the player is told whether this is his first turn of the
    game (the head rule's exception)."""
    phase = state.phase
    if phase == Phase.ROLL:
        value = player.resign_value(state, seat)
        if value:
            return Resign(seat, value)
        if state.may_double(seat) and player.should_double(state, seat):
            return Double(seat)
        return Roll(seat, roll())
    if phase == Phase.PLAY and state.dice is not None:
        view = state.position_for(seat)
        play = player.choose_play(view, state.dice, first_turn=state.first_turn[seat])
        return Move(seat, play.steps if play is not None else ())
    if phase == Phase.DOUBLED:
        return Take(seat) if player.should_take(state, seat) else Drop(seat)
    if phase == Phase.RESIGNING:
        if player.accept_resignation(state, seat):
            return AcceptResign(seat)
        return RejectResign(seat)
    raise ValueError(f"seat {seat} has nothing to do in phase {phase}")


def next_action(players: tuple[Player, Player], state: MatchState, rng: random.Random) -> Action:
    """What the player who must act now does (dice come from `rng`)."""
    if state.phase == Phase.OPENING:
        return OpeningRoll(rng.randint(1, 6), rng.randint(1, 6))
    seat = state.to_act
    if seat is None:
        raise ValueError(f"nobody acts in phase {state.phase}")
    return decide(players[seat], state, seat, lambda: Dice.of(rng.randint(1, 6), rng.randint(1, 6)))


def play_match(
    players: tuple[Player, Player], settings: MatchSettings, seed: int
) -> tuple[MatchState, list[Action]]:
    """Play a match to its end (money play: one game); the final state and every action."""
    rng = random.Random(seed)
    state = MatchState.new(settings)
    actions: list[Action] = []
    for _ in range(MAX_ACTIONS):
        if state.is_over or (settings.is_money and state.games):
            return state, actions
        action = next_action(players, state, rng)
        state = apply(state, action)
        actions.append(action)
    raise RuntimeError(f"match with seed {seed} did not end in {MAX_ACTIONS} actions")
