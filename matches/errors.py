"""Errors of the match store. The API maps each to an HTTP status with a stable code."""


class StoreError(Exception):
    """Base class of everything the match store refuses."""

    code = "store_error"


class EventsAreImmutable(StoreError):
    """Something tried to change or delete a stored match event: events are append-only."""

    code = "events_are_immutable"
