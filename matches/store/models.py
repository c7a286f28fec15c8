"""The match store: one append-only stream of events per match, plus a projected `Match` row.

`MatchEvent` rows are the truth; the state of a match is the fold of its events through
`games.rules`. The projection fields on `Match` (status, score, turn, version, ...) exist for
listing, filtering and the admin, and are written in the same transaction as the events.

Events are never updated or deleted. That is enforced three times over:
- `MatchEvent.save()` only inserts and `MatchEvent.delete()` refuses;
- `MatchEvent.objects` (a `MatchEventQuerySet`) refuses `update()` and `delete()`;
- the database rejects UPDATE and DELETE on the table with a trigger (migration 0002).
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.rules import MAX_MATCH_LENGTH, Variant
from matches.errors import EventsAreImmutable


class Match(models.Model):
    """A match's settings, seats and the projection of its event stream."""

    class NextGameStarter(models.TextChoices):
        OPENING_ROLL = "opening_roll", "Opening roll"
        WINNER = "winner", "Winner of the previous game"

    class Mode(models.TextChoices):
        ONLINE = "online", "Online"
        HOTSEAT = "hotseat", "Hot seat"
        COMPUTER = "computer", "Against the computer"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a player"
        ACTIVE = "active", "Active"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class EndedBy(models.TextChoices):
        NOT_ENDED = "", "Not ended"
        POINTS = "points", "Points"
        RESIGN = "resign", "Resignation"
        DROP = "drop", "Dropped double"
        TIMEOUT = "timeout", "Time out"
        FORFEIT = "forfeit", "Forfeit"
        ABORT = "abort", "Aborted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)

    # --- settings (fixed when the match is created) ---
    game = models.CharField(
        max_length=16,
        choices=[(v.value, v.value) for v in Variant],
        default=Variant.TAVLA.value,
        help_text="The game: tavla (backgammon) or long nardy.",
    )
    length = models.PositiveSmallIntegerField(
        default=1,
        help_text=f"Points to win; 0 = money play (unlimited games), 1..{MAX_MATCH_LENGTH}.",
    )
    cube = models.BooleanField(default=False, help_text="Doubling cube in use.")
    crawford = models.BooleanField(default=True)
    jacoby = models.BooleanField(default=False, help_text="Money play only.")
    beavers = models.BooleanField(default=False, help_text="Not played on this site.")
    backgammon_value = models.PositiveSmallIntegerField(
        default=3, choices=[(3, "3 points"), (2, "2 points (counts as mars)")]
    )
    next_game_starter = models.CharField(
        max_length=16, choices=NextGameStarter.choices, default=NextGameStarter.OPENING_ROLL
    )
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.ONLINE)
    computer_level = models.CharField(max_length=32, blank=True, default="")
    clock = models.JSONField(
        null=True,
        blank=True,
        help_text='Seconds: {"delay", "reserve", "max_move", "reconnect"}; null = no clock.',
    )
    public = models.BooleanField(default=True, help_text="Anyone may spectate.")

    # --- seats ---
    player0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches_as_player0",
    )
    player1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches_as_player1",
    )

    # --- projection of the event stream ---
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    score0 = models.PositiveIntegerField(default=0)
    score1 = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat on turn.")
    version = models.PositiveIntegerField(default=0, help_text="seq of the last event; 0 = none.")
    winner = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Winning seat.")
    ended_by = models.CharField(max_length=16, choices=EndedBy.choices, default="", blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name_plural = "matches"
        indexes = (
            # lobby / listings: open challenges, live matches, by mode, newest first
            models.Index(
                fields=["status", "mode", "-created_at"], name="match_status_mode_created"
            ),
            models.Index(fields=["-created_at"], name="match_created"),
            # clock sweeper: active matches by time of the last move
            models.Index(fields=["status", "last_move_at"], name="match_status_last_move"),
        )
        constraints = (
            models.CheckConstraint(
                condition=Q(length__lte=MAX_MATCH_LENGTH), name="match_length_range"
            ),
            models.CheckConstraint(
                condition=Q(backgammon_value__in=[2, 3]), name="match_backgammon_value"
            ),
            models.CheckConstraint(
                condition=Q(turn__isnull=True) | Q(turn__in=[0, 1]), name="match_turn_seat"
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__in=[0, 1]), name="match_winner_seat"
            ),
        )

    def __str__(self) -> str:
        length = "money" if self.length == 0 else f"{self.length}-point"
        return f"{length} {self.mode} match {self.id} ({self.status} {self.score0}-{self.score1})"


