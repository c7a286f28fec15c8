"""What a game's chances are worth at a match score, with the cube: the analysis's equities.

The evaluator gives a position's chances (win, gammon, backgammon for either side); the
analysis needs their worth to the player on roll at this score and cube, "cubeful" when the
cube is in use, and in GNU Backgammon's unit, normalised match equity (EMG): 0 for an even
game, +1 for winning a single game at the current cube, -1 for losing one.

- `Stakes` holds the score and the cube from one player's side and gives what a game won or
  lost by k points is worth to him (match winning chance from the Kazaross-XG2 table,
  games/bots/met.py; points in money play and in long nardy);
- `cubeful` turns chances into his value with the cube: the cubeless value blended with a
  "live cube" value, gnubg's 0-ply method (Janowski's cube efficiency, extended to match
  play with take points found from the table): below the opponent's cash point he loses
  what the opponent cashes, above his own he wins what he cashes, straight lines between,
  and the blend `(1 - x) dead + x live` with x = 0.68 in contact, 0.6 to 0.7 in a race;
- `Stakes.emg` converts a value to EMG.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .met import match_winning_chance

CONTACT_EFFICIENCY = 0.68
"""gnubg's cube efficiency for contact positions (rContactX)."""
RACE_EFFICIENCY = (0.00125, 0.55, 0.6, 0.7)
"""In a race: pips * a + b, kept within [min, max] (gnubg's race factors)."""
MONEY_MAX_CUBE = 64
"""In money play the cube stays alive up to here (no table ends it)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """The score and cube from one player's side ("me"): what results are worth to him.

    `length` 0 is money play (and long nardy, whose games are scored in points here).
    `owner`: "me", "them" or None (centred). `cube_live`: the cube is in use in this game
    (not the Crawford game, not a match without the cube)."""

    length: int
    me: int  # points I still need (ignored in money play)
    them: int
    cube: int = 1
    owner: str | None = None
    cube_live: bool = False
    post_crawford: bool = False  # results are read from the post-Crawford table

    @property
    def money(self) -> bool:
        return self.length == 0

    def turned(self) -> Stakes:
        """The same stakes from the opponent's side."""
        owner = {"me": "them", "them": "me"}.get(self.owner or "")
        return replace(self, me=self.them, them=self.me, owner=owner)

    def value(self, points: int) -> float:
        """What the game ending with me winning `points` (negative: losing) is worth to me."""
        if self.money:
            return float(points)
        if points >= 0:
            return match_winning_chance(self.me - points, self.them, post_crawford=self.post)
        return match_winning_chance(self.me, self.them + points, post_crawford=self.post)

    @property
    def post(self) -> bool:
        return self.post_crawford

    def opposite(self, value: np.ndarray | float) -> np.ndarray | float:
        """My value turned into the opponent's (MWC: 1 - v; points: -v)."""
        return -value if self.money else 1.0 - value

    def emg(self, value: np.ndarray | float) -> np.ndarray | float:
        """My value in normalised equity at this cube (gnubg's mwc2eq)."""
        win, lose = self.value(self.cube), self.value(-self.cube)
        return (2.0 * value - (win + lose)) / (win - lose)

    def emg_scale(self) -> float:
        """d EMG / d value: an equity difference in value units times this is in EMG."""
        return 2.0 / (self.value(self.cube) - self.value(-self.cube))

    def can_double(self, who: str) -> bool:
        """Whether "me" or "them" may turn the cube, and it is worth turning: the cube is in
        use, free or his, and winning at it does not already win him the match."""
        if not self.cube_live or self.owner not in (None, who):
            return False
        if self.money:
            return self.cube < MONEY_MAX_CUBE
        needs = self.me if who == "me" else self.them
        return needs > self.cube

    def dead(self, p: np.ndarray, cube: int | None = None) -> np.ndarray:
        """Cubeless value of chances p (n, 5) (win, win g, win bg, lose g, lose bg) at `cube`."""
        c = self.cube if cube is None else cube
        v = [self.value(k * c) for k in (1, 2, 3)]
        w = [self.value(-k * c) for k in (1, 2, 3)]
        win, wg, wbg, lg, lbg = (p[:, i] for i in range(5))
        return (
            (win - wg) * v[0]
            + (wg - wbg) * v[1]
            + wbg * v[2]
            + (1.0 - win - lg) * w[0]
            + (lg - lbg) * w[1]
            + lbg * w[2]
        )


