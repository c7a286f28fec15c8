"""gnubg Position IDs and Match IDs.

Reference values come from GNU Backgammon 1.07.001 itself: the Position IDs of the oracle
corpus, and Match IDs read with ``gnubg.matchid()`` while playing through a match with two
human players (expected fields as gnubg's own ``gnubg.posinfo()`` / ``gnubg.cubeinfo()``
reported them at the same moment).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from games.rules import Dice, Play, legal_plays
from games.rules.errors import InvalidId, InvalidPosition, RulesError
from games.rules.gnubgid import (
    GameState,
    MatchId,
    gnubg_board,
    match_id,
    match_id_decode,
    match_key,
    play_result_id,
    position_from_gnubg_board,
    position_from_id,
    position_id,
    position_key,
    result_position_id,
)
from games.rules.position import Position

CORPUS = Path(__file__).resolve().parent.parent / "data" / "moves-public.jsonl"


def _corpus() -> list[dict[str, Any]]:
    with CORPUS.open() as f:
        return [json.loads(line) for line in f]


def _id_from_bits(bits: str, n_bits: int = 80) -> str:
    """Test-only encoder: a bit string, first bit = least significant bit of byte 0."""
    bits = bits.ljust(n_bits, "0")
    assert len(bits) == n_bits
    data = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, n_bits, 8))
    return base64.b64encode(data).decode().rstrip("=")


def _slots(counts: list[int]) -> str:
    """The bits for one player's 25 slots."""
    assert len(counts) == 25
    return "".join("1" * n + "0" for n in counts)


# -- Position ID -----------------------------------------------------------------------------


def test_every_corpus_position_id() -> None:
    cases = _corpus()
    assert len(cases) == 1688
    wrong = [
        (case["id"], position_id(Position.from_json(case["position"])), case["gnubg_position_id"])
        for case in cases
        if position_id(Position.from_json(case["position"])) != case["gnubg_position_id"]
    ]
    assert wrong == []


def test_every_corpus_position_id_decodes() -> None:
    for case in _corpus():
        assert position_from_id(case["gnubg_position_id"]) == Position.from_json(
            case["position"]
        ), case["id"]


def test_starting_position_matches_the_manual() -> None:
    start = Position.starting()
    assert position_key(start) == bytes.fromhex("E073F00130E073F00130")
    assert position_id(start) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == start


def test_the_player_not_on_roll_is_encoded_first() -> None:
    # One checker of the player on roll on his 1-point, his 14 others off; the opponent's 15
    # on the mover's 12-point (his own 13-point). gnubg shows this position as APD/BwABAAAAAA.
    board = [0] * 24
    board[0] = 1
    board[11] = -15
    p = Position(tuple(board), (0, 0), (14, 0))
    assert position_id(p) == "APD/BwABAAAAAA"
    assert _id_from_bits(_slots([0] * 12 + [15] + [0] * 12) + _slots([1] + [0] * 24)) == (
        "APD/BwABAAAAAA"
    )
    assert gnubg_board(p) == (
        (0,) * 12 + (15,) + (0,) * 12,
        (1,) + (0,) * 24,
    )
    # The same checkers with the other player on roll is another ID.
    assert position_id(p.flipped()) != position_id(p)
    assert position_from_id(position_id(p.flipped())) == p.flipped()


def test_positions_gnubg_printed_after_a_game_ended() -> None:
    # After "move 1/off" won a gammon, gnubg showed the position from the LOSER's side:
    # his 15 checkers on his 13-point, the winner's all borne off.
    p = position_from_id("AAAAAOD/DwAAAA")
    assert p.board[12] == 15 and p.off == (0, 15) and p.bar == (0, 0)
    p = position_from_id("AAAAAADA/x8AAA")
    assert p.board[21] == 15 and p.off == (0, 15)


def test_bar_checkers() -> None:
    board = [0] * 24
    board[5] = 13
    board[23] = -10
    p = Position(tuple(board), (2, 3), (0, 2))
    theirs, mine = gnubg_board(p)
    assert theirs[24] == 3 and mine[24] == 2 and theirs[0] == 10 and mine[5] == 13
    assert position_from_id(position_id(p)) == p
    assert position_from_gnubg_board((theirs, mine)) == p


