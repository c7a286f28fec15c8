"""Matches for the admin tests, made through the services as live play makes them.

`play_turns` drives a stored match with seeded random dice and seeded random legal plays,
as the seated users, one command at a time, a few seconds apart (so the timeline has times).
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any
from uuid import UUID

from games.rules import match as rules
from games.rules.dice import Dice
from matches import services
from matches.interop.importing import import_mat
from matches.store.models import Match, MatchEvent
from matches.store.replay import MatchView
from matches.store.streams import load_view

T0 = dt.datetime(2026, 11, 20, 18, 0, tzinfo=dt.UTC)
ROOT = Path(__file__).resolve().parent.parent.parent
PUBLIC_MATCHES = ROOT / "tests" / "data" / "matches-public"


class RandomDice:
    """Reproducible dice for a test (the server's would come from `secrets`)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def opening(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def roll(self) -> Dice:
        return Dice.of(self.rng.randint(1, 6), self.rng.randint(1, 6))


def play_turns(
    match_id: UUID,
    users: tuple[Any, Any],
    *,
    turns: int,
    dice: RandomDice,
    seed: int = 0,
    start: dt.datetime = T0,
    step: dt.timedelta = dt.timedelta(seconds=7),
) -> MatchView:
    """Roll and play `turns` times (fewer if the match ends) with random legal plays."""
    rng = random.Random(seed)
    view = load_view(match_id)
    now = start
    for _ in range(turns * 2):
        state = view.state
        assert state is not None
        if state.is_over or state.to_act is None:
            break
        seat = state.to_act
        now += step
        if state.phase == rules.Phase.ROLL:
            view = services.match_roll(
                match_id=match_id, user=users[seat], seat=seat, dice=dice, now=now
            )
        elif state.phase == rules.Phase.PLAY:
            play = rng.choice(state.legal_plays())
            steps = [[s.frm, s.to] for s in play.steps]
            view = services.match_play(
                match_id=match_id, user=users[seat], seat=seat, play=steps, dice=dice, now=now
            )
        else:  # pragma: no cover - these tests never double or resign
            break
    return view


def online_match(
    ana: Any, bob: Any, *, length: int = 3, seed: int = 1, turns: int = 10, **kw: Any
) -> MatchView:
    """An online match between two accounts, `turns` turns played."""
    dice = RandomDice(seed)
    view = services.match_create(user=ana, length=length, dice=dice, now=T0, **kw)
    assert view.match_id is not None
    services.match_join(match_id=view.match_id, user=bob, dice=dice, now=T0)
    return play_turns(view.match_id, (ana, bob), turns=turns, dice=dice, seed=seed)


_IMPORTED: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}


def imported_match(name: str) -> Match:
    """A public gnubg match (tests/data/matches-public) stored through `import_mat`.

    Importing drives every roll and play through the services, which takes seconds; the first
    test of the session that asks for a match imports it and keeps its stored rows, later ones
    insert the same rows again (under a new match id), which is what the store holds anyway.
    """
    if name not in _IMPORTED:
        done = import_mat((PUBLIC_MATCHES / f"{name}.mat").read_text())
        match = Match.objects.get(pk=done.match_id)
        fields = {
            f.attname: getattr(match, f.attname)
            for f in Match._meta.concrete_fields
            if f.name != "id"
        }
        rows = list(
            MatchEvent.objects.filter(match=match)
            .order_by("seq")
            .values("seq", "type", "payload", "actor_id", "created_at")
        )
        _IMPORTED[name] = (fields, rows)
        return match
    fields, rows = _IMPORTED[name]
    match = Match.objects.create(**fields)
    MatchEvent.objects.bulk_create(MatchEvent(match=match, **row) for row in rows)
    return match
