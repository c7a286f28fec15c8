"""The gnubg Position ID and Match ID a player sees, checked against GNU Backgammon itself on
both paths that show them: the API's state (`gnubg`) and the admin's board page (the facts at
each event). Both use the rules' `MatchState.gnubg_ids()` (games/rules, checked there over
whole random matches); this proves the Django side shows exactly that, at every event.

A hot-seat match with the cube is played over HTTP (doubles, takes, a resignation); its stored
events are replayed in gnubg (two human players, nothing automatic) and gnubg's IDs after each
action are compared with the API's state after the write that recorded it and with the admin's
facts at that event.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import games.rules as rules
from matches.review.frames import position_facts
from matches.review.views import replay_match
from matches.store.models import Match
from matches.store.streams import stored_events
from tests.api.conftest import Policy, act, create
from tests.rules.gnubg_oracle import run_gnubg

pytestmark = pytest.mark.django_db

SCRIPT = """\
import json
import gnubg

for command in (
    "set player 0 human", "set player 1 human", "set automatic roll off",
    "set automatic move off", "set automatic game off", "set automatic bearoff off",
    "set display off", "set confirm new off", "set cube use on", "set jacoby off",
    "new match {length}",
):
    gnubg.command(command)
out = []
for commands in json.loads({steps!r}):
    for command in commands:
        gnubg.command(command)
    out.append([gnubg.positionid(), gnubg.matchid()])
emit(json.dumps(out))
"""


def _point(n: int) -> str:
    return {25: "bar", 0: "off"}.get(n, str(n))


def gnubg_commands(before: rules.MatchState, action: Any, after: rules.MatchState) -> list[str]:
    """The gnubg commands that do `action`; [] for a tied opening roll (nothing to gnubg)."""
    out: list[str] = []
    match action:
        case rules.OpeningRoll(die0=d0, die1=d1):
            if d0 == d1:
                return []
            if before.game_number > 1:
                out.append("new game")
            out += [f"set turn {0 if d0 > d1 else 1}", f"set dice {max(d0, d1)} {min(d0, d1)}"]
        case rules.Roll(dice=dice):
            out.append(f"set dice {dice.high} {dice.low}")
        case rules.Move(steps=steps):
            out.append("move " + " ".join(f"{_point(s.frm)}/{_point(s.to)}" for s in steps))
        case rules.Double():
            out.append("double")
        case rules.Take():
            out.append("take")
        case rules.Drop():
            out.append("drop")
        case rules.Resign(value=value):
            out.append("resign " + {1: "normal", 2: "gammon", 3: "backgammon"}[value])
        case rules.AcceptResign():
            out.append("accept")
        case rules.RejectResign():
            out.append("reject")
    return out


def test_the_api_and_the_admin_show_gnubgs_ids(make_player: Any) -> None:
    ana = make_player()
    state = create(ana, mode="hotseat", length=3, cube=True)
    match_id = state["id"]
    seen = {state["version"]: state}  # the API's state after each write, by version
    policy = Policy(random.Random(7), double=0.25, take=0.6, resign=0.02, accept=0.5)
    for _ in range(3000):
        if state["status"] != "active":
            break
        if state["side"]["seat"] != state["to_act"]["seat"]:
            state = ana.state(match_id, seat=state["to_act"]["seat"])
        # gnubg refuses a double whose cube would already win the match ("dead cube"); the
        # rules allow it (RULES.md), so the match avoids it here
        me = state["to_act"]["seat"]
        dead = state["score"]["seats"][me] + state["cube"]["value"] >= 3
        policy.double = 0.0 if dead else 0.25
        state = act(ana, match_id, state, policy)
        seen[state["version"]] = state
    assert state["status"] == "finished"
    assert {"double", "take"} <= set(policy.counts), policy.counts

    # the stored events as rules actions, and gnubg's IDs after each (but tied openings)
    created = stored_events(Match.objects.get(pk=match_id).pk)
    current = rules.MatchState.new(rules.MatchSettings(length=3, cube=True))
    steps, after_seq = [], []
    for stored in created:
        action = stored.event.to_action()
        if action is None:
            continue
        after = rules.apply(current, action)
        commands = gnubg_commands(current, action, after)
        if commands:
            steps.append(commands)
            after_seq.append((stored.seq, after))
        current = after
    answers = json.loads(run_gnubg(SCRIPT.format(length=3, steps=json.dumps(steps))))
    gnubg_at = {
        seq: (tuple(ids), after) for (seq, after), ids in zip(after_seq, answers, strict=True)
    }

    # the API: every state it answered with, where gnubg has the same moment
    compared = 0
    for version, body in seen.items():
        if version not in gnubg_at or body["phase"] == "opening":
            continue  # before an opening roll gnubg shows no game (the rules' tests cover it)
        ids, _ = gnubg_at[version]
        assert (body["gnubg"]["position_id"], body["gnubg"]["match_id"]) == ids, version
        compared += 1
    assert compared > 20

    # the admin: the facts at every event gnubg saw
    replay = replay_match(Match.objects.get(pk=match_id))
    checked = 0
    for frame in replay.frames:
        if frame.seq not in gnubg_at:
            continue
        ids, after = gnubg_at[frame.seq]
        if after.phase == rules.Phase.OPENING and frame.ended_game is None:
            continue
        facts = position_facts(frame, replay.names)
        assert (facts.position_id, facts.match_id) == ids, (frame.seq, frame.text)
        checked += 1
    assert checked > 50
