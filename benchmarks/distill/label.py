"""gnubg's 0-ply cubeless evaluations of positions (step 2 of 3), run inside GNU Backgammon:

    python benchmarks/distill/positions.py --out positions.npz   # step 1 (.npz and .bin)
    DISTILL_IN=positions.bin DISTILL_OUT=labels.bin \
        /usr/games/gnubg -t -q -p benchmarks/distill/label.py

With DISTILL_SHARD=k/K it labels only the k-th of K contiguous slices (writing DISTILL_OUT.k):
gnubg 1.07's Python `evaluate` spends ~10 ms of wall time per call idle and ~0.1 ms of CPU,
so label.sh runs K shards side by side at little CPU cost.

gnubg's embedded Python has no numpy, so the positions come as raw int8 rows of 26 (our
array form, from the side of the player who has just moved) and the labels go out as raw
float32 rows of 5: gnubg's (win, win gammon, win bg, lose gammon, lose bg) for the player on
roll, our opponent (train.py turns them round). This file is a tool of training time only:
nothing in the product imports gnubg or needs it.
"""

import array
import os
import sys
import time

import gnubg  # only inside gnubg's own Python

CUBE = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)  # money, centred cube: cubeless is the same
ZERO_PLY = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # cubeless, 0 plies, deterministic, no noise


def gnubg_board(row):
    """Our array form -> gnubg's (not on roll, on roll) boards, each from its owner's side,
    index 0 his 1-point, 24 his bar. Our mover (not on roll) has point i at index i and his
    bar at 25; the opponent (on roll) has his point k at our 25 - k and his bar at 0."""
    mover = [max(row[i], 0) for i in range(1, 25)] + [row[25]]
    roller = [max(-row[25 - k], 0) for k in range(1, 25)] + [-row[0]]
    return (tuple(mover), tuple(roller))


def main():
    data = array.array("b")
    with open(os.environ["DISTILL_IN"], "rb") as f:
        data.frombytes(f.read())
    n = len(data) // 26
    first, last, suffix = 0, n, ""
    if os.environ.get("DISTILL_SHARD"):
        k, shards = (int(x) for x in os.environ["DISTILL_SHARD"].split("/"))
        first, last, suffix = k * n // shards, (k + 1) * n // shards, f".{k}"
    out = array.array("f")
    start = time.time()
    for j in range(first, last):
        p = gnubg.evaluate(gnubg_board(data[26 * j : 26 * j + 26]), CUBE, ZERO_PLY)
        out.extend(p[:5])
        if (j + 1 - first) % 5000 == 0:
            print(f"{j + 1 - first}/{last - first} in {time.time() - start:.0f} s", flush=True)
    with open(os.environ["DISTILL_OUT"] + suffix, "wb") as f:
        out.tofile(f)
    print(f"{last - first} positions labelled in {time.time() - start:.0f} s")


main()
sys.exit(0)
