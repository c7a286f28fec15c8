"""Values kept with the frozen object they were computed from, by identity.

A state read at one version shows the same objects every time (`store.load_view` keeps the
view, `plays_json` the legal plays of a position and roll): what is derived from them (their
gnubg IDs, their rendered form) is computed once and kept beside them. Kept by identity, not
by equality, because hashing a whole match state costs about what computing it again does;
holding the object keeps its id from being reused by another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def by_identity(compute: Callable[[Any], T], maxsize: int) -> Callable[[Any], T]:
    """`compute`, remembered per object (all forgotten once `maxsize` are kept)."""
    memo: dict[int, tuple[Any, T]] = {}

    def kept(o: Any) -> T:
        hit = memo.get(id(o))
        if hit is not None and hit[0] is o:
            return hit[1]
        out = compute(o)
        if len(memo) >= maxsize:
            memo.clear()
        memo[id(o)] = (o, out)
        return out

    return kept
