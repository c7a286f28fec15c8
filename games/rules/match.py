"""The match as a state machine: a store drives it by applying actions one at a time.

`MatchState` is immutable; `apply(state, action)` checks the action against the rules and
returns the next state, raising a RulesError subclass when it is not allowed. Replay of actions
that were checked when they were recorded uses `apply(..., check=False)`, which trusts them.

Players are 0 and 1. The board is kept from player 0's side; `position_for(p)` turns it.
One machine for both games (the setting `game`): what differs is asked of the `Game`
(game.py): the starting position, the legal plays, whether the opening dice are played
(tavla) or the opening roll only picks who rolls first (long nardy), the cube, what a win
and a resignation are worth, who starts the next game by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import assert_never

from .board import Play, Step, apply_steps
from .dice import Dice
from .errors import (
    IllegalAction,
    InvalidId,
    InvalidSettings,
    NoCube,
    NotYourTurn,
    RulesError,
)
from .games import GAMES, TAVLA, find_game
from .gnubgid import GameState, MatchId, match_id, position_id
from .position import Position
from .scoring import GameKind, game_points, has_won
from .validate import resolve_play
from .variant import Game, Variant

MAX_CUBE = 64
"""The doubling cube's highest value."""
MAX_MATCH_LENGTH = 25
"""The longest match (points to win) the rules accept; 0 is money play."""
MAX_LENGTH = MAX_MATCH_LENGTH  # the old name, for code not yet on the games.rules facade


class Phase(StrEnum):
    OPENING = "opening"  # the opening roll decides who starts
    ROLL = "roll"  # the player on turn may double, resign or roll
    PLAY = "play"  # dice are out: the player on turn must play (or resign)
    DOUBLED = "doubled"  # the opponent of the player on turn must take or drop
    RESIGNING = "resigning"  # the opponent of the player on turn must accept or reject
    OVER = "over"  # the match is over


class Starter(StrEnum):
    OPENING_ROLL = "opening_roll"  # every game starts with an opening roll (the site)
    WINNER = "winner"  # the previous game's winner rolls first (some clubs)


