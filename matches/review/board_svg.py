"""The board as an SVG picture, for the admin's replay of a match.

Pure Python (no Django): `board_svg(BoardPicture(...))` returns the markup as a string.
The picture is always drawn from seat 0's side, the way gnubg draws its bottom player:

- seat 0 plays the light checkers from the top right (his 24 point) counter-clockwise to his
  home board at the bottom right (points 1-6) and bears off into the tray on the right;
- seat 1 plays the dark checkers the other way round; his point n is seat 0's point 25 - n.

Point numbers are written in both numberings: seat 0's large, next to the board, and seat 1's
small, outside them. Every piece of text that comes from users (names) is escaped.

What differs between the games is asked of the position's game (`game_of`): its numbering
(`their_point`), its bar or heads, its cube. Long nardy is drawn on the same board in seat
0's numbering, which makes both players travel the same way round (counter-clockwise here):

- seat 0 from his head, his 24 (top right), to his home 1-6 (bottom right), as in tavla;
- seat 1 from his head, seat 0's 12 (bottom left), along the bottom to seat 0's 1, then
  along the top from seat 0's 24 to his home, seat 0's 13-18 (top left); his point q is
  seat 0's point ((q + 11) mod 24) + 1.

There is no bar (the middle strip is only the board's divider) and no cube; each head is
marked "head" with an arrow of the direction of travel.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from games.rules import TAVLA, Game, Position, game_of

# -- geometry (SVG user units) ----------------------------------------------------------------
CUBE_COL = 56  # the column left of the board where the cube sits
FRAME = 12
POINT_W = 40
QUARTER = 6 * POINT_W
BAR_W = 44
TRAY_W = 56  # borne-off checkers, right of the board
LABEL_H = 46  # above and below the board: names, score, pips
NUMBER_H = 30  # the rows of point numbers (inside the frame)
POINT_H = 176
MIDDLE = 44  # between the top and bottom points
R = 17  # checker radius
MAX_SHOWN = 5  # checkers drawn on a point before the count is written on the top one

BOARD_X = CUBE_COL + FRAME
BOARD_Y = LABEL_H + NUMBER_H
BOARD_W = 2 * QUARTER + BAR_W
BOARD_H = 2 * POINT_H + MIDDLE
TRAY_X = BOARD_X + BOARD_W + FRAME
WIDTH = TRAY_X + TRAY_W + FRAME
HEIGHT = BOARD_Y + BOARD_H + NUMBER_H + LABEL_H
BAR_X = BOARD_X + QUARTER

LIGHT = "#f4efe1"
LIGHT_EDGE = "#6b5d3f"
DARK = "#2f2a28"
DARK_EDGE = "#000000"
FELT = "#2f6b45"
WOOD = "#7a4e2d"
POINT_A = "#d9c08c"
POINT_B = "#9c3d2e"
FROM_TINT = "#ffd54a"
TO_TINT = "#6fd3ff"

COLOURS = ((LIGHT, LIGHT_EDGE, DARK), (DARK, DARK_EDGE, LIGHT))  # fill, edge, text per seat


@dataclass(frozen=True)
class BoardPicture:
    """What one picture shows. `position` is from seat 0's side (positive: seat 0)."""

    position: Position
    names: tuple[str, str] = ("Player 0", "Player 1")
    score: tuple[int, int] = (0, 0)
    length: int = 0  # 0: money play
    dice: tuple[int, int] | None = None
    dice_owner: int | None = None  # the seat whose dice they are
    opening: tuple[int, int] | None = None  # an opening roll: seat 0's die, seat 1's die
    cube_enabled: bool = True
    cube_value: int = 1
    cube_owner: int | None = None  # None: centred
    cube_offered: bool = False  # a double is on the table (drawn turned to the next value)
    crawford: bool = False  # this game is the Crawford game: no cube
    to_act: int | None = None  # drawn with a marker next to the name
    caption: str = ""
    notice: str = ""  # written across the middle of the board (a resignation, a game won)
    # Points of the last move in seat 0's numbering: 1..24, 25 = a bar, 0 = off.
    moved_from: frozenset[tuple[int, int]] = field(default_factory=frozenset)  # (seat, point)
    moved_to: frozenset[tuple[int, int]] = field(default_factory=frozenset)


def steps_in_seat0_numbering(
    seat: int, steps: Iterable[tuple[int, int]], *, game: Game = TAVLA
) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """(from, to) marks for `BoardPicture` from a play's steps in the mover's numbering, in
    `game` (long nardy: seat 1's point q is seat 0's (q + 11) % 24 + 1)."""

    def convert(point: int) -> tuple[int, int]:
        if point in (0, 25) or seat == 0:
            return seat, point
        return seat, game.my_point(point)

    steps = list(steps)
    return frozenset(convert(f) for f, _ in steps), frozenset(convert(t) for _, t in steps)


