"""gnubg .mat files (games/rules/matfile.py) and the match state machine against 11 matches
GNU Backgammon 1.07 played against itself (tests/data/matches-public, copied from the oracle).

Each match is given twice: gnubg's own .mat export and a .jsonl with one line per game (every
move, double, take, drop, resignation, and the result gnubg scored). Both must drive our state
machine to gnubg's results; our .mat export must read back, and load in gnubg when installed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from games.rules.dice import Dice
from games.rules.errors import InvalidMatchFile, RulesError
from games.rules.gnubgid import position_id
from games.rules.match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    EndedBy,
    MatchSettings,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    RejectResign,
    Resign,
    Roll,
    Take,
    apply,
    replay,
)
from games.rules.matfile import export_mat, mat_actions, parse_mat
from games.rules.plays import Step
from games.rules.position import Position

from .gnubg_oracle import apply_steps, gnubg_available, run_gnubg

DATA = Path(__file__).resolve().parent.parent / "data" / "matches-public"
INDEX = json.loads((DATA / "index.json").read_text(encoding="utf-8"))
MATCHES = INDEX["matches"]
NAMES = [m["name"] for m in MATCHES]
BY_NAME = {m["name"]: m for m in MATCHES}


def mat_text(name: str) -> str:
    return (DATA / BY_NAME[name]["mat"]).read_text(encoding="utf-8")


def game_lines(name: str) -> list[dict[str, Any]]:
    with (DATA / BY_NAME[name]["events"]).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def imported(name: str) -> tuple[MatchSettings, list[Action]]:
    return mat_actions(parse_mat(mat_text(name)))


def test_the_data_is_complete():
    assert len(MATCHES) == 11
    for m in MATCHES:
        assert (DATA / m["mat"]).is_file() and (DATA / m["events"]).is_file()
        assert len(game_lines(m["name"])) == m["games"]
    lengths = Counter(m["match_length"] for m in MATCHES)
    assert set(lengths) == {1, 3, 5, 7}


# -- importing gnubg's .mat ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_mat_import_gives_gnubgs_final_score_and_winner(name):
    m = BY_NAME[name]
    mat = parse_mat(mat_text(name))
    assert mat.length == m["match_length"]
    assert mat.names == tuple(INDEX["players"])
    assert len(mat.games) == m["games"]
    settings_, actions = mat_actions(mat)
    assert settings_.length == m["match_length"]
    state = replay(settings_, actions)
    assert state.is_over
    assert list(state.score) == m["final_score"]
    assert state.winner == m["winner"]
    assert len(state.games) == m["games"]


@pytest.mark.parametrize("name", NAMES)
def test_mat_import_gives_gnubgs_result_of_every_game(name):
    settings_, actions = imported(name)
    state = replay(settings_, actions)
    for game, result in zip(game_lines(name), state.games, strict=True):
        expected = game["result"]
        assert result.number == game["game"]
        assert result.winner == expected["winner"]
        assert result.points == expected["points"]
        assert result.kind.label == expected["type"]
        assert result.cube == expected["cube_value"]
        assert result.ended_by.value == expected["ended_by"]


@pytest.mark.parametrize("name", NAMES)
def test_mat_import_is_checked_and_replays_unchecked_to_the_same_state(name):
    settings_, actions = imported(name)
    state = MatchState.new(settings_)
    for action in actions:
        state = apply(state, action)
    assert replay(settings_, actions) == state


# -- driving the state machine from gnubg's event log -----------------------------------------


def _steps(event: dict[str, Any]) -> tuple[Step, ...]:
    hits = event.get("hits") or [False] * len(event["play"])
    return tuple(Step(frm, to, hit) for (frm, to), hit in zip(event["play"], hits, strict=True))


def drive(name: str) -> tuple[MatchSettings, list[Action], list[tuple[dict, MatchState]]]:
    """Apply every event of the .jsonl, checked, and check the state against gnubg's facts
    on the way. Returns the actions and, per game, its line and the state before its end."""
    lines = game_lines(name)
    first = lines[0]
    s = MatchSettings(
        length=first["match_length"], cube=first["cube_enabled"], crawford=first["crawford_rule"]
    )
    state = MatchState.new(s)
    actions: list[Action] = []
    ends: list[tuple[dict, MatchState]] = []

    def do(action: Action) -> None:
        nonlocal state
        state = apply(state, action)
        actions.append(action)

    for game in lines:
        where = f"{name} game {game['game']}"
        assert state.phase == Phase.OPENING, where
        assert state.game_number == game["game"], where
        assert list(state.score) == game["score_before"], where
        assert state.crawford_game == game["crawford_game"], where
        assert state.post_crawford == game["post_crawford"], where
        opening = game["opening_roll"]
        high, low = opening["dice"]
        assert high > low
        do(OpeningRoll(high, low) if opening["player"] == 0 else OpeningRoll(low, high))
        assert state.turn == opening["player"] and state.dice == Dice(high, low), where
        first_move = True
        before_end = state
        for n, event in enumerate(game["events"]):
            at = f"{where} event {n} {event}"
            player = event["player"]
            before_end = state
            match event["type"]:
                case "move":
                    if first_move:
                        assert state.phase == Phase.PLAY and state.turn == player, at
                        assert state.dice == Dice.of(*event["dice"]), at
                    else:
                        assert "roll" in state.actions_for(player), at
                        do(Roll(player, Dice.of(*event["dice"])))
                    first_move = False
                    view = state.position_for(player)
                    assert view == Position.from_json(event["position"]), at
                    assert position_id(view) == event["position_id"], at
                    legal = state.legal_plays()
                    assert bool(legal) == bool(event["play"]), at
                    do(Move(player, _steps(event)))
                case "double":
                    assert state.cube == event["cube_before"], at
                    assert "double" in state.actions_for(player), at
                    do(Double(player))
                    assert state.cube * 2 == event["cube_offered"], at
                case "take":
                    assert state.actions_for(player) == ["take", "drop"], at
                    do(Take(player))
                    assert state.cube == event["cube_value"], at
                case "drop":
                    assert state.cube == event["cube_value"], at
                    do(Drop(player))
                case "resign":
                    # gnubg resigns at the start of the resigner's turn, before he rolls.
                    assert state.phase == Phase.ROLL and state.turn == player, at
                    do(Resign(player, event["value"]))
                case "accept_resign":
                    assert state.actions_for(player) == ["accept", "reject"], at
                    do(AcceptResign(player))
                case other:  # pragma: no cover
                    raise AssertionError(f"unknown event {other}")
        assert len(state.games) == game["game"], f"{where}: the game did not end"
        ends.append((game, before_end))
        assert list(state.score) == game["result"]["score_after"], where
        assert state.is_over == game["result"]["match_over"], where
    return s, actions, ends


@pytest.mark.parametrize("name", NAMES)
def test_gnubg_event_log_drives_the_state_machine_to_gnubgs_results(name):
    s, actions, ends = drive(name)
    state = replay(s, actions)
    m = BY_NAME[name]
    assert state.is_over and state.winner == m["winner"]
    assert list(state.score) == m["final_score"]
    for (game, before), result in zip(ends, state.games, strict=True):
        expected = game["result"]
        assert result.winner == expected["winner"]
        assert result.points == expected["points"]
        assert result.kind.label == expected["type"]
        assert result.cube == expected["cube_value"]
        assert result.ended_by.value == expected["ended_by"]
        owner = -1 if before.cube_owner is None else before.cube_owner
        assert owner == expected["cube_owner"]
        assert before.crawford_game == expected["crawford_game"]


@pytest.mark.parametrize("name", NAMES)
def test_event_log_and_mat_file_reach_the_same_state(name):
    s, actions, _ = drive(name)
    from_log = replay(s, actions)
    mat_settings, mat_acts = imported(name)
    from_mat = replay(mat_settings, mat_acts)
    # The .mat file cannot say whether the cube was on when nobody doubled.
    assert replace(from_mat, settings=s) == from_log


# -- exporting ---------------------------------------------------------------------------------


def _entries(text: str) -> list[list[tuple]]:
    """What a .mat file records per game, play text aside: who did what with which dice."""
    return [
        [(e.player, e.kind, e.dice, e.number) for e in g.entries] for g in parse_mat(text).games
    ]


@pytest.mark.parametrize("name", NAMES)
def test_export_reads_back_to_the_same_actions(name):
    settings_, actions = imported(name)
    text = export_mat(settings_, actions, names=tuple(INDEX["players"]))
    mat = parse_mat(text)
    assert mat.names == tuple(INDEX["players"])
    assert mat.length == settings_.length
    again_settings, again = mat_actions(mat)
    assert again_settings == settings_
    assert again == actions
    # The same entries as gnubg's own file: rows, dice, cube actions and written results.
    assert _entries(text) == _entries(mat_text(name))


@pytest.mark.parametrize("name", NAMES)
def test_export_of_the_event_log_reads_back_to_the_same_match(name):
    s, actions, _ = drive(name)
    text = export_mat(s, actions)
    mat_settings, again = mat_actions(parse_mat(text), s)
    assert replay(mat_settings, again) == replay(s, actions)


# Regression (found by these tests, fixed): export_mat pads the left entry to 28
# characters with no space after it, so a longer left play runs into the right entry:
# match_39_len7_nocube game 3 row 18 is written "66: 25/19* 19/13 18/12 18/1254: 25/20 20/16"
# (also game 5 row 4 of match_39 and game 1 row 14 of match_36). Our parser copes, but gnubg
# reads "18/1254:" wrongly and loses the rest of the match (3 of 6 games). gnubg's own files
# put at least one space there and let the long play spill past the column.
@pytest.mark.parametrize("name", NAMES)
def test_export_keeps_a_space_between_the_two_entries_of_a_row(name):
    settings_, actions = imported(name)
    for line in export_mat(settings_, actions).splitlines():
        assert not re.search(r"[^\s)]\d\d:", line), line
        assert not re.search(r"\S(Doubles|Takes|Drops|Wins)", line), line


def test_export_writes_a_header_and_the_match_length():
    settings_, actions = imported("match_08_len3_cube")
    text = export_mat(settings_, actions, ("Ana", "Bora"), header={"Event": "Test"})
    assert '; [Event "Test"]' in text
    assert " 3 point match" in text
    assert text.count(" Game ") == 3
    assert " Ana : 0" in text and "Bora : 0" in text
    assert text.endswith("\n")


def test_export_leaves_out_a_rejected_resignation():
    settings_, actions = imported("match_02_len1_cube")
    # Insert a resignation offer that is rejected before some roll of player 1 (not the first).
    i = next(
        k
        for k, a in enumerate(actions)
        if isinstance(a, Roll) and a.player == 1 and k > 10  # a later roll of player 1
    )
    with_offer = [*actions[:i], Resign(1, 2), RejectResign(0), *actions[i:]]
    assert replay(settings_, with_offer).score == replay(settings_, actions).score
    assert export_mat(settings_, with_offer) == export_mat(settings_, actions)


def _play_first(state: MatchState) -> Move:
    assert state.turn is not None
    return Move(state.turn, state.legal_plays()[0].steps)


def test_a_game_resigned_before_its_first_move_exports_and_imports_again():
    """Game 2's opening roll is won by player 1 (6-5), who resigns at once with it out: the
    file keeps that roll ("65:" with no move) so the match reads back the same."""
    s = MatchSettings(length=3)
    actions: list[Action] = [OpeningRoll(3, 1)]
    state = apply(MatchState.new(s), actions[0])
    for action in (_play_first(state), Resign(1, 1), AcceptResign(0)):
        state = apply(state, action)
        actions.append(action)
    for action in (OpeningRoll(5, 6), Resign(1, 2), AcceptResign(0)):
        state = apply(state, action)
        actions.append(action)
    assert state.is_over and state.score == (3, 0)
    text = export_mat(s, actions)
    assert re.search(r"^\s+1\)\s+65:$", text, re.M), text
    again_settings, again = mat_actions(parse_mat(text))
    assert again == actions
    assert replay(again_settings, again) == state
    assert export_mat(again_settings, again) == text


def test_a_resignation_after_rolling_mid_game_keeps_the_roll():
    s = MatchSettings(length=5)
    state = MatchState.new(s)
    actions: list[Action] = []
    for action in (OpeningRoll(4, 2),):
        state = apply(state, action)
        actions.append(action)
    for _ in range(3):
        move = _play_first(state)
        state = apply(state, move)
        roll = Roll(1 - move.player, Dice.of(3, 1))
        state = apply(state, roll)
        actions += [move, roll]
    resigner = state.turn
    assert resigner is not None
    for action in (Resign(resigner, 1), AcceptResign(1 - resigner)):
        state = apply(state, action)
        actions.append(action)
    text = export_mat(s, actions)
    assert "31:" in text.splitlines()[-3] + text.splitlines()[-2]
    again_settings, again = mat_actions(parse_mat(text))
    assert again == actions
    assert replay(again_settings, again) == state


def test_only_the_losers_last_roll_without_a_move_is_a_resignation_after_rolling():
    """The winner's last roll with no move is a roll that could not be played (a pass): the
    loser then resigned at the start of his turn. The loser's is a resignation with the dice
    out."""
    from games.rules.matfile import Entry, MatGame, _resigned_after_rolling

    roll = Entry(1, "move", dice=Dice.of(6, 5), play="", row=7)
    moved = Entry(1, "move", dice=Dice.of(6, 5), play="24/13", row=7)
    assert _resigned_after_rolling(MatGame(1, (0, 0), [roll, Entry(0, "win", number=1)])) is roll
    assert _resigned_after_rolling(MatGame(1, (0, 0), [roll, Entry(1, "win", number=1)])) is None
    assert _resigned_after_rolling(MatGame(1, (0, 0), [moved, Entry(0, "win", number=1)])) is None
    assert _resigned_after_rolling(MatGame(1, (0, 0), [Entry(0, "win", number=1)])) is None


# -- refusing bad files ------------------------------------------------------------------------


def test_a_file_with_an_illegal_move_is_refused_with_game_and_move_number():
    text = mat_text("match_08_len3_cube")
    # Game 1, move 2: 52: 21/16 13/11 -> 13/12 cannot be played with a 2.
    bad = text.replace("  2) 52: 21/16 13/11 ", "  2) 52: 21/16 13/12 ", 1)
    assert bad != text
    with pytest.raises(InvalidMatchFile) as info:
        mat_actions(parse_mat(bad))
    message = str(info.value)
    assert "game 1" in message and "move 2" in message
    assert "21/16 13/12" in message
    assert info.value.code == "invalid_match_file"


def test_an_illegal_move_in_a_later_game_names_that_game():
    text = mat_text("match_08_len3_cube")
    # Game 2, move 3 (left column): 43: 13/10 24/20 -> 13/10 19/15, from an empty point.
    bad = text.replace("  3) 43: 13/10 24/20 ", "  3) 43: 13/10 19/15 ", 1)
    assert bad != text
    with pytest.raises(InvalidMatchFile, match=r"game 2, move 3"):
        mat_actions(parse_mat(bad))


def test_a_double_in_the_crawford_game_is_refused():
    # match_08 game 2 (score 0-2 in a 3-point match) is the Crawford game.
    lines = mat_text("match_08_len3_cube").splitlines()
    i = lines.index(" Game 2")
    lines.insert(i + 3, "  2)  Doubles => 2                Takes")
    with pytest.raises(InvalidMatchFile, match="game 2, move 2: no doubling in the Crawford game"):
        mat_actions(parse_mat("\n".join(lines)))


def test_a_redouble_by_the_cube_owner_s_opponent_is_refused():
    # Game 1: an early double by player 0, taken, makes player 1 the owner; player 0's own
    # double at row 6 is then refused.
    lines = mat_text("match_08_len3_cube").splitlines()
    i = lines.index(" Game 1")
    lines.insert(i + 3, "  2)  Doubles => 2                Takes")
    with pytest.raises(InvalidMatchFile, match="game 1, move 6: only the player who owns"):
        mat_actions(parse_mat("\n".join(lines)))


def test_a_wrong_written_score_is_refused():
    text = mat_text("match_08_len3_cube")
    # Game 2 starts at 0-2; write 0-3.
    lines = text.splitlines()
    i = lines.index(" Game 2")
    assert "gnubgB : 2" in lines[i + 1]
    lines[i + 1] = lines[i + 1].replace("gnubgB : 2", "gnubgB : 3")
    with pytest.raises(InvalidMatchFile) as info:
        mat_actions(parse_mat("\n".join(lines)))
    message = str(info.value)
    assert "game 2" in message and "0-3" in message and "0-2" in message


def test_a_wrong_written_result_is_refused():
    text = mat_text("match_08_len3_cube")
    # Game 2 is won by a bear-off worth 1 point; the file claiming 2 is refused.
    lines = text.splitlines()
    start = lines.index(" Game 2")
    k = next(j for j in range(start, len(lines)) if "Wins 1 point" in lines[j])
    lines[k] = lines[k].replace("Wins 1 point", "Wins 2 points")
    with pytest.raises(InvalidMatchFile, match=r"game 2.*wins 2.*1"):
        mat_actions(parse_mat("\n".join(lines)))


def test_a_game_after_the_match_is_over_is_refused():
    text = mat_text("match_02_len1_cube")
    extra = text.rstrip() + "\n\n Game 2\n gnubgA : 1                     gnubgB : 0\n"
    extra += "  1) 31: 8/5 6/5\n"
    with pytest.raises(InvalidMatchFile, match="already over"):
        mat_actions(parse_mat(extra))


def test_a_game_without_a_result_is_refused():
    # match_31 ends by a resignation: without its "Wins" line the game has no end.
    text = mat_text("match_31_len1_nocube")
    cut = text[: text.index("Wins")].rstrip() + "\n"
    with pytest.raises(InvalidMatchFile, match="no result"):
        mat_actions(parse_mat(cut))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (" Game 1\n  1) 31: 8/5 6/5\n", "point match"),
        (" 3 point match\n", "no games"),
        (" 3 point match\n\n  1) 31: 8/5 6/5\n", "before any 'Game'"),
        (" 3 point match\n\n Game 1\n what is this\n", "line 4: cannot read"),
    ],
)
def test_unreadable_files(text, words):
    with pytest.raises(InvalidMatchFile, match=words):
        parse_mat(text)


def test_an_opening_double_roll_is_refused():
    text = " 1 point match\n\n Game 1\n A : 0                     B : 0\n  1) 33: 8/5(2) 6/3(2)\n"
    with pytest.raises(InvalidMatchFile, match=r"opening roll.*double"):
        mat_actions(parse_mat(text))


def test_errors_are_rules_errors():
    assert issubclass(InvalidMatchFile, RulesError)


# -- gnubg reads our export ------------------------------------------------------------------

_GNUBG_IMPORT = """
import json
import gnubg