class EndedBy(StrEnum):
    BEAROFF = "bearoff"
    DROP = "drop"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    FORFEIT = "forfeit"
    ABORT = "abort"


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """What a match is played to and with. length 0 is money play.

    `game`: "tavla" (the default) or "long-nardy". `next_game_starter` left out (None) is
    the game's default, filled in at construction: an opening roll for every tavla game, the
    previous winner in long nardy. Long nardy has no cube, Jacoby rule or backgammons (the
    Crawford rule and `backgammon_value` mean nothing there).
    """

    length: int = 0
    cube: bool = False
    crawford: bool = True
    jacoby: bool = False
    backgammon_value: int = 3
    next_game_starter: Starter | None = None
    game: Variant = Variant.TAVLA

    def __post_init__(self) -> None:
        if self.game in tuple(Variant) and not isinstance(self.game, Variant):
            object.__setattr__(self, "game", Variant(self.game))
        if self.next_game_starter is None:
            winner = self.game in tuple(Variant) and find_game(self.game).winner_starts_next_game
            object.__setattr__(
                self, "next_game_starter", Starter.WINNER if winner else Starter.OPENING_ROLL
            )

    @property
    def rules(self) -> Game:
        """The game's rules (games.GAMES: TAVLA or LONG_NARDY; `check` refuses another)."""
        return GAMES.get(self.game, TAVLA)

    def check(self) -> None:
        """Raise InvalidSettings (naming the field) unless these settings are allowed."""
        game = find_game(self.game)  # InvalidSettings("game", ...) for an unknown game
        if self.next_game_starter not in tuple(Starter):
            raise InvalidSettings.because("next_game_starter", "next_game_starter")
        if not game.has_cube:
            if self.cube:
                raise InvalidSettings.because(game.no_cube_reason, "cube")
            if self.jacoby:
                raise InvalidSettings.because("nardy_no_jacoby", "jacoby")
        if (
            not isinstance(self.length, int)
            or isinstance(self.length, bool)
            or not 0 <= self.length <= MAX_MATCH_LENGTH
        ):
            raise InvalidSettings.because("match_length", "length", max=MAX_MATCH_LENGTH)
        if self.backgammon_value not in (2, 3):
            raise InvalidSettings.because("backgammon_value", "backgammon_value")
        if self.jacoby and self.length:
            raise InvalidSettings.because("jacoby_money", "jacoby")

    @property
    def is_money(self) -> bool:
        return self.length == 0


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a match."""

    number: int
    winner: int
    points: int
    kind: GameKind
    cube: int
    ended_by: EndedBy


# -- actions: the facts a store records, in the rules' terms ------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """Each player rolls one die; a tie is rolled again."""

    die0: int
    die1: int


@dataclass(frozen=True, slots=True)
class Roll:
    player: int
    dice: Dice


@dataclass(frozen=True, slots=True)
class Move:
    """A whole play; no steps means the roll could not be played (the turn passes)."""

    player: int
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Double:
    player: int


@dataclass(frozen=True, slots=True)
class Take:
    player: int


@dataclass(frozen=True, slots=True)
class Drop:
    player: int


@dataclass(frozen=True, slots=True)
class Resign:
    """Offer to end the game at 1 (single), 2 (gammon) or 3 (backgammon) times the cube."""

    player: int
    value: int


@dataclass(frozen=True, slots=True)
class AcceptResign:
    player: int


@dataclass(frozen=True, slots=True)
class RejectResign:
    player: int


@dataclass(frozen=True, slots=True)
class LoseMatch:
    """The player loses the whole match: his time ran out, or he left and did not return."""

    player: int
    reason: EndedBy


@dataclass(frozen=True, slots=True)
class Abort:
    """The match ends with no winner (abandoned before play, or stopped by an admin)."""

    reason: str = ""


Action = (
    OpeningRoll
    | Roll
    | Move
    | Double
    | Take
    | Drop
    | Resign
    | AcceptResign
    | RejectResign
    | LoseMatch
    | Abort
)


# -- the state -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchState:
    settings: MatchSettings
    phase: Phase = Phase.OPENING
    turn: int | None = None  # whose turn it is in the game (the roller)
    board: Position = field(default_factory=Position.starting)  # from player 0's side
    dice: Dice | None = None
    cube: int = 1
    cube_owner: int | None = None  # None: centred
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    crawford_game: bool = False  # this game is the Crawford game: no cube
    crawford_done: bool = False  # the Crawford game has been played: post-Crawford
    resign_value: int = 0  # offered resignation while phase is RESIGNING
    resumed_phase: Phase | None = None  # where play goes on if the resignation is rejected
    # The player on turn offered a resignation this turn and it was rejected: he may offer
    # again, but the computer players wait for their next turn rather than ask again at once.
    resign_rejected: bool = False
    games: tuple[GameResult, ...] = ()
    winner: int | None = None  # the match winner, once over
    ended_by: EndedBy | None = None
    # When the match is over: who was on turn, the dice that were out and the resignation
    # offered at that moment (gnubg's Match ID of a finished match keeps them).
    ended_turn: int | None = None
    ended_dice: Dice | None = None
    ended_resign: int = 0
    # Whether each player's next turn is his first of this game (long nardy's head rule).
    first_turn: tuple[bool, bool] = (True, True)

    @classmethod
    def new(cls, settings: MatchSettings, *, check: bool = True) -> MatchState:
        """A match before its first opening roll. check=False (replay) trusts the settings,
        even beyond today's limits."""
        if check:
            settings.check()
        return cls(settings, board=settings.rules.starting())

    @property
    def game(self) -> Game:
        """The rules of the game this match is played in."""
        return self.settings.rules

    # -- reading the state ---------------------------------------------------------------

    def position_for(self, player: int) -> Position:
        """The board from `player`'s side."""
        return self.board if player == 0 else self.board.flipped()

    @property
    def to_act(self) -> int | None:
        """Who must act now: the roller, or his opponent when answering a double or a resign."""
        if self.turn is None or self.phase in (Phase.OPENING, Phase.OVER):
            return None
        if self.phase in (Phase.DOUBLED, Phase.RESIGNING):
            return 1 - self.turn
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def crawford_flag(self) -> bool:
        """The Crawford flag as gnubg's Match ID carries it, the one place the ID, the state's
        `crawford` and the admin take it from: this game's while a game is played; once it is
        over, already the next game's (none after the match, whatever the last game was)."""
        if self.phase == Phase.OVER:
            return _next_game_is_crawford(self, self.score)
        return self.crawford_game and self.settings.length > 0

    @property
    def post_crawford(self) -> bool:
        return self.crawford_done and not self.crawford_game

    def may_double(self, player: int) -> bool:
        """Whether `player` may offer the cube now: his turn, before rolling, cube his or free."""
        s = self.settings
        return (
            s.cube
            and self.game.has_cube
            and not self.crawford_game
            and self.phase == Phase.ROLL
            and self.turn == player
            and self.cube < MAX_CUBE
            and self.cube_owner in (None, player)
        )

    def legal_plays(self) -> list[Play]:
        """The legal plays of the player on turn, from his side ([] when he cannot move)."""
        if self.phase != Phase.PLAY or self.dice is None or self.turn is None:
            return []
        view = self.position_for(self.turn)
        return self.game.legal_plays(view, self.dice, first_turn=self.first_turn[self.turn])

    def actions_for(self, player: int) -> list[str]:
        """What `player` may do now, by name: roll, double, play, take, drop, resign,
        accept, reject."""
        if self.phase in (Phase.OPENING, Phase.OVER) or self.turn is None:
            return []
        if self.phase == Phase.DOUBLED:
            return ["take", "drop"] if player != self.turn else []
        if self.phase == Phase.RESIGNING:
            return ["accept", "reject"] if player != self.turn else []
        if player != self.turn:
            return []
        if self.phase == Phase.ROLL:
            return ["roll", *(["double"] if self.may_double(player) else []), "resign"]
        return ["play", "resign"]

    def gnubg_ids(self) -> tuple[str, str]:
        """gnubg's Position ID (from the side of gnubg's player on roll) and Match ID, as
        GNU Backgammon itself shows them in the same situation (checked against gnubg in
        tests/rules/test_gnubg_match_state.py):

        - before an opening roll (no game in progress): game state "none", the score so far,
          player 0's view of the starting position;
        - in play: the roller is the player on roll; while a double or a resignation is
          offered, the turn is his opponent's; the dice once rolled;
        - match over (no Crawford flag: gnubg's is the next game's by then): by the last
          checker off, game state "over", the loser on roll and to act (gnubg passes the
          turn after the last move), no dice;
        - by a resignation: "resigned", the resigner on roll, the winner to act, the
          resignation value and the dice that were out;
        - by a dropped double: "dropped", the doubler on roll, the dropper to act, the cube
          as it was before the offer;
        - lost on time, forfeited or aborted (not gnubg's): "over", whoever was on turn.
        """
        s = self.settings
        if not self.game.has_gnubg_ids:
            raise InvalidId.because("nardy_no_ids")
        resignation = 0
        dice = self.dice
        if self.phase == Phase.OPENING:
            state, roller, to_act = GameState.NONE, 0, 0
        elif self.phase == Phase.OVER:
            won = self.winner if self.winner is not None else 0
            if self.ended_by == EndedBy.BEAROFF:
                state, roller, to_act, dice = GameState.OVER, 1 - won, 1 - won, None
            elif self.ended_by == EndedBy.RESIGN:
                state, roller, to_act = GameState.RESIGNED, 1 - won, won
                resignation, dice = self.ended_resign, self.ended_dice
            elif self.ended_by == EndedBy.DROP:
                state, roller, to_act, dice = GameState.DROPPED, won, 1 - won, None
            else:
                roller = to_act = self.ended_turn if self.ended_turn is not None else 0
                state, dice = GameState.OVER, self.ended_dice
        else:
            state = GameState.PLAYING
            roller = self.turn if self.turn is not None else 0
            to_act = self.to_act if self.to_act is not None else roller
            if self.phase == Phase.RESIGNING:
                resignation = self.resign_value
        ids = MatchId(
            cube_value=self.cube,
            cube_owner=self.cube_owner,
            player_on_roll=roller,
            crawford=self.crawford_flag,
            game_state=state,
            turn=to_act,
            double_offered=self.phase == Phase.DOUBLED,
            resignation=resignation,
            dice=(dice.high, dice.low) if dice else None,
            match_length=s.length,
            score=self.score,
            jacoby=self.jacoby_applies(),
        )
        return position_id(self.position_for(roller)), match_id(ids)

    def jacoby_applies(self) -> bool:
        return self.settings.is_money and self.settings.jacoby

    def points_for(self, kind: GameKind) -> int:
        return game_points(
            kind,
            self.cube,
            backgammon_value=self.settings.backgammon_value,
            jacoby=self.jacoby_applies(),
        )


