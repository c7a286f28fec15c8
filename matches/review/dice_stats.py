"""Dice statistics, so an admin can answer "the dice are rigged" with numbers.

What is counted, and how
------------------------
- **Rolls** (`rolled` events): the two dice a player rolls on his turn. They are stored larger
  die first, so the order of the two dice is not known: the 36 equally likely ordered outcomes
  fold into 21 distinct rolls, the 6 doubles with probability 1/36 each and the 15 other rolls
  with 2/36 each (3-1 is either 3 then 1 or 1 then 3). The chi-square test of those 21 counts
  has 20 degrees of freedom.
- **Opening rolls** (`opening_roll` events) are kept apart: they are a different experiment
  (one die per player; a tie is rolled again and the played opening roll is never a double),
  so mixing them into the rolls would make doubles look too rare. Every opening_roll event is
  counted, ties included, as the ordered pair (seat 0's die, seat 1's die): 36 outcomes of
  1/36 each, 35 degrees of freedom. For one player only his own die is his, so his opening
  dice are counted as single dice: 6 faces of 1/6, 5 degrees of freedom.
- **Faces**: every single die of every roll (a roll gives two dice, a double counts as two
  dice of that face), 6 faces of 1/6 each, 5 degrees of freedom.
- **Doubles**: how many rolls were doubles, against 1/6 of the rolls, with a z-score.

The p-value is the chance that fair dice give a chi-square statistic at least this large.
It comes from the regularized upper incomplete gamma function Q(df/2, x/2), computed with its
power series or its continued fraction (Numerical Recipes, `gammq`); scipy is not needed.
A small p-value (below 0.05) for one player proves little: with many players, one in twenty
will be that unlucky by chance. The test is only meaningful when every expected count is at
least 5 (180 rolls for the 21-roll table).

The first half of this module is pure arithmetic; the second half reads the match store.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

# -- arithmetic ------------------------------------------------------------------------------

MIN_EXPECTED = 5.0  # below this expected count per cell the chi-square test is not reliable
ALPHA = 0.05

ROLLS: tuple[tuple[int, int], ...] = tuple(
    (h, lo) for h in range(6, 0, -1) for lo in range(h, 0, -1)
)
"""The 21 distinct rolls, larger die first: 66, 65, ..., 11."""


def roll_probability(high: int, low: int) -> Fraction:
    return Fraction(1, 36) if high == low else Fraction(2, 36)


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its power series; converges quickly for x < a + 1."""
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_continued_fraction(a: float, x: float) -> float:
    """Q(a, x) by Lentz's continued fraction; converges quickly for x >= a + 1."""
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return min(1.0, _gamma_continued_fraction(a, x))


def chi2_sf(statistic: float, df: int) -> float:
    """P(chi-square with df degrees of freedom >= statistic): the test's p-value."""
    return gamma_q(df / 2.0, statistic / 2.0)