def test_position_id_needs_fifteen_checkers_a_side() -> None:
    with pytest.raises(InvalidPosition):
        position_id(Position((1,) + (0,) * 23, (0, 0), (0, 15)))


@pytest.mark.parametrize(
    ("pid", "message"),
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("", "14 characters"),
        ("4HPwATDgc/AB=A", "Base64"),
        ("4HPwATDgc ABMA", "Base64"),
        ("4HPwATDgc-ABMA", "Base64"),
        ("4HPwATDgc/ABMB", "spare bits"),
        ("4HPwATDgc/ABMI", "spare bits"),
        ("//////////////", "spare bits"),
        ("/////////////w", "more than 30"),
    ],
)
def test_bad_position_ids(pid: str, message: str) -> None:
    with pytest.raises(InvalidId, match=message):
        position_from_id(pid)


def test_position_id_that_is_not_a_string() -> None:
    with pytest.raises(InvalidId, match="string"):
        position_from_id(12345678901234)  # type: ignore[arg-type]


def test_more_than_fifteen_checkers() -> None:
    # 16 + 14 checkers still fit in the 80 bits
    sixteen = _slots([16] + [0] * 24) + _slots([14] + [0] * 24)
    with pytest.raises(InvalidId, match="player not on roll has 16 checkers"):
        position_from_id(_id_from_bits(sixteen))
    sixteen = _slots([14] + [0] * 24) + _slots([0] * 5 + [16] + [0] * 19)
    with pytest.raises(InvalidId, match="player on roll has 16 checkers"):
        position_from_id(_id_from_bits(sixteen))


def test_checkers_past_the_last_slot() -> None:
    bits = _slots([0] * 25) + _slots([0] * 25) + "1"
    with pytest.raises(InvalidId, match="past the last slot"):
        position_from_id(_id_from_bits(bits))


def test_point_held_by_both_players() -> None:
    # Opponent's 24-point is the mover's 1-point.
    bits = _slots([0] * 23 + [1, 0]) + _slots([1] + [0] * 24)
    with pytest.raises(InvalidId, match="both players have checkers on point 1"):
        position_from_id(_id_from_bits(bits))


def test_both_on_the_bar_against_closed_boards() -> None:
    # gnubg's CheckPosition refuses this: nobody could ever move.
    home = [2] * 6 + [0] * 18
    bits = _slots([*home, 1]) + _slots([*home, 1])
    with pytest.raises(InvalidId, match="closed home boards"):
        position_from_id(_id_from_bits(bits))
    # One open point is enough.
    bits = _slots([*home[:5], 1, *home[6:], 1]) + _slots([*home, 1])
    p = position_from_id(_id_from_bits(bits))
    assert p.bar == (1, 1)


def test_bad_gnubg_boards() -> None:
    with pytest.raises(InvalidId, match="25"):
        position_from_gnubg_board(((0,) * 24, (0,) * 25))
    with pytest.raises(InvalidId, match="negative"):
        position_from_gnubg_board(((-1,) + (0,) * 24, (0,) * 25))


def test_errors_are_rules_errors() -> None:
    with pytest.raises(RulesError) as info:
        position_from_id("nope")
    assert info.value.code == "invalid_id"


# -- Match ID: values read from gnubg 1.07 ---------------------------------------------------


def M(**kw: Any) -> MatchId:
    return MatchId(**kw)