def _point_x(point: int) -> float:
    """Left edge of seat 0's point 1..24."""
    if 1 <= point <= 6:
        return BAR_X + BAR_W + (6 - point) * POINT_W
    if 7 <= point <= 12:
        return BOARD_X + (12 - point) * POINT_W
    if 13 <= point <= 18:
        return BOARD_X + (point - 13) * POINT_W
    return BAR_X + BAR_W + (point - 19) * POINT_W


def _is_top(point: int) -> bool:
    return point >= 13


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text(value: object) -> str:
    return _fmt(value) if isinstance(value, float) else str(value)


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, tag: str, text: str | None = None, **attrs: object) -> None:
        rendered = " ".join(
            f'{k.rstrip("_").replace("_", "-")}="{escape(_text(v))}"'
            for k, v in attrs.items()
            if v is not None
        )
        if text is None:
            self.parts.append(f"<{tag} {rendered}/>")
        else:
            self.parts.append(f"<{tag} {rendered}>{escape(text)}</{tag}>")

    def raw(self, markup: str) -> None:
        self.parts.append(markup)


def board_svg(pic: BoardPicture) -> str:
    """The SVG markup of one board picture."""
    svg = _Svg()
    game = game_of(pic.position)
    title = pic.caption or TITLES.get(game.name, "Board")
    svg.raw(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}" '
        f'font-family="Helvetica, Arial, sans-serif" class="tavla-board">'
    )
    svg.add("title", title)
    _frame(svg)
    _points(svg, pic)
    _numbers(svg, game)
    for point in range(1, 25):
        count = pic.position.board[point - 1]
        if count:
            _stack_on_point(svg, point, 0 if count > 0 else 1, abs(count))
    if game.has_bar:
        _bar(svg, pic)
    else:
        _divider(svg)
    if game.heads is not None:
        _heads(svg, game.heads)
    _tray(svg, pic)
    _cube(svg, pic)
    if pic.opening is not None:
        # One die each, in each player's half and colour.
        _dice(svg, (pic.opening[0],), 0)
        _dice(svg, (pic.opening[1],), 1)
    elif pic.dice is not None:
        _dice(svg, pic.dice, pic.dice_owner)
    _labels(svg, pic)
    if pic.notice:
        _notice(svg, pic.notice)
    svg.raw("</svg>")
    return "\n".join(svg.parts)


def _frame(svg: _Svg) -> None:
    svg.add("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#ffffff")
    top = BOARD_Y - NUMBER_H
    svg.add(
        "rect",
        x=BOARD_X - FRAME,
        y=top,
        width=BOARD_W + 2 * FRAME + TRAY_W + FRAME,
        height=BOARD_H + 2 * NUMBER_H,
        fill=WOOD,
        rx=6,
    )
    for x in (BOARD_X, BAR_X + BAR_W):
        svg.add("rect", x=x, y=BOARD_Y, width=QUARTER, height=BOARD_H, fill=FELT)
    svg.add("rect", x=TRAY_X, y=BOARD_Y, width=TRAY_W, height=BOARD_H, fill="#4b3320")
    svg.add(
        "line",
        x1=TRAY_X,
        y1=BOARD_Y + BOARD_H / 2,
        x2=TRAY_X + TRAY_W,
        y2=BOARD_Y + BOARD_H / 2,
        stroke=WOOD,
        stroke_width=4,
    )


def _points(svg: _Svg, pic: BoardPicture) -> None:
    marks_from = {p for s, p in pic.moved_from if 1 <= p <= 24}
    marks_to = {p for s, p in pic.moved_to if 1 <= p <= 24}
    for point in range(1, 25):
        x = _point_x(point)
        colour = POINT_A if point % 2 else POINT_B
        if _is_top(point):
            base, tip = BOARD_Y, BOARD_Y + POINT_H
        else:
            base, tip = BOARD_Y + BOARD_H, BOARD_Y + BOARD_H - POINT_H
        for marks, tint in ((marks_from, FROM_TINT), (marks_to, TO_TINT)):
            if point in marks:
                y = BOARD_Y if _is_top(point) else BOARD_Y + BOARD_H - POINT_H
                svg.add(
                    "rect",
                    x=x + 1,
                    y=y,
                    width=POINT_W - 2,
                    height=POINT_H,
                    fill=tint,
                    fill_opacity=0.45,
                )
        svg.add(
            "polygon",
            points=f"{_fmt(x)},{_fmt(base)} {_fmt(x + POINT_W)},{_fmt(base)} "
            f"{_fmt(x + POINT_W / 2)},{_fmt(tip)}",
            fill=colour,
            stroke="#00000033",
        )


