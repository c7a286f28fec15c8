"""GNU Backgammon Position IDs and Match IDs, encoded and decoded exactly as gnubg does.

Both are the standard Base64 alphabet (``A-Z a-z 0-9 + /``) applied to a little-endian bit
string: bit k of the string is bit ``k % 8`` (value ``1 << (k % 8)``) of byte ``k // 8``. No
``=`` padding is written.

Position ID (14 characters, the "key" is 10 bytes = 80 bits)
---------------------------------------------------------------
For each player in turn, FIRST THE PLAYER NOT ON ROLL, then the player on roll, walk his 25
slots in his own numbering: points 1 (his ace point) to 24, then his bar. For each slot append
one 1-bit per checker there, then a 0-bit. That is 50 zero bits plus one bit per checker in
play (at most 30), padded with zeros to 80 bits. The last Base64 character carries only two
bits of the key, so it is always one of ``A Q g w``. Example: the starting position is
``4HPwATDgc/ABMA``.

In our `Position` the player on roll is the one with positive counts; the opponent's point j
(his numbering) is our point 25 - j. gnubg's own board array ``anBoard[2][25]`` has the same
order: ``anBoard[0]`` is the player not on roll, ``anBoard[1]`` the player on roll (see
`gnubg_board`).

Match ID (12 characters, the "key" is 9 bytes = 72 bits)
--------------------------------------------------------
Bit numbers from 0 (the gnubg manual numbers them from 1); every field little-endian::

    bits  0-3   log2 of the cube value (1 -> 0, 2 -> 1, 64 -> 6; at most 2**15)
    bits  4-5   cube owner: 0 = player 0, 1 = player 1, 3 = centred
    bit   6     player on roll, or who rolled (gnubg's fMove, the "dice owner")
    bit   7     Crawford flag: this game is the Crawford game
    bits  8-10  game state: 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube
    bit   11    whose turn it is to act (fTurn): differs from bit 6 while the opponent decides
                on a double offered (bit 12) or a resignation offered (bits 13-14)
    bit   12    a double is being offered
    bits 13-14  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon (by the
                player NOT in bit 11)
    bits 15-17  first die, 0 if not rolled (gnubg >= 1.07 writes the larger die first)
    bits 18-20  second die, 0 if not rolled
    bits 21-35  match length, 0 = money play (gnubg itself refuses lengths over 64)
    bits 36-50  score of player 0
    bits 51-65  score of player 1
    bit   66    1 when the Jacoby rule is NOT in use (gnubg >= 1.05); so IDs written by older
                versions read as "Jacoby on"
    bits 67-71  unused, zero

Player numbering: gnubg's player 0 is the first player of its match ("gnubg" by default,
shown as ``O`` at the TOP of its text board); player 1 is the second ("X", the bottom, the
user by default). Careful: the dictionary returned by gnubg's Python ``gnubg.match()`` labels
them the other way round ("X" for player 0). The manual's example: score 2-4 in a 9-point
match, player 0 holds a 2-cube, player 1 has rolled 52 -> ``QYkqASAAIAAA`` (an older gnubg
without the Jacoby bit; gnubg 1.07 with Jacoby off writes ``QYkqASAAIAAE``).
"""

from __future__ import annotations

import base64
import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import InvalidId
from .position import CHECKERS, POINTS, Position

__all__ = [
    "GameState",
    "MatchId",
    "gnubg_board",
    "match_id",
    "match_id_decode",
    "match_key",
    "position_from_gnubg_board",
    "position_from_id",
    "position_id",
    "position_key",
]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {c: i for i, c in enumerate(_ALPHABET)}

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_KEY_BITS = 80
_MATCH_KEY_BITS = 72
_SLOTS = 25  # points 1..24 and the bar, per player


# -- Base64 over little-endian bit strings ---------------------------------------------------