GNUBG_MATCH_IDS: list[tuple[str, str, MatchId]] = [
    # A 5-point match, gnubg's random opening roll went to player 1 (21).
    (
        "cAmlAAAAAAAE",
        "new 5-point match, player 1 opens with 21",
        M(player_on_roll=1, turn=1, dice=(2, 1), match_length=5),
    ),
    (
        "MAGgAAAAAAAE",
        "after the opening move: player 0 to roll",
        M(player_on_roll=0, turn=0, match_length=5),
    ),
    (
        "MBmgAAAAAAAE",
        "player 0 doubles: player 1 must answer",
        M(player_on_roll=0, turn=1, double_offered=True, match_length=5),
    ),
    (
        "EQGgAAAAAAAE",
        "player 1 takes: he owns a 2-cube, player 0 to roll",
        M(cube_value=2, cube_owner=1, player_on_roll=0, turn=0, match_length=5),
    ),
    (
        "EYGqAAAAAAAE",
        "player 0 rolls 52",
        M(cube_value=2, cube_owner=1, player_on_roll=0, turn=0, dice=(5, 2), match_length=5),
    ),
    (
        "URGgAAAAAAAE",
        "player 1 redoubles: player 0 must answer",
        M(
            cube_value=2,
            cube_owner=1,
            player_on_roll=1,
            turn=0,
            double_offered=True,
            match_length=5,
        ),
    ),
    (
        "UQSgAAAAEAAE",
        "player 0 drops: player 1 wins 2 points",
        M(
            cube_value=2,
            cube_owner=1,
            player_on_roll=1,
            turn=0,
            game_state=GameState.DROPPED,
            match_length=5,
            score=(0, 2),
        ),
    ),
    (
        "cCGgAAAAEAAE",
        "game 2: player 1 offers to resign a single game",
        M(player_on_roll=1, turn=0, resignation=1, match_length=5, score=(0, 2)),
    ),
    (
        "cCOgABAAEAAE",
        "player 0 accepts the resignation",
        M(
            player_on_roll=1,
            turn=0,
            resignation=1,
            game_state=GameState.RESIGNED,
            match_length=5,
            score=(1, 2),
        ),
    ),
    (
        "sAGrAEAAEAAE",
        "score 4-2 in a 5-point match, the Crawford game, player 0 rolled 62",
        M(player_on_roll=0, turn=0, crawford=True, dice=(6, 2), match_length=5, score=(4, 2)),
    ),
    (
        "MAIgAAAAEAAE",
        "1-point match won by player 1 with a gammon: score 0-2, which gnubg cannot read back",
        M(game_state=GameState.OVER, match_length=1, score=(0, 2)),
    ),
    (
        "cApgAFAACAAE",
        "3-point match at 2-1: player 0 wins a backgammon, 5-1",
        M(player_on_roll=1, turn=1, game_state=GameState.OVER, match_length=3, score=(5, 1)),
    ),
    (
        "MAEPAAAAAAAA",
        "money session, Jacoby on (gnubg's default), player 0 opens with 63",
        M(dice=(6, 3), jacoby=True),
    ),
    (
        "MIEGAAAAAAAE",
        "money session, Jacoby off, player 0 opens with 51",
        M(dice=(5, 1), jacoby=False),
    ),
    (
        "cIkGAAAAAAAE",
        "money session, Jacoby off, player 1 opens with 51",
        M(player_on_roll=1, turn=1, dice=(5, 1)),
    ),
    (
        "MIHqAAAAAAAE",
        "7-point match, player 0 rolled 'set dice 2 5': gnubg writes the larger die first",
        M(dice=(5, 2), match_length=7),
    ),
    (
        "cgngACAAIAAE",
        "7-point match at 2-4, centred 4-cube, player 1 to roll",
        M(cube_value=4, player_on_roll=1, turn=1, match_length=7, score=(2, 4)),
    ),
    (
        "QgngACAAIAAE",
        "the same, player 0 owns the cube",
        M(cube_value=4, cube_owner=0, player_on_roll=1, turn=1, match_length=7, score=(2, 4)),
    ),
    (
        "UgngACAAIAAE",
        "the same, player 1 owns the cube",
        M(cube_value=4, cube_owner=1, player_on_roll=1, turn=1, match_length=7, score=(2, 4)),
    ),
    (
        "H1T3////z4EF",
        "gnubg.matchid() of extreme field values (cube 32768, length and score 32767)",
        M(
            cube_value=32768,
            cube_owner=1,
            game_state=GameState.DROPPED,
            double_offered=True,
            resignation=2,
            dice=(6, 5),
            match_length=32767,
            score=(32767, 12345),
        ),
    ),
    (
        "xoklA4ABAAAE",
        "gnubg.matchid() of a Crawford game at 24-0 of 25 with a 64-cube (not reachable)",
        M(
            cube_value=64,
            cube_owner=0,
            player_on_roll=1,
            turn=1,
            crawford=True,
            dice=(3, 1),
            match_length=25,
            score=(24, 0),
        ),
    ),
    (
        "MABgAAAAAAAE",
        "gnubg.matchid() with game state 'no game started'",
        M(game_state=GameState.NONE, match_length=3),
    ),
]


@pytest.mark.parametrize(("mid", "what", "expected"), GNUBG_MATCH_IDS)
def test_gnubg_match_ids(mid: str, what: str, expected: MatchId) -> None:
    assert match_id(expected) == mid, what
    assert match_id_decode(mid) == expected, what


