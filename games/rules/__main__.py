"""Command line for integrators and debugging.

- `python -m games.rules plays POSITION_ID DICE`: legal plays, readable by a person (tavla)
- `python -m games.rules plays --jsonl [--game tavla|long-nardy]`: JSON lines in, JSON lines out
- `python -m games.rules perft DEPTH [--game tavla|long-nardy]`: leaf count of the game tree

Without --game it is tavla.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from .dice import Dice
from .errors import RulesError
from .game import TAVLA, Game, Variant, game_of
from .gnubgid import position_from_id, position_id
from .perft import perft
from .plays import legal_plays
from .position import Position

GAME_NAMES = [v.value for v in Variant]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.rules", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    plays = commands.add_parser("plays", help="list the legal plays of a position and a roll")
    plays.add_argument("position_id", nargs="?", help="gnubg Position ID, player on roll to move")
    plays.add_argument("dice", nargs="?", help="the roll, e.g. 31")
    plays.add_argument(
        "--jsonl",
        action="store_true",
        help="read position+dice JSON lines from stdin, write one line of plays for each",
    )
    plays.add_argument("--game", choices=GAME_NAMES, default="tavla", help="default: tavla")
    count = commands.add_parser("perft", help="count the leaves of the game tree")
    count.add_argument("depth", type=int)
    count.add_argument("--game", choices=GAME_NAMES, default="tavla", help="default: tavla")
    args = parser.parse_args(argv)
    game = game_of(args.game)

    if args.command == "perft":
        print(perft(args.depth, game=game))
        return 0
    if args.jsonl:
        plays_jsonl(sys.stdin, sys.stdout, game)
        return 0
    if not game.has_gnubg_ids:
        parser.error(f"{game.title} positions have no gnubg Position ID: use --jsonl")
    if not args.position_id or not args.dice:
        parser.error("give a Position ID and dice (e.g. 4HPwATDgc/ABMA 31), or --jsonl")
    try:
        position = position_from_id(args.position_id)
        dice = Dice.parse(args.dice)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print_plays(position, dice, sys.stdout)
    return 0


def print_plays(position: Position, dice: Dice, out: TextIO) -> None:
    found = legal_plays(position, dice)
    mine, theirs = position.pips()
    out.write(
        f"Position {position_id(position)}, pips {mine}-{theirs}, roll {dice.high}-{dice.low}\n"
    )
    if not found:
        out.write("No legal play: the turn passes.\n")
        return
    out.write(f"{len(found)} legal plays:\n")
    width = max(len(p.notation) for p in found)
    for play in found:
        out.write(f"  {play.notation:<{width}}  -> {position_id(play.result)}\n")


def plays_jsonl(source: TextIO, out: TextIO, game: Game = TAVLA) -> None:
    """One output line per input line; a bad line gets {"error": ...} and the rest go on."""
    for line in source:
        out.write(json.dumps(_answer(line, game)) + "\n")
        out.flush()


def _answer(line: str, game: Game = TAVLA) -> dict[str, Any]:
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
    return {
        "plays": [
            {"notation": p.notation, "position": p.result.to_json()}
            for p in game.legal_plays(position, dice, first_turn=first_turn)
        ]
    }


if __name__ == "__main__":
    sys.exit(main())
