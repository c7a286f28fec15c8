"""Ask the real GNU Backgammon, when it is installed, from tests.

`run_gnubg(script_text)` runs a Python script inside gnubg's embedded interpreter (where
``import gnubg`` works) and returns what the script wrote with ``emit(text)`` (or into the
file named by the variable ``OUTPUT``). gnubg prints its banner and boards on stdout, so the
script's results travel through that file instead. An exception in the script is raised
here as GnubgError with gnubg's traceback.

`legal_plays_script(cases)` builds the script that lists gnubg's legal plays for many
(Position ID, dice) cases in one run, the recipe of the oracle corpus: two human players, no
automatic roll or move, 0-ply chequer evaluation, then per case ``set board``, ``set dice``
and ``gnubg.hint()`` with no argument (at 0 ply it returns every legal play).
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from games.rules.position import BAR, OFF, Position

GNUBG = Path("/usr/games/gnubg")


class GnubgError(RuntimeError):
    """gnubg failed, timed out, or the script raised."""


def gnubg_available() -> bool:
    return GNUBG.exists() and os.access(GNUBG, os.X_OK)


_PREAMBLE = """\
import sys as _sys
import traceback as _traceback
OUTPUT = {output!r}
_output_file = open(OUTPUT, "w")


def emit(text):
    _output_file.write(text)
    _output_file.flush()


try:
    with open({script!r}) as _f:
        exec(compile(_f.read(), {script!r}, "exec"), {{"emit": emit, "OUTPUT": OUTPUT}})
except BaseException:
    with open({errors!r}, "w") as _e:
        _e.write(_traceback.format_exc())
finally:
    _output_file.close()
    with open({done!r}, "w") as _d:
        _d.write("done")
"""


def run_gnubg(script_text: str, timeout: float = 300.0) -> str:
    """Run `script_text` in gnubg's Python (``gnubg -t -q -r -p``); return what it emitted.

    The script sees `emit(text)`; `OUTPUT` names the file emit writes to. `-r` makes gnubg
    ignore the user's rc files, so runs repeat. Relative paths are inside a temporary
    directory that is removed afterwards.
    """
    if not gnubg_available():
        raise GnubgError(f"{GNUBG} is not installed")
    with tempfile.TemporaryDirectory(prefix="tavla-gnubg-") as tmp:
        d = Path(tmp)
        script = d / "script.py"
        output, errors, done = d / "output.txt", d / "errors.txt", d / "done.txt"
        script.write_text(script_text)
        runner = d / "runner.py"
        runner.write_text(
            _PREAMBLE.format(
                output=str(output), script=str(script), errors=str(errors), done=str(done)
            )
        )
        try:
            proc = subprocess.run(
                [str(GNUBG), "-t", "-q", "-r", "-p", str(runner)],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=timeout,
                cwd=tmp,
            )
        except subprocess.TimeoutExpired as exc:
            raise GnubgError(f"gnubg did not finish within {timeout} s") from exc
        if errors.exists():
            raise GnubgError("the gnubg script raised:\n" + errors.read_text())
        if not done.exists():
            tail = (proc.stdout + proc.stderr)[-3000:]
            raise GnubgError(
                f"gnubg exited ({proc.returncode}) before the script finished:\n{tail}"
            )
        return output.read_text() if output.exists() else ""


# -- legal plays -----------------------------------------------------------------------------

_PLAYS_SCRIPT = """\
import json
import gnubg

CASES = json.loads({cases!r})
for command in (
    "set player 0 human",
    "set player 1 human",
    "set automatic roll off",
    "set automatic move off",
    "set display off",
    "set evaluation chequerplay evaluation plies 0",
    "new game",
):
    gnubg.command(command)
for index, (pid, high, low) in enumerate(CASES):
    gnubg.command("set board " + pid)
    gnubg.command("set dice %d %d" % (high, low))
    hint = gnubg.hint() or {{}}
    moves = [entry["move"] for entry in hint.get("hint", [])]
    emit(json.dumps({{
        "index": index,
        "position_id": gnubg.positionid(),
        "board": gnubg.board(),
        "dice": list(gnubg.posinfo()["dice"]),
        "moves": moves,
        "steps": [[list(step) for step in gnubg.parsemove(m)] for m in moves],
    }}) + "\\n")
"""


def legal_plays_script(cases: Sequence[tuple[str, int, int]]) -> str:
    """The gnubg script listing the legal plays of each (Position ID, die, die) case.

    It emits one JSON line per case: index, the Position ID and board gnubg ended up with
    (to check it accepted ours), its dice, the move strings and their steps (from, to) in the
    mover's numbering, 25 = bar, 0 = off (``gnubg.parsemove``).
    """
    return _PLAYS_SCRIPT.format(cases=json.dumps([list(c) for c in cases]))


def gnubg_legal_plays(cases: Sequence[tuple[str, int, int]]) -> list[dict[str, object]]:
    """Run `legal_plays_script` and return its records, in case order."""
    text = run_gnubg(legal_plays_script(cases), timeout=60 + 0.2 * len(cases))
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    if len(records) != len(cases):
        raise GnubgError(f"gnubg answered {len(records)} of {len(cases)} cases")
    return records


def apply_steps(position: Position, steps: Iterable[Sequence[int]]) -> Position:
    """The position after moving the mover's checkers (from, to), hitting any blot landed on.

    Independent of the engine: no legality check beyond "the checker exists and does not land
    on a made point". A (from, to) pair spanning several dice is one landing, as gnubg writes
    each intermediate hit as its own step (``24/18*/13``).
    """
    board = list(position.board)
    bar = list(position.bar)
    off = list(position.off)
    for frm, to in steps:
        if frm == BAR:
            if bar[0] <= 0:
                raise ValueError(f"no checker on the bar for {frm}/{to}")
            bar[0] -= 1
        else:
            if board[frm - 1] <= 0:
                raise ValueError(f"no checker on {frm} for {frm}/{to}")
            board[frm - 1] -= 1
        if to == OFF:
            off[0] += 1
        elif board[to - 1] == -1:
            board[to - 1] = 1
            bar[1] += 1
        elif board[to - 1] < -1:
            raise ValueError(f"{frm}/{to} lands on a made point")
        else:
            board[to - 1] += 1
    return Position(tuple(board), (bar[0], bar[1]), (off[0], off[1]))
