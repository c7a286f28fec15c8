"""The tournament store: one append-only stream of events per tournament, beside a projected
`Tournament` row, and the link from each match a tournament made to its board.

As for matches (store/models.py), the events are the truth: the state of a tournament is the
fold of its `TournamentEvent`s through `matches.tournaments.state`. The row's status, start
time and version exist for the lists, the sweeper and the compare-and-set of the appends,
and are written in the same transaction as the events. Events are never updated or deleted:
`save()` only inserts, the queryset refuses `update()` and `delete()`, and the database's
trigger (migration 0010) refuses both.
"""

from __future__ import annotations

import uuid
from typing import Any, NoReturn

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from matches.errors import EventsAreImmutable

from .models import Match


class Tournament(models.Model):
    """A tournament's projection: what the lists filter on and the version appends compare."""

    class Status(models.TextChoices):
        UPCOMING = "upcoming", "Upcoming"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=16)
    format = models.CharField(max_length=16)
    settings = models.JSONField(help_text="The settings as checked at creation (its first event).")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.UPCOMING)
    version = models.PositiveIntegerField(default=0, help_text="seq of the last event.")
    starts_at = models.DateTimeField()
    rounds_paired = models.PositiveSmallIntegerField(default=0)
    players = models.PositiveIntegerField(default=0, help_text="Signed up (and not left).")
    winner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments_won",
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournaments_created",
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("starts_at", "created_at")
        indexes = (models.Index(fields=["status", "starts_at"], name="tournament_status_start"),)

    def __str__(self) -> str:
        return f"{self.name} ({self.format}, {self.status})"


class TournamentEventQuerySet(models.QuerySet["TournamentEvent"]):
    """Reads and inserts only."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable("tournament events are append-only: update() refused")

    def delete(self) -> NoReturn:
        raise EventsAreImmutable("tournament events are append-only: delete() refused")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> NoReturn:
        raise EventsAreImmutable("tournament events are append-only: bulk_update() refused")

    def update_or_create(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable("tournament events are append-only: update_or_create() refused")


TournamentEventManager = models.Manager.from_queryset(TournamentEventQuerySet)


class TournamentEvent(models.Model):
    """One fact of a tournament's stream; `seq` runs 1, 2, 3, ... per tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_events",
    )
    created_at = models.DateTimeField()

    objects = TournamentEventManager()

    class Meta:
        ordering = ("tournament", "seq")
        base_manager_name = "objects"
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "seq"], name="tournamentevent_seq_unique"
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="tournamentevent_seq_positive"),
        )

    def __str__(self) -> str:
        return f"{self.tournament_id} #{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if (
            not self._state.adding
            or kwargs.get("force_update")
            or kwargs.get("update_fields") is not None
        ):
            raise EventsAreImmutable(f"tournament event {self} is stored and cannot be changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise EventsAreImmutable(f"tournament event {self} cannot be deleted")


class TournamentMatch(models.Model):
    """A match a tournament made for one of its boards. `recorded`: its result is in the
    tournament's stream (the sweeper looks for ended matches still unrecorded)."""

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.PROTECT, related_name="tournament_board"
    )
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="boards")
    round = models.PositiveSmallIntegerField()
    board = models.PositiveIntegerField()
    recorded = models.BooleanField(default=False)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "round", "board"], name="tournamentmatch_board_unique"
            ),
        )
        indexes = (
            models.Index(
                fields=["tournament"], condition=Q(recorded=False), name="tournamentmatch_owed"
            ),
        )

    def __str__(self) -> str:
        return f"round {self.round} board {self.board} of {self.tournament_id}"
