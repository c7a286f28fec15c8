"""The board picture: well-formed SVG, every checker drawn where it belongs, text escaped."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from games.rules.position import Position
from matches.review.board_svg import (
    BOARD_H,
    BOARD_Y,
    DARK,
    LIGHT,
    BoardPicture,
    R,
    board_svg,
    steps_in_seat0_numbering,
)

NS = "{http://www.w3.org/2000/svg}"


def _parse(pic: BoardPicture) -> ET.Element:
    return ET.fromstring(board_svg(pic))


def _checkers(root: ET.Element) -> list[ET.Element]:
    return [c for c in root.iter(f"{NS}circle") if c.get("r") == str(R)]


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def test_starting_position_draws_thirty_checkers() -> None:
    root = _parse(BoardPicture(Position.starting()))
    checkers = _checkers(root)
    assert len(checkers) == 30
    fills = [c.get("fill") for c in checkers]
    assert len(set(fills)) == 2 and fills.count(fills[0]) == 15


def test_seat0_back_checkers_top_right_seat1_back_checkers_bottom_right() -> None:
    # Seat 0's two checkers on his 24 point, seat 1's two on his 24 (seat 0's 1 point).
    board = [0] * 24
    board[23], board[0] = 2, -2
    root = _parse(BoardPicture(Position(tuple(board), (0, 0), (13, 13))))
    checkers = _checkers(root)
    assert len(checkers) == 4
    middle = BOARD_Y + BOARD_H / 2
    light = {c.get("fill") for c in checkers if float(c.get("cy", 0)) < middle}
    dark = {c.get("fill") for c in checkers if float(c.get("cy", 0)) > middle}
    assert light == {LIGHT} and dark == {DARK}
    assert len({c.get("cx") for c in checkers}) == 1  # one above the other, at the right


def test_more_than_five_checkers_show_their_count() -> None:
    board = list(Position.starting().board)
    board[5] += 4  # 9 on seat 0's six point (and 4 fewer elsewhere, unchecked here)
    root = _parse(BoardPicture(Position(tuple(board))))
    assert "9" in _texts(root)


def test_bar_and_off_are_drawn() -> None:
    board = list(Position.starting().board)
    board[23] -= 1
    board[0] += 1  # seat 1: one checker less on seat 0's 1 point
    root = _parse(BoardPicture(Position(tuple(board), (1, 1), (0, 0)), names=("a", "b")))
    assert len(_checkers(root)) == 30
    root = _parse(BoardPicture(Position((0,) * 23 + (-1,), (0, 0), (15, 14))))
    assert "15 off" in _texts(root) and "14 off" in _texts(root)


def test_names_are_escaped() -> None:
    evil = '<script>alert("x")</script> & co'
    svg = board_svg(BoardPicture(Position.starting(), names=(evil, "b"), caption=evil))
    assert "<script>" not in svg
    root = ET.fromstring(svg)
    assert any(evil in t for t in _texts(root))


def test_cube_centred_owned_offered_and_crawford() -> None:
    centred = _texts(_parse(BoardPicture(Position.starting())))
    assert "64" in centred
    offered = _texts(
        _parse(BoardPicture(Position.starting(), cube_value=2, cube_owner=1, cube_offered=True))
    )
    assert "4" in offered and "offered" in offered
    crawford = _texts(_parse(BoardPicture(Position.starting(), crawford=True)))
    assert "Crawford: no cube" in crawford and "64" not in crawford
    assert "no cube" in _texts(_parse(BoardPicture(Position.starting(), cube_enabled=False)))


def test_dice_pips() -> None:
    root = _parse(BoardPicture(Position.starting(), dice=(6, 5), dice_owner=1))
    pips = [c for c in root.iter(f"{NS}circle") if c.get("r") == "3.4"]
    assert len(pips) == 11


def test_score_and_player_on_turn() -> None:
    texts = _texts(
        _parse(BoardPicture(Position.starting(), names=("ana", "bob"), score=(2, 4), length=5))
    )
    assert any(t.startswith("score 2 / 5") for t in texts)
    assert any(t.startswith("score 4 / 5") for t in texts)
    texts = _texts(_parse(BoardPicture(Position.starting(), names=("ana", "bob"), to_act=1)))
    assert "▶ bob" in texts and "ana" in texts


def test_move_marks_in_seat0_numbering() -> None:
    frm, to = steps_in_seat0_numbering(1, [(24, 18), (13, 10), (25, 22), (3, 0)])
    assert frm == {(1, 1), (1, 12), (1, 25), (1, 22)}
    assert to == {(1, 7), (1, 15), (1, 3), (1, 0)}
    frm, to = steps_in_seat0_numbering(0, [(24, 18)])
    assert frm == {(0, 24)} and to == {(0, 18)}


def test_opening_roll_shows_one_die_in_each_half() -> None:
    root = _parse(BoardPicture(Position.starting(), opening=(3, 3)))
    faces = [r for r in root.iter(f"{NS}rect") if r.get("width") == "36"]
    assert len(faces) == 2
    assert {f.get("fill") for f in faces} == {LIGHT, DARK}
    pips = [c for c in root.iter(f"{NS}circle") if c.get("r") == "3.4"]
    assert len(pips) == 6


def test_notice_is_written_across_the_board() -> None:
    root = _parse(BoardPicture(Position.starting(), notice="ana offers to resign a gammon"))
    assert "ana offers to resign a gammon" in _texts(root)
