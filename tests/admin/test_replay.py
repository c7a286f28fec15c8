"""The admin's replay of a stored match against gnubg's own record of the same matches:
the Position ID at every move, the per-game results, and a picture for every event."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from matches.review.frames import picture, position_facts, shown_state
from matches.review.views import replay_match
from matches.store.events import Moved, Passed

from .helpers import PUBLIC_MATCHES, imported_match

pytestmark = pytest.mark.django_db

MATCHES = ["match_08_len3_cube", "match_31_len1_nocube"]


@pytest.mark.parametrize("name", MATCHES)
def test_replay_agrees_with_gnubg(name: str) -> None:
    data = replay_match(imported_match(name))
    games = [json.loads(line) for line in (PUBLIC_MATCHES / f"{name}.jsonl").open()]

    # Per-game results.
    assert len(data.games) == len(games)
    for row, game in zip(data.games, games, strict=True):
        result = game["result"]
        assert row.result is not None
        assert (row.number, row.result.winner, row.result.points) == (
            game["game"],
            result["winner"],
            result["points"],
        )
        assert (row.kind, row.result.cube) == (result["type"], result["cube_value"])
        assert row.result.ended_by == result["ended_by"]
        assert row.crawford == game["crawford_game"]
        assert list(row.score_before) == game["score_before"]

    # gnubg's Position ID before every move, from the mover's side, as the board page shows it
    # at the event before the move (the dice are out: the state is waiting for the play).
    expected = [e["position_id"] for g in games for e in g["events"] if e["type"] == "move"]
    shown = []
    for frame in data.frames:
        if isinstance(frame.event, Moved | Passed):
            previous = data.frames[frame.index - 1]
            shown.append(position_facts(previous, data.names).position_id)
    assert shown == expected

    # Every event has a picture, and it is well-formed SVG with every checker accounted for.
    for frame in data.frames:
        svg = ET.fromstring(_svg(frame, data.names))
        assert svg.tag.endswith("svg")
        board = shown_state(frame).board
        assert sum(abs(n) for n in board.board) + sum(board.bar) + sum(board.off) == 30


def _svg(frame, names) -> str:  # type: ignore[no-untyped-def]
    from matches.review.board_svg import board_svg

    return board_svg(picture(frame, names))
