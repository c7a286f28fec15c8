"""The admin with long nardy matches (issue 14, "Admin"): the list shows and filters the game,
the match page and the board replay draw long nardy (same direction, the heads, no bar, no
cube, no gnubg IDs), the .mat export is not offered, the dice statistics by game."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse

from games.rules import LONG_NARDY, NardyPosition
from matches import services
from matches.review.board_svg import BoardPicture, board_svg, steps_in_seat0_numbering
from matches.review.frames import picture, position_facts
from matches.review.views import replay_match
from matches.store.models import Match, MatchEvent

from .helpers import RandomDice, online_match


def nardy_match(ana: Any, bob: Any, turns: int = 12) -> Any:
    return online_match(ana, bob, length=3, seed=5, turns=turns, game="long-nardy", clock=None)


def test_the_list_filters_by_game(as_reviewer: Client, ana: Any, bob: Any) -> None:
    nardy = nardy_match(ana, bob, turns=2)
    tavla = online_match(ana, bob, turns=2)
    url = reverse("admin:matches_match_changelist")
    both = as_reviewer.get(url).content.decode()
    assert str(nardy.match_id)[:8] in both and str(tavla.match_id)[:8] in both
    only = as_reviewer.get(url, {"game": "long-nardy"}).content.decode()
    assert str(nardy.match_id)[:8] in only and str(tavla.match_id)[:8] not in only
    only = as_reviewer.get(url, {"game": "tavla"}).content.decode()
    assert str(tavla.match_id)[:8] in only and str(nardy.match_id)[:8] not in only


def test_the_match_page_and_the_board_replay_draw_long_nardy(
    as_reviewer: Client, ana: Any, bob: Any
) -> None:
    view = nardy_match(ana, bob)
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[view.match_id]))
    assert page.status_code == 200
    assert "long-nardy" in page.content.decode()
    assert reverse("admin:matches_match_export", args=[view.match_id]) not in page.content.decode()
    export = as_reviewer.get(reverse("admin:matches_match_export", args=[view.match_id]))
    assert export.status_code == 404
    last = MatchEvent.objects.filter(match_id=view.match_id).count()
    for seq in range(1, last + 1):
        board = as_reviewer.get(reverse("admin:matches_match_board", args=[view.match_id, seq]))
        assert board.status_code == 200, seq
        facts = board.context["facts"]
        assert facts.position_id.startswith("none") and facts.cube == "none in long nardy"
        assert "long nardy" in facts.game or facts.game.startswith("—")
        html = board.content.decode()
        assert "<svg" in html and "head" in html


def test_the_board_picture_of_long_nardy() -> None:
    svg = board_svg(BoardPicture(position=LONG_NARDY.starting(), cube_enabled=False))
    assert "Long nardy board" in svg and "long nardy: no cube" in svg
    assert svg.count('class="head head-') == 2
    # each head drawn with its 15: seat 0 on his 24 (top right), seat 1 on seat 0's 12
    assert len(re.findall(r'font-size="14" font-weight="bold"[^>]*>15<', svg)) == 2
    # seat 1's own numbers: seat 0's 12 is his 24, seat 0's 13 his 1
    numbers = re.findall(r'font-size="9"[^>]*>(\d+)<', svg)
    assert numbers[11] == "24" and numbers[12] == "1"
    # no checker ever on a bar: moving from seat 1's head marks seat 0's 12
    marks = steps_in_seat0_numbering(1, [(24, 18)], game=LONG_NARDY)
    assert marks == (frozenset({(1, 12)}), frozenset({(1, 6)}))
    assert steps_in_seat0_numbering(1, [(24, 18)]) == (
        frozenset({(1, 1)}),
        frozenset({(1, 7)}),
    )
    moved = NardyPosition.from_json(
        {"board": [0] * 11 + [-14] + [0] * 5 + [-1] + [0] * 5 + [15], "off": [0, 0]}
    )
    assert "Long nardy" in board_svg(BoardPicture(position=moved))


def test_dice_statistics_by_game(as_reviewer: Client, ana: Any, bob: Any) -> None:
    nardy_match(ana, bob, turns=6)
    online_match(ana, bob, turns=3)
    url = reverse("admin:matches_match_dice")
    every = as_reviewer.get(url).context["report"]
    nardy = as_reviewer.get(url, {"game": "long-nardy"}).context["report"]
    tavla = as_reviewer.get(url, {"game": "tavla"}).context["report"]
    assert nardy.roll_count + tavla.roll_count == every.roll_count
    assert nardy.roll_count > 0 and tavla.roll_count > 0
    assert "long-nardy only" in nardy.subject
    mine = as_reviewer.get(url, {"game": "long-nardy", "player": ana.username}).context["report"]
    assert 0 < mine.roll_count < nardy.roll_count


def test_the_review_names_long_nardys_results(ana: Any, bob: Any) -> None:
    """A mars resigned and accepted reads as a mars (long nardy's word), never a gammon."""
    view = nardy_match(ana, bob, turns=2)
    assert view.match_id is not None and view.state is not None
    seat = view.state.to_act
    assert seat is not None
    users, dice = (ana, bob), RandomDice(7)
    services.match_resign(match_id=view.match_id, user=users[seat], value=2, dice=dice)
    services.match_accept_resign(match_id=view.match_id, user=users[1 - seat], dice=dice)
    replay = replay_match(Match.objects.get(pk=view.match_id))
    offered, accepted = (f for f in replay.frames if f.event.type.startswith("resign_"))
    assert offered.text.endswith("offers to resign: mars")
    assert "offers to resign: mars" in picture(offered, replay.names).notice
    assert "(mars)" in position_facts(offered, replay.names).phase
    assert "(mars, cube 1, resignation)" in accepted.text
    assert [g.kind for g in replay.games if g.result] == ["mars"]
    words = " ".join(f.text for f in replay.frames)
    assert "gammon" not in words and "single" not in words