# -- applying actions --------------------------------------------------------------------------


def apply(state: MatchState, action: Action, *, check: bool = True) -> MatchState:
    """The state after `action`.

    check=True decides a command: every rule is enforced (whose turn, the phase, the cube,
    resignation values, the play itself) and a RulesError says what is wrong. check=False
    replays a recorded fact and never re-judges it: no rule or limit is looked at again, so
    actions recorded under older rules or limits still replay (the cube, a resignation value,
    a player acting out of turn all apply as recorded). Only what cannot mean anything is
    refused either way: an action after the match is over, or a player other than 0 and 1.
    """
    if state.phase == Phase.OVER:
        raise IllegalAction.because("match_over")
    player = getattr(action, "player", 0)
    if player not in (0, 1):
        raise IllegalAction.because("no_such_player", player=repr(player))
    after = judge(state, action) if check else None
    return _apply_fact(state, action, after)


def judge(state: MatchState, action: Action) -> Position | None:
    """Raise a RulesError unless `action` is allowed in `state` (the decide path of `apply`).

    For a Move, return the position it leads to (the mover's view), so the play is resolved
    once.
    """
    match action:
        case OpeningRoll():
            if state.phase != Phase.OPENING:
                raise IllegalAction.because("opening_over")
            Dice.of(action.die0, action.die1)
        case Roll():
            check_turn(state, Phase.ROLL, action.player, "roll")
        case Move():
            check_turn(state, Phase.PLAY, action.player, "move")
            if state.dice is None:  # pragma: no cover - PLAY always has dice
                raise IllegalAction.because("roll_first")
            view = state.position_for(action.player)
            steps: list[object] = [[s.frm, s.to] for s in action.steps]
            first = state.first_turn[action.player]
            return resolve_play(view, state.dice, steps, first_turn=first).result
        case Double():
            if not state.game.has_cube:
                raise NoCube.because(_why_no_double(state, action.player))
            if not state.may_double(action.player):
                raise IllegalAction.because(
                    _why_no_double(state, action.player), **_cube_values(state)
                )
        case Take():
            _expect_answer(state, Phase.DOUBLED, action.player, "take")
        case Drop():
            _expect_answer(state, Phase.DOUBLED, action.player, "drop")
        case Resign():
            if state.phase not in (Phase.ROLL, Phase.PLAY) or state.turn != action.player:
                raise IllegalAction.because("resign_own_turn")
            if action.value not in state.game.resign_values:
                raise IllegalAction.because(state.game.resign_reason)
        case AcceptResign():
            _expect_answer(state, Phase.RESIGNING, action.player, "accept the resignation")
        case RejectResign():
            _expect_answer(state, Phase.RESIGNING, action.player, "reject the resignation")
    return None


