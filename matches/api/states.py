"""Rendered match states, kept per view and inputs.

Clients poll a match they wait on, and every spectator reads the same state: a state is a
function of its replayed view (one object per match and version in this process,
`store.load_view`) and its inputs (`selectors.StateInputs`: the caller's side and actions,
the players, the settings, the lobby, gathered on every read), and of the clock's time, which
only the clock shows. So the rendered body is kept by the view (by identity: views are
immutable, and a new version is a new view) and the inputs, with the time zone datetimes are
rendered in; a read that finds it renders only the clock again. Building and rendering a
state cost about what the rest of a read does (docs/performance.md).

Bodies handed out are shared: nothing may change them (a response only encodes its data).
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from cachetools import LRUCache
from django.utils import timezone

from matches import selectors
from matches.store.models import Match
from matches.store.replay import MatchView

from .contract import render

KEPT = 1024  # bodies: a few kilobytes each
_kept: LRUCache[tuple[Any, ...], tuple[MatchView, dict[str, Any]]] = LRUCache(maxsize=KEPT)
_lock = Lock()  # cachetools' caches are not thread-safe by themselves


def state_body(match: Match, view: MatchView, user: Any, seat: int | None = None) -> Any:
    """The rendered state of `match` at `view` from the caller's side, as
    `render(selectors.match_state(...))` gives it."""
    inputs = selectors.state_inputs(match, view, user, seat)
    key = (id(view), timezone.get_current_timezone(), inputs.key())
    with _lock:
        kept = _kept.get(key)
    if kept is not None and kept[0] is view:  # the same view, not one at a reused address
        body = kept[1]
        if view.clock is None:
            return body
        body = dict(body)  # the same keys in the same order, the clock as it is now
        clock = selectors.clock_json(view, inputs.side)
        body["clock"] = None if clock is None else render(clock)
        return body
    body = render(selectors.state_of(view, inputs))
    with _lock:
        _kept[key] = (view, body)
    return body


def forget() -> None:
    """Drop every kept body (tests)."""
    with _lock:
        _kept.clear()