def _encode(key: int, n_bits: int, n_chars: int) -> str:
    """Base64 of the bytes of `key` (little-endian bit string of `n_bits`), no padding."""
    # Standard Base64 reads the byte string big-endian, six bits at a time.
    return base64.b64encode(key.to_bytes(n_bits // 8, "little"))[:n_chars].decode("ascii")


def _decode(text: object, n_bits: int, n_chars: int, what: str) -> int:
    """The key (an int whose bit k is bit k of the bit string) of an ID; InvalidId if bad."""
    if not isinstance(text, str):
        raise InvalidId.because("id_type", what=what, type=type(text).__name__)
    if len(text) != n_chars:
        raise InvalidId.because(
            "id_length", what=what, length=n_chars, count=len(text), id=repr(text)
        )
    stream = 0
    for c in text:
        if c not in _VALUE:
            raise InvalidId.because("id_character", character=repr(c), id=repr(text))
        stream = (stream << 6) | _VALUE[c]
    spare = n_chars * 6 - n_bits
    if stream & ((1 << spare) - 1):
        raise InvalidId.because("id_spare_bits", what=what, id=repr(text))
    data = (stream >> spare).to_bytes(n_bits // 8, "big")
    return int.from_bytes(data, "little")


# -- Position ID -----------------------------------------------------------------------------


def gnubg_board(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """gnubg's ``anBoard``: (player not on roll, player on roll), each 25 counts in his own
    numbering (index i = his point i+1, index 24 = his bar). This is what ``gnubg.board()``
    returns."""
    board = position.board
    theirs = (*[-n if n < 0 else 0 for n in reversed(board)], position.bar[1])
    mine = (*[n if n > 0 else 0 for n in board], position.bar[0])
    return theirs, mine


def position_from_gnubg_board(
    anboard: tuple[tuple[int, ...], tuple[int, ...]] | list[list[int]],
) -> Position:
    """The inverse of `gnubg_board`: a Position from gnubg's (not on roll, on roll) arrays.

    Raises InvalidId if the arrays are not a possible position (see `position_from_id`).
    """
    theirs, mine = (list(side) for side in anboard)
    if len(theirs) != _SLOTS or len(mine) != _SLOTS:
        raise InvalidId.because("gnubg_board")
    for side, counts, checkers in (
        (theirs, "gnubg_counts_waiting", "gnubg_checkers_waiting"),
        (mine, "gnubg_counts_on_roll", "gnubg_checkers_on_roll"),
    ):
        if any(not isinstance(n, int) or n < 0 for n in side):
            raise InvalidId.because(counts)
        if sum(side) > CHECKERS:
            raise InvalidId.because(checkers, count=sum(side))
    board = [0] * POINTS
    for i in range(POINTS):
        mine_here = mine[i]
        theirs_here = theirs[POINTS - 1 - i]
        if mine_here and theirs_here:
            raise InvalidId.because("gnubg_point_both", point=i + 1)
        board[i] = mine_here - theirs_here
    if (
        mine[24]
        and theirs[24]
        and all(m >= 2 for m in mine[:6])
        and all(t >= 2 for t in theirs[:6])
    ):
        raise InvalidId.because("gnubg_bars_closed")
    return Position(
        tuple(board),
        (mine[24], theirs[24]),
        (CHECKERS - sum(mine), CHECKERS - sum(theirs)),
    )


# The bits of one slot holding n checkers: n ones, then a zero (gnubg's encoding).
_RUN = tuple("1" * n + "0" for n in range(CHECKERS + 1))


def position_key(position: Position) -> bytes:
    """gnubg's 10-byte position key (the bytes the Position ID is the Base64 of)."""
    position.check()
    return _key(position, flip=False).to_bytes(_POSITION_KEY_BITS // 8, "little")


def _key(position: Position, *, flip: bool) -> int:
    """The key as an int (bit k is bit k of gnubg's bit string) of `position`, or of
    `position.flipped()` when `flip`."""
    return _key_of(position.board, position.bar[0], position.bar[1], flip=flip)


def _key_of(points: Sequence[int], mover_bar: int, other_bar: int, *, flip: bool) -> int:
    """`_key` of the position with these points (the mover's positive) and bars: the slots
    of gnubg_board as runs of ones, joined as a string and read once by int() (four times
    faster than shifting slot by slot)."""
    movers = [_RUN[n] if n > 0 else "0" for n in points]
    movers.append(_RUN[mover_bar])
    others = [_RUN[-n] if n < 0 else "0" for n in reversed(points)]
    others.append(_RUN[other_bar])
    # gnubg's order: the player not on roll first, then the player on roll
    bits = "".join(movers) + "".join(others) if flip else "".join(others) + "".join(movers)
    return int(bits[::-1], 2)


def play_result_id(array: Sequence[int]) -> str:
    """`result_position_id` of a play's result given in its array form (board.py: index 0
    minus the opponent's checkers on the bar, 1..24 the points from the mover's side, 25 the
    mover's bar; `Play.result_array`), without building the Position: a tavla roll's answer
    carries the ID of every legal play, most of which are never looked at again."""
    key = _key_of(array[1:25], array[25], -array[0], flip=True)
    return _encode(key, _POSITION_KEY_BITS, POSITION_ID_LENGTH)


def position_id(position: Position) -> str:
    """gnubg's 14-character Position ID, with the player on roll (positive counts) to move.

    Raises InvalidPosition unless each side has exactly 15 checkers.
    """
    position.check()
    return _encode(_key(position, flip=False), _POSITION_KEY_BITS, POSITION_ID_LENGTH)


def result_position_id(position: Position) -> str:
    """The Position ID of a play's result with the opponent on roll (as gnubg shows it):
    `position_id(position.flipped())` without building the flipped position or checking it
    again (the rules built it; a roll's response carries one per legal play)."""
    return _encode(_key(position, flip=True), _POSITION_KEY_BITS, POSITION_ID_LENGTH)


def position_from_id(pid: str) -> Position:
    """The Position a gnubg Position ID describes, from the side of the player on roll.

    Checkers neither on the board nor on the bar are borne off. Raises InvalidId on a wrong
    length, a non-Base64 character, a bit string that does not describe 2 x 25 slots, more
    than 15 checkers a side, a point held by both players, or both players on the bar against
    closed boards (the last three are what gnubg itself refuses).
    """
    key = _decode(pid, _POSITION_KEY_BITS, POSITION_ID_LENGTH, "Position ID")
    sides: list[list[int]] = [[], []]
    count = 0
    for bit in range(_POSITION_KEY_BITS):
        slot = len(sides[0]) + len(sides[1])
        if key >> bit & 1:
            if slot == 2 * _SLOTS:
                raise InvalidId.because("position_id_slots", id=repr(pid))
            count += 1
        elif slot < 2 * _SLOTS:
            sides[0 if slot < _SLOTS else 1].append(count)
            count = 0
    if len(sides[1]) < _SLOTS:
        raise InvalidId.because("position_id_checkers", id=repr(pid))
    try:
        return position_from_gnubg_board((tuple(sides[0]), tuple(sides[1])))
    except InvalidId as exc:
        raise InvalidId.because("position_id_board", id=repr(pid), problem=exc) from None


# -- Match ID --------------------------------------------------------------------------------


class GameState(enum.IntEnum):
    """gnubg's game state, bits 8-10 of the Match ID."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4  # ended by a dropped cube


_FIELD_MAX = 0x7FFF  # match length and scores have 15 bits


@dataclass(frozen=True, slots=True)
class MatchId:
    """The fields of a gnubg Match ID. Players are numbered as in gnubg: 0 and 1.

    - `cube_value`: 1, 2, 4, ... up to 2**15.
    - `cube_owner`: None when the cube is centred, else the owning player.
    - `player_on_roll`: the player on roll or who has rolled (gnubg's "dice owner", fMove).
    - `crawford`: this game is the Crawford game.
    - `game_state`: see GameState.
    - `turn`: the player who must act now (gnubg's fTurn); the opponent of `player_on_roll`
      while he answers a double or a resignation.
    - `double_offered`, `resignation` (0 none, 1 single, 2 gammon, 3 backgammon, offered by
      the player who is not `turn`).
    - `dice`: the roll, larger die first (normalised so), or None before rolling.
    - `match_length`: 0 for money play. `score`: (player 0, player 1).
    - `jacoby`: the Jacoby rule is in use (gnubg sets it only for money play).

    Raises InvalidId when a field cannot be encoded.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        cube = self.cube_value
        if not isinstance(cube, int) or cube < 1 or cube > 1 << 15 or cube & (cube - 1):
            raise InvalidId.because("id_cube_value", value=repr(cube))
        if self.cube_owner not in (None, 0, 1):
            raise InvalidId.because("id_cube_owner", value=repr(self.cube_owner))
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise InvalidId.because("id_player", field=name, value=repr(getattr(self, name)))
        try:
            state = GameState(self.game_state)
        except ValueError:
            raise InvalidId.because("id_game_state", value=repr(self.game_state)) from None
        object.__setattr__(self, "game_state", state)
        if self.resignation not in (0, 1, 2, 3):
            raise InvalidId.because("id_resignation", value=repr(self.resignation))
        if self.dice is not None:
            if len(self.dice) != 2 or not all(
                isinstance(d, int) and 1 <= d <= 6 for d in self.dice
            ):
                raise InvalidId.because("id_dice", value=repr(self.dice))
            object.__setattr__(self, "dice", (max(self.dice), min(self.dice)))
        if not isinstance(self.match_length, int) or not 0 <= self.match_length <= _FIELD_MAX:
            raise InvalidId.because("id_match_length", value=repr(self.match_length))
        if len(self.score) != 2 or not all(
            isinstance(s, int) and 0 <= s <= _FIELD_MAX for s in self.score
        ):
            raise InvalidId.because("id_score", value=repr(self.score))
        object.__setattr__(self, "score", (self.score[0], self.score[1]))
        for flag in ("crawford", "double_offered", "jacoby"):
            object.__setattr__(self, flag, bool(getattr(self, flag)))


# (field offset, width) in the match key
_CUBE = (0, 4)
_OWNER = (4, 2)
_MOVE = (6, 1)
_CRAWFORD = (7, 1)
_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGNED = (13, 2)
_DIE1 = (15, 3)
_DIE2 = (18, 3)
_LENGTH = (21, 15)
_SCORE0 = (36, 15)
_SCORE1 = (51, 15)
_NO_JACOBY = (66, 1)


def match_key(m: MatchId) -> bytes:
    """gnubg's 9-byte match key (the bytes the Match ID is the Base64 of)."""
    die1, die2 = m.dice or (0, 0)
    fields = (
        (_CUBE, m.cube_value.bit_length() - 1),
        (_OWNER, 3 if m.cube_owner is None else m.cube_owner),
        (_MOVE, m.player_on_roll),
        (_CRAWFORD, int(m.crawford)),
        (_STATE, int(m.game_state)),
        (_TURN, m.turn),
        (_DOUBLED, int(m.double_offered)),
        (_RESIGNED, m.resignation),
        (_DIE1, die1),
        (_DIE2, die2),
        (_LENGTH, m.match_length),
        (_SCORE0, m.score[0]),
        (_SCORE1, m.score[1]),
        (_NO_JACOBY, int(not m.jacoby)),
    )
    key = 0
    for (offset, width), value in fields:
        key |= (value & ((1 << width) - 1)) << offset
    return key.to_bytes(_MATCH_KEY_BITS // 8, "little")


def match_id(m: MatchId) -> str:
    """gnubg's 12-character Match ID of `m`."""
    key = int.from_bytes(match_key(m), "little")
    return _encode(key, _MATCH_KEY_BITS, MATCH_ID_LENGTH)


def match_id_decode(s: str) -> MatchId:
    """The MatchId a gnubg Match ID describes.

    Raises InvalidId on a wrong length, a non-Base64 character, cube owner bits 10, an
    unknown game state, a die above 6, one die rolled without the other, or a Crawford game
    in money play. The unused bits 67-71 are ignored, as gnubg does.

    Unlike gnubg, a score above the match length is accepted: gnubg writes such IDs itself
    once a match is won by more than the points needed (a gammon in a 1-point match gives
    ``MAIgAAAAEAAE``, score 0-2) but then refuses them in ``set matchid``.
    """
    key = _decode(s, _MATCH_KEY_BITS, MATCH_ID_LENGTH, "Match ID")

    def get(field: tuple[int, int]) -> int:
        offset, width = field
        return key >> offset & ((1 << width) - 1)

    owner = get(_OWNER)
    if owner == 2:
        raise InvalidId.because("match_id_owner", id=repr(s))
    state = get(_STATE)
    if state > max(GameState):
        raise InvalidId.because("match_id_state", id=repr(s), state=state)
    die1, die2 = get(_DIE1), get(_DIE2)
    if die1 > 6 or die2 > 6:
        raise InvalidId.because("match_id_die", id=repr(s), die=max(die1, die2))
    if bool(die1) != bool(die2):
        raise InvalidId.because("match_id_one_die", id=repr(s))
    length = get(_LENGTH)
    score = (get(_SCORE0), get(_SCORE1))
    crawford = bool(get(_CRAWFORD))
    if length == 0 and crawford:
        raise InvalidId.because("match_id_crawford", id=repr(s))
    return MatchId(
        cube_value=1 << get(_CUBE),
        cube_owner=None if owner == 3 else owner,
        player_on_roll=get(_MOVE),
        crawford=crawford,
        game_state=GameState(state),
        turn=get(_TURN),
        double_offered=bool(get(_DOUBLED)),
        resignation=get(_RESIGNED),
        dice=(die1, die2) if die1 else None,
        match_length=length,
        score=score,
        jacoby=not get(_NO_JACOBY),
    )
