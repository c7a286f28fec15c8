"""gnubg `.mat` match files (the Jellyfish text format): read them into actions, write them.

A file lists games; each game has numbered rows with the left player's entry then the right
player's: "62: 24/18 18/16", " Doubles => 2", " Takes", " Drops", " Wins 2 points". Points are
the mover's own (25 = bar, 0 = off). The file records no resignations: a game that ends before
its last checker is off was resigned at the value written. The left player is player 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .board import Step
from .dice import Dice
from .errors import InvalidMatchFile, RulesError
from .match import (
    AcceptResign,
    Action,
    Double,
    Drop,
    MatchSettings,
    MatchState,
    Move,
    OpeningRoll,
    Phase,
    Resign,
    Roll,
    Take,
    apply,
    play_for,
)

RIGHT_COLUMN = 33  # where the right player's entries start on a row
LEFT_ENDS = 20  # an entry that starts before this column is the left player's
_ROW = re.compile(r"^\s*(\d+)\)(.*)$")
_ENTRY = re.compile(r"(\d\d:|Doubles\s*=>\s*\d+|Takes|Drops|Wins\s+\d+\s+points?)")


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing a player did on a row: rolled and moved, doubled, took, dropped or won."""

    player: int
    kind: str  # "move", "double", "take", "drop", "win"
    dice: Dice | None = None
    play: str = ""
    number: int = 0  # cube offered, or points won
    row: int = 0


@dataclass
class MatGame:
    number: int
    score: tuple[int, int]
    entries: list[Entry] = field(default_factory=list)


@dataclass
class MatFile:
    length: int
    names: tuple[str, str]
    games: list[MatGame]

    @property
    def has_cube(self) -> bool:
        return any(e.kind == "double" for g in self.games for e in g.entries)


def parse_mat(text: str) -> MatFile:
    """Read the text of a .mat file; raise InvalidMatchFile saying where it fails."""
    length: int | None = None
    names: tuple[str, str] | None = None
    games: list[MatGame] = []
    lines = text.splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith(";"):
            continue
        if m := re.fullmatch(r"(\d+) point match", stripped):
            length = int(m.group(1))
        elif m := re.fullmatch(r"Game (\d+)", stripped):
            games.append(MatGame(int(m.group(1)), (0, 0)))
        elif (
            games
            and not games[-1].entries
            and (m := re.fullmatch(r"(.+?)\s*:\s*(-?\d+)\s+(.+?)\s*:\s*(-?\d+)", stripped))
        ):
            names = (m.group(1), m.group(3))
            games[-1].score = (int(m.group(2)), int(m.group(4)))
        elif m := _ROW.match(line):
            if not games:
                raise InvalidMatchFile.because("mat_row_first", line=n)
            row = int(m.group(1))
            start = m.start(2)
            for found in _ENTRY.finditer(line, start):
                player = 0 if found.start() < LEFT_ENDS else 1
                games[-1].entries.append(_entry(player, line[found.start() :], row, n))
        elif stripped.startswith("Wins"):
            if not games:
                raise InvalidMatchFile.because("mat_wins_first", line=n)
            player = 0 if len(line) - len(line.lstrip()) < LEFT_ENDS else 1
            games[-1].entries.append(_entry(player, stripped, 0, n))
        else:
            raise InvalidMatchFile.because("mat_unreadable", line=n, text=repr(stripped))
    if length is None:
        raise InvalidMatchFile.because("mat_no_length")
    if not games:
        raise InvalidMatchFile.because("mat_no_games")
    return MatFile(length, names or ("Player 1", "Player 2"), games)