def _apply_fact(state: MatchState, action: Action, after: Position | None) -> MatchState:
    """The state after an action taken as a fact (judged already, or recorded)."""
    match action:
        case OpeningRoll():
            if action.die0 == action.die1:
                return state  # a tie is rolled again
            first = 0 if action.die0 > action.die1 else 1
            if not state.game.plays_opening_dice:  # long nardy: he rolls both dice now
                return replace(state, phase=Phase.ROLL, turn=first, dice=None)
            dice = Dice(max(action.die0, action.die1), min(action.die0, action.die1))
            return replace(state, phase=Phase.PLAY, turn=first, dice=dice)
        case Roll():
            return replace(state, phase=Phase.PLAY, turn=action.player, dice=action.dice)
        case Move():
            return _move(state, action, after)
        case Double():
            return replace(state, phase=Phase.DOUBLED, turn=action.player)
        case Take():
            return replace(
                state,
                phase=Phase.ROLL,
                turn=1 - action.player,
                cube=state.cube * 2,
                cube_owner=action.player,
            )
        case Drop():
            return _end_game(state, 1 - action.player, state.cube, GameKind.SINGLE, EndedBy.DROP)
        case Resign():
            return replace(
                state,
                phase=Phase.RESIGNING,
                turn=action.player,
                resign_value=action.value,
                resumed_phase=state.phase,
            )
        case AcceptResign():
            kind = GameKind(state.resign_value)
            return _end_game(state, action.player, state.points_for(kind), kind, EndedBy.RESIGN)
        case RejectResign():
            resumed = state.resumed_phase or Phase.ROLL
            return replace(
                state, phase=resumed, resign_value=0, resumed_phase=None, resign_rejected=True
            )
        case LoseMatch():
            return _lose_match(state, action)
        case Abort():  # the board stays as it was, with whoever was on turn
            return replace(_over(state, None, EndedBy.ABORT), turn=state.turn, dice=state.dice)
    assert_never(action)  # every Action is a case above (mypy checks)


