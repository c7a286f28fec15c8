"""Post-game analysis: every decision of a match judged by the game's own network.

For each decision in order (each roll's checker play, each double, take and drop) the value
of the play made and of the best play, the error (the equity lost, >= 0, in normalised match
equity, EMG, as GNU Backgammon gives it; cubeful where the cube is in use), its mark (gnubg's
thresholds), the best play in notation and the luck of the roll (the value the roll gave
against the average of the 36). Per player: unforced decisions, error rate (mEMG), PR, the
marks, luck and the luck-adjusted result. docs/analysis.md says what each figure means.

- `analyse_match(settings, actions, names)`: a replayed match of either game (the service's
  matches; long nardy has no .mat file);
- `analyse_mat(text)`: a gnubg `.mat` file (tavla);
- `Analysis.to_json()`: the document `python -m games.bots analyse` prints;
- `hints(state)`: the legal plays of the player on turn ranked by equity (the hint).

The values come from games/bots/analysis_eval.py (the network, 0 or 1 ply) and
games/bots/analysis_equity.py (the match equity table and the cube).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from games.rules import (
    Action,
    Double,
    Drop,
    MatchSettings,
    MatchState,
    Move,
    Phase,
    Take,
    apply,
    apply_steps,
    board_array,
    format_play,
    mat_actions,
    parse_mat,
)

from .analysis_equity import Stakes
from .analysis_eval import OPENING_WEIGHTS, WEIGHTS, Judge

DEFAULT_PLIES = 1
"""The lookahead the service uses: docs/analysis.md says why."""
HINT_PLIES = 0
"""The hints' lookahead: the network alone, fast enough to ask at every turn."""

MARKS: tuple[tuple[float, str], ...] = ((0.16, "very bad"), (0.08, "bad"), (0.04, "doubtful"))
"""gnubg's arSkillLevel: an error of at least this much EMG gets the mark."""


def mark(error: float) -> str | None:
    """The mark of an error in EMG: "very bad", "bad", "doubtful" or None."""
    for threshold, name in MARKS:
        if error >= threshold:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: `equity` of the choice made and `best_equity` in EMG for the player
    (None for a checker play that was forced and for cube decisions' luck); `luck_value`
    is the luck in the match's own unit (MWC, or points), for the luck-adjusted result."""

    player: int
    action: str  # "move", "double", "take", "drop"
    dice: tuple[int, int] | None
    played: str | None
    best: str | None
    error: float
    luck: float | None
    forced: bool
    equity: float | None = None
    best_equity: float | None = None
    luck_value: float = 0.0
    board: tuple[int, ...] = ()  # the mover's array form before the decision

    @property
    def mark(self) -> str | None:
        return mark(self.error)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "action": self.action,
            "dice": list(self.dice) if self.dice else None,
            "played": self.played,
            "best": self.best,
            "error": round(self.error, 6),
            "mark": self.mark,
            "luck": None if self.luck is None else round(self.luck, 6),
        }


@dataclass
class PlayerSummary:
    """One player's figures over the match."""

    name: str
    decisions: list[Decision] = field(default_factory=list)
    result: float = 0.0  # match: MWC at the end - at the start; money / long nardy: points

    @property
    def unforced(self) -> int:
        return sum(1 for d in self.decisions if not d.forced)

    @property
    def total_error(self) -> float:
        return sum(d.error for d in self.decisions)

    @property
    def error_rate(self) -> float:
        """1000 x total error / unforced decisions (mEMG per decision, gnubg's)."""
        return 1000.0 * self.total_error / self.unforced if self.unforced else 0.0

    @property
    def pr(self) -> float:
        """500 x total error / unforced decisions (eXtreme Gammon's Performance Rating)."""
        return self.error_rate / 2.0

    @property
    def checker_unforced(self) -> int:
        return sum(1 for d in self.decisions if d.action == "move" and not d.forced)

    @property
    def checker_error_rate(self) -> float:
        """The error rate of the checker plays alone (gnubg's chequerplay figure)."""
        n = self.checker_unforced
        total = sum(d.error for d in self.decisions if d.action == "move")
        return 1000.0 * total / n if n else 0.0

    @property
    def luck(self) -> float:
        return sum(d.luck for d in self.decisions if d.luck is not None)

    @property
    def luck_value(self) -> float:
        return sum(d.luck_value for d in self.decisions)

    def marks(self) -> dict[str, int]:
        counts = {name: 0 for _, name in MARKS}
        for d in self.decisions:
            if d.mark:
                counts[d.mark] += 1
        return counts


