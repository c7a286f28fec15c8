"""The review of a match, pure: its events replayed one at a time (`Frame`), the words for
each event, the board picture and the facts at any event. No database and no HTTP here: the
admin's views (matches/review/views.py) load the events and names and render these.

The replay folds the stored events through `replay.fold` exactly as the store does, keeping
the view before and after every event, so the board, dice, cube, score and gnubg IDs can be
shown at any point of the match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from uuid import UUID

import games.rules as rules
from games.rules import GameKind, Position, apply_steps
from matches.store.events import (
    Aborted,
    CubeDropped,
    CubeOffered,
    CubeTaken,
    Event,
    Forfeited,
    MarkedUnrated,
    MatchCreated,
    MatchResigned,
    Moved,
    OpeningRolled,
    Passed,
    PlayerJoined,
    RematchOffered,
    ResignAccepted,
    ResignOffered,
    ResignRejected,
    Rolled,
    TimedOut,
)
from matches.store.replay import MatchView, StoredEvent, fold

from .board_svg import BoardPicture, steps_in_seat0_numbering


class NoSuchEvent(LookupError):
    """The match has no event with that number (the views answer 404)."""


SYSTEM_ACTOR = "server"

# -- replaying a match event by event -------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One stored event with the match as it was just before and just after it."""

    index: int  # 0-based position in the stream (seq - 1)
    stored: StoredEvent
    event: Event
    before: MatchView
    after: MatchView
    actor: str  # username of the acting user, or SYSTEM_ACTOR
    text: str  # what happened, in words
    game: int | None  # the game the event belongs to (None: setting the match up)
    since_previous: timedelta | None
    ended_game: rules.GameResult | None = None

    @property
    def seq(self) -> int:
        return self.stored.seq

    @property
    def at(self) -> datetime:
        return self.stored.at

    @property
    def state(self) -> rules.MatchState | None:
        return self.after.state

    @property
    def since_previous_text(self) -> str:
        return duration(self.since_previous)

    @property
    def score(self) -> tuple[int, int] | None:
        return self.after.state.score if self.after.state is not None else None

    @property
    def clock_state(self) -> ClockState | None:
        """The clocks at this event (None when the match has no clock)."""
        return clock_state(self)


@dataclass(frozen=True)
class ClockState:
    """What the clock (replayed from the event times) says at one event.

    `charged_seat` is the player whose move was running until this event, `used` how long
    that move had lasted when the event came and `charged` what it cost his reserve (time
    beyond the free delay). After the event, `reserves` are both players' reserves and
    `running` / `deadline` the move that runs now and when it is out of time.
    """

    reserves: tuple[float, float]
    running: int | None
    deadline: datetime | None
    charged_seat: int | None
    used: timedelta | None
    charged: float
    delay: float
    max_move: float
    names: tuple[str, str]

    @property
    def summary(self) -> str:
        """One line for the timeline."""
        parts = []
        if self.charged_seat is not None and self.used is not None:
            who = self.names[self.charged_seat]
            parts.append(f"{who} {duration(self.used)}")
            if self.charged:
                parts.append(f"\u2212{self.charged:.1f} s reserve")
        parts.append(f"reserves {self.reserves[0]:.1f} / {self.reserves[1]:.1f} s")
        return ", ".join(parts)

    @property
    def charged_name(self) -> str:
        return self.names[self.charged_seat] if self.charged_seat is not None else ""

    @property
    def used_text(self) -> str:
        return duration(self.used)

    @property
    def running_name(self) -> str:
        return self.names[self.running] if self.running is not None else ""


def clock_state(frame: Frame) -> ClockState | None:
    before, after = frame.before.clock, frame.after.clock
    if after is None:
        return None
    names = seat_names(frame.after)
    charged_seat = before.running if before is not None else None
    used = None
    charged = 0.0
    if before is not None and before.running is not None and before.since is not None:
        if after.running != before.running or after.since != before.since:
            used = frame.at - before.since
            charged = before.reserve[before.running] - after.reserve[before.running]
        else:
            charged_seat = None  # the same move goes on (he rolled; now he plays)
    return ClockState(
        reserves=after.reserve,
        running=after.running,
        deadline=after.deadline(),
        charged_seat=charged_seat,
        used=used,
        charged=charged,
        delay=after.settings.delay,
        max_move=after.settings.max_move,
        names=names,
    )


def duration(span: timedelta | None) -> str:
    """A short human reading of a time span: "0.4 s", "12 s", "3 min 05 s", "2 h 10 min"."""
    if span is None:
        return ""
    seconds = span.total_seconds()
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes:02d} min"
    return f"{hours // 24} days {hours % 24} h"