def replay(settings: MatchSettings, actions: list[Action]) -> MatchState:
    """Fold recorded actions into the state, never re-judging them (see `apply`)."""
    state = MatchState.new(settings, check=False)
    for action in actions:
        state = apply(state, action, check=False)
    return state


def play_for(state: MatchState, play: str | list[object]) -> Play:
    """Resolve a player's play (notation or [[from, to], ...]) into the legal play it means."""
    if state.phase != Phase.PLAY or state.dice is None or state.turn is None:
        raise IllegalAction.because("roll_first")
    first = state.first_turn[state.turn]
    return resolve_play(state.position_for(state.turn), state.dice, play, first_turn=first)


def _move(state: MatchState, action: Move, after: Position | None) -> MatchState:
    me = action.player
    view = state.position_for(me)
    if after is None:
        after = apply_steps(view, action.steps)
    board = after if me == 0 else after.flipped()
    first_turn = (False, state.first_turn[1]) if me == 0 else (state.first_turn[0], False)
    if has_won(after):
        kind = state.game.kind_of_win(after)
        won = replace(state, board=board, first_turn=first_turn)
        return _end_game(won, me, won.points_for(kind), kind, EndedBy.BEAROFF)
    return replace(
        state,
        board=board,
        phase=Phase.ROLL,
        turn=1 - me,
        dice=None,
        resign_rejected=False,
        first_turn=first_turn,
    )


def _over(state: MatchState, winner: int | None, how: EndedBy) -> MatchState:
    """The match ends: nobody's turn; what gnubg's Match ID keeps is kept aside."""
    return replace(
        state,
        phase=Phase.OVER,
        winner=winner,
        ended_by=how,
        turn=None,
        dice=None,
        ended_turn=state.turn,
        ended_dice=state.dice,
        ended_resign=state.resign_value,
    )


def game_over(state: MatchState, result: GameResult, board: Position | None = None) -> MatchState:
    """The state a game's end leaves, as the match ends with it (and as gnubg shows a game just
    over): `state` (before the ending action) with the game's last `board`, its `result`
    scored, phase OVER and what gnubg's Match ID keeps aside (who was on turn, the dice, the
    resignation). Also for a game that did not end the match, shown before the next game is
    set up (the admin's review)."""
    score = list(state.score)
    score[result.winner] += result.points
    ended = replace(
        state,
        board=state.board if board is None else board,
        score=(score[0], score[1]),
        games=(*state.games, result),
        resumed_phase=None,
        resign_rejected=False,
    )
    return replace(_over(ended, result.winner, result.ended_by), resign_value=0)


