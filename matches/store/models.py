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
from typing import Any, ClassVar, NoReturn

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.rules import MAX_MATCH_LENGTH, Variant
from games.rules import EndedBy as RulesEndedBy
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
        """How the match ended: the rules' word (games.rules.EndedBy), as the state says it."""

        NOT_ENDED = "", "Not ended"
        BEAROFF = RulesEndedBy.BEAROFF.value, "Borne off"
        RESIGN = RulesEndedBy.RESIGN.value, "Resignation"
        DROP = RulesEndedBy.DROP.value, "Dropped double"
        TIMEOUT = RulesEndedBy.TIMEOUT.value, "Time out"
        FORFEIT = RulesEndedBy.FORFEIT.value, "Forfeit"
        ABORT = RulesEndedBy.ABORT.value, "Aborted"

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
    rated = models.BooleanField(
        default=False,
        help_text="Counts for the ratings (online, match play, not marked unrated by staff);"
        " whether it does also depends on the players: docs/ratings.md.",
    )
    hints = models.BooleanField(
        default=False,
        help_text="The players may ask for hints (never in a rated match): docs/analysis.md.",
    )

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
            # No index holds a column every command changes (version, turn, last_move_at,
            # score): then the projection's UPDATE is a heap-only tuple update, which adds no
            # entry to any of the row's indexes (migration 0008, docs/performance.md).
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

    # How the usernames the site gives are made, the one place they are written: the
    # computer's accounts are `computer-<level>`, one per level, and guests' `guest-<random>`
    # (names starting so are reserved at sign-up). What kind an account is, its profile says.
    COMPUTER_PREFIX: ClassVar[str] = "computer-"
    GUEST_PREFIX: ClassVar[str] = "guest-"

    @classmethod
    def computer_username(cls, level: str) -> str:
        """The username of the computer's account at a level."""
        return f"{cls.COMPUTER_PREFIX}{level}"

    @classmethod
    def computer_user(cls, level: str) -> Any:
        """The computer's account at `level` with its profile (kind computer), made on first
        use: the one place it is made."""
        users = get_user_model().objects.select_related("tavla_profile")
        user, _ = users.get_or_create(
            username=cls.computer_username(level), defaults={"is_active": True}
        )
        if not hasattr(user, "tavla_profile"):  # read with the user: no query once made
            user.tavla_profile, _ = cls.objects.get_or_create(
                user=user,
                defaults={"kind": cls.Kind.COMPUTER, "display_name": f"Computer ({level})"},
            )
        return user

    @classmethod
    def without_profile(cls) -> str:
        """The kind of an account that has no profile: a registered player (the computer's
        accounts, guests and bots are made with theirs)."""
        return str(cls.Kind.REGISTERED)

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


# -- ratings (docs/ratings.md): a projection of the event streams, rebuilt by rebuild_ratings ----


class PlayerRating(models.Model):
    """A player's FIBS rating and experience in one game (matches/services/ratings.py).

    Written in the transaction that stores the end of a rated match; recomputed from the events
    by `manage.py rebuild_ratings`. Players without a row have the starting rating."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.CharField(max_length=16, choices=[(v.value, v.value) for v in Variant])
    rating = models.FloatField(default=1500.0)
    experience = models.PositiveIntegerField(
        default=0, help_text="The sum of the lengths of his rated matches."
    )
    matches = models.PositiveIntegerField(default=0, help_text="Rated matches played.")
    wins = models.PositiveIntegerField(default=0)
    last_match_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "game"], name="playerrating_user_game"),
        )
        indexes = (models.Index(fields=["game", "-rating"], name="playerrating_leaderboard"),)

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.rating:.2f} (experience {self.experience})"

    @property
    def losses(self) -> int:
        return self.matches - self.wins


class RatingChange(models.Model):
    """One player's rating change by one rated match: the history (and the order of the fold).

    `order` is the id of the event that ended the match: rated matches of a game end one at a
    time (an advisory lock per game), so ids of those events follow the order the ratings were
    applied in, and the rebuild folds them in that order."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    game = models.CharField(max_length=16, choices=[(v.value, v.value) for v in Variant])
    order = models.BigIntegerField(help_text="The id of the event that ended the match.")
    length = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    opponent_rating = models.FloatField(help_text="The opponent's rating before the match.")
    experience_before = models.PositiveIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "user"], name="ratingchange_match_user"),
        )
        indexes = (
            models.Index(fields=["user", "game", "-order"], name="ratingchange_history"),
            models.Index(fields=["user", "opponent"], name="ratingchange_pair"),
        )

    def __str__(self) -> str:
        return f"{self.user} {self.change:+.2f} in {self.match_id}"

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


class EarlyExit(models.Model):
    """A player left an online match before moving: aborted it, or lost it on time or by
    forfeit before his first move (docs/ratings.md, "Abuse"). Written with the event that
    ended the match; the seek queue refuses players with too many recent ones."""

    class Kind(models.TextChoices):
        ABORTED = "aborted", "Aborted before the first move"
        TIMEOUT = "timeout", "Lost on time before moving"
        FORFEIT = "forfeit", "Forfeited before moving"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="early_exits"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="early_exits")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    at = models.DateTimeField()

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["match", "user"], name="earlyexit_match_user"),
        )
        indexes = (models.Index(fields=["user", "-at"], name="earlyexit_user_at"),)

    def __str__(self) -> str:
        return f"{self.user} {self.kind} {self.match_id}"


class Seek(models.Model):
    """A player asking to be paired with anyone of similar rating (matches/services/seeks.py).

    At most one waiting seek per player (a partial unique index). Pairing is decided under an
    advisory lock per pool (game, length, cube, clock), so a seek is paired once."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for an opponent"
        PAIRED = "paired", "Paired: the match started"
        CANCELLED = "cancelled", "Cancelled by the player"
        EXPIRED = "expired", "Expired: the player was gone"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16, choices=[(v.value, v.value) for v in Variant])
    length = models.PositiveSmallIntegerField()
    cube = models.BooleanField()
    clock_preset = models.CharField(max_length=16)
    rating = models.FloatField(help_text="The seeker's rating in the game when he asked.")
    rating_min = models.FloatField(null=True, blank=True)
    rating_max = models.FloatField(null=True, blank=True)
    computer_level = models.CharField(max_length=32, blank=True, default="")
    computer_after = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds after which the computer plays him instead."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    match = models.ForeignKey(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    tried_step = models.PositiveSmallIntegerField(
        default=0, help_text="The widest window a pairing was tried with (polls retry wider)."
    )

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="waiting"), name="seek_one_waiting_per_user"
            ),
        )
        indexes = (
            models.Index(
                fields=["game", "length", "cube", "clock_preset", "created_at"],
                condition=Q(status="waiting"),
                name="seek_waiting_pool",
            ),
        )

    def __str__(self) -> str:
        return f"seek {self.id} of {self.user} ({self.status})"


class OutboxNotice(models.Model):
    """A notice owed to a user (matches/services/notices.py: "your seek was paired"), written in
    the transaction that decided it, so a process that dies between the commit and the push
    loses nothing: `sent_at` is set once a delivery ran, and the beat's sweeper delivers what
    is still unsent a few seconds later. Delivery is at least once; the pushed notification
    carries this row's id so a client drops a repeat."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    match_id = models.UUIDField(null=True, blank=True)
    version = models.PositiveIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = (
            models.Index(
                fields=["created_at"], condition=Q(sent_at__isnull=True), name="outbox_unsent"
            ),
        )

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id} ({'sent' if self.sent_at else 'owed'})"
