"""Single elimination: seeded by rating, byes to the top seeds, the winners go on.

The bracket has the next power of two of slots; seeds take them in the standard order (1 v 16,
8 v 9, 4 v 13, 5 v 12, 2 v 15, ... for 16), so seeds 1 and 2 can meet only in the final, 1-4
only in the semi-finals, and so on. The slots past the field are byes, and in that order they
fall to the top seeds: 11 players in a bracket of 16 give seeds 1-5 a bye. Each later round
pairs the winners of neighbouring boards, in bracket order. A player who withdrew is gone: the
board he would have played is a bye for his opponent (and an empty board, nobody going on,
when both are gone). The final (the last round) is played to the setting `final_length`.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import Pair, RoundPaired
from .state import Board, TournamentState


def bracket_size(players: int) -> int:
    """The smallest power of two that holds the field."""
    return 1 << max(0, players - 1).bit_length()


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) in slot order for a bracket of `size` (a power of two)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def first_round(field: Sequence[int | None]) -> tuple[Pair, ...]:
    """The first round's boards for `field` in seed order (seed 1 first): (higher seed, lower
    seed), or (seed, None) for a bye. A seed given as None (withdrawn before the first round
    was paired) leaves his opponent a bye."""
    size = bracket_size(len(field))
    slots = [field[s - 1] if s <= len(field) else None for s in seed_order(size)]
    return tuple(_normalised((slots[i], slots[i + 1])) for i in range(0, size, 2))


def next_round(boards: Sequence[Board], gone: frozenset[int] = frozenset()) -> tuple[Pair, ...]:
    """The boards of the round after `boards` (all decided): neighbouring winners meet; a
    winner in `gone` (withdrawn) goes on as nobody."""
    goes_on = [w if w is not None and w not in gone else None for w in (b.winner for b in boards)]
    pairs: list[Pair] = []
    for i in range(0, len(goes_on), 2):
        a, b = goes_on[i], goes_on[i + 1]
        pairs.append((a, b) if a is not None else (b, None))
    return tuple(pairs)


def pair_round(state: TournamentState) -> RoundPaired:
    """The next round of the knockout (the first from the seeding)."""
    assert state.settings is not None
    number = len(state.rounds) + 1
    if state.current is None:
        boards = first_round([p if p not in state.withdrawn else None for p in state.players])
    else:
        boards = next_round(state.current.boards, state.withdrawn)
    return RoundPaired(number, boards, state.settings.length_of(number, state.total_rounds))


def champion(state: TournamentState) -> int | None:
    """The winner of the final, once it is decided (None when the final was empty)."""
    if len(state.rounds) < state.total_rounds or state.current is None:
        return None
    return state.current.boards[0].winner if state.current.complete else None


def standings(state: TournamentState) -> list[int]:
    """The field by how far each got: the champion, then the losers of the last round played,
    of the one before, and so on; seed order within a round."""
    reached = dict.fromkeys(state.players, 0)
    for played in state.rounds:
        for board in played.boards:
            for p in board.players:
                if p is not None:
                    reached[p] = played.number
    top = champion(state)
    seed = {p: i for i, p in enumerate(state.players)}
    return sorted(state.players, key=lambda p: (p != top, -reached[p], seed[p]))


def _normalised(pair: Pair) -> Pair:
    a, b = pair
    return (a, b) if a is not None else (b, None)
