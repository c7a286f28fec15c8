"""Seeded long nardy positions for the tests: met in self-play, and made for bear-offs and
walls (the rules' difficult corners)."""

from __future__ import annotations

import random

from games.rules import Dice, NardyPosition, legal_plays
from games.rules.nardy import PATH

Case = tuple[NardyPosition, Dice, bool]  # position (mover's side), roll, first turn


def roll(rng: random.Random) -> Dice:
    return Dice.of(rng.randint(1, 6), rng.randint(1, 6))


def selfplay(rng: random.Random, n: int, *, greedy: bool = False) -> list[Case]:
    """Positions of whole games between random (or mostly running) players, with the first
    turn flag of each player."""
    out: list[Case] = []
    while len(out) < n:
        position = NardyPosition.starting()
        first = [True, True]
        mover = 0
        while len(out) < n:
            dice = roll(rng)
            out.append((position, dice, first[mover]))
            plays = legal_plays(position, dice, first_turn=first[mover])
            first[mover] = False
            if plays:
                if greedy and rng.random() < 0.8:
                    play = min(plays, key=lambda p: p.result.pips()[0])
                else:
                    play = rng.choice(plays)
                if play.result.off[0] == 15:
                    break
                position = play.result  # type: ignore[assignment]
            position = position.flipped()
            mover = 1 - mover
    return out


def bearoffs(rng: random.Random, n: int) -> list[Case]:
    """The mover at home (or a few checkers from it), the opponent anywhere."""
    out: list[Case] = []
    while len(out) < n:
        board = [0] * 24
        mine = rng.randint(1, 15)
        top = rng.randint(1, 6) if rng.random() < 0.8 else rng.randint(7, 9)
        for _ in range(mine):
            board[rng.randint(1, top) - 1] += 1
        free = [p for p in range(1, 25) if board[p - 1] == 0]
        theirs = rng.randint(1, 15)
        for _ in range(theirs):
            board[rng.choice(free) - 1] -= 1
        position = NardyPosition(tuple(board), (0, 0), (15 - mine, 15 - theirs))
        out.append((position, roll(rng), False))
    return out


def walls(rng: random.Random, n: int) -> list[Case]:
    """The mover holding five or six points of a window of the opponent's path, with a few
    checkers that may close the gap, and the opponent's checkers before or after it."""
    out: list[Case] = []
    while len(out) < n:
        board = [0] * 24
        w = rng.randint(0, 18)
        gap = w + rng.randint(0, 6)  # w + 6: no gap, a whole six-point block
        mine = 15
        for i in range(w, w + 6):
            if i != gap:
                count = min(rng.randint(1, 3), mine)
                board[PATH[i] - 1] += count
                mine -= count
        while mine > 0:
            point = PATH[min(gap, 23)] + rng.randint(1, 6)
            if point > 24 or rng.random() < 0.4:
                point = rng.randint(1, 24)
            board[point - 1] += 1
            mine -= 1
        free = [p for p in range(1, 25) if board[p - 1] == 0]
        before = [p for p in free if PATH.index(p) < w]
        spots = before if before and rng.random() < 0.7 else free
        if not spots:
            continue
        theirs = rng.randint(5, 15)
        for _ in range(theirs):
            board[rng.choice(spots) - 1] -= 1
        position = NardyPosition(tuple(board), (0, 0), (0, 15 - theirs))
        out.append((position, roll(rng), rng.random() < 0.1))
    return out