for path in PATHS:
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("new match 1")  # so a failed import cannot leave the previous match
    gnubg.command("import mat " + path)
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    games = []
    for g in m["games"]:
        records = [
            [r["action"], r["player"], list(r.get("dice") or []), list(r.get("move") or [])]
            for r in g["game"]
            if r["action"] in ("move", "double", "take", "drop")
        ]
        games.append({"info": g["info"], "records": records})
    emit(json.dumps({"path": path, "length": m["match-info"]["match-length"],
                     "names": [m["match-info"]["X"]["name"], m["match-info"]["O"]["name"]],
                     "games": games}) + "\\n")
"""


@pytest.fixture(scope="module")
def gnubg_read_our_exports(tmp_path_factory) -> dict[str, dict[str, Any]]:
    """Our export of every match, as gnubg imports it (one gnubg run for all of them)."""
    if not gnubg_available():
        pytest.skip("GNU Backgammon (/usr/games/gnubg) not installed")
    folder = tmp_path_factory.mktemp("exports")
    paths = {}
    for name in NAMES:
        settings_, actions = imported(name)
        path = folder / f"{name}.mat"
        path.write_text(export_mat(settings_, actions, names=("Ana", "Bora")), encoding="utf-8")
        paths[str(path)] = name
    script = f"PATHS = {sorted(paths)!r}\n" + _GNUBG_IMPORT
    answers = [json.loads(line) for line in run_gnubg(script).splitlines() if line.strip()]
    assert len(answers) == len(paths)
    return {paths[a["path"]]: a for a in answers}


def _our_records(settings_: MatchSettings, actions: list[Action]) -> list[list[tuple]]:
    """Per game, each move and cube action: (action, side, dice, position before, after)."""
    games: list[list[tuple]] = [[]]
    state = MatchState.new(settings_)
    side = "XO"
    for action in actions:
        before = state
        state = apply(state, action, check=False)
        match action:
            case Move():
                assert before.dice is not None
                view = before.position_for(action.player)
                # The position after the move, still from the mover's side (the game may
                # have ended: then the board was reset, so rebuild it from the steps).
                after = apply_steps(view, [(s.frm, s.to) for s in action.steps])
                dice = (before.dice.high, before.dice.low)
                games[-1].append(("move", side[action.player], dice, view, after))
            case Double() | Take() | Drop():
                kind = type(action).__name__.lower()
                games[-1].append((kind, side[action.player], None, None, None))
        if len(state.games) > len(before.games) and not state.is_over:
            games.append([])
    return games


# match_39_len7_nocube fails here because of the export_mat bug described above
# (test_export_keeps_a_space_between_the_two_entries_of_a_row): gnubg misreads game 3 row 18.
@pytest.mark.parametrize("name", NAMES)
def test_gnubg_imports_our_export_to_the_same_match(gnubg_read_our_exports, name):
    answer = gnubg_read_our_exports[name]
    m = BY_NAME[name]
    settings_, actions = imported(name)
    state = replay(settings_, actions)
    assert answer["names"] == ["Ana", "Bora"]
    assert answer["length"] == m["match_length"]
    # Move by move, gnubg read the plays and cube actions we wrote.
    ours = _our_records(settings_, actions)
    for number, (g, mine) in enumerate(zip(answer["games"], ours, strict=False), 1):
        records = g["records"]
        for k, (record, (kind, side, dice, view, after)) in enumerate(
            zip(records, mine, strict=False)
        ):
            where = f"game {number}, record {k}: gnubg read {record}"
            assert record[:2] == [kind, side], where
            if kind == "move":
                assert tuple(sorted(record[2], reverse=True)) == dice, where
                assert apply_steps(view, record[3]) == after, where
        assert len(records) == len(mine), f"game {number}: gnubg read {len(records)} records"
    assert len(answer["games"]) == m["games"]
    # Game by game, the same scores and results.
    score = [0, 0]
    for g, result in zip(answer["games"], state.games, strict=True):
        info = g["info"]
        assert [info["score-X"], info["score-O"]] == score
        assert info["winner"] == "XO"[result.winner]
        assert info["points-won"] == result.points
        assert info["resigned"] == (result.ended_by == EndedBy.RESIGN)
        score[result.winner] += result.points
    assert score == m["final_score"]