def _entry(player: int, text: str, row: int, line: int) -> Entry:
    parts = _ENTRY.split(text, maxsplit=1)
    head, rest = parts[1], parts[2] if len(parts) > 2 else ""
    if head.endswith(":"):
        dice = Dice.of(int(head[0]), int(head[1]))
        # A right-column entry may follow on the same line: cut there.
        play = rest.split("  ")[0].strip() if player == 0 else rest.strip()
        play = _ENTRY.split(play)[0].strip()
        return Entry(player, "move", dice=dice, play=play, row=row)
    number = int(re.findall(r"\d+", head)[0]) if re.search(r"\d", head) else 0
    kind = {"D": "double", "T": "take", "Dr": "drop", "W": "win"}
    key = "Dr" if head.startswith("Dr") else head[0]
    if key not in kind:  # pragma: no cover - _ENTRY reads only these
        raise InvalidMatchFile.because("mat_unreadable", line=line, text=repr(head))
    return Entry(player, kind[key], number=number, row=row)


def mat_actions(
    mat: MatFile, settings: MatchSettings | None = None
) -> tuple[MatchSettings, list[Action]]:
    """The actions that replay the file, each checked by the rules.

    Raises InvalidMatchFile naming the game, the row and the reason for the first entry the
    rules refuse, or a game whose written result differs from the one the rules give.
    """
    settings = settings or MatchSettings(length=mat.length, cube=mat.has_cube, crawford=True)
    if not settings.rules.has_bar:
        raise InvalidMatchFile.because("mat_tavla_only")
    state = MatchState.new(settings)
    actions: list[Action] = []

    def do(action: Action, game: int, row: int) -> None:
        nonlocal state
        try:
            state = apply(state, action)
        except RulesError as exc:
            if row:
                raise InvalidMatchFile.because(
                    "mat_move_refused", game=game, row=row, problem=exc
                ) from None
            raise InvalidMatchFile.because("mat_game_refused", game=game, problem=exc) from None
        actions.append(action)

    for game in mat.games:
        if state.is_over:
            raise InvalidMatchFile.because("mat_match_over", game=game.number)
        if state.score != game.score:
            raise InvalidMatchFile.because(
                "mat_score",
                game=game.number,
                written=f"{game.score[0]}-{game.score[1]}",
                found=f"{state.score[0]}-{state.score[1]}",
            )
        started = False
        resigned_roll = _resigned_after_rolling(game)
        for entry in game.entries:
            if entry.kind == "move":
                if entry.dice is None:  # pragma: no cover - _entry always reads the dice
                    raise InvalidMatchFile.because("mat_no_dice", game=game.number, row=entry.row)
                if not started:
                    high, low = entry.dice.high, entry.dice.low
                    if high == low:
                        raise InvalidMatchFile.because(
                            "mat_opening_double", game=game.number, row=entry.row
                        )
                    die0, die1 = (high, low) if entry.player == 0 else (low, high)
                    do(OpeningRoll(die0, die1), game.number, entry.row)
                    started = True
                else:
                    do(Roll(entry.player, entry.dice), game.number, entry.row)
                if entry is resigned_roll:
                    continue  # he resigned with these dice out: the win entry says so
                try:
                    play = play_for(state, entry.play)
                except RulesError as exc:
                    raise InvalidMatchFile.because(
                        "mat_play_refused" if entry.play else "mat_no_play_refused",
                        game=game.number,
                        row=entry.row,
                        dice=f"{entry.dice.high}{entry.dice.low}",
                        play=entry.play,
                        problem=exc,
                    ) from None
                do(Move(entry.player, play.steps), game.number, entry.row)
            elif entry.kind == "double":
                started = True
                do(Double(entry.player), game.number, entry.row)
            elif entry.kind == "take":
                do(Take(entry.player), game.number, entry.row)
            elif entry.kind == "drop":
                do(Drop(entry.player), game.number, entry.row)
            elif entry.kind == "win":
                _finish(state, entry, game.number, do)
        if len(state.games) < game.number:
            raise InvalidMatchFile.because("mat_no_result", game=game.number)
    return settings, actions


def _resigned_after_rolling(game: MatGame) -> Entry | None:
    """The roll its player resigned after, without moving: the game's last entry before the
    opponent's win is that player's roll with no move written (a roll that could not be
    played is followed by the opponent's turn, so it is never the loser's last entry)."""
    entries = game.entries
    if len(entries) >= 2:
        last, win = entries[-2], entries[-1]
        if win.kind == "win" and last.kind == "move" and not last.play:
            return last if last.player != win.player else None
    return None