def chi2_critical(df: int, alpha: float = ALPHA) -> float:
    """The statistic above which fair dice are rejected at level alpha (bisection on sf)."""
    lo, hi = 0.0, float(df)
    while chi2_sf(hi, df) > alpha:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if chi2_sf(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


@dataclass(frozen=True)
class Cell:
    """One outcome of a table: what was seen against what fair dice give."""

    label: str
    observed: int
    probability: Fraction
    total: int

    @property
    def expected(self) -> float:
        return float(self.probability) * self.total

    @property
    def probability_label(self) -> str:
        """ "2/36" rather than "1/18": the 36 ordered outcomes stay visible."""
        in_36 = self.probability * 36
        return (
            f"{in_36}/36"
            if in_36.denominator == 1 and self.probability != Fraction(1, 6)
            else str(self.probability)
        )

    @property
    def share(self) -> float:
        return self.observed / self.total if self.total else 0.0

    @property
    def contribution(self) -> float:
        """This cell's part of the chi-square statistic."""
        e = self.expected
        return (self.observed - e) ** 2 / e if e else 0.0

    @property
    def deviation(self) -> float:
        """(observed - expected) / sqrt(expected): the signed root of the contribution."""
        e = self.expected
        return (self.observed - e) / math.sqrt(e) if e else 0.0


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float
    critical: float  # at ALPHA
    min_expected: float

    @property
    def reliable(self) -> bool:
        return self.min_expected >= MIN_EXPECTED

    @property
    def rejects_fair_dice(self) -> bool:
        return self.statistic > self.critical

    @property
    def verdict(self) -> str:
        if self.min_expected == 0:
            return "no data"
        if not self.reliable:
            return "too few dice for the test (an expected count is below 5)"
        if self.rejects_fair_dice:
            return f"unusual: fair dice give a result this uneven in {self.p_value:.2%} of samples"
        return "consistent with fair dice"


@dataclass(frozen=True)
class Table:
    title: str
    cells: tuple[Cell, ...]
    chi: ChiSquare

    @property
    def total(self) -> int:
        return self.cells[0].total if self.cells else 0


def table(title: str, observed: Iterable[tuple[str, int, Fraction]]) -> Table:
    """A table of outcomes (label, count, probability) with its chi-square test."""
    rows = list(observed)
    total = sum(n for _, n, _ in rows)
    cells = tuple(Cell(label, n, p, total) for label, n, p in rows)
    statistic = sum(c.contribution for c in cells)
    df = len(cells) - 1
    chi = ChiSquare(
        statistic=statistic,
        df=df,
        p_value=chi2_sf(statistic, df) if total else 1.0,
        critical=chi2_critical(df),
        min_expected=min((c.expected for c in cells), default=0.0),
    )
    return Table(title, cells, chi)


def rolls_table(counts: dict[tuple[int, int], int]) -> Table:
    """The 21 distinct rolls; `counts` is keyed by (larger die, smaller die)."""
    return table(
        "Rolls (21 distinct rolls, larger die first)",
        ((f"{h}-{lo}", counts.get((h, lo), 0), roll_probability(h, lo)) for h, lo in ROLLS),
    )


def faces_table(title: str, faces: dict[int, int]) -> Table:
    return table(title, ((str(f), faces.get(f, 0), Fraction(1, 6)) for f in range(1, 7)))


def faces_of_rolls(counts: dict[tuple[int, int], int]) -> dict[int, int]:
    faces = dict.fromkeys(range(1, 7), 0)
    for (h, lo), n in counts.items():
        faces[h] += n
        faces[lo] += n
    return faces


def opening_table(pairs: dict[tuple[int, int], int]) -> Table:
    """All 36 ordered opening outcomes (seat 0's die, seat 1's die), ties included."""
    return table(
        "Opening rolls (seat 0's die, seat 1's die), ties included",
        (
            (f"{a}-{b}", pairs.get((a, b), 0), Fraction(1, 36))
            for a in range(1, 7)
            for b in range(1, 7)
        ),
    )


@dataclass(frozen=True)
class Doubles:
    count: int
    rolls: int

    @property
    def expected(self) -> float:
        return self.rolls / 6

    @property
    def share(self) -> float:
        return self.count / self.rolls if self.rolls else 0.0

    @property
    def z(self) -> float:
        """Standard deviations from the expected number (binomial, p = 1/6)."""
        sd = math.sqrt(self.rolls * (1 / 6) * (5 / 6))
        return (self.count - self.expected) / sd if sd else 0.0


@dataclass(frozen=True)
class DiceReport:
    subject: str
    rolls: Table
    faces: Table
    doubles: Doubles
    opening: Table
    grid: list[list[Cell | None]]  # 6x6, row = first die 6..1, column = second die 6..1

    @property
    def roll_count(self) -> int:
        return self.rolls.total


def report(
    subject: str,
    roll_counts: dict[tuple[int, int], int],
    opening: Table,
) -> DiceReport:
    rolls = rolls_table(roll_counts)
    by_label = {c.label: c for c in rolls.cells}
    # The 6x6 grid of ordered outcomes: a non-double roll's count is shared by its two cells
    # (3-1 and 1-3); it is drawn once, in the cell with the larger die first.
    grid = [
        [by_label[f"{a}-{b}"] if a >= b else None for b in range(6, 0, -1)] for a in range(6, 0, -1)
    ]
    doubles = sum(n for (h, lo), n in roll_counts.items() if h == lo)
    return DiceReport(
        subject=subject,
        rolls=rolls,
        faces=faces_table("Faces of every die rolled", faces_of_rolls(roll_counts)),
        doubles=Doubles(doubles, rolls.total),
        opening=opening,
        grid=grid,
    )


# -- reading the store -----------------------------------------------------------------------


def _rolled_counts(events: Any) -> dict[tuple[int, int], int]:
    from django.db.models import Count
    from django.db.models.fields.json import KT

    rows = (
        events.filter(type="rolled")
        .order_by()  # the model's ordering would otherwise join the GROUP BY
        .annotate(hi=KT("payload__dice__0"), lo=KT("payload__dice__1"))
        .values("hi", "lo")
        .annotate(n=Count("pk"))
    )
    counts: dict[tuple[int, int], int] = {}
    for row in rows:
        key = (int(row["hi"]), int(row["lo"]))
        counts[key] = counts.get(key, 0) + row["n"]
    return counts


def _opening_pairs(events: Any) -> dict[tuple[int, int], int]:
    from django.db.models import Count
    from django.db.models.fields.json import KT

    rows = (
        events.filter(type="opening_roll")
        .order_by()
        .annotate(d0=KT("payload__die0"), d1=KT("payload__die1"))
        .values("d0", "d1")
        .annotate(n=Count("pk"))
    )
    pairs: dict[tuple[int, int], int] = {}
    for row in rows:
        key = (int(row["d0"]), int(row["d1"]))
        pairs[key] = pairs.get(key, 0) + row["n"]
    return pairs


def _events(since: datetime | None, game: str | None = None) -> Any:
    from matches.store.models import MatchEvent

    events = MatchEvent.objects.all()
    if since is not None:
        events = events.filter(created_at__gte=since)
    if game:
        events = events.filter(match__game=game)
    return events


def _of_game(subject: str, game: str | None) -> str:
    return f"{subject}, {game} only" if game else subject


def site_report(*, since: datetime | None = None, game: str | None = None) -> DiceReport:
    """Every roll stored on the site (since a moment, if given; of one game, if given)."""
    events = _events(since, game)
    return report(
        _of_game("the whole site", game),
        _rolled_counts(events),
        opening_table(_opening_pairs(events)),
    )


def player_report(
    user: Any,
    *,
    opponents: bool = False,
    since: datetime | None = None,
    game: str | None = None,
) -> DiceReport:
    """The rolls of one player's seats (or, with `opponents`, of the seats facing him).

    In a hot-seat match the user sits on both seats: all its rolls are his, none his
    opponents'.
    """
    from django.db.models import Q

    events = _events(since, game)
    if opponents:
        seat0 = Q(payload__seat=0, match__player1=user) & ~Q(match__player0=user)
        seat1 = Q(payload__seat=1, match__player0=user) & ~Q(match__player1=user)
        open0 = Q(match__player1=user) & ~Q(match__player0=user)
        open1 = Q(match__player0=user) & ~Q(match__player1=user)
        subject = f"the opponents of {user.get_username()}"
    else:
        seat0 = Q(payload__seat=0, match__player0=user)
        seat1 = Q(payload__seat=1, match__player1=user)
        open0 = Q(match__player0=user)
        open1 = Q(match__player1=user)
        subject = user.get_username()
    counts = _rolled_counts(events.filter(seat0 | seat1))
    # Opening rolls: only the die of the player's own seat is his.
    faces = dict.fromkeys(range(1, 7), 0)
    for (d0, _d1), n in _opening_pairs(events.filter(open0)).items():
        faces[d0] += n
    for (_d0, d1), n in _opening_pairs(events.filter(open1)).items():
        faces[d1] += n
    opening = faces_table("Opening rolls: the player's own die", faces)
    return report(_of_game(subject, game), counts, opening)
