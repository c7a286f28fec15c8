"""Ratings shown with matches: each player's rating now in the match's game (the projection
written by matches/services/ratings.py). A state's come with its Match row
(matches/store/rows.py `ratings_columns`), else one query per state; one per page of
summaries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from matches.store.models import Match, PlayerRating

START_RATING = 1500.0
RATED_KINDS = ("registered", "bot")


def ratings_of(
    users: Iterable[tuple[int, str]],
    game: str,
    stored: Mapping[int, float | None] | None = None,
) -> dict[int, float | None]:
    """user id -> rating in `game` (the start rating when he has none yet), None for players
    who are not rated; `users` as (user id, kind). `stored`: the ratings read with the Match
    row (matches/store/rows.py `stored_ratings`): no query when every rated player is in it."""
    pairs = list(users)
    rated = [uid for uid, kind in pairs if kind in RATED_KINDS]
    if not rated:
        return {uid: None for uid, _ in pairs}
    if stored is not None and all(uid in stored for uid in rated):
        found = {uid: rating for uid, rating in stored.items() if rating is not None}
    else:
        found = dict(
            PlayerRating.objects.filter(user_id__in=rated, game=game).values_list(
                "user_id", "rating"
            )
        )
    return {uid: (found.get(uid, START_RATING) if uid in rated else None) for uid, _ in pairs}


def ratings_for_rows(matches: Iterable[Match]) -> dict[tuple[int, str], float]:
    """Ratings of every player of these matches in each match's game (one query)."""
    wanted: set[tuple[int, str]] = set()
    for m in matches:
        for uid in (m.player0_id, m.player1_id):
            if uid is not None:
                wanted.add((uid, m.game))
    if not wanted:
        return {}
    ids = {uid for uid, _ in wanted}
    games = {g for _, g in wanted}
    rows = PlayerRating.objects.filter(user_id__in=ids, game__in=games).values_list(
        "user_id", "game", "rating"
    )
    return {(uid, game): rating for uid, game, rating in rows}