def _end_game(
    state: MatchState, winner: int, points: int, kind: GameKind, how: EndedBy
) -> MatchState:
    result = GameResult(state.game_number, winner, points, kind, state.cube, how)
    score = list(state.score)
    score[winner] += points
    s = state.settings
    if s.length and score[winner] >= s.length:
        return game_over(state, result)
    ended = replace(
        state,
        score=(score[0], score[1]),
        games=(*state.games, result),
        resumed_phase=None,
        resign_rejected=False,
        resign_value=0,
        dice=None,
    )
    crawford_game = _next_game_is_crawford(state, score)
    starter = s.next_game_starter == Starter.WINNER
    return replace(
        ended,
        phase=Phase.ROLL if starter else Phase.OPENING,
        turn=winner if starter else None,
        board=state.game.starting(),
        first_turn=(True, True),
        cube=1,
        cube_owner=None,
        game_number=state.game_number + 1,
        crawford_game=crawford_game,
        crawford_done=state.crawford_done or state.crawford_game,
    )


def _next_game_is_crawford(state: MatchState, score: Sequence[int]) -> bool:
    """Whether the game after `state`'s, at `score`, is the Crawford game: the first game after
    a player first reaches one point short of the match (never once the match is won)."""
    s = state.settings
    return (
        s.crawford
        and state.game.has_cube
        and s.length > 0
        and not state.crawford_done
        and not state.crawford_game
        and max(score) == s.length - 1
    )


def _lose_match(state: MatchState, action: LoseMatch) -> MatchState:
    winner = 1 - action.player
    s = state.settings
    points = max(s.length - state.score[winner], 0) if s.length else state.cube
    score = list(state.score)
    score[winner] += points
    result = GameResult(
        state.game_number, winner, points, GameKind.SINGLE, state.cube, action.reason
    )
    lost = replace(state, score=(score[0], score[1]), games=(*state.games, result))
    return _over(lost, winner, action.reason)


def check_turn(state: MatchState, phase: Phase, player: int, what: str) -> None:
    """Raise unless `player` may `what` now: NotYourTurn when it is the other player's to do,
    IllegalAction saying what must happen first when he is the one to act."""
    if state.phase == phase and state.turn == player:
        return
    if state.phase == Phase.OVER:
        raise IllegalAction.because("match_over")
    if state.turn is not None and (
        state.phase == phase or player not in (state.turn, state.to_act)
    ):
        raise NotYourTurn.because("not_your_turn", what=what)
    reason = _phase_problem(state)
    raise IllegalAction.because(reason, **({"what": what} if reason.startswith("phase_") else {}))


def _expect_answer(state: MatchState, phase: Phase, player: int, what: str) -> None:
    if state.phase != phase:
        raise IllegalAction.because("nothing_to_answer", what=what)
    if player == state.turn:
        raise IllegalAction.because("only_opponent", what=what)


def _phase_problem(state: MatchState) -> str:
    """The reason (errors.REFUSALS) why nothing but the phase's own action fits now."""
    return {
        Phase.OPENING: "opening_first",
        Phase.ROLL: "phase_roll",
        Phase.PLAY: "phase_play",
        Phase.DOUBLED: "phase_doubled",
        Phase.RESIGNING: "phase_resigning",
        Phase.OVER: "match_over",
    }[state.phase]


def _why_no_double(state: MatchState, player: int) -> str:
    """The reason (errors.REFUSALS) why `player` may not double now."""
    s = state.settings
    if not state.game.has_cube:
        return state.game.no_cube_reason
    if not s.cube:
        return "no_cube"
    if state.crawford_game:
        return "crawford_no_double"
    if state.turn != player:
        return "double_own_turn"
    if state.phase != Phase.ROLL:
        return "double_before_roll"
    if state.cube >= MAX_CUBE:
        return "cube_at_max"
    return "cube_owner"


def _cube_values(state: MatchState) -> dict[str, object]:
    return {"max": MAX_CUBE} if state.cube >= MAX_CUBE else {}


__all__ = [
    "Abort",
    "AcceptResign",
    "Action",
    "Double",
    "Drop",
    "EndedBy",
    "GameResult",
    "LoseMatch",
    "MatchSettings",
    "MatchState",
    "Move",
    "OpeningRoll",
    "Phase",
    "RejectResign",
    "Resign",
    "Roll",
    "RulesError",
    "Starter",
    "Take",
    "apply",
    "check_turn",
    "game_over",
    "play_for",
    "replay",
]
