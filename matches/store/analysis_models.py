"""The post-game analysis of a match, kept once it is made (docs/analysis.md).

One row per match: asked for (`queued`), being made by the Celery task (`running`), made
(`done`, the document in `result`) or failed (`failed`, the reason in `error`). The engine
that made it is recorded (`engine`), so an analysis by an older network is made again when
asked for. Each seat's PR and unforced decisions are kept beside the document, for the
player's page and the admin's fit of error rate against rating (matches/selectors/analysis.py).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from .models import Match


class MatchAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="analysis"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    engine = models.CharField(max_length=64, blank=True, default="", help_text="Who made it.")
    match_version = models.PositiveIntegerField(default=0, help_text="The version analysed.")
    result = models.JSONField(null=True, blank=True, help_text="games and players, as the CLI's.")
    error = models.TextField(blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Tasks sent for it.")
    pr0 = models.FloatField(null=True, blank=True)
    pr1 = models.FloatField(null=True, blank=True)
    unforced0 = models.PositiveIntegerField(null=True, blank=True)
    unforced1 = models.PositiveIntegerField(null=True, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "match analyses"
        indexes = (models.Index(fields=["status", "requested_at"], name="analysis_status"),)

    def __str__(self) -> str:
        return f"analysis of {self.match_id} ({self.status})"


def hints_allowed(match: Match) -> bool:
    """Hints are given against the computer, in hot-seat, and in unrated matches created
    with hints (never in a rated one)."""
    return match.mode in (Match.Mode.COMPUTER, Match.Mode.HOTSEAT) or (
        match.hints and not match.rated
    )