def test_the_manual_example() -> None:
    # Score 2-4 in a 9-point match, player 0 holds a 2-cube, player 1 has rolled 52.
    m = MatchId(
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        turn=1,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
        jacoby=False,
    )
    assert match_key(m)[:8] == bytes.fromhex("41892A0120002000")
    # The manual predates the Jacoby bit (bit 66, set when Jacoby is NOT in use).
    assert match_id(m) == "QYkqASAAIAAE"
    old = match_id_decode("QYkqASAAIAAA")
    assert old.jacoby is True
    assert old == MatchId(**{**_fields(m), "jacoby": True})


def _fields(m: MatchId) -> dict[str, Any]:
    return {name: getattr(m, name) for name in MatchId.__dataclass_fields__}


def test_dice_are_stored_larger_first() -> None:
    assert MatchId(dice=(2, 5)).dice == (5, 2)
    assert match_id(MatchId(dice=(2, 5), match_length=7)) == "MIHqAAAAAAAE"


def test_defaults_are_a_money_game_in_progress() -> None:
    m = MatchId()
    assert (m.cube_value, m.cube_owner, m.game_state, m.match_length, m.dice) == (
        1,
        None,
        GameState.PLAYING,
        0,
        None,
    )
    assert match_id_decode(match_id(m)) == m


@pytest.mark.parametrize(
    ("mid", "message"),
    [
        ("cAmlAAAAAAA", "12 characters"),
        ("cAmlAAAAAAAEA", "12 characters"),
        ("cAml AAAAAAE", "Base64"),
        ("cAml=AAAAAAE", "Base64"),
        # bits 4-5 = 10
        (None, "cube owner"),
        (None, "game state"),
        (None, "a die shows 7"),
        (None, "one die"),
        (None, "Crawford game in money play"),
    ],
)
def test_bad_match_ids(mid: str | None, message: str) -> None:
    if mid is None:
        mid = _BAD_MATCH_KEYS[message]
    with pytest.raises(InvalidId, match=message):
        match_id_decode(mid)


def _match_bits(**fields: tuple[int, int, int]) -> str:
    """A Match ID from raw (offset, width, value) fields, independent of the module."""
    bits = ["0"] * 72
    for offset, width, value in fields.values():
        for i in range(width):
            bits[offset + i] = str(value >> i & 1)
    return _id_from_bits("".join(bits), 72)


_BAD_MATCH_KEYS = {
    "cube owner": _match_bits(owner=(4, 2, 2), state=(8, 3, 1)),
    "game state": _match_bits(owner=(4, 2, 3), state=(8, 3, 5)),
    "a die shows 7": _match_bits(owner=(4, 2, 3), state=(8, 3, 1), d1=(15, 3, 7), d2=(18, 3, 1)),
    "one die": _match_bits(owner=(4, 2, 3), state=(8, 3, 1), d1=(15, 3, 3)),
    "Crawford game in money play": _match_bits(owner=(4, 2, 3), state=(8, 3, 1), c=(7, 1, 1)),
}


def test_match_bits_helper_agrees_with_gnubg() -> None:
    assert _match_bits(owner=(4, 2, 3), state=(8, 3, 1), length=(21, 15, 7), j=(66, 1, 1)) == (
        "MAHgAAAAAAAE"
    )


def test_unused_bits_are_ignored() -> None:
    base = _match_bits(owner=(4, 2, 3), state=(8, 3, 1), length=(21, 15, 7))
    noisy = _match_bits(owner=(4, 2, 3), state=(8, 3, 1), length=(21, 15, 7), x=(67, 5, 31))
    assert noisy != base
    assert match_id_decode(noisy) == match_id_decode(base)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"cube_value": 3},
        {"cube_value": 0},
        {"cube_value": 65536},
        {"cube_owner": 2},
        {"player_on_roll": 2},
        {"turn": -1},
        {"game_state": 5},
        {"resignation": 4},
        {"dice": (0, 3)},
        {"dice": (7, 1)},
        {"dice": (1, 2, 3)},
        {"match_length": -1},
        {"match_length": 32768},
        {"score": (0, 32768)},
        {"score": (-1, 0)},
    ],
)
def test_match_id_fields_out_of_range(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidId):
        MatchId(**kwargs)