@dataclass(frozen=True)
class GameRow:
    """One game of a match: its events and, once over, its result."""

    number: int
    first_seq: int
    last_seq: int
    score_before: tuple[int, int]
    crawford: bool
    game: rules.Game  # the game played: it names the results
    result: rules.GameResult | None = None
    unfinished: str = ""  # why there is no result: "in progress", "aborted", ...

    @property
    def kind(self) -> str:
        return self.game.result_name(self.result.kind) if self.result else ""

    @property
    def ended_by(self) -> str:
        return ended_by_label(self.result.ended_by) if self.result else ""


@dataclass
class Replay:
    match_id: UUID
    frames: list[Frame]
    names: tuple[str, str]
    games: list[GameRow] = field(default_factory=list)

    @property
    def final(self) -> MatchView:
        return self.frames[-1].after if self.frames else MatchView(self.match_id)

    def frame(self, seq: int) -> Frame:
        if not 1 <= seq <= len(self.frames):
            raise NoSuchEvent(f"this match has no event {seq}")
        return self.frames[seq - 1]


def seat_names(view: MatchView, display: Mapping[int, str] | None = None) -> tuple[str, str]:
    """The players' names: the name each chose (`display`, by user id) where known, else the
    name he sat down with."""
    names = [f"Seat {i}" for i in (0, 1)]
    for i, seat in enumerate(view.seats):
        if seat is None:
            continue
        chosen = (display or {}).get(seat.user_id) if seat.user_id is not None else None
        names[i] = chosen or seat.name or names[i]
    return names[0], names[1]


def build_replay(
    match_id: UUID,
    events: Sequence[StoredEvent],
    actors: Mapping[int | None, str],
    display: Mapping[int, str] | None = None,
) -> Replay:
    """Fold every stored event of a match, keeping each step. `actors`: who acted, by user id;
    `display`: the players' chosen names, by user id."""
    view = MatchView(match_id)
    frames: list[Frame] = []
    previous_at: datetime | None = None
    for i, stored in enumerate(events):
        after = fold(view, stored)
        event = stored.event
        before_state, after_state = view.state, after.state
        ended = None
        if (
            before_state is not None
            and after_state is not None
            and len(after_state.games) > len(before_state.games)
        ):
            ended = after_state.games[-1]
        game = None
        if before_state is not None and not isinstance(event, PlayerJoined | MatchCreated):
            game = before_state.game_number
        names = seat_names(after, display)
        frames.append(
            Frame(
                index=i,
                stored=stored,
                event=event,
                before=view,
                after=after,
                actor=actors.get(stored.actor_id, SYSTEM_ACTOR)
                if stored.actor_id
                else SYSTEM_ACTOR,
                text=describe(event, view, after, names, ended),
                game=game,
                since_previous=stored.at - previous_at if previous_at else None,
                ended_game=ended,
            )
        )
        previous_at = stored.at
        view = after
    result = Replay(match_id, frames, seat_names(view, display))
    result.games = _games(frames)
    return result


def _games(frames: list[Frame]) -> list[GameRow]:
    rows: dict[int, GameRow] = {}
    for frame in frames:
        if frame.game is None or frame.before.state is None:
            continue
        before = frame.before.state
        row = rows.get(frame.game)
        if row is None:
            row = GameRow(
                number=frame.game,
                first_seq=frame.seq,
                last_seq=frame.seq,
                score_before=before.score,
                crawford=before.crawford_game,
                game=before.game,
            )
        rows[frame.game] = GameRow(
            number=row.number,
            first_seq=row.first_seq,
            last_seq=frame.seq,
            score_before=row.score_before,
            crawford=row.crawford,
            game=row.game,
            result=frame.ended_game or row.result,
        )
    final = frames[-1].after.state if frames else None
    out = []
    for row in rows.values():
        if row.result is None:
            if final is not None and final.ended_by == rules.EndedBy.ABORT:
                why = "aborted"
            elif final is not None and final.is_over:
                why = "not played"
            else:
                why = "in progress"
            row = GameRow(**{**row.__dict__, "unfinished": why})
        out.append(row)
    return out


# -- words for events ------------------------------------------------------------------------

_ENDED = {
    rules.EndedBy.BEAROFF: "bore off",
    rules.EndedBy.DROP: "double dropped",
    rules.EndedBy.RESIGN: "resignation",
    rules.EndedBy.TIMEOUT: "time out",
    rules.EndedBy.FORFEIT: "forfeit",
    rules.EndedBy.ABORT: "aborted",
}


def ended_by_label(how: rules.EndedBy | str | None) -> str:
    if not how:
        return ""
    return _ENDED.get(rules.EndedBy(how), str(how))


