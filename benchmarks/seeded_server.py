"""The web process as instructions_bench.py serves it: the ASGI application on uvicorn with the
project's HTTP protocol (tavla_project/uvicorn_worker.py's settings, one process), with dice
drawn from a seeded generator so that every run plays the same games (a benchmark's server,
never a deployment's: real dice come from `secrets`).

    python benchmarks/seeded_server.py PORT
"""

from __future__ import annotations

import random
import secrets
import sys

import django
import uvicorn

SEED = 20261204


def main() -> None:
    secrets.randbelow = random.Random(SEED).randrange  # what matches/store/dice.py draws with
    django.setup()
    from matches.store.dice import SECRET_DICE

    # the server's dice are the seeded ones (else every run would play other games)
    expected = random.Random(SEED)
    if SECRET_DICE.opening() != (expected.randrange(6) + 1, expected.randrange(6) + 1):
        sys.exit("seeded_server: the dice do not come from secrets.randbelow any more")
    from tavla_project.uvicorn_worker import Worker

    config = dict(Worker.CONFIG_KWARGS)
    uvicorn.run(
        "tavla_project.asgi:application",
        host="127.0.0.1",
        port=int(sys.argv[1]),
        access_log=False,
        timeout_keep_alive=30,
        **config,
    )


if __name__ == "__main__":
    main()
