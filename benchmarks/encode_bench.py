"""Response encoding, the API's against DRF's and pydantic's (a benchmark, not a test):
`python benchmarks/encode_bench.py`.

The match states of benchmarks/render_bench.py (positions of the oracle corpus with their
legal plays), encoded to JSON bytes side by side in one run: `contract.render` and the API's
`JSONRenderer` (matches/api/renderers.py, orjson), `contract.render` and DRF's own
`JSONRenderer`, and pydantic's `TypeAdapter(MatchState).dump_json` on the
same frozen dataclasses (pydantic is in the dev lock only; docs/performance.md says what
switching would take). It reports the fields whose JSON differs (the `Key("from")` names:
pydantic knows no `Key`).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import render_bench
from pydantic import TypeAdapter
from rest_framework.renderers import JSONRenderer

from games.rules.dice import Dice
from games.rules.position import Position
from matches.api.contract import render
from matches.api.renderers import JSONRenderer as OurRenderer
from matches.selectors import shapes


def main() -> None:
    with render_bench.CORPUS.open() as f:
        raw = [(row["position"], row["dice"]) for row in map(json.loads, list(f)[:300])]
    cases = [render_bench.state(Position.from_json(p), Dice.of(*d)) for p, d in raw]
    adapter = TypeAdapter(shapes.MatchState)
    drf, api = JSONRenderer(), OurRenderer()
    ours_ms, drf_ms, pydantic_ms = [], [], []
    for _ in range(5):
        start = time.perf_counter()
        for case in cases:
            api.render(render(case))
        ours_ms.append((time.perf_counter() - start) / len(cases) * 1000)
        start = time.perf_counter()
        for case in cases:
            drf.render(render(case))
        drf_ms.append((time.perf_counter() - start) / len(cases) * 1000)
        start = time.perf_counter()
        for case in cases:
            adapter.dump_json(case)
        pydantic_ms.append((time.perf_counter() - start) / len(cases) * 1000)
    ours, theirs = json.loads(drf.render(render(cases[0]))), json.loads(adapter.dump_json(cases[0]))
    differ = sorted(k for k in ours if ours[k] != theirs.get(k))
    plays = statistics.median(len(c.legal_plays) for c in cases)
    print(f"{len(cases)} states, median {plays} legal plays")
    same = all(api.render(render(c)) == drf.render(render(c)) for c in cases)
    print(f"render + the API's renderer: {statistics.median(ours_ms):.3f} ms per state")
    print(f"render + DRF's renderer:     {statistics.median(drf_ms):.3f} ms per state")
    print(f"the two renderers' bytes equal on every state: {same}")
    print(f"pydantic dump_json:          {statistics.median(pydantic_ms):.3f} ms per state")
    print(f"fields whose JSON differs: {differ}")


if __name__ == "__main__":
    main()