def _numbers(svg: _Svg, game: Game) -> None:
    for point in range(1, 25):
        cx = _point_x(point) + POINT_W / 2
        if _is_top(point):
            y0, y1 = BOARD_Y - 8, BOARD_Y - NUMBER_H + 11
        else:
            y0, y1 = BOARD_Y + BOARD_H + 19, BOARD_Y + BOARD_H + NUMBER_H - 2
        svg.add(
            "text",
            str(point),
            x=cx,
            y=y0,
            font_size=13,
            font_weight="bold",
            fill="#fff4d6",
            text_anchor="middle",
        )
        svg.add(
            "text",
            str(game.their_point(point)),
            x=cx,
            y=y1,
            font_size=9,
            fill="#e7c9a3",
            text_anchor="middle",
        )


def _checker(svg: _Svg, cx: float, cy: float, seat: int, label: str = "") -> None:
    fill, edge, text = COLOURS[seat]
    svg.add("circle", cx=cx, cy=cy, r=R, fill=fill, stroke=edge, stroke_width=1.5)
    svg.add("circle", cx=cx, cy=cy, r=R - 5, fill="none", stroke=edge, stroke_opacity=0.35)
    if label:
        svg.add(
            "text",
            label,
            x=cx,
            y=cy + 5,
            font_size=14,
            font_weight="bold",
            fill=text,
            text_anchor="middle",
        )


def _stack_on_point(svg: _Svg, point: int, seat: int, count: int) -> None:
    cx = _point_x(point) + POINT_W / 2
    top = _is_top(point)
    for i in range(min(count, MAX_SHOWN)):
        offset = R + i * 2 * R
        cy = BOARD_Y + offset if top else BOARD_Y + BOARD_H - offset
        last = i == MAX_SHOWN - 1 and count > MAX_SHOWN
        _checker(svg, cx, cy, seat, str(count) if last else "")


TITLES = {"tavla": "Backgammon board", "long-nardy": "Long nardy board"}
"""The picture's title by game (its name)."""


def _divider(svg: _Svg) -> None:
    """The middle strip of a board without a bar (long nardy): wood only."""
    svg.add("rect", x=BAR_X, y=BOARD_Y, width=BAR_W, height=BOARD_H, fill=WOOD)


def _heads(svg: _Svg, heads: tuple[int, int]) -> None:
    """Each head (seat 0's, then seat 1's in seat 0's numbering: the game's `heads`) marked
    "head" with the way its checkers leave it (counter-clockwise: leftwards along the top)."""
    for seat, point in enumerate(heads):
        arrow = "\u2190" if _is_top(point) else "\u2192"
        cx = _point_x(point) + POINT_W / 2
        y = BOARD_Y + POINT_H + 14 if _is_top(point) else BOARD_Y + BOARD_H - POINT_H - 6
        svg.add(
            "text",
            f"{arrow} head",
            x=cx,
            y=y,
            font_size=11,
            font_weight="bold",
            fill="#fff4d6",
            text_anchor="middle",
            class_=f"head head-{seat}",
        )


def _bar(svg: _Svg, pic: BoardPicture) -> None:
    svg.add("rect", x=BAR_X, y=BOARD_Y, width=BAR_W, height=BOARD_H, fill=WOOD)
    cx = BAR_X + BAR_W / 2
    mid = BOARD_Y + BOARD_H / 2
    # Hit checkers wait on the bar in the half of the board they re-enter into: seat 0 enters
    # in seat 1's home (top right), seat 1 in seat 0's home (bottom right).
    for seat in (0, 1):
        count = pic.position.bar[seat]
        marked = (seat, 25) in pic.moved_from or (seat, 25) in pic.moved_to
        if marked:
            y = BOARD_Y if seat == 0 else mid
            tint = FROM_TINT if (seat, 25) in pic.moved_from else TO_TINT
            svg.add(
                "rect", x=BAR_X, y=y, width=BAR_W, height=BOARD_H / 2, fill=tint, fill_opacity=0.4
            )
        for i in range(min(count, 4)):
            cy = mid - R - 17 - i * 2 * R if seat == 0 else mid + R + 17 + i * 2 * R
            last = i == 3 and count > 4
            _checker(svg, cx, cy, seat, str(count) if last or (i == 0 and count > 1) else "")


def _tray(svg: _Svg, pic: BoardPicture) -> None:
    slab = 10
    for seat in (0, 1):
        count = pic.position.off[seat]
        fill, edge, _ = COLOURS[seat]
        if (seat, 0) in pic.moved_to:
            y = BOARD_Y + BOARD_H / 2 if seat == 0 else BOARD_Y
            svg.add(
                "rect", x=TRAY_X, y=y, width=TRAY_W, height=BOARD_H / 2, fill=TO_TINT, opacity=0.4
            )
        for i in range(count):
            y = BOARD_Y + BOARD_H - 6 - (i + 1) * slab if seat == 0 else BOARD_Y + 6 + i * slab
            svg.add(
                "rect",
                x=TRAY_X + 8,
                y=y,
                width=TRAY_W - 16,
                height=slab - 1,
                fill=fill,
                stroke=edge,
                rx=2,
            )
        if count:
            y = BOARD_Y + BOARD_H / 2 + 18 if seat == 0 else BOARD_Y + BOARD_H / 2 - 8
            svg.add(
                "text",
                f"{count} off",
                x=TRAY_X + TRAY_W / 2,
                y=y,
                font_size=11,
                fill="#fff4d6",
                text_anchor="middle",
            )


