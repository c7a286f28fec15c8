"""The live lobby: a hint to every socket subscribed to it when the open challenges or the
public live matches change, so its client reads the list again (docs/realtime.md "Lobby").

After commit, `messages` finds what a committed append changed in the lobby's lists (a
challenge created, joined or withdrawn; a public online match started or over) and `publish` sends
`{"type": "lobby.changed", "what", "match"}` to the channel-layer group `lobby`. The push is a
hint, as every push: each web process with lobby subscribers also samples the lists' ids in
the store every watch interval (`marks`), so a lost message, or another process's write the
in-memory layer cannot carry, still reaches its clients.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Q

from matches.api.errors import ApiError
from matches.store.committed import Committed
from matches.store.models import Match, MatchLobby
from matches.store.tournament_models import Tournament

LOBBY_GROUP = "lobby"
WHATS = ("challenges", "live", "tournaments")
DEFAULT_WHATS = ("challenges", "live")  # "tournaments" only when asked for
SUBSCRIBE_FIELDS = frozenset({"type", "ref", "what"})
MARK_ROWS = 500  # ids sampled per list by the store watcher (the lists show fewer)


def messages(committed: Committed) -> list[tuple[str, dict[str, Any]]]:
    """The lobby hints of one committed append: none unless it created, seated, ended or
    aborted a public online match (one read of the Match row then)."""
    types = {e.type for e in committed.events}
    view = committed.view
    state = view.state
    over = (
        state is not None and state.is_over and bool(types - {"rematch_offered", "marked_unrated"})
    )
    if not (types & {"match_created", "player_joined"} or over) or view.match_id is None:
        return []
    if view.created is None or view.created.mode != Match.Mode.ONLINE:
        return []  # computer and hot-seat matches are no one's lobby
    row = Match.objects.filter(pk=view.match_id).values("public").first()
    if row is None or not row["public"]:
        return []
    changed: list[str] = []
    created = "match_created" in types
    started = "player_joined" in types and view.full
    listed = created and not view.full  # a challenge put up
    taken = started and not created
    withdrawn = over and view.started_at is None
    if (listed or taken or withdrawn) and _was_open(view.match_id):
        changed.append("challenges")
    if (started and not over) or (over and view.started_at is not None):
        changed.append("live")
    match_id = str(view.match_id)
    return [
        (LOBBY_GROUP, {"type": "lobby.changed", "what": what, "match": match_id})
        for what in changed
    ]


def _was_open(match_id: Any) -> bool:
    return MatchLobby.objects.filter(match_id=match_id, open_challenge=True).exists()


def parse_subscription(message: dict[str, Any]) -> frozenset[str]:
    """The lists a `subscribe_lobby` message asks for (all without `what`); refuses any
    other field and any `what` that is not a non-empty list of known lists."""
    unknown = sorted(set(message) - SUBSCRIBE_FIELDS)
    if unknown:
        raise ApiError(
            "invalid_request",
            "Unknown field in subscribe_lobby: send only type, ref and what.",
            {"field": [str(name)[:40] for name in unknown[:5]]},
        )
    what = message.get("what", list(DEFAULT_WHATS))
    if (
        not isinstance(what, list)
        or not what
        or not all(isinstance(w, str) and w in WHATS for w in what)
    ):
        raise ApiError(
            "invalid_request",
            "`what` is a list of challenges, live and/or tournaments.",
            {"what": [str(what)[:40]]},
        )
    return frozenset(what)


def marks() -> dict[str, str]:
    """A short digest of each list's ids as the store has them now (the watcher compares
    two): open challenges and public online matches being played."""
    listed = (
        Match.objects.filter(
            Q(
                status=Match.Status.WAITING,
                mode=Match.Mode.ONLINE,
                public=True,
                lobby__open_challenge=True,
            )
            | Q(status=Match.Status.ACTIVE, mode=Match.Mode.ONLINE, public=True)
        )
        .order_by("-created_at", "pk")
        .values_list("pk", "status")[: 2 * MARK_ROWS]
    )
    digests = {what: hashlib.blake2b(digest_size=8) for what in WHATS}
    for pk, status in listed:
        what = "challenges" if status == Match.Status.WAITING else "live"
        digests[what].update(pk.bytes)
    changed = Tournament.objects.order_by("-created_at").values_list("pk", "version")
    for pk, version in changed[:MARK_ROWS]:
        digests["tournaments"].update(pk.bytes + version.to_bytes(4, "big"))
    return {what: d.hexdigest() for what, d in digests.items()}