def describe(
    event: Event,
    before: MatchView,
    after: MatchView,
    names: tuple[str, str],
    ended: rules.GameResult | None = None,
) -> str:
    """One line saying what the event did, in the players' names."""
    state = before.state

    def who(seat: int) -> str:
        return names[seat]

    match event:
        case MatchCreated():
            length = "money play" if event.length == 0 else f"{event.length}-point match"
            bits = [length, f"{event.mode}", "cube" if event.cube else "no cube"]
            if event.cube and event.length:
                bits.append("Crawford" if event.crawford else "no Crawford")
            if event.clock:
                bits.append("clock " + ", ".join(f"{k} {v}s" for k, v in event.clock.items()))
            text = "Match created: " + ", ".join(bits)
        case PlayerJoined():
            text = f"{who(event.seat)} takes seat {event.seat}"
            if event.user_id is None:
                text += " (no account)"
        case OpeningRolled():
            text = f"Opening roll: {who(0)} {event.die0}, {who(1)} {event.die1}"
            if event.die0 == event.die1:
                text += ": a tie, rolled again"
            else:
                starter = 0 if event.die0 > event.die1 else 1
                text += f": {who(starter)} starts with {max(event.die0, event.die1)}-"
                text += f"{min(event.die0, event.die1)}"
        case Rolled():
            text = f"{who(event.seat)} rolls {event.dice[0]}-{event.dice[1]}"
        case Moved():
            text = f"{who(event.seat)} plays {event.notation}"
        case Passed():
            dice = state.dice if state is not None else None
            text = f"{who(event.seat)} cannot move" + (f" with {dice}" if dice else "")
        case CubeOffered():
            cube = state.cube * 2 if state is not None else "?"
            text = f"{who(event.seat)} doubles to {cube}"
        case CubeTaken():
            cube = after.state.cube if after.state is not None else "?"
            text = f"{who(event.seat)} takes: cube at {cube}, owned by {who(event.seat)}"
        case CubeDropped():
            text = f"{who(event.seat)} drops the double"
        case ResignOffered():
            text = f"{who(event.seat)} offers to resign"
            if state is not None:
                text += f": {state.game.result_name(GameKind(event.value))}"
        case ResignAccepted():
            text = f"{who(event.seat)} accepts the resignation"
        case ResignRejected():
            text = f"{who(event.seat)} rejects the resignation"
        case TimedOut():
            text = f"{who(event.seat)} ran out of time and loses the match"
        case Forfeited():
            text = f"{who(event.seat)} forfeits the match"
            if event.reason:
                text += f" ({event.reason})"
        case MatchResigned():
            text = f"{who(event.seat)} resigns the match"
        case Aborted():
            text = "Match aborted" + (f": {event.reason}" if event.reason else "")
        case RematchOffered():
            text = f"{who(event.seat)} offers a rematch (match {event.match_id})"
        case MarkedUnrated():
            text = "Marked unrated by staff" + (f": {event.reason}" if event.reason else "")
        case _:  # pragma: no cover - every event type is listed above
            text = event.type
    if ended is not None and after.state is not None:
        kind = after.state.game.result_name(GameKind(ended.kind))
        text += (
            f". Game {ended.number} to {who(ended.winner)}: {ended.points} point"
            f"{'s' if ended.points != 1 else ''} ({kind}, cube {ended.cube}, "
            f"{ended_by_label(ended.ended_by)})"
        )
    return text


# -- the board at one event ------------------------------------------------------------------


def shown_state(frame: Frame) -> rules.MatchState:
    """The state the pages show for a frame: the state after its event, except when the event
    ended a game and the rules have already set the board up for the next one: then the game
    just ended (its last position, cube and Crawford flag, the new score), as gnubg shows it."""
    state = frame.after.state
    before = frame.before.state
    if state is None:  # pragma: no cover - the first event creates the state
        raise NoSuchEvent("nothing to show")
    if frame.ended_game is None or before is None or state.is_over:
        return state
    board = before.board
    if isinstance(frame.event, Moved):
        board = _after_steps(before.board, frame.event.seat, frame.event.steps)
    # As the rules end a match with a game (`game_over`): the game's last board and result,
    # and what gnubg's Match ID keeps aside (who was on turn, the dice, the resignation).
    return rules.game_over(before, frame.ended_game, board)


