"""The event store: one append-only stream of events per match, the fold that rebuilds its
state (`replay`), and the projected `Match` row kept in step with it (`streams`).

Everything above the store (services, selectors, delivery) reads and writes matches through
the names exported here.
"""

from .replay import MatchView, ReplayError, Seat, StoredEvent, replay
from .streams import append, forget, load_view, project, status_of, stored_events

__all__ = [
    "MatchView",
    "ReplayError",
    "Seat",
    "StoredEvent",
    "append",
    "forget",
    "load_view",
    "project",
    "replay",
    "status_of",
    "stored_events",
]
