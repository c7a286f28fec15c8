"""Command line of the computer players, for integrators and for benchmarks against engines.

- `python -m games.bots levels [--game tavla|long-nardy]`: the level names, weakest first,
  one a line
- `python -m games.bots play [--game tavla|long-nardy] --level LEVEL`: JSON lines in,
  `{"position": ..., "dice": [a, b]}` (the player on roll is the bot; the format of
  tests/data/moves-public.jsonl; for long nardy `{"position": {"board": [24], "off": [2]},
  "dice": [a, b], "first_turn": bool}`, as `python -m games.rules plays --jsonl --game
  long-nardy` reads them), one line out for each, `{"position": ...}`: the position after the
  bot's play, still from the side of the player who moved (not flipped); unchanged when the
  roll cannot be played. A bad line gets `{"error": "..."}` and the lines after it are still
  answered. `--level pubeval` (the tavla benchmark opponent, not a site level) is accepted
  as well.
- `python -m games.bots analyse FILE.mat [--plies N]`: the post-game analysis of a gnubg
  `.mat` match (tavla), one JSON document on stdout (games/bots/analysis.py, docs/analysis.md);
  `--plies` 0 (the network alone) or 1 (the default, the service's: the best and the played
  play valued one roll deeper too). An unreadable file: a message on stderr, 2.

Without --game it is tavla.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from games.rules import TAVLA, Dice, Game, RulesError, game_of

from . import GAME_LEVELS, levels, player_for
from .analysis import DEFAULT_PLIES, analyse_mat
from .base import Player
from .pubeval import PubevalPlayer

BENCHMARK_PLAYERS = {"pubeval": PubevalPlayer}
"""Players the command line accepts besides the site's levels."""


def make_player(level: str, game: str = "tavla") -> Player:
    """A site level of `game`, or (tavla) a benchmark player; KeyError names them."""
    if game == "tavla" and level in BENCHMARK_PLAYERS:
        return BENCHMARK_PLAYERS[level]()
    if level not in GAME_LEVELS[game]:
        known = [*GAME_LEVELS[game], *(BENCHMARK_PLAYERS if game == "tavla" else ())]
        raise KeyError(f"unknown level {level!r}; levels: {', '.join(known)}")
    return player_for(level, game)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots", description=(__doc__ or "").split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    names = commands.add_parser("levels", help="list the levels, weakest first")
    names.add_argument("--game", choices=list(GAME_LEVELS), default="tavla", help="default: tavla")
    play = commands.add_parser("play", help="play position+dice JSON lines from stdin")
    play.add_argument("--game", choices=list(GAME_LEVELS), default="tavla", help="default: tavla")
    play.add_argument("--level", required=True, help="a level (see `levels`) or pubeval")
    analyse = commands.add_parser("analyse", help="analyse a .mat match: JSON on stdout")
    analyse.add_argument("file", help="a gnubg .mat match file (tavla)")
    analyse.add_argument(
        "--plies",
        type=int,
        choices=(0, 1),
        default=DEFAULT_PLIES,
        help=f"lookahead (default {DEFAULT_PLIES})",
    )
    args = parser.parse_args(argv)

    if args.command == "analyse":
        return analyse_file(args.file, args.plies)
    if args.command == "levels":
        for name in levels(args.game):
            print(name)
        return 0
    try:
        player = make_player(args.level, args.game)
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    play_jsonl(player, sys.stdin, sys.stdout, game_of(args.game))
    return 0


def analyse_file(path: str, plies: int = DEFAULT_PLIES) -> int:
    """Print the analysis of the .mat file at `path`; 2 when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        analysis = analyse_mat(text, plies)
    except (OSError, UnicodeDecodeError, RulesError) as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return 2
    json.dump(analysis.to_json(), sys.stdout)
    sys.stdout.write("\n")
    return 0


def play_jsonl(player: Player, source: TextIO, out: TextIO, game: Game = TAVLA) -> None:
    """One output line per non-blank input line, flushed at once (a pipe to an engine)."""
    for line in source:
        if not line.strip():
            continue
        out.write(json.dumps(answer(player, line, game)) + "\n")
        out.flush()


def answer(player: Player, line: str, game: Game = TAVLA) -> dict[str, Any]:
    """The answer to one input line: read as `python -m games.rules plays --jsonl` reads it
    (the game's own position format, `first_turn` false when left out)."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not a JSON line: {exc.msg}"}
    if not isinstance(data, dict) or "position" not in data or "dice" not in data:
        return {"error": "each line needs a position and dice"}
    first_turn = data.get("first_turn", False)
    if not isinstance(first_turn, bool):
        return {"error": "first_turn is true or false"}
    try:
        position = game.position_from_json(data["position"])
        dice = Dice.parse(data["dice"])
    except RulesError as exc:
        return {"error": str(exc)}
    play = player.choose_play(position, dice, first_turn=first_turn)
    result = play.result if play is not None else position
    return {"position": result.to_json()}


if __name__ == "__main__":
    sys.exit(main())
