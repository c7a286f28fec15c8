"""Tournaments (knockout and Swiss): the pure domain, with the service to come on top of it.

Here, pure Python (no Django, no database, no Celery; `.importlinter` holds it to that):

- `settings.py`: what a tournament is played with, checked once at creation;
- `refusals.py`: why something is refused (a reason code and a sentence a player understands,
  like the rules' refusals, so the API can translate it);
- `events.py`: the tournament's own append-only events (created, joined, left, started,
  cancelled, round paired, match result, withdrawn, finished) and their JSON payloads;
- `state.py`: the tournament folded from its events (`fold`, `replay`): who is in, the rounds,
  the results; it decides nothing, it reads what the events decided;
- `swiss.py` and `knockout.py`: the pairings and standings of each format;
- `decide.py`: the commands (join, leave, start, record a result, withdraw, advance) as pure
  functions from a state to the events that record them, or a refusal.

Later, beside the match store: the models (an append-only TournamentEvent table like
MatchEvent), the services that write those events under a lock, the Celery start task and its
beat sweeper, the API, the pushes and the admin (docs/tournaments.md).
"""
