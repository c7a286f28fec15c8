"""The shapes of the post-game analysis and the hint (docs/analysis.md): the engine's
document (`python -m games.bots analyse`) with each decision's position, as the API renders
it. Pure, like matches/selectors/shapes.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from .shapes import Board, Key

Mark = Literal["doubtful", "bad", "very bad"]


@dataclass(frozen=True, slots=True)
class AnalysedDecision:
    """One decision judged: a roll's checker play, a double, a take or a drop."""

    player: Annotated[int, "The seat who decided: 0 (the first player) or 1."]
    action: Literal["move", "double", "take", "drop"]
    dice: Annotated[list[int] | None, "[high, low] of a move; null for cube actions."]
    played: Annotated[
        str | None, "The play made (gnubg notation); null when none was possible or a cube action."
    ]
    best: Annotated[
        str | None,
        'The best play; for a double "double" or "no double", for an answer "take" or "drop".',
    ]
    error: Annotated[float, "The equity lost against the best (>= 0), normalised (EMG)."]
    mark: Annotated[Mark | None, "gnubg's marks: from 0.04, 0.08, 0.16 of error."]
    luck: Annotated[float | None, "The roll's luck (EMG) against the average roll; null: cube."]
    equity: Annotated[
        float | None, "The decider's equity (EMG) after the choice made; null: a roll unplayable."
    ]
    position_id: Annotated[
        str | None,
        "Tavla: the gnubg Position ID before the decision, the player on roll to move (at a"
        " take or drop, the doubler); null in long nardy.",
    ]
    board: Annotated[Board | None, "Long nardy: the board before the decision; null in tavla."]


@dataclass(frozen=True, slots=True)
class AnalysedGame:
    decisions: list[AnalysedDecision]


@dataclass(frozen=True, slots=True)
class MarkCounts:
    doubtful: int
    bad: int
    very_bad: Annotated[int, Key("very bad")]


@dataclass(frozen=True, slots=True)
class AnalysedPlayer:
    """One player's figures over the match."""

    name: str
    unforced: Annotated[int, "His unforced decisions (docs/analysis.md says which)."]
    error_rate: Annotated[float, "1000 x total error / unforced decisions (mEMG)."]
    pr: Annotated[float, "500 x total error / unforced decisions (XG's Performance Rating)."]
    luck: Annotated[float, "The sum of his rolls' luck (EMG)."]
    checker_unforced: int
    checker_error_rate: Annotated[float, "The error rate of his checker plays alone."]
    marks: MarkCounts
    result: Annotated[float, "Match: his final match winning chance less the start's."]
    luck_adjusted: Annotated[float, "The result less the difference of the two sides' luck."]


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A match's post-game analysis: its status and, when done, the games and players."""

    match_id: UUID
    status: Annotated[
        Literal["queued", "running", "done", "failed"],
        "queued: asked for, waiting for the worker; running; done; failed (`error`; ask again).",
    ]
    engine: Annotated[str | None, "What made it (the network, the lookahead); null until done."]
    requested_at: datetime
    finished_at: datetime | None
    error: Annotated[str | None, "Why it failed."]
    games: Annotated[list[AnalysedGame] | None, "When done: the decisions of each game, in order."]
    players: Annotated[list[AnalysedPlayer] | None, "When done: seat 0, then seat 1."]


@dataclass(frozen=True, slots=True)
class HintPlay:
    play: Annotated[str, "The play in gnubg notation."]
    equity: Annotated[float, "Its equity (EMG) for the player on turn."]
    error: Annotated[float, "What it loses against the best play (>= 0)."]


@dataclass(frozen=True, slots=True)
class Hints:
    """The best legal plays for the player on turn, best first (the top 5)."""

    match_id: UUID
    version: Annotated[int, "The version of the match they are for."]
    dice: Annotated[list[int] | None, "The dice out; null (and no plays) before the roll."]
    plays: list[HintPlay]
