"""Command line of the computer players, for integrators and for benchmarks against engines.

- `python -m games.bots levels`: the level names, weakest first, one a line
- `python -m games.bots play --level LEVEL`: JSON lines in, `{"position": ..., "dice": [a, b]}`
  (the player on roll is the bot; the format of tests/data/moves-public.jsonl), one line out
  for each, `{"position": ...}`: the position after the bot's play, still from the side of the
  player who moved (not flipped); unchanged when the roll cannot be played. A bad line gets
  `{"error": "..."}` and the lines after it are still answered. `--level pubeval` (the
  benchmark opponent, not a site level) is accepted as well.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from games.rules import Dice, Position, RulesError

from . import LEVELS, levels
from .base import Player
from .pubeval import PubevalPlayer

BENCHMARK_PLAYERS = {"pubeval": PubevalPlayer}
"""Players the command line accepts besides the site's levels."""


def make_player(level: str) -> Player:
    factory = LEVELS.get(level) or BENCHMARK_PLAYERS.get(level)
    if factory is None:
        known = [*LEVELS, *BENCHMARK_PLAYERS]
        raise KeyError(f"unknown level {level!r}; levels: {', '.join(known)}")
    return factory()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots", description=(__doc__ or "").split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("levels", help="list the levels, weakest first")
    play = commands.add_parser("play", help="play position+dice JSON lines from stdin")
    play.add_argument("--level", required=True, help="a level (see `levels`) or pubeval")
    args = parser.parse_args(argv)

    if args.command == "levels":
        for name in levels():
            print(name)
        return 0
    try:
        player = make_player(args.level)
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    play_jsonl(player, sys.stdin, sys.stdout)
    return 0


def play_jsonl(player: Player, source: TextIO, out: TextIO) -> None:
    """One output line per non-blank input line, flushed at once (a pipe to an engine)."""
    for line in source:
        if not line.strip():
            continue
        out.write(json.dumps(answer(player, line)) + "\n")
        out.flush()


def answer(player: Player, line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not a JSON line: {exc.msg}"}
    if not isinstance(data, dict) or "position" not in data or "dice" not in data:
        return {"error": "each line needs a position and dice"}
    try:
        position = Position.from_json(data["position"])
        dice = Dice.parse(data["dice"])
    except RulesError as exc:
        return {"error": str(exc)}
    play = player.choose_play(position, dice)
    result = play.result if play is not None else position
    return {"position": result.to_json()}


if __name__ == "__main__":
    sys.exit(main())