def _ratios(p: np.ndarray) -> tuple[np.ndarray, ...]:
    """Gammon and backgammon shares of wins and of losses (n,) each."""
    win = p[:, 0]
    lose = 1.0 - win
    with np.errstate(divide="ignore", invalid="ignore"):
        g0 = np.where(win > 0, (p[:, 1] - p[:, 2]) / win, 0.0)
        b0 = np.where(win > 0, p[:, 2] / win, 0.0)
        g1 = np.where(lose > 0, (p[:, 3] - p[:, 4]) / lose, 0.0)
        b1 = np.where(lose > 0, p[:, 4] / lose, 0.0)
    return g0, b0, g1, b1


def _weighted(s: Stakes, ratios: tuple[np.ndarray, ...], cube: int) -> tuple[np.ndarray, ...]:
    """My value given that I win, and given that I lose, at `cube`, by the gammon shares."""
    g0, b0, g1, b1 = ratios
    win = (1 - g0 - b0) * s.value(cube) + g0 * s.value(2 * cube) + b0 * s.value(3 * cube)
    lose = (1 - g1 - b1) * s.value(-cube) + g1 * s.value(-2 * cube) + b1 * s.value(-3 * cube)
    return win, lose


def cash_point(s: Stakes, ratios: tuple[np.ndarray, ...], cube: int) -> np.ndarray:
    """My winning chance at which the opponent, doubled by me from `cube`, is indifferent
    between taking and passing: above it I cash. Live (he may redouble) while his redouble
    is worth something, found from his own cash point one cube higher."""
    g0, b0, g1, b1 = ratios
    win2, lose2 = _weighted(s, ratios, 2 * cube)
    cash = s.value(cube)
    them = s.turned()
    redouble = (
        cube * 2 < MONEY_MAX_CUBE if s.money else them.me > 2 * cube
    )  # his redouble from 2 cube is alive
    with np.errstate(divide="ignore", invalid="ignore"):
        if redouble:
            # Once he may redouble, below q (my chance where he cashes 2 cube) I lose 2 cube.
            q = 1.0 - cash_point(them, (g1, b1, g0, b0), 2 * cube)
            low = s.value(-2 * cube)
            point = q + (1.0 - q) * (cash - low) / (win2 - low)
        else:
            point = (cash - lose2) / (win2 - lose2)
    return np.clip(np.nan_to_num(point, nan=1.0, posinf=1.0, neginf=0.0), 0.0, 1.0)


def efficiency(arrays: np.ndarray, race: np.ndarray) -> np.ndarray:
    """Cube efficiency (n,) of positions in array form (the player on roll's side)."""
    a, b, low, high = RACE_EFFICIENCY
    weights = np.arange(26)
    pips = (np.maximum(arrays, 0) * weights).sum(axis=1)
    return np.where(race, np.clip(pips * a + b, low, high), CONTACT_EFFICIENCY)


def cubeful(s: Stakes, p: np.ndarray, x: np.ndarray | float = CONTACT_EFFICIENCY) -> np.ndarray:
    """My value (n,) with chances p (n, 5), my side, me on roll before my roll, at the stakes
    `s`; the cubeless value when the cube is not in use. `x`: cube efficiency (n,) or one."""
    dead = s.dead(p)
    if not s.cube_live:
        return dead
    ratios = _ratios(p)
    win, lose = _weighted(s, ratios, s.cube)
    chance = p[:, 0]
    n = len(p)
    xs: list[np.ndarray] = [np.zeros(n)]
    ys: list[np.ndarray] = [lose]
    if s.can_double("them"):
        g0, b0, g1, b1 = ratios
        xs.append(1.0 - cash_point(s.turned(), (g1, b1, g0, b0), s.cube))
        ys.append(np.full(n, s.value(-s.cube)))
    if s.can_double("me"):
        xs.append(cash_point(s, ratios, s.cube))
        ys.append(np.full(n, s.value(s.cube)))
    xs.append(np.ones(n))
    ys.append(win)
    px, py = np.stack(xs, axis=1), np.stack(ys, axis=1)
    # Keep the corners in order (a cash point beyond the other's is a window of zero width).
    px = np.maximum.accumulate(px, axis=1)
    live = _interp(chance, px, py)
    return (1.0 - x) * dead + x * live


def _interp(t: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """Row-wise piecewise linear interpolation of t (n,) on corners px, py (n, k)."""
    out = py[:, -1].copy()
    for k in range(px.shape[1] - 2, -1, -1):
        x0, x1, y0, y1 = px[:, k], px[:, k + 1], py[:, k], py[:, k + 1]
        inside = t <= x1
        width = np.where(x1 > x0, x1 - x0, 1.0)
        seg = y0 + (y1 - y0) * np.clip((t - x0) / width, 0.0, 1.0)
        seg = np.where(x1 > x0, seg, y1)
        out = np.where(inside, seg, out)
    return out
