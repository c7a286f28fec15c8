"""The Swiss system: standings, and pairing a round so nobody meets the same opponent twice.

Points: a win is 1, a bye is 1 (a win without a match), a loss 0. Standings rank by points,
then Buchholz (the sum of the points of the opponents a player met; a bye adds nothing), then
the sum of those opponents' Buchholz, then the seeding rating, then the seed.

Pairing a round (`pair`), among the players still in, in standings order:

1. The bye, when the count is odd: to the lowest-ranked player who has not had one and
   without whom the others can still all be paired without a repeat (at most one bye each).
2. Score groups top down, like the Dutch system: a bracket is a score group with the players
   who floated down into it from above. Within it the top half meets the bottom half (1 v 5,
   2 v 6, ... of 8), a player who floated down meets the highest of the group. A bracket
   floats as few players as it can to the one below (one when its count is odd, more only
   when its players met before), the lowest-ranked first.
3. Completeness: before any pair is taken, the players it leaves must still have a pairing
   with no repeat (a perfect matching of the "have not met" graph, kept up to date per pair
   by a swap of partners or else an augmenting-path search of Edmonds' blossom algorithm),
   and a player floated stays in that matching for the brackets below. So the search never
   runs into a dead end across brackets and always finds a pairing when one exists. Within a
   bracket that cannot keep to its fewest floats it backtracks, then floats two more; the
   round's backtracking is bounded (`NODE_LIMIT`), past it the brackets left float whom they
   cannot pair at once. Everything is in a fixed order: the same standings and history give
   the same pairs.
4. The fewest points between paired players: when the brackets' pairing spans more points
   (the sum of the score differences of its pairs) than pairing by score alone would, a
   search over the whole round (bounded by CHEAPEST_WORK) looks for a cheaper one
   in the same order of preference, and takes the cheapest it finds. Up to that bound no
   pairing without a repeat has a smaller spread.

When no pairing without a repeat exists (it can happen late in a small field: 6 players who
met as the two sides of a K3,3 in three rounds cannot play a fourth), `pair` raises NoPairing
and the tournament ends after the rounds played (decide.advance finishes it with reason
"no_pairing"). More rounds than the field can ever play (rounds > players - 1) are refused
when the tournament is created (settings.py).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .events import Pair, RoundPaired
from .state import TournamentState

NODE_LIMIT = 2000
"""How many choices the brackets' search of a round may try beyond two per player before the
brackets left float all the players they cannot pair at the first try: it bounds the time on
pathological histories (a small field deep into its rounds) and never costs a valid pairing
(floating is always possible, the completeness check holds for the rest)."""


CHEAPEST_WORK = 50_000
"""The bound of the search for a pairing cheaper than the brackets' (step 4), in choices times
players (a choice costs about as much as there are players): a small field is searched to the
end (5,000 choices for 10 players), a large one gives up within a fraction of a second."""


class NoPairing(Exception):
    """No pairing of the round without a repeat (or a second bye) exists."""


@dataclass(frozen=True, slots=True)
class Standing:
    user_id: int
    points: int
    buchholz: int
    opponents_buchholz: int
    rating: float
    seed: int  # 1 for the top seed

    @property
    def key(self) -> tuple[int, int, int, float, int]:
        return (-self.points, -self.buchholz, -self.opponents_buchholz, -self.rating, self.seed)


@dataclass(frozen=True, slots=True)
class History:
    """What pairing needs from the matches decided: points, who met whom, who had a bye."""

    points: dict[int, int]
    opponents: dict[int, tuple[int, ...]]
    byes: frozenset[int]


def history(state: TournamentState) -> History:
    points = dict.fromkeys(state.players, 0)
    opponents: dict[int, list[int]] = {p: [] for p in state.players}
    byes = set()
    for played in state.rounds:
        for board in played.boards:
            a, b = board.players
            if not board.decided:  # a match still on counts for nothing yet
                continue
            if board.is_bye and a is not None:
                byes.add(a)
            elif a is not None and b is not None:
                opponents[a].append(b)
                opponents[b].append(a)
            if board.winner is not None:
                points[board.winner] += 1
    return History(points, {p: tuple(o) for p, o in opponents.items()}, frozenset(byes))


def standings(state: TournamentState) -> list[Standing]:
    """Every player of the field (withdrawn ones too), first place first."""
    past = history(state)
    buchholz = {p: sum(past.points[o] for o in past.opponents[p]) for p in state.players}
    ratings = state.ratings
    rows = [
        Standing(
            user_id=p,
            points=past.points[p],
            buchholz=buchholz[p],
            opponents_buchholz=sum(buchholz[o] for o in past.opponents[p]),
            rating=ratings[p],
            seed=seed,
        )
        for seed, p in enumerate(state.players, start=1)
    ]
    return sorted(rows, key=lambda s: s.key)


def pair_round(state: TournamentState) -> RoundPaired:
    """The next round's boards: the pairs in standings order of their higher-ranked player,
    the bye last. Raises NoPairing."""
    assert state.settings is not None
    past = history(state)
    active = set(state.active)
    ranked = [s.user_id for s in standings(state) if s.user_id in active]
    pairs, bye = pair(ranked, past.points, past.opponents, past.byes)
    boards: list[Pair] = [(a, b) for a, b in pairs]
    if bye is not None:
        boards.append((bye, None))
    number = len(state.rounds) + 1
    return RoundPaired(number, tuple(boards), state.settings.length_of(number, state.total_rounds))


def pair(
    ranked: Sequence[int],
    points: Mapping[int, int],
    opponents: Mapping[int, Iterable[int]],
    byes: Iterable[int] = (),
) -> tuple[list[tuple[int, int]], int | None]:
    """Pair `ranked` (best first): the pairs (higher-ranked first, in rank order) and the bye
    (None when the count is even). Raises NoPairing when no pairing without a repeat exists."""
    if len(ranked) < 2:
        raise NoPairing("fewer than two players to pair")
    # The searches go one call deeper per choice: up to one per player of a bracket.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 2 * len(ranked) + 1000))
    try:
        return _pair(ranked, points, opponents, byes)
    finally:
        sys.setrecursionlimit(limit)


def _pair(
    ranked: Sequence[int],
    points: Mapping[int, int],
    opponents: Mapping[int, Iterable[int]],
    byes: Iterable[int],
) -> tuple[list[tuple[int, int]], int | None]:
    index = {p: i for i, p in enumerate(ranked)}
    met = [{index[o] for o in opponents.get(p, ()) if o in index} for p in ranked]
    scores = [points.get(p, 0) for p in ranked]
    had_bye = set(byes)
    n = len(ranked)
    alive = [True] * n
    matching = _Matching(met, alive)
    bye = None
    if n % 2:
        for i in reversed(range(n)):
            if ranked[i] in had_bye:
                continue
            alive[i] = False
            if matching.perfect():
                bye = i
                break
            alive[i] = True
        if bye is None:
            raise NoPairing("no player who has not had a bye leaves a pairing without a repeat")
    elif not matching.perfect():
        raise NoPairing("every pairing of the round repeats a pair")
    players = [i for i in range(n) if alive[i]]
    pairs = _Brackets(scores, met, alive, matching).pair()
    spread = sum(scores[a] - scores[b] for a, b in pairs)
    least = _least_spread(scores, players)
    nodes = max(1, CHEAPEST_WORK // len(players))
    for budget in range(least, spread):  # cheapest first; usually the brackets' is
        search = _Cheapest(scores, met, players, budget, nodes)
        cheaper = search.search()
        if cheaper is not None:
            pairs = cheaper
            break
        nodes -= search.nodes
        if nodes <= 0:
            break
    pairs.sort()
    return [(ranked[a], ranked[b]) for a, b in pairs], None if bye is None else ranked[bye]


class _Matching:
    """A perfect matching of the players still to pair (`alive`) in the graph of the pairs who
    have not met, kept perfect as pairs are taken: the proof that the rest can be paired."""

    def __init__(self, met: list[set[int]], alive: list[bool]) -> None:
        self.met = met
        self.alive = alive
        self.mate = [-1] * len(met)

    def allowed(self, a: int, b: int) -> bool:
        return a != b and b not in self.met[a]

    def perfect(self) -> bool:
        """Rebuild a perfect matching of the alive players: whether one exists."""
        n = len(self.mate)
        self.mate = [-1] * n
        for a in range(n):
            if not self.alive[a] or self.mate[a] != -1:
                continue
            for b in range(a + 1, n):
                if self.alive[b] and self.mate[b] == -1 and self.allowed(a, b):
                    self.mate[a], self.mate[b] = b, a
                    break
        for a in range(n):
            if self.alive[a] and self.mate[a] == -1 and not self._augment(a):
                return False
        return True

    def take(self, a: int, b: int) -> list[int] | None:
        """Pair a and b for good if the others can still all be paired: the matching before
        (to undo with `restore`), or None (and nothing changed) when they cannot."""
        before = list(self.mate)
        self.alive[a] = self.alive[b] = False
        if self.mate[a] == b:
            self.mate[a] = self.mate[b] = -1
            return before
        u, v = self.mate[a], self.mate[b]
        self.mate[a] = self.mate[b] = self.mate[u] = self.mate[v] = -1
        if self.allowed(u, v):
            self.mate[u], self.mate[v] = v, u
            return before
        if self._swap(u, v) or self._augment(u, v):
            return before
        self.restore(before, a, b)
        return None

    def _swap(self, u: int, v: int) -> bool:
        """The short way round for the free u and v (who met): u takes some w whose partner
        w' has not met v, w' takes v. In a field where most have not met this is the path
        the blossom search would find, without growing a tree over the whole field."""
        mate, alive = self.mate, self.alive
        for w in range(len(mate)):
            other = mate[w]
            if alive[w] and other != -1 and self.allowed(u, w) and self.allowed(other, v):
                mate[u], mate[w] = w, u
                mate[other], mate[v] = v, other
                return True
        return False

    def restore(self, before: list[int], a: int, b: int) -> None:
        self.mate = before
        self.alive[a] = self.alive[b] = True

    def _augment(self, root: int, target: int = -1) -> bool:
        """Edmonds' search for an augmenting path from the free `root`, shrinking blossoms;
        applies it when found. `target`: the one other free player, when known: each player
        reached tries him first, which in a field where most have not met finds the path at
        once instead of after shrinking blossoms all over the field."""
        n = len(self.mate)
        mate, alive = self.mate, self.alive
        parent = [-1] * n
        base = list(range(n))
        used = [False] * n
        used[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            first = [target] if target >= 0 and parent[target] == -1 else []
            for to in itertools.chain(first, range(n)):
                if not alive[to] or to == v or to in self.met[v]:
                    continue
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    top = self._lca(v, to, base, parent, root)
                    blossom = [False] * n
                    self._mark(v, top, to, base, parent, blossom)
                    self._mark(to, top, v, base, parent, blossom)
                    for i in range(n):
                        if alive[i] and blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        while to != -1:  # flip the path back to the root
                            pv = parent[to]
                            nxt = mate[pv]
                            mate[to], mate[pv] = pv, to
                            to = nxt
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def _lca(self, a: int, b: int, base: list[int], parent: list[int], root: int) -> int:
        seen = set()
        while True:
            a = base[a]
            seen.add(a)
            if a == root or self.mate[a] == -1:
                break
            a = parent[self.mate[a]]
        while True:
            b = base[b]
            if b in seen:
                return b
            b = parent[self.mate[b]]

    def _mark(
        self, v: int, top: int, child: int, base: list[int], parent: list[int], blossom: list[bool]
    ) -> None:
        while base[v] != top:
            blossom[base[v]] = blossom[base[self.mate[v]]] = True
            parent[v] = child
            child = self.mate[v]
            v = parent[self.mate[v]]


class _Brackets:
    """Score groups top down, each bracket paired as described in the module's docstring."""

    def __init__(
        self, scores: list[int], met: list[set[int]], alive: list[bool], matching: _Matching
    ) -> None:
        self.scores = scores
        self.met = met
        self.matching = matching
        self.nodes = 0
        self.limit = 2 * len(scores) + NODE_LIMIT
        self.groups: list[list[int]] = []
        for i in range(len(scores)):  # ranked: scores never rise down the list
            if not alive[i]:
                continue
            if self.groups and scores[self.groups[-1][0]] == scores[i]:
                self.groups[-1].append(i)
            else:
                self.groups.append([i])

    def pair(self) -> list[tuple[int, int]]:
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        for k, group in enumerate(self.groups):
            bracket = floaters + group
            last = k == len(self.groups) - 1
            floats = len(bracket) % 2
            while True:
                if self.nodes > self.limit and not last:
                    floats = len(bracket)  # out of time: no more backtracking
                found = self._bracket(bracket, 0 if last else floats, bounded=not last)
                if found is not None:
                    break
                assert not last, "the last bracket always pairs: the matching proves it"
                floats += 2
            taken, floaters = found
            pairs.extend(taken)
        assert not floaters
        return pairs

    def _bracket(
        self, bracket: list[int], floats: int, bounded: bool
    ) -> tuple[list[tuple[int, int]], list[int]] | None:
        """Pairs within the bracket floating at most `floats` players, or None (`bounded`:
        give up past the round's limit; the last bracket never runs into a dead end)."""
        if floats >= len(bracket):
            floats = len(bracket)
        taken: list[tuple[int, int]] = []
        floated: list[int] = []
        left = list(bracket)

        def search() -> bool:
            if not left:
                return True
            self.nodes += 1
            if bounded and self.nodes > self.limit and floats < len(bracket):
                return False
            x = left.pop(0)
            for y in self._candidates(x, left):
                if y in self.met[x]:
                    continue
                before = self.matching.take(x, y)
                if before is None:
                    continue
                at = left.index(y)
                left.pop(at)
                taken.append((x, y))
                if search():
                    return True
                taken.pop()
                left.insert(at, y)
                self.matching.restore(before, x, y)
            if len(floated) < floats:
                floated.append(x)
                if search():
                    return True
                floated.pop()
            left.insert(0, x)
            return False

        if not search():
            return None
        return taken, floated

    def _candidates(self, x: int, left: list[int]) -> list[int]:
        return _preference(x, left, self.scores)