class MatchEventQuerySet(models.QuerySet["MatchEvent"]):
    """Reads and inserts only: bulk updates and deletes are refused before reaching the DB."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable("match events are append-only: update() refused")

    def delete(self) -> NoReturn:
        raise EventsAreImmutable("match events are append-only: delete() refused")

    # Django routes these through update()/delete() too; named here so the refusal is explicit.
    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> NoReturn:
        raise EventsAreImmutable("match events are append-only: bulk_update() refused")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable("match events are append-only: update_or_create() refused")


MatchEventManager = models.Manager.from_queryset(MatchEventQuerySet)


class MatchEvent(models.Model):
    """One fact in a match's stream. `seq` runs 1, 2, 3, ... per match without gaps."""

    # No index of its own: the (match, seq) unique constraint's index serves every lookup by match.
    match = models.ForeignKey(
        Match, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,  # SET_NULL would UPDATE events; the trigger forbids that
        related_name="match_events",
    )
    # Set by the store from the same clock reading the event's semantics use (clocks, deadlines),
    # never by the database or auto_now.
    created_at = models.DateTimeField()

    objects = MatchEventManager()

    class Meta:
        ordering = ("match", "seq")
        base_manager_name = "objects"
        constraints = (
            # The optimistic lock of the store: two writers cannot both append seq n.
            models.UniqueConstraint(fields=["match", "seq"], name="matchevent_match_seq_unique"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="matchevent_seq_positive"),
        )

    def __str__(self) -> str:
        return f"{self.match_id} #{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert a new event. Saving an event that is already stored is refused."""
        if (
            not self._state.adding
            or kwargs.get("force_update")
            or kwargs.get("update_fields") is not None
        ):
            raise EventsAreImmutable(f"match event {self} is stored and cannot be changed")
        kwargs["force_insert"] = True  # never let Django turn this into an UPDATE
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable(f"match event {self} cannot be deleted")


class PlayerSuspension(models.Model):
    """Moderation: a staff member suspended a player (deactivated his account), and why.

    Suspending sets `user.is_active = False` (he can no longer log in or use his API token)
    and records who did it, when and why; lifting it reactivates the account and records the
    same. Rows are kept, never deleted: they are the player's moderation history.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="suspensions"
    )
    reason = models.TextField()
    match = models.ForeignKey(
        Match,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="suspensions",
        help_text="The match under review when the player was suspended, if any.",
    )
    suspended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    suspended_at = models.DateTimeField(default=timezone.now)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ("-suspended_at",)
        indexes = (models.Index(fields=["user", "-suspended_at"], name="suspension_user"),)

    def __str__(self) -> str:
        state = "lifted" if self.lifted_at else "in force"
        return f"suspension of {self.user} ({state})"

    @property
    def active(self) -> bool:
        return self.lifted_at is None


class MatchClock(models.Model):
    """When to look at a clocked online match again (matches/services/clock.py).

    Not the truth (the events are; the sweeper always asks the replayed clock): an index of
    the current deadline, written by the command path under the Match row's lock, so the
    clock sweeper finds overdue matches with one indexed query instead of replaying them all.
    """

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="clock_watch"
    )
    active = models.BooleanField(default=True, help_text="The match is still being played.")
    version = models.PositiveIntegerField(help_text="The match version the deadline is for.")
    deadline = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = (
            models.Index(
                fields=["deadline"], condition=Q(active=True), name="matchclock_active_deadline"
            ),
        )

    def __str__(self) -> str:
        return f"clock of {self.match_id} at v{self.version}: {self.deadline}"


class MatchPresence(models.Model):
    """When a seated player of a clocked online match was last seen (matches/presence.py).

    One row per seat, created when the match starts (both seats seen then) and moved forward
    with a plain UPDATE by every authenticated request of that player on the match.
    """

    # No indexes of their own: the (match, seat) and (match, user) indexes serve the lookups.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="presence", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    last_seen = models.DateTimeField()
    grace = models.DurationField(help_text="The clock's reconnect time.")

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "seat"], name="matchpresence_match_seat"),
        )
        indexes = (
            models.Index(fields=["match", "user"], name="matchpresence_match_user"),
            models.Index(fields=["last_seen"], name="matchpresence_last_seen"),
        )

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.match_id} seen {self.last_seen}"


INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed on phones
INVITE_LENGTH = 8


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


class PlayerProfile(models.Model):
    """What kind of account a user is (registered, guest, bot, the computer), and his name."""

    class Kind(models.TextChoices):
        REGISTERED = "registered", "Registered player"
        GUEST = "guest", "Guest (no registration)"
        BOT = "bot", "Bot account (third-party program)"
        COMPUTER = "computer", "The site's computer opponent"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tavla_profile"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.REGISTERED)
    display_name = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "tavla_api_playerprofile"  # made by the API app before it moved here

    def __str__(self) -> str:
        return f"{self.user} ({self.kind})"


class MatchLobby(models.Model):
    """Lobby data of a match: one row per match created through the API (or imported)."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="lobby"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    invite_code = models.CharField(max_length=16, unique=True, default=new_invite_code)
    open_challenge = models.BooleanField(
        default=False, help_text="Listed in the lobby: anyone may accept it."
    )
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Only this user may join (a rematch offered to the old opponent).",
    )
    rematch_of = models.OneToOneField(
        Match,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_lobby",
        help_text="The finished match this one is the rematch of (one rematch per match).",
    )
    imported = models.BooleanField(default=False)

    class Meta:
        db_table = "tavla_api_matchlobby"  # made by the API app before the lobby moved here
        indexes = (models.Index(fields=["open_challenge"], name="lobby_open_challenge"),)

    def __str__(self) -> str:
        return f"lobby {self.invite_code} of {self.match_id}"
