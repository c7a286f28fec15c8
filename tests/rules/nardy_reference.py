"""An independent brute-force generator of long nardy's legal plays, read straight from
RULES-LONG-NARDY.md, to check the engine (games/rules/nardy.py) against.

Deliberately simple and separate from the engine: no array form, no shared step generator,
no ordering tricks. It tries every order of the dice (both orders of two numbers, the four
steps of a double), every checker for every step, and keeps every prefix of every such
sequence as a candidate play; then applies the rules in the order the text gives them:

1. each step lands on an empty point or one of the mover's own, bears off only with all 15
   home (a die from its own point, or from a lower one when no checker stands higher);
2. at most one step from the head (24-point); two on a first turn with 6-6, 4-4 or 3-3;
3. the wall rule on the position at the end of the play (judged first);
4. the most dice among the remaining plays; with two numbers and one die, the larger if
   some play uses it; one entry per resulting position.

The wall is judged in the opponent's own numbering (his path is simply 24 down to 1 there):
six of his points in a row held by the mover, with none of his checkers on a lower point.
"""

from __future__ import annotations

from collections.abc import Sequence

Board = tuple[int, ...]
Result = tuple[Board, tuple[int, int]]  # (board, off) from the mover's side


def their_view(board: Sequence[int]) -> list[int]:
    """`board` in the opponent's numbering: index q-1 is his point q. His point q is the
    mover's point ((q + 11) mod 24) + 1, i.e. index (q + 11) mod 24."""
    return [board[(q + 11) % 24] for q in range(1, 25)]


def has_forbidden_wall(board: Sequence[int]) -> bool:
    """Six consecutive points of the opponent's path held by the mover, and no opposing
    checker further along that path (a lower point in the opponent's numbering)."""
    his = their_view(board)
    for top in range(24, 5, -1):  # a run on his points top, top-1, ..., top-5
        held = all(his[q - 1] > 0 for q in range(top - 5, top + 1))
        if held and not any(his[q - 1] < 0 for q in range(1, top - 5)):
            return True
    return False


def reference_plays(
    board: Sequence[int], off: Sequence[int], dice: Sequence[int], first_turn: bool
) -> set[Result]:
    """Every distinct legal resulting (board, off) of `dice` (either order) for the mover."""
    return reference(board, off, dice, first_turn)[0]


def reference(
    board: Sequence[int], off: Sequence[int], dice: Sequence[int], first_turn: bool
) -> tuple[set[Result], int]:
    """The legal resulting positions and how many dice they use (0: nothing can be
    played)."""
    a, b = dice
    if a == b:
        orders = [[a] * 4]
        head_max = 2 if first_turn and a in (6, 4, 3) else 1
    else:
        orders = [[a, b], [b, a]]
        head_max = 1
    candidates: list[tuple[Board, int, tuple[int, ...]]] = []

    def walk(
        board: list[int], mine_off: int, order: list[int], used: tuple[int, ...], heads: int
    ) -> None:
        candidates.append((tuple(board), mine_off, used))
        if len(used) == len(order):
            return
        die = order[len(used)]
        for point in range(1, 25):
            if board[point - 1] <= 0:
                continue
            if point == 24 and heads == head_max:
                continue
            left_head = heads + (point == 24)
            target = point - die
            after = list(board)
            after[point - 1] -= 1
            if target >= 1:
                if board[target - 1] < 0:  # any opposing checker closes the point
                    continue
                after[target - 1] += 1
                walk(after, mine_off, order, (*used, die), left_head)
            else:
                if any(board[q - 1] > 0 for q in range(7, 25)):
                    continue  # not all fifteen home yet
                if target < 0 and any(board[q - 1] > 0 for q in range(point + 1, 7)):
                    continue  # a higher point of the home still holds a checker
                walk(after, mine_off + 1, order, (*used, die), left_head)

    for order in orders:
        walk(list(board), off[0], order, (), 0)
    legal = [c for c in candidates if not has_forbidden_wall(c[0])]
    most = max((len(used) for _, _, used in legal), default=0)
    if most == 0:
        return set(), 0
    best = [c for c in legal if len(c[2]) == most]
    if a != b and most == 1:
        with_larger = [c for c in best if c[2] == (max(a, b),)]
        if with_larger:
            best = with_larger
    return {(board, (mine_off, off[1])) for board, mine_off, _ in best}, most
