"""Staff load every admin page for real matches: the list, the match page, the board at any
event, the SVG, the .mat export and the dice statistics."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.rules.matfile import mat_actions, parse_mat
from matches import services
from matches.interop.exporting import match_to_mat
from matches.store.models import Match, MatchEvent
from matches.store.replay import MatchView

from .helpers import T0

pytestmark = pytest.mark.django_db


def board_url(match_id: Any, seq: int) -> str:
    return reverse("admin:matches_match_board", args=[match_id, seq])


def test_the_admin_index_lists_the_matches_app(as_superuser: Client) -> None:
    page = as_superuser.get(reverse("admin:index"))
    assert page.status_code == 200
    for name in ("Matches", "Match events", "Player suspensions"):
        assert name in page.content.decode()


def test_match_list_shows_what_an_admin_needs(
    as_reviewer: Client, live: MatchView, imported: Match
) -> None:
    page = as_reviewer.get(reverse("admin:matches_match_changelist"))
    assert page.status_code == 200
    html = page.content.decode()
    for column in ("players", "mode", "length", "score", "status", "started", "last move"):
        assert column in html.lower()
    assert "result" in html.lower() and "ended by" in html.lower()
    assert "ana" in html and "bob" in html  # accounts
    assert "gnubgA" in html and "gnubgB" in html  # named players of an imported match
    assert "gnubgA won" in html and "7\u20132" in html and "Resignation" in html
    assert str(imported.pk)[:8] in html


@pytest.mark.parametrize(
    ("query", "expect_live", "expect_imported"),
    [
        ("status=active", True, False),
        ("status=finished", False, True),
        ("mode=online", True, False),
        ("mode=hotseat", False, True),
        ("ended_by=resign", False, True),
        ("ended_by=timeout", False, False),
        ("length=3", True, True),
        ("q=ana", True, False),
        ("q=gnubgB", False, True),  # a seated name without an account
        ("q=nobody-at-all", False, False),
        (f"created_at__year={T0.year}&created_at__month={T0.month}", True, None),
    ],
)
def test_match_list_filters_and_search(
    as_reviewer: Client,
    live: MatchView,
    imported: Match,
    query: str,
    expect_live: bool,
    expect_imported: bool | None,
) -> None:
    page = as_reviewer.get(reverse("admin:matches_match_changelist") + "?" + query)
    assert page.status_code == 200
    shown = {m.pk for m in page.context["cl"].result_list}
    assert (live.match_id in shown) == expect_live
    if expect_imported is not None:
        assert (imported.pk in shown) == expect_imported


def test_search_by_match_id(as_reviewer: Client, live: MatchView, imported: Match) -> None:
    url = reverse("admin:matches_match_changelist") + f"?q={imported.pk}"
    shown = {m.pk for m in as_reviewer.get(url).context["cl"].result_list}
    assert shown == {imported.pk}


def test_timed_out_match_is_found_by_how_it_ended(
    as_reviewer: Client, clocked: MatchView, live: MatchView
) -> None:
    assert clocked.match_id is not None and clocked.state is not None
    assert clocked.last_at is not None
    late = clocked.last_at + dt.timedelta(seconds=61)
    services.match_timeout(match_id=clocked.match_id, seat=clocked.state.to_act or 0, now=late)
    url = reverse("admin:matches_match_changelist") + "?ended_by=timeout"
    page = as_reviewer.get(url)
    assert [m.pk for m in page.context["cl"].result_list] == [clocked.match_id]
    assert "Time out" in page.content.decode()
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[clocked.match_id]))
    assert "ran out of time and loses the match" in page.content.decode()


def test_clock_state_at_each_move(as_reviewer: Client, clocked: MatchView) -> None:
    """Each player's move (roll and play, 7 s each) lasts 14 s: 2 s beyond the 12 s delay."""
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[clocked.match_id]))
    frames = page.context["replay"].frames
    moves = [f for f in frames if f.stored.type == "moved"]
    first, second = moves[1].clock_state, moves[2].clock_state
    assert first is not None and second is not None
    assert first.used == dt.timedelta(seconds=14) and first.charged == pytest.approx(2.0)
    assert first.running == 1 - moves[1].event.seat
    assert second.reserves == (pytest.approx(118.0), pytest.approx(118.0))  # 2 s each
    assert "reserves" in first.summary
    seq = moves[2].seq
    html = as_reviewer.get(board_url(clocked.match_id, seq)).content.decode()
    assert "taken from the reserve" in html and "out of time at" in html