def _cube(svg: _Svg, pic: BoardPicture) -> None:
    size = 38
    x = (CUBE_COL - size) / 2
    mid = BOARD_Y + BOARD_H / 2
    if not pic.cube_enabled or pic.crawford:
        note = "Crawford: no cube" if pic.cube_enabled else "no cube"
        game = game_of(pic.position)
        if not game.has_cube:
            note = f"{game.title}: no cube"
        svg.add(
            "text",
            note,
            x=CUBE_COL / 2,
            y=mid,
            font_size=10,
            fill="#555",
            text_anchor="middle",
            transform=f"rotate(-90 {_fmt(CUBE_COL / 2)} {_fmt(mid)})",
        )
        return
    y: float
    if pic.cube_owner == 1:
        y = BOARD_Y + 4
    elif pic.cube_owner == 0:
        y = BOARD_Y + BOARD_H - size - 4
    else:
        y = mid - size / 2
    value = pic.cube_value * 2 if pic.cube_offered else pic.cube_value
    label = "64" if value == 1 else str(value)
    svg.add(
        "rect",
        x=x,
        y=y,
        width=size,
        height=size,
        rx=6,
        fill="#fffdf5",
        stroke="#c33" if pic.cube_offered else "#333",
        stroke_width=3 if pic.cube_offered else 1.5,
    )
    svg.add(
        "text",
        label,
        x=x + size / 2,
        y=y + size / 2 + 7,
        font_size=20,
        font_weight="bold",
        fill="#222",
        text_anchor="middle",
    )
    if pic.cube_offered:
        svg.add(
            "text",
            "offered",
            x=CUBE_COL / 2,
            y=y + size + 13,
            font_size=10,
            fill="#c33",
            text_anchor="middle",
        )


_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _dice(svg: _Svg, dice: tuple[int, ...], owner: int | None) -> None:
    size = 36
    mid = BOARD_Y + BOARD_H / 2
    # The roller's dice sit in his half: seat 0 on the right, seat 1 on the left.
    left = BAR_X + BAR_W if owner in (0, None) else BOARD_X
    x0 = left + QUARTER / 2 - (size + 6) * len(dice) / 2
    fill, edge, pip = COLOURS[owner if owner is not None else 0]
    for i, value in enumerate(dice):
        x = x0 + i * (size + 12)
        y = mid - size / 2
        svg.add("rect", x=x, y=y, width=size, height=size, rx=6, fill=fill, stroke=edge)
        for dx, dy in _PIPS[value]:
            svg.add("circle", cx=x + size / 2 + dx * 10, cy=y + size / 2 + dy * 10, r=3.4, fill=pip)


def _labels(svg: _Svg, pic: BoardPicture) -> None:
    pips = pic.position.pips()
    to = f" / {pic.length}" if pic.length else " (money)"
    for seat, y in ((1, 30), (0, HEIGHT - 16)):
        marker = "▶ " if pic.to_act == seat else ""
        fill, edge, _ = COLOURS[seat]
        cy = y - 5
        svg.add("circle", cx=BOARD_X + 4, cy=cy, r=9, fill=fill, stroke=edge, stroke_width=1.5)
        svg.add(
            "text",
            f"{marker}{pic.names[seat]}",
            x=BOARD_X + 20,
            y=y,
            font_size=17,
            font_weight="bold",
            fill="#222",
        )
        svg.add(
            "text",
            f"score {pic.score[seat]}{to}   ·   pips {pips[seat]}",
            x=TRAY_X + TRAY_W,
            y=y,
            font_size=14,
            fill="#333",
            text_anchor="end",
        )


def _notice(svg: _Svg, text: str) -> None:
    mid = BOARD_Y + BOARD_H / 2
    width = min(BOARD_W - 20, 16 + 8.2 * len(text))
    x = BOARD_X + (BOARD_W - width) / 2
    svg.add(
        "rect",
        x=x,
        y=mid - 15,
        width=width,
        height=30,
        rx=6,
        fill="#fffdf5",
        stroke="#c33",
        stroke_width=2,
        opacity=0.95,
    )
    svg.add(
        "text",
        text,
        x=BOARD_X + BOARD_W / 2,
        y=mid + 5,
        font_size=14,
        font_weight="bold",
        fill="#8a1c1c",
        text_anchor="middle",
    )
