"""`python manage.py rebuild_ratings [--game GAME]`: recompute the ratings from the events.

Every rating, experience and history row of the game (or of every game) is recomputed from
the stored event streams, in the order the rated matches ended (docs/ratings.md), and the
early exits with them; live play writes exactly the same values. One JSON line per game:
{"game", "matches", "players", "seconds"}, then {"early_exits": N}.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.rules import Variant
from matches.services import conduct, ratings


class Command(BaseCommand):
    help = "Recompute every rating (and early exit) from the stored match events."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=[v.value for v in Variant], default=None)

    def handle(self, *args: Any, **options: Any) -> None:
        games = [options["game"]] if options["game"] else [v.value for v in Variant]
        for game in games:
            start = time.perf_counter()
            (done,) = ratings.rebuild(game)
            line = {
                "game": done.game,
                "matches": done.matches,
                "players": done.players,
                "seconds": round(time.perf_counter() - start, 3),
            }
            self.stdout.write(json.dumps(line))
        self.stdout.write(json.dumps({"early_exits": conduct.rebuild()}))