def _preference(x: int, left: list[int], scores: Sequence[int]) -> list[int]:
    """x's partners in the order to try (x ranks above all of `left`): his own score group
    top half against bottom half, then the players below his score, highest first."""
    same = [y for y in left if scores[y] == scores[x]]
    middle = max(0, (len(same) + 1) // 2 - 1)
    below = [y for y in left if scores[y] < scores[x]]
    return same[middle:] + same[:middle][::-1] + below


def _least_spread(scores: Sequence[int], players: Iterable[int]) -> int:
    """A floor under the points between paired players: pairing the players in score order
    (1-2, 3-4, ...) ignoring who met, which crosses the gap between two scores once for each
    score group boundary with an odd number of players above it."""
    counts: dict[int, int] = {}
    for p in players:
        counts[scores[p]] = counts.get(scores[p], 0) + 1
    return _spread_of_counts(counts)


def _spread_of_counts(counts: Mapping[int, int]) -> int:
    levels = sorted((score for score, count in counts.items() if count), reverse=True)
    above = 0
    total = 0
    for high, low in itertools.pairwise(levels):
        above += counts[high]
        if above % 2:
            total += high - low
    return total


class _Cheapest:
    """A pairing with at most `budget` points between its pairs, searched top down in the
    same order of preference as the brackets (so among the cheapest the Dutch one comes
    first), or None. Bounded by `limit` choices: past it, the brackets' pairing stands."""

    def __init__(
        self,
        scores: list[int],
        met: list[set[int]],
        players: list[int],
        budget: int,
        limit: int,
    ) -> None:
        self.scores = scores
        self.limit = limit
        self.met = met
        self.budget = budget
        self.left = list(players)
        alive = [False] * len(scores)
        for p in players:
            alive[p] = True
        self.matching = _Matching(met, alive)
        self.nodes = 0
        self.counts: dict[int, int] = {}
        for p in players:
            self.counts[scores[p]] = self.counts.get(scores[p], 0) + 1

    def search(self) -> list[tuple[int, int]] | None:
        if not self.matching.perfect():  # pragma: no cover - the caller found one
            return None
        taken: list[tuple[int, int]] = []
        return taken if self._extend(taken, 0) else None

    def _extend(self, taken: list[tuple[int, int]], spent: int) -> bool:
        if not self.left:
            return True
        self.nodes += 1
        if self.nodes > self.limit:
            return False
        left = self.left
        x = left.pop(0)
        for y in _preference(x, left, self.scores):
            cost = spent + self.scores[x] - self.scores[y]
            if y in self.met[x] or cost > self.budget:
                continue
            at = left.index(y)
            left.pop(at)
            self.counts[self.scores[x]] -= 1
            self.counts[self.scores[y]] -= 1
            if cost + _spread_of_counts(self.counts) <= self.budget:
                before = self.matching.take(x, y)
                if before is not None:
                    taken.append((x, y))
                    if self._extend(taken, cost):
                        return True
                    taken.pop()
                    self.matching.restore(before, x, y)
            self.counts[self.scores[x]] += 1
            self.counts[self.scores[y]] += 1
            left.insert(at, y)
        left.insert(0, x)
        return False