def test_match_page_has_settings_players_games_and_the_timeline(
    as_reviewer: Client, imported: Match
) -> None:
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[imported.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Settings" in html and "Backgammon value" in html
    assert "gnubgA" in html and "gnubgB" in html
    events = MatchEvent.objects.filter(match=imported).count()
    assert f"Event timeline ({events} events, read-only)" in html
    assert html.count("cube_offered") == 3
    assert "Clock" in html and "played without a clock" in html
    # Per-game results, as gnubg itself recorded them (tests/data/matches-public).
    games = page.context["replay"].games
    assert [(g.number, g.result.winner, g.result.points, g.kind, g.result.cube) for g in games] == [
        (1, 1, 2, "single", 2),
        (2, 0, 1, "single", 1),
        (3, 0, 6, "backgammon", 2),
    ]
    assert [g.ended_by for g in games] == ["double dropped", "bore off", "resignation"]
    assert [g.crawford for g in games] == [False, True, False]
    # Read-only: no save buttons, and the staff links are there.
    assert 'name="_save"' not in html
    assert reverse("admin:matches_match_export", args=[imported.pk]) in html
    assert board_url(imported.pk, events) in html


def test_board_pages_step_through_a_match(as_reviewer: Client, imported: Match) -> None:
    last = MatchEvent.objects.filter(match=imported).count()
    for seq in (1, 2, 4, 5, 24, 25, 65, 171, last):
        page = as_reviewer.get(board_url(imported.pk, seq))
        assert page.status_code == 200, seq
        html = page.content.decode()
        assert f"Event {seq} of {last}" in html
        assert "<svg" in html and "gnubg Position ID" in html and "gnubg Match ID" in html
        assert ("previous" in html) and ("next" in html)
        if seq > 1:
            assert board_url(imported.pk, seq - 1) in html
        if seq < last:
            assert board_url(imported.pk, seq + 1) in html
        assert "played without a clock" in html  # imported matches have none
    assert as_reviewer.get(board_url(imported.pk, last + 1)).status_code == 404
    assert as_reviewer.get(board_url(imported.pk, 0)).status_code == 404


def test_board_page_facts_at_a_double_and_at_the_end_of_a_game(
    as_reviewer: Client, imported: Match
) -> None:
    doubled = as_reviewer.get(board_url(imported.pk, 64)).context
    assert "gnubgB doubles to 4" in doubled["frame"].text
    assert doubled["facts"].cube == "2, owned by gnubgB; gnubgB offers 4"
    ended = as_reviewer.get(board_url(imported.pk, 171)).context
    assert ended["facts"].game == "tavla, game 2: over"  # the flag is the next game's (gnubg)
    assert ended["facts"].score == "gnubgA 1 \u2013 2 gnubgB (to 3)"
    assert ended["facts"].pips == "gnubgA 0, gnubgB 2"  # the last position, not a new game


def test_go_to_box_redirects_to_the_event(as_reviewer: Client, imported: Match) -> None:
    page = as_reviewer.get(board_url(imported.pk, 1) + "?seq=30")
    assert page.status_code == 302 and page["Location"] == board_url(imported.pk, 30)


def test_board_svg_download_is_well_formed(as_reviewer: Client, live: MatchView) -> None:
    url = reverse("admin:matches_match_board_svg", args=[live.match_id, 6])
    page = as_reviewer.get(url)
    assert page.status_code == 200
    assert page["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(page.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_live_match_page_shows_time_since_previous_event(
    as_reviewer: Client, live: MatchView
) -> None:
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[live.match_id]))
    assert page.status_code == 200
    frames = page.context["replay"].frames
    assert [f.since_previous_text for f in frames[4:7]] == ["7.0 s"] * 3
    assert "ana" in {f.actor for f in frames} and "bob" in {f.actor for f in frames}
    assert "7.0 s" in page.content.decode()


def test_export_downloads_the_mat_file(as_reviewer: Client, imported: Match) -> None:
    page = as_reviewer.get(reverse("admin:matches_match_export", args=[imported.pk]))
    assert page.status_code == 200
    assert page["Content-Disposition"] == f'attachment; filename="tavla-{imported.pk}.mat"'
    text = page.content.decode()
    assert text == match_to_mat(imported.pk)
    settings, actions = mat_actions(parse_mat(text))
    assert settings.length == 3 and actions


def test_match_event_admin_lists_and_shows_events(as_reviewer: Client, imported: Match) -> None:
    page = as_reviewer.get(reverse("admin:matches_matchevent_changelist"))
    assert page.status_code == 200
    event = MatchEvent.objects.get(match=imported, seq=24)
    page = as_reviewer.get(reverse("admin:matches_matchevent_change", args=[event.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "cube_offered" in html and board_url(imported.pk, 24) in html
    assert 'name="_save"' not in html


def test_match_event_list_search(as_reviewer: Client, live: MatchView, imported: Match) -> None:
    url = reverse("admin:matches_matchevent_changelist")
    by_match = as_reviewer.get(f"{url}?q={imported.pk}").context["cl"]
    assert by_match.result_count == MatchEvent.objects.filter(match=imported).count()
    by_actor = as_reviewer.get(f"{url}?q=bob").context["cl"]
    assert by_actor.result_count == MatchEvent.objects.filter(actor__username="bob").count() > 0
    assert as_reviewer.get(f"{url}?type__exact=rolled").status_code == 200


def test_dice_statistics_pages(as_reviewer: Client, live: MatchView, imported: Match) -> None:
    url = reverse("admin:matches_match_dice")
    site = as_reviewer.get(url)
    assert site.status_code == 200
    rolls = MatchEvent.objects.filter(type="rolled").count()
    assert site.context["report"].roll_count == rolls
    assert "degrees of freedom" in site.content.decode()
    for query in ("?player=ana", "?player=ana&side=opponents", "?period=30", "?player=ghost"):
        page = as_reviewer.get(url + query)
        assert page.status_code == 200, query
    assert "No user is called" in as_reviewer.get(url + "?player=ghost").content.decode()


def test_a_match_row_without_events_still_renders(as_reviewer: Client) -> None:
    match = Match.objects.create(mode=Match.Mode.ONLINE)
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[match.pk]))
    assert page.status_code == 200
    assert "Event timeline (0 events, read-only)" in page.content.decode()
    assert as_reviewer.get(board_url(match.pk, 1)).status_code == 404
    assert (
        as_reviewer.get(reverse("admin:matches_match_export", args=[match.pk])).status_code == 404
    )
