"""The match state machine playing long nardy (settings `game="long-nardy"`).

The opening roll only picks who rolls first (its dice are not played); the winner of a game
starts the next one (setting `next_game_starter`, default `winner` in long nardy); each
player's first turn of a game is flagged (the head exception); a game is worth 1 (oyn) or
2 (mars: the loser has borne off none); resignations offer 1 or 2; there is no cube.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.rules import (
    AcceptResign,
    Action,
    Dice,
    Double,
    EndedBy,
    GameKind,
    IllegalAction,
    IllegalPlay,
    InvalidId,
    InvalidMatchFile,
    InvalidSettings,
    LoseMatch,
    MatchSettings,
    MatchState,
    Move,
    NardyPosition,
    OpeningRoll,
    Phase,
    RejectResign,
    Resign,
    Roll,
    Starter,
    Variant,
    apply,
    export_mat,
    play_for,
    replay,
)

NARDY = MatchSettings(length=5, game=Variant.LONG_NARDY)


def new(**kw: object) -> MatchState:
    return MatchState.new(MatchSettings(game=Variant.LONG_NARDY, **kw))  # type: ignore[arg-type]


def opened(state: MatchState, first: int = 0) -> MatchState:
    return apply(state, OpeningRoll(5, 2) if first == 0 else OpeningRoll(2, 5))


def roll_and_play(state: MatchState, a: int, b: int, text: str) -> MatchState:
    assert state.turn is not None
    state = apply(state, Roll(state.turn, Dice.of(a, b)))
    return apply(state, Move(state.turn, play_for(state, text).steps))


def near_the_end(state: MatchState, winner: int, loser_off: int) -> MatchState:
    """`winner` on turn with his last checker on his 1-point; the loser has `loser_off` off."""
    theirs = 15 - loser_off
    view = NardyPosition(
        (1, *([0] * 12), -theirs, *([0] * 10)), (0, 0), (14, loser_off)
    )  # the loser's checkers on the winner's 14 (his own 2): no wall, no contact
    board = view if winner == 0 else view.flipped()
    return replace(state, board=board, turn=winner, phase=Phase.ROLL, dice=None)


# -- settings ---------------------------------------------------------------------------------


def test_the_game_setting_and_its_defaults():
    assert MatchSettings().game == Variant.TAVLA
    assert MatchSettings().next_game_starter == Starter.OPENING_ROLL
    nardy = MatchSettings(game="long-nardy")  # type: ignore[arg-type]
    assert nardy.game is Variant.LONG_NARDY and nardy == MatchSettings(game=Variant.LONG_NARDY)
    assert nardy.next_game_starter == Starter.WINNER
    again = MatchSettings(game=Variant.LONG_NARDY, next_game_starter=Starter.OPENING_ROLL)
    assert again.next_game_starter == Starter.OPENING_ROLL
    assert MatchState.new(nardy).board == NardyPosition.starting()


@pytest.mark.parametrize(
    "kw, field",
    [
        ({"cube": True}, "cube"),
        ({"jacoby": True}, "jacoby"),
        ({"length": 26}, "length"),
        ({"length": -1}, "length"),
    ],
)
def test_settings_long_nardy_refuses(kw, field):
    with pytest.raises(InvalidSettings) as refused:
        new(**kw)
    assert refused.value.field == field and refused.value.code == "invalid_settings"


def test_an_unknown_game_is_refused():
    with pytest.raises(InvalidSettings) as refused:
        MatchState.new(MatchSettings(game="plakoto"))  # type: ignore[arg-type]
    assert refused.value.field == "game"


@pytest.mark.parametrize("length", [0, 1, 3, 5, 7, 25])
def test_matches_to_1_to_25_points_and_money_play(length):
    assert new(length=length).settings.length == length


# -- the opening roll and the first turn ------------------------------------------------------


def test_the_opening_roll_picks_who_rolls_both_dice_first():
    state = new(length=3)
    assert state.phase == Phase.OPENING and state.actions_for(0) == []
    assert apply(state, OpeningRoll(4, 4)) == state  # a tie is rolled again
    state = apply(state, OpeningRoll(2, 6))
    assert (state.phase, state.turn, state.dice) == (Phase.ROLL, 1, None)
    assert state.actions_for(1) == ["roll", "resign"]  # no double: no cube
    with pytest.raises(IllegalAction):
        apply(state, Move(1, ()))  # the opening dice are not his play
    state = apply(state, Roll(1, Dice.of(6, 2)))
    assert state.phase == Phase.PLAY and state.dice == Dice.of(6, 2)


def test_both_players_first_turns_let_two_checkers_leave_the_head():
    state = opened(new())
    assert state.first_turn == (True, True)
    state = apply(state, Roll(0, Dice.of(6, 6)))
    assert [p.notation for p in state.legal_plays()] == ["24/18(2)"]
    state = apply(state, Move(0, state.legal_plays()[0].steps))
    assert state.first_turn == (False, True)
    state = apply(state, Roll(1, Dice.of(3, 3)))
    assert sorted(p.notation for p in state.legal_plays()) == ["24/15 24/21", "24/18(2)"]
    state = apply(state, Move(1, play_for(state, "24/18(2)").steps))
    assert state.first_turn == (False, False)
    state = apply(state, Roll(0, Dice.of(6, 6)))
    assert all(sum(s.frm == 24 for s in p.steps) <= 1 for p in state.legal_plays())
    with pytest.raises(IllegalPlay, match="head"):
        play_for(state, "24/18(2)")


def test_a_pass_also_uses_up_the_first_turn():
    state = opened(new())
    # All fifteen on the head; his checkers on 23..18 (and 12): every roll is blocked.
    view = NardyPosition((*([0] * 11), -9, *([0] * 5), -1, -1, -1, -1, -1, -1, 15), (0, 0), (0, 0))
    state = replace(state, board=view)
    state = apply(state, Roll(0, Dice.of(1, 1)))
    assert state.legal_plays() == []
    state = apply(state, Move(0, ()))
    assert state.first_turn == (False, True) and (state.phase, state.turn) == (Phase.ROLL, 1)


# -- the end of a game ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "loser_off, kind, points", [(3, GameKind.SINGLE, 1), (0, GameKind.GAMMON, 2)]
)
def test_oyn_and_mars(loser_off, kind, points):
    state = near_the_end(opened(new(length=5)), 0, loser_off)
    state = roll_and_play(state, 2, 1, "1/off")
    assert state.score == (points, 0)
    (result,) = state.games
    assert (result.winner, result.kind, result.points, result.ended_by) == (
        0,
        kind,
        points,
        EndedBy.BEAROFF,
    )


def test_the_winner_starts_the_next_game_without_an_opening_roll():
    state = near_the_end(opened(new(length=5), first=0), 1, 2)
    state = roll_and_play(state, 2, 1, "1/off")
    assert state.games[-1].winner == 1
    assert (state.phase, state.turn, state.dice) == (Phase.ROLL, 1, None)
    assert state.board == NardyPosition.starting() and state.first_turn == (True, True)
    assert state.game_number == 2 and state.cube == 1


def test_next_game_starter_opening_roll_in_long_nardy():
    state = new(length=5, next_game_starter=Starter.OPENING_ROLL)
    state = near_the_end(opened(state), 1, 2)
    state = roll_and_play(state, 2, 1, "1/off")
    assert state.phase == Phase.OPENING and state.turn is None


def test_a_match_ends_when_a_player_reaches_the_length():
    state = new(length=3)
    for _ in range(2):
        state = near_the_end(state if state.phase != Phase.OPENING else opened(state), 0, 0)
        state = roll_and_play(state, 2, 1, "1/off")
    assert state.is_over and state.winner == 0 and state.score == (4, 0)


def test_money_play_goes_on():
    state = new(length=0)
    for _ in range(4):
        state = near_the_end(state if state.phase != Phase.OPENING else opened(state), 1, 1)
        state = roll_and_play(state, 2, 1, "1/off")
    assert not state.is_over and state.score == (0, 4) and state.game_number == 5


# -- resignations, the cube, gnubg, .mat ---------------------------------------------------------


@pytest.mark.parametrize("value, points", [(1, 1), (2, 2)])
def test_resign_an_oyn_or_a_mars(value, points):
    state = opened(new(length=5))
    state = apply(state, Resign(0, value))
    assert state.actions_for(1) == ["accept", "reject"]
    state = apply(state, AcceptResign(1))
    assert state.score == (0, points) and state.games[-1].kind == GameKind(value)
    assert (state.phase, state.turn) == (Phase.ROLL, 1)  # the winner starts the next game


def test_no_backgammon_resignation_and_rejection_goes_on():
    state = opened(new(length=5))
    with pytest.raises(IllegalAction, match=r"oyn \(1\) or a mars \(2\)"):
        apply(state, Resign(0, 3))
    state = apply(apply(state, Resign(0, 2)), RejectResign(1))
    assert state.phase == Phase.ROLL and state.turn == 0


def test_there_is_no_cube():
    state = opened(new(length=5))
    assert "double" not in state.actions_for(0)
    with pytest.raises(IllegalAction, match="without the doubling cube"):
        apply(state, Double(0))
    # A settings record with the cube on (not allowed today) still offers no double.
    trusted = MatchState.new(MatchSettings(game=Variant.LONG_NARDY, cube=True), check=False)
    assert not opened(trusted).may_double(0)


def test_no_gnubg_ids_and_no_mat_files_for_long_nardy():
    state = opened(new(length=3))
    with pytest.raises(InvalidId, match="long nardy"):
        state.gnubg_ids()
    with pytest.raises(InvalidMatchFile):
        export_mat(NARDY, [OpeningRoll(5, 2)])


def test_lose_match_in_long_nardy():
    state = apply(opened(new(length=5)), LoseMatch(0, EndedBy.TIMEOUT))
    assert state.is_over and state.winner == 1 and state.score == (0, 5)


# -- whole random matches: the checked path and the replay agree ----------------------------------


def _choose(r: random.Random, state: MatchState) -> Action:
    if state.phase == Phase.OPENING:
        return OpeningRoll(r.randint(1, 6), r.randint(1, 6))
    me = state.to_act
    assert me is not None
    allowed = state.actions_for(me)
    assert "double" not in allowed
    if "accept" in allowed:
        return AcceptResign(me) if r.random() < 0.5 else RejectResign(me)
    if "resign" in allowed and r.random() < 0.005 and not state.resign_rejected:
        return Resign(me, r.randint(1, 2))
    if "roll" in allowed:
        return Roll(me, Dice.of(r.randint(1, 6), r.randint(1, 6)))
    plays = state.legal_plays()
    if plays and r.random() < 0.8:  # mostly running home, so games end
        return Move(me, min(plays, key=lambda p: p.result.pips()[0]).steps)
    return Move(me, r.choice(plays).steps if plays else ())


@pytest.mark.parametrize("seed", range(6))
def test_whole_matches(seed):
    r = random.Random(seed)
    s = MatchSettings(length=r.choice([1, 3, 5]), game=Variant.LONG_NARDY)
    state = MatchState.new(s)
    actions: list[Action] = []
    kinds = set()
    while not state.is_over:
        action = _choose(r, state)
        before = state
        state = apply(state, action)
        actions.append(action)
        state.board.check()
        assert isinstance(state.board, NardyPosition)
        if (
            isinstance(action, Move)
            and not state.is_over
            and before.game_number == state.game_number
        ):
            assert not state.first_turn[action.player]
        if len(state.games) > len(before.games):
            result = state.games[-1]
            kinds.add(result.kind)
            assert result.points == int(result.kind) and result.kind in (
                GameKind.SINGLE,
                GameKind.GAMMON,
            )
            if not state.is_over:
                assert (state.phase, state.turn) == (Phase.ROLL, result.winner)
                assert state.first_turn == (True, True)
        assert len(actions) < 20_000
    assert state.score[state.winner or 0] >= s.length
    assert replay(s, actions) == state