def _finish(
    state: MatchState, entry: Entry, game: int, do: Callable[[Action, int, int], None]
) -> None:
    """Check a written win, or turn it into the resignation the file does not record."""
    if len(state.games) >= game:
        result = state.games[game - 1]
        if (result.winner, result.points) != (entry.player, entry.number):
            raise InvalidMatchFile.because(
                "mat_result",
                game=game,
                player=entry.player + 1,
                points=entry.number,
                winner=result.winner + 1,
                given=result.points,
            )
        return
    loser = 1 - entry.player
    if entry.number % state.cube or not 1 <= entry.number // state.cube <= 3:
        raise InvalidMatchFile.because(
            "mat_cube_points", game=game, points=entry.number, cube=state.cube
        )
    value = entry.number // state.cube
    do(Resign(loser, value), game, 0)
    do(AcceptResign(entry.player), game, 0)


# -- writing ---------------------------------------------------------------------------------


def export_mat(
    settings: MatchSettings,
    actions: list[Action],
    names: tuple[str, str] = ("Player 1", "Player 2"),
    header: dict[str, str] | None = None,
) -> str:
    """Write recorded actions as a .mat file gnubg can import (player 0 in the left column).

    Tavla only: gnubg has no long nardy (InvalidMatchFile)."""
    if not settings.rules.has_bar:
        raise InvalidMatchFile.because("mat_tavla_only")
    state = MatchState.new(settings, check=False)
    out: list[str] = [f'; [{k} "{v}"]' for k, v in (header or {}).items()]
    out += ["", f" {settings.length} point match", ""]
    rows: list[list[str]] = []  # [left, right] cells of the current game
    pending: dict[int, str] = {}  # dice rolled, waiting for the move they belong to

    def put(player: int, text: str) -> None:
        if player == 0 or not rows or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][player] = text

    def close_game(winner: int, points: int) -> None:
        # A player who resigned after rolling, before moving: his roll with no move (even the
        # opening roll of a game resigned at once), so the file keeps every roll.
        for player, dice in sorted(pending.items()):
            put(player, f"{dice}:")
        pending.clear()
        win = f" Wins {points} point{'s' if points != 1 else ''}"
        # A long left entry spills past its column, always followed by a space (as gnubg does).
        lines = [
            f"{n:3d}) {left + ' ':<28}{right}".rstrip() for n, (left, right) in enumerate(rows, 1)
        ]
        if winner == 1 and rows and not rows[-1][1]:
            lines[-1] = f"{lines[-1]:<{RIGHT_COLUMN}}{win}"
        else:
            lines.append(" " * (5 if winner == 0 else RIGHT_COLUMN) + win)
        out.extend([*lines, ""])
        rows.clear()

    game_open = False
    for action in actions:
        before = state
        state = apply(state, action, check=False)
        if not game_open and (
            isinstance(action, OpeningRoll) or before.phase in (Phase.ROLL, Phase.OPENING)
        ):
            game_open = True
            out.append(f" Game {before.game_number}")
            out.append(f"{f' {names[0]} : {before.score[0]}':<32}{names[1]} : {before.score[1]}")
        match action:
            case OpeningRoll() if state.dice is not None and state.turn is not None:
                pending[state.turn] = f"{state.dice.high}{state.dice.low}"
            case Roll():
                pending[action.player] = f"{action.dice.high}{action.dice.low}"
            case Move():
                moves = " ".join(_step_text(s) for s in action.steps)
                put(action.player, f"{pending.pop(action.player)}: {moves}")
            case Double():
                put(action.player, f" Doubles => {before.cube * 2}")
            case Take():
                put(action.player, " Takes")
            case Drop():
                put(action.player, " Drops")
        if len(state.games) > len(before.games):
            close_game(state.games[-1].winner, state.games[-1].points)
            game_open = False
    return "\n".join(out).rstrip() + "\n"


def _step_text(step: Step) -> str:
    return f"{step.frm}/{step.to}{'*' if step.hit else ''}"