def test_game_state_accepts_plain_ints() -> None:
    m = MatchId(game_state=3)  # type: ignore[arg-type]
    assert m.game_state is GameState.RESIGNED


# -- round trips -----------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any possible position: 15 checkers a side on points, bar or off, no shared point."""
    # slots 0..23 are the mover's points 1..24, 24 is the bar, 25 is off
    mine = draw(st.lists(st.integers(0, 25), min_size=15, max_size=15))
    board = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    for s in mine:
        if s < 24:
            board[s] += 1
        elif s == 24:
            bar[0] += 1
        else:
            off[0] += 1
    free = [i for i in range(24) if board[i] == 0] + [24, 25]
    theirs = draw(st.lists(st.sampled_from(free), min_size=15, max_size=15))
    for s in theirs:
        if s < 24:
            board[s] -= 1
        elif s == 24:
            bar[1] += 1
        else:
            off[1] += 1
    closed = all(n >= 2 for n in board[:6]) and all(n <= -2 for n in board[18:])
    assume(not (closed and bar[0] and bar[1]))
    p = Position(tuple(board), (bar[0], bar[1]), (off[0], off[1]))
    p.check()
    return p


@given(positions())
def test_position_id_round_trip(p: Position) -> None:
    pid = position_id(p)
    assert len(pid) == 14
    assert pid[-1] in "AQgw"  # the last character carries two bits of the key
    assert position_from_id(pid) == p
    assert position_from_gnubg_board(gnubg_board(p)) == p


@given(positions())
def test_a_results_position_id_is_that_of_the_flipped_position(p: Position) -> None:
    """The shortcut a roll's legal plays use (no flipped position built) gives the same ID,
    and the ID decodes to the position seen from the opponent."""
    assert result_position_id(p) == position_id(p.flipped())
    assert position_from_id(result_position_id(p)) == p.flipped()


def test_every_corpus_play_result_id() -> None:
    """Against gnubg's own IDs: each corpus position as a play's result (the opponent on roll:
    the corpus position flipped, then flipped back by the shortcut)."""
    for case in _corpus():
        seen_by_opponent = Position.from_json(case["position"]).flipped()
        assert result_position_id(seen_by_opponent) == case["gnubg_position_id"], case["id"]


def test_a_plays_result_id_from_its_array_is_that_of_its_result() -> None:
    """The shortcut of a roll's answer (the ID from the search's array, no Position built) is
    `result_position_id` of the play's result, for every legal play of every corpus case, and
    for a play made from a Position rather than by a search."""
    plays = 0
    for case in _corpus():
        position = Position.from_json(case["position"])
        for play in legal_plays(position, Dice.of(*case["dice"])):
            array = play.result_array()
            assert play_result_id(array) == result_position_id(play.result), case["id"]
            plays += 1
    assert plays > 1000
    made = Play((), Position.starting())
    assert play_result_id(made.result_array()) == result_position_id(Position.starting())


@given(positions())
def test_position_id_tells_the_sides_apart(p: Position) -> None:
    assume(p.flipped() != p)
    assert position_id(p) != position_id(p.flipped())


match_ids = st.builds(
    MatchId,
    cube_value=st.sampled_from([1 << k for k in range(16)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.sampled_from([0, 1]),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    turn=st.sampled_from([0, 1]),
    double_offered=st.booleans(),
    resignation=st.integers(0, 3),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    match_length=st.integers(0, 32767),
    score=st.tuples(st.integers(0, 32767), st.integers(0, 32767)),
    jacoby=st.booleans(),
).filter(lambda m: m.match_length > 0 or not m.crawford)


@given(match_ids)
def test_match_id_round_trip(m: MatchId) -> None:
    mid = match_id(m)
    assert len(mid) == 12
    assert match_id_decode(mid) == m


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@given(st.text(alphabet=_B64, min_size=14, max_size=14))
def test_any_14_characters_decode_or_raise_invalid_id(text: str) -> None:
    try:
        p = position_from_id(text)
    except InvalidId:
        return
    assert position_id(p) == text


@given(st.text(alphabet=_B64, min_size=12, max_size=12))
def test_any_12_characters_decode_or_raise_invalid_id(text: str) -> None:
    try:
        m = match_id_decode(text)
    except InvalidId:
        return
    assert match_id_decode(match_id(m)) == m