def picture(frame: Frame, names: tuple[str, str]) -> BoardPicture:
    """The board just after `frame`'s event, with the dice that were rolled or played."""
    state = shown_state(frame)
    before = frame.before.state
    event = frame.event
    dice: tuple[int, int] | None = None
    owner: int | None = None
    marks: tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]] = (
        frozenset(),
        frozenset(),
    )
    if state.dice is not None:
        dice, owner = (state.dice.high, state.dice.low), state.turn
    if isinstance(event, Moved | Passed) and before is not None and before.dice is not None:
        dice, owner = (before.dice.high, before.dice.low), event.seat  # the dice just played
    if isinstance(event, Moved):
        steps = [(s[0], s[1]) for s in event.steps]
        marks = steps_in_seat0_numbering(event.seat, steps, game=state.game)
    opening = (event.die0, event.die1) if isinstance(event, OpeningRolled) else None
    notice = ""
    if state.phase == rules.Phase.RESIGNING and state.turn is not None:
        kind = state.game.result_name(GameKind(state.resign_value))
        notice = f"{names[state.turn]} offers to resign: {kind}"
    elif frame.ended_game is not None:
        won = frame.ended_game
        notice = f"{names[won.winner]} wins {won.points} point{'s' if won.points != 1 else ''}"
        if frame.after.state is not None and frame.after.state.is_over:
            notice += " and the match" if frame.after.state.winner == won.winner else ""
    elif state.is_over and state.ended_by == rules.EndedBy.ABORT:
        notice = "Match aborted"
    return BoardPicture(
        position=state.board,
        names=names,
        score=state.score,
        length=state.settings.length,
        dice=dice,
        dice_owner=owner,
        opening=opening,
        notice=notice,
        cube_enabled=state.settings.cube,
        cube_value=state.cube,
        cube_owner=state.cube_owner,
        cube_offered=state.phase == rules.Phase.DOUBLED,
        crawford=state.crawford_flag,  # as the Match ID says it
        to_act=state.to_act,
        caption=f"Event {frame.seq}: {frame.text}",
        moved_from=marks[0],
        moved_to=marks[1],
    )


def _after_steps(board: Position, seat: int, steps: list[list[int]]) -> Position:
    """Seat 0's board after `seat` played `steps` (in his numbering) on it (recorded steps:
    the rules' apply_steps judges nothing)."""
    after = apply_steps(board if seat == 0 else board.flipped(), [(f, t) for f, t, *_ in steps])
    return after if seat == 0 else after.flipped()


@dataclass(frozen=True)
class PositionFacts:
    """The facts shown beside the board picture, in words."""

    game: str
    score: str
    cube: str
    dice: str
    phase: str
    to_act: str
    pips: str
    position_id: str
    match_id: str
    seen_from: str


_PHASES = {
    rules.Phase.OPENING: "opening roll",
    rules.Phase.ROLL: "to roll (or double, or resign)",
    rules.Phase.PLAY: "to play the dice",
    rules.Phase.DOUBLED: "to take or drop the double",
    rules.Phase.RESIGNING: "to accept or reject the resignation",
    rules.Phase.OVER: "over",
}


def position_facts(frame: Frame, names: tuple[str, str]) -> PositionFacts:
    state = shown_state(frame)
    if state.game.has_gnubg_ids:
        pid, mid = state.gnubg_ids()
        roller = rules.match_id_decode(mid).player_on_roll  # the side the Position ID is seen from
    else:  # long nardy: gnubg has no IDs for it; the player on turn (or seat 0) is on roll
        pid = mid = f"none (gnubg has no {state.game.title})"
        roller = state.turn if state.turn is not None else 0
    acting = state.to_act
    s = state.settings
    if frame.game is None:
        game = "— (setting the match up)"
    else:
        game = str(frame.game)
        if state.crawford_flag:
            game += " (Crawford game)"
        elif state.post_crawford:
            game += " (post-Crawford)"
        if frame.ended_game is not None:
            game += ": over"
    game = f"{state.game.title}, game {game}"
    target = f"to {s.length}" if s.length else "money play"
    if not state.game.has_cube:
        cube = f"none in {state.game.title}"
    elif not s.cube:
        cube = "not used in this match"
    elif state.crawford_flag:
        cube = "none in the Crawford game"
    else:
        owner = "centred" if state.cube_owner is None else f"owned by {names[state.cube_owner]}"
        cube = f"{state.cube}, {owner}"
        if state.phase == rules.Phase.DOUBLED:
            cube += f"; {names[roller]} offers {state.cube * 2}"
    phase = _PHASES[state.phase]
    if state.phase == rules.Phase.RESIGNING:
        kind = state.game.result_name(GameKind(state.resign_value))
        phase = f"{names[roller]} offers to resign ({kind}); " + phase
    pips = state.board.pips()
    return PositionFacts(
        game=game,
        score=f"{names[0]} {state.score[0]} \u2013 {state.score[1]} {names[1]} ({target})",
        cube=cube,
        dice=str(state.dice) if state.dice else "—",
        phase=phase,
        to_act=names[acting] if acting is not None else "nobody",
        pips=f"{names[0]} {pips[0]}, {names[1]} {pips[1]}",
        position_id=pid,
        match_id=mid,
        seen_from=names[roller],
    )
