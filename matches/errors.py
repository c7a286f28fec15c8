"""Errors of the match store. The API maps each to an HTTP status with a stable code."""

# The rules decide whose turn it is; the store's callers may catch it from here too.
from games.rules import NotYourTurn  # noqa: F401


class StoreError(Exception):
    """Base class of everything the match store refuses."""

    code = "store_error"


class EventsAreImmutable(StoreError):
    """Something tried to change or delete a stored match event: events are append-only."""

    code = "events_are_immutable"


class MatchNotFound(StoreError):
    code = "match_not_found"

    def __init__(self, match_id: object) -> None:
        super().__init__(f"there is no match {match_id}")


class NotAPlayer(StoreError):
    """The user has no seat in the match (spectators read, they do not act)."""

    code = "not_a_player"


class MatchFull(StoreError):
    code = "match_full"


class VersionConflict(StoreError):
    """Another write reached the match first: reload and decide again."""

    code = "version_conflict"

    def __init__(self, current_version: int | None, expected: int | None = None) -> None:
        self.current_version = current_version
        self.expected = expected
        if expected is not None:
            text = f"the match is at version {current_version}, not {expected}: reload it"
        else:
            text = "another move reached the match first: reload it"
        super().__init__(text)


class OutOfTime(StoreError):
    """A move came after the deadline: the player has lost the match on time."""

    code = "out_of_time"

    def __init__(self, seat: int) -> None:
        self.seat = seat
        super().__init__(f"time ran out for seat {seat}: the match is lost on time")


class InviteRequired(StoreError):
    """The match is joined by its invite code (or the rematch is offered to someone else)."""

    code = "invite_required"


class InviteNotFound(MatchNotFound):
    def __init__(self, code: str) -> None:
        StoreError.__init__(self, f"no match has the invite code {code!r}")


class MatchNotFinished(StoreError):
    """The match is still being played (or never started): it has no analysis yet."""

    code = "match_not_finished"


class HintsNotAllowed(StoreError):
    """Hints are given only where the match allows them (docs/analysis.md)."""

    code = "hints_not_allowed"