@dataclass
class Analysis:
    """A match's analysis: its games' decisions in order, and the two players' figures."""

    games: list[list[Decision]]
    players: tuple[PlayerSummary, PlayerSummary]

    def luck_adjusted(self, seat: int) -> float:
        """The result less the luck of both sides (gnubg's luck-adjusted result)."""
        me, them = self.players[seat], self.players[1 - seat]
        return me.result - (me.luck_value - them.luck_value)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": [{"decisions": [d.to_json() for d in game]} for game in self.games],
            "players": [
                {
                    "name": p.name,
                    "unforced": p.unforced,
                    "error_rate": round(p.error_rate, 3),
                    "pr": round(p.pr, 3),
                    "luck": round(p.luck, 6),
                    "checker_unforced": p.checker_unforced,
                    "checker_error_rate": round(p.checker_error_rate, 3),
                    "marks": p.marks(),
                    "result": round(p.result, 6),
                    "luck_adjusted": round(self.luck_adjusted(seat), 6),
                }
                for seat, p in enumerate(self.players)
            ],
        }


def stakes_for(state: MatchState, seat: int) -> Stakes:
    """The stakes of the game in progress from `seat`'s side (long nardy: points, no cube)."""
    s = state.settings
    owner = None if state.cube_owner is None else ("me" if state.cube_owner == seat else "them")
    length = s.length if state.game.has_cube else 0  # long nardy: points per game
    live = bool(s.cube and state.game.has_cube and not state.crawford_game)
    return Stakes(
        length=length,
        me=max(s.length - state.score[seat], 1) if length else 0,
        them=max(s.length - state.score[1 - seat], 1) if length else 0,
        cube=state.cube,
        owner=owner,
        cube_live=live,
        # A game's result is read after the Crawford game, once it is this one or past.
        post_crawford=(not s.crawford) or state.crawford_game or state.crawford_done,
    )


class Analyser:
    """Replays a match and judges each decision as it comes."""

    def __init__(self, settings: MatchSettings, plies: int = DEFAULT_PLIES) -> None:
        self.settings = settings
        self.judge = Judge(settings.rules, plies)

    def analyse(self, actions: list[Action], names: tuple[str, str]) -> Analysis:
        state = MatchState.new(self.settings, check=False)
        games: list[list[Decision]] = []
        players = (PlayerSummary(names[0]), PlayerSummary(names[1]))
        start = [self._standing(state, seat) for seat in (0, 1)]
        cube_values: tuple[float, float, float] | None = None
        first_move = True
        for action in actions:
            decision: Decision | None = None
            if isinstance(action, Move) and state.phase == Phase.PLAY:
                decision = self.move(state, action, opening=first_move)
                first_move = False
            elif isinstance(action, Double) and state.phase == Phase.ROLL:
                cube_values = self.cube_values(state, action.player)
                decision = self.double(action.player, cube_values)
            elif isinstance(action, Take | Drop) and state.phase == Phase.DOUBLED:
                values = cube_values or self.cube_values(state, 1 - action.player)
                decision = self.answer(action, values)
            if decision is not None:
                while len(games) < state.game_number:
                    games.append([])
                games[state.game_number - 1].append(decision)
                players[decision.player].decisions.append(decision)
            before = state.game_number
            state = apply(state, action, check=False)
            if state.game_number != before or state.is_over:
                first_move = True
        while len(games) < len(state.games):
            games.append([])  # a game resigned before anyone decided anything
        for seat in (0, 1):
            players[seat].result = self._standing(state, seat) - start[seat]
        return Analysis(games, players)

    def _standing(self, state: MatchState, seat: int) -> float:
        """Match: the MWC at the score (0 or 1 once over); otherwise the points won so far."""
        s = state.settings
        if s.length and state.game.has_cube:
            if state.is_over:
                return 1.0 if state.winner == seat else 0.0
            return stakes_for(state, seat).value(0)
        return float(sum(g.points if g.winner == seat else -g.points for g in state.games))

    # -- checker plays ---------------------------------------------------------------------

    def move(self, state: MatchState, action: Move, opening: bool) -> Decision:
        seat = action.player
        dice = state.dice
        assert dice is not None
        view = state.position_for(seat)
        board = board_array(view)
        first_turn = state.first_turn[seat]
        stakes = stakes_for(state, seat)
        plays = state.legal_plays()
        rolls = self.judge.roll_values(board, stakes, first_turn)
        weights = OPENING_WEIGHTS if opening and self.settings.rules.plays_opening_dice else WEIGHTS
        average = float(rolls @ weights)
        roll = _roll_index(dice.high, dice.low)
        dice_pair = (dice.high, dice.low)
        if not plays:
            luck_value = float(rolls[roll]) - average
            return Decision(
                seat,
                "move",
                dice_pair,
                None,
                None,
                0.0,
                float(stakes.emg_scale() * luck_value),
                True,
                luck_value=luck_value,
                board=tuple(board),
            )
        played = apply_steps(view, action.steps)
        index = next(i for i, p in enumerate(plays) if p.result == played)
        results = np.array([board_array(p.result) for p in plays], dtype=np.int64)
        best, best_value, value = self.judge.judge_play(
            results, stakes, index, reply_first_turn=state.first_turn[1 - seat]
        )
        scale = stakes.emg_scale()
        error = max(0.0, (best_value - value) * scale) if best != index else 0.0
        # The luck: the roll's best against the average of every roll's best, at 0 ply.
        luck_value = float(rolls[roll]) - average
        return Decision(
            seat,
            "move",
            dice_pair,
            format_play(action.steps),
            plays[best].notation,
            error,
            float(scale * luck_value),
            len(plays) == 1,
            equity=float(stakes.emg(value)),
            best_equity=float(stakes.emg(best_value)),
            luck_value=luck_value,
            board=tuple(board),
        )

    # -- the cube --------------------------------------------------------------------------

    def cube_values(self, state: MatchState, doubler: int) -> tuple[float, float, float]:
        """(no double, double take, double pass) in EMG at the current cube, the doubler's
        side: before his roll, the average over the rolls of his best play's value."""
        board = board_array(state.position_for(doubler))
        now = stakes_for(state, doubler)
        doubled = replace(now, cube=2 * now.cube, owner="them")
        arrays = np.array([board], dtype=np.int64)
        first = state.first_turn[doubler]
        nd = float(self.judge.before_roll_many(arrays, now, first)[0])
        dt = float(self.judge.before_roll_many(arrays, doubled, first)[0])
        dp = now.value(now.cube)
        return (
            float(now.emg(nd)),
            float(now.emg(dt)),
            float(now.emg(dp)),
        )

    def double(self, seat: int, values: tuple[float, float, float]) -> Decision:
        nd, dt, dp = values
        doubled = min(dt, dp)
        right = "double" if doubled > nd else "no double"
        error = max(0.0, max(nd, doubled) - doubled)
        return Decision(
            seat, "double", None, None, right, error, None, False, doubled, max(nd, doubled)
        )

    def answer(self, action: Take | Drop, values: tuple[float, float, float]) -> Decision:
        _, dt, dp = values  # the doubler's side: the taker wants the smaller
        right = "take" if dt <= dp else "drop"
        chosen = dt if isinstance(action, Take) else dp
        error = max(0.0, chosen - min(dt, dp))
        kind = "take" if isinstance(action, Take) else "drop"
        return Decision(
            action.player, kind, None, None, right, error, None, False, -chosen, -min(dt, dp)
        )


