"""The boards of a match's plays, after each step, from one seat's side.

A client that shows a play checker by checker (the opponent's play arriving, the record
page) draws these boards instead of applying steps itself: how a step changes a board is the
rules' (`apply_steps`), written once. The boards of a match at a version never change, so a
process keeps the last few matches' (a move pushed to many watchers is replayed once here).
"""

from __future__ import annotations

from threading import Lock
from uuid import UUID

from cachetools import LRUCache

from games.rules import apply_steps
from matches.store.events import Moved
from matches.store.replay import MatchView, fold
from matches.store.streams import stored_events

from . import shapes
from .state import board_json

_CACHE_SIZE = 64
_cache: LRUCache[tuple[UUID, int, int], tuple[shapes.PlayBoards, ...]] = LRUCache(_CACHE_SIZE)
_cache_lock = Lock()


def play_boards(match_id: UUID, version: int, seat: int, after: int = 0) -> shapes.Boards:
    """Every play stored after event `after` up to `version`, with the board from `seat`'s
    side after each of its steps (the last one: after the play)."""
    key = (match_id, version, seat)
    with _cache_lock:
        plays = _cache.get(key)
    if plays is None:
        plays = _replayed(match_id, version, seat)
        with _cache_lock:
            _cache[key] = plays
    return shapes.Boards(version=version, seat=seat, plays=[p for p in plays if p.seq > after])


def _replayed(match_id: UUID, version: int, seat: int) -> tuple[shapes.PlayBoards, ...]:
    view = MatchView(match_id)
    out = []
    for stored in stored_events(match_id):
        if stored.seq > version:
            break  # committed after the row the caller read
        event = stored.event
        if isinstance(event, Moved) and view.state is not None:
            position = view.state.position_for(event.seat)
            boards = []
            for frm, to, _hit in event.steps:
                position = apply_steps(position, [(frm, to)])
                seen = position if event.seat == seat else position.flipped()
                boards.append(board_json(seen))
            out.append(shapes.PlayBoards(seq=stored.seq, seat=event.seat, boards=boards))
        view = fold(view, stored)
    return tuple(out)
