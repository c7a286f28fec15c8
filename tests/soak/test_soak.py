"""A few minutes of benchmarks/soak.py in the suite: the `make run` stack with its embedded
defaults (SQLite, the SQLite broker, supervisord), played by guests against the computer, in
hot-seat and in an online pair, with the worker and then the web process SIGKILLed on the way.
The same checks as the full soak (30 minutes: README "The embedded stack")."""

from __future__ import annotations

import argparse
import json

from benchmarks.soak import run


def test_the_default_stack_survives_play_and_two_kills() -> None:
    report = run(
        argparse.Namespace(
            minutes=2.5, computer=4, hotseat=1, pairs=1, think_min=0.3, think_max=1.2,
            port=0, seed=7,
        )
    )  # fmt: skip
    print(json.dumps(report, indent=2))
    assert not report["client_failures"], report["client_failures"]
    # Exactly the two kills, each followed by a restart, and nothing else died.
    assert report["unexpected_exits"] == [
        "worker (terminated by SIGKILL; not expected)",
        "web (terminated by SIGKILL; not expected)",
    ]
    assert report["restarts"] == 2
    assert report["commands_acknowledged"] > 100
    assert report["acknowledged_in_store"] == report["commands_acknowledged"]
    assert report["matches_with_gaps"] == []
    assert report["computer_turns_owed"] > 20
    assert report["computer_turns_played"] == report["computer_turns_owed"]
    assert report["computer_wait_median_s"] < 1.0
    assert report["ok"]