@dataclass(frozen=True, slots=True)
class Hint:
    """One legal play ranked by the analysis: its equity (EMG) and error against the best."""

    play: str
    equity: float
    error: float

    def to_json(self) -> dict[str, Any]:
        return {"play": self.play, "equity": round(self.equity, 6), "error": round(self.error, 6)}


def hints(state: MatchState, count: int = 5, plies: int = HINT_PLIES) -> list[Hint]:
    """The `count` best legal plays of the player on turn with his dice out, best first
    ([] when there are no dice out or no legal play): the network's `count` best, valued
    (and ranked) by the analysis's standard at `plies`."""
    if state.phase != Phase.PLAY or state.turn is None or state.dice is None:
        return []
    seat = state.turn
    plays = state.legal_plays()
    if not plays:
        return []
    stakes = stakes_for(state, seat)
    results = np.array([board_array(p.result) for p in plays], dtype=np.int64)
    judge = Judge(state.game, plies)
    top = np.argsort(-judge.after_play0(results, stakes), kind="stable")[:count]
    values = judge.after_play(results[top], stakes, reply_first_turn=state.first_turn[1 - seat])
    equities = np.asarray(stakes.emg(values))
    order = np.argsort(-equities, kind="stable")
    best = float(equities[order[0]])
    return [
        Hint(plays[top[i]].notation, float(equities[i]), max(0.0, best - float(equities[i])))
        for i in order
    ]


def _roll_index(high: int, low: int) -> int:
    return high * (high - 1) // 2 + low - 1


def analyse_match(
    settings: MatchSettings,
    actions: list[Action],
    names: tuple[str, str] = ("Player 1", "Player 2"),
    plies: int = DEFAULT_PLIES,
) -> Analysis:
    """The analysis of a match replayed from its actions (either game)."""
    return Analyser(settings, plies).analyse(actions, names)


def analyse_mat(text: str, plies: int = DEFAULT_PLIES) -> Analysis:
    """The analysis of a gnubg .mat file (InvalidMatchFile when it cannot be read)."""
    mat = parse_mat(text)
    settings, actions = mat_actions(mat)
    return analyse_match(settings, actions, mat.names, plies)
