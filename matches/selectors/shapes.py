"""The shapes of what the reads return: small frozen dataclasses, one per JSON object.

These are the single source of the API's response bodies. The API derives a DRF serializer
from each (matches/api/contract.py) that both renders the body and documents it in the
OpenAPI schema, so a field added here appears in the response and in the schema together.

Type hints say everything the schema needs: `X | None` is nullable, `Literal[...]` an enum,
`list[X]` an array, a dataclass a nested object (its component is named after the class),
`Annotated[X, "text"]` adds a description and `Annotated[X, Key("from")]` names the JSON key
when it is not a Python name. Numbers of seconds are `float` everywhere (one number type).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID


@dataclass(frozen=True, slots=True)
class Key:
    """The JSON name of a field whose name is not a Python identifier (`from`)."""

    name: str


WhoName = Literal["you", "opponent"]
Mode = Literal["online", "hotseat", "computer"]
Status = Literal["waiting", "active", "finished", "aborted"]
Phase = Literal["opening", "roll", "play", "doubled", "resigning", "over"]
EndedBy = Literal["bearoff", "drop", "resign", "timeout", "forfeit", "abort"]
"""How a game or a match ended, the rules' word (games.rules.EndedBy), in the state and the
list alike."""
ENDED_BY = typing.get_args(EndedBy)
PlayerKind = Literal["registered", "guest", "bot", "computer", "named"]
AccountKind = Literal["registered", "guest", "bot", "computer"]
Game = Literal["tavla", "long-nardy"]
"""The games' names (games.rules GAMES; a test keeps them equal: a Literal, as the OpenAPI
schema needs one written out)."""
SeekStatus = Literal["waiting", "paired", "cancelled", "expired"]
ACCOUNT_KINDS = typing.get_args(AccountKind)
SEEK_STATUSES = typing.get_args(SeekStatus)
MATCH_STATUSES = typing.get_args(Status)
Action = Literal[
    "roll", "play", "double", "take", "drop", "resign", "resign-match", "accept", "reject",
    "join", "abort", "rematch",
]  # fmt: skip
EventType = Literal[
    "match_created", "player_joined", "opening_roll", "rolled", "moved", "passed",
    "cube_offered", "cube_taken", "cube_dropped", "resign_offered", "resign_accepted",
    "resign_rejected", "timed_out", "forfeited", "match_resigned", "aborted", "rematch_offered",
    "marked_unrated",
]  # fmt: skip
"""The stored event types (matches/store/events.py EVENT_TYPES; a test keeps them equal)."""


@dataclass(frozen=True, slots=True)
class Who:
    """A seat, and whether it is the caller's side ("you") or the other ("opponent")."""

    seat: Annotated[int, "0 or 1."]
    who: WhoName


@dataclass(frozen=True, slots=True)
class SideCount:
    you: int
    opponent: int


@dataclass(frozen=True, slots=True)
class Head:
    point: Annotated[int, "The head in your numbering: 24 yours, 12 the opponent's."]
    checkers: Annotated[int, "Checkers still on it."]


@dataclass(frozen=True, slots=True)
class Heads:
    """Long nardy: where each player started all 15 checkers (at most one leaves per turn)."""

    you: Head
    opponent: Head


@dataclass(frozen=True, slots=True)
class Board:
    """A position from one side. Long nardy: both players move the same way round; yours
    from 24 down to 1, the opponent's from your 12 down to 1, then 24 down to 13 (his home
    is your 13-18); no bar, nothing is hit."""

    points: Annotated[list[int], "points[i] is point i+1 in your numbering; positive: yours."]
    bar: Annotated[SideCount | None, "null: long nardy has no bar."]
    off: SideCount
    heads: Annotated[Heads | None, "Long nardy's heads; null in tavla."]


@dataclass(frozen=True, slots=True)
class Step:
    frm: Annotated[int, Key("from"), "25 = the bar."]
    to: Annotated[int, "0 = borne off."]
    hit: bool


@dataclass(frozen=True, slots=True)
class LegalPlay:
    notation: str
    steps: list[Step]
    position_id: Annotated[
        str | None,
        "The position after the play, opponent on roll (as gnubg); null in long nardy.",
    ]
    board: Annotated[
        Board | None,
        "Long nardy: the position after the play, from the mover's side; null in tavla (use"
        " position_id).",
    ]


@dataclass(frozen=True, slots=True)
class RulesPlay:
    notation: str
    steps: list[Step]
    position_id: Annotated[
        str | None,
        "The position after the play, opponent on roll (as gnubg); null in long nardy.",
    ]
    board: Annotated[Board, "The position after the play, from the mover's side."]


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    username: str
    display_name: str
    kind: PlayerKind
    rating: Annotated[
        float | None,
        "His FIBS rating in the match's game now (docs/ratings.md); null: guests, the"
        " computer, players without an account.",
    ]


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """Seconds: free delay per move, reserve per match, cap per move, reconnection grace."""

    delay: float
    reserve: float
    max_move: float
    reconnect: float


@dataclass(frozen=True, slots=True)
class Settings:
    game: Annotated[Game, "tavla or long-nardy (docs/long-nardy.md), fixed at creation."]
    mode: Mode
    length: Annotated[int, "Points to win; 0 = money play."]
    cube: bool
    crawford: bool
    jacoby: bool
    backgammon_value: Literal[2, 3]
    next_game_starter: Literal["opening_roll", "winner"]
    computer_level: str | None
    clock: Annotated[ClockSettings | None, "null: no clock."]
    public: bool
    rated: Annotated[
        bool,
        "Whether the match will count for the ratings: created rated and every player seated"
        " rated (registered players, bots; an empty seat may still get one). False: hot-seat,"
        " computer, money play, a guest in a seat, a custom clock shorter than the rated"
        " minimum, created unrated or marked unrated by staff. A rated match counts only"
        " after a few turns of each side and within the pair's daily cap (docs/ratings.md).",
    ]
    hints: Annotated[
        bool,
        "Whether the players may ask for hints (GET /matches/{id}/hint): against the computer,"
        " in hot-seat, and in unrated matches created with hints (never a rated one).",
    ] = False


@dataclass(frozen=True, slots=True)
class Lobby:
    open_challenge: bool
    invite_code: Annotated[str | None, "Shown to the match's players only."]
    reserved_for: Annotated[str | None, "The username a rematch is offered to."]
    rematch_of: UUID | None
    rematch: UUID | None
    imported: bool


@dataclass(frozen=True, slots=True)
class Cube:
    value: int
    owner: Annotated[Who | None, "null: centred."]
    offered: bool
    in_use: bool


@dataclass(frozen=True, slots=True)
class Crawford:
    rule: bool
    crawford_game: bool
    post_crawford: bool


@dataclass(frozen=True, slots=True)
class Score:
    you: int
    opponent: int
    seats: list[int]
    length: int


@dataclass(frozen=True, slots=True)
class Resignation:
    offered_by: Who
    value: Annotated[int, "1 single, 2 gammon, 3 backgammon (long nardy: 1 oyn, 2 mars)."]
    points: int


@dataclass(frozen=True, slots=True)
class Result:
    winner: Annotated[Who | None, "null: aborted, nobody won."]
    ended_by: EndedBy | None
    score: list[int]


@dataclass(frozen=True, slots=True)
class GameResult:
    number: int
    winner: Who
    points: int
    kind: Annotated[
        Literal["single", "gammon", "backgammon"],
        "Long nardy: single is oyn (1 point), gammon is mars (2).",
    ]
    cube: int
    ended_by: EndedBy


@dataclass(frozen=True, slots=True)
class Gnubg:
    """GNU Backgammon's IDs of the position and match (null in long nardy: gnubg has none)."""

    position_id: str | None
    match_id: str | None


@dataclass(frozen=True, slots=True)
class Side:
    """Whose eyes a state is shown through: `seat`, and the caller's `role` in the match."""

    seat: Annotated[int, "The seat the board is shown from."]
    role: Literal["player", "hotseat", "spectator"]
    seats: Annotated[list[int], "Your own seats."]


@dataclass(frozen=True, slots=True)
class TimeLeft:
    delay: Annotated[float, "Free seconds left in the running move."]
    reserve: Annotated[float, "Seconds left in the match reserve."]


@dataclass(frozen=True, slots=True)
class ClockState:
    """README "Clocks": what is left on each side now, and when the running move is lost."""

    settings: ClockSettings
    running: Annotated[Who | None, "Whose move runs."]
    deadline: Annotated[datetime | None, "When the running move is lost on time."]
    you: TimeLeft
    opponent: TimeLeft
    seats: list[TimeLeft]
    reconnect: Annotated[float, "Seconds a player may be gone before he forfeits."]
    now: Annotated[datetime, "The server's time, to correct the client's clock."]


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match from the caller's side."""

    id: UUID
    version: Annotated[int, "Send it back as If-Match / expected_version."]
    status: Status
    settings: Settings
    players: Annotated[list[Player | None], "Seat 0 and seat 1; null: the seat is free."]
    side: Side
    lobby: Lobby
    game: int
    phase: Phase
    board: Board
    pips: SideCount
    dice: list[int] | None
    turn: Annotated[Who | None, "The player whose turn it is (the roller)."]
    to_act: Annotated[Who | None, "Who must act now (the opponent while answering a double)."]
    actions: Annotated[list[Action], "What you may do now (the endpoint names)."]
    legal_plays: Annotated[list[LegalPlay], "When you must play: every option."]
    first_turn: Annotated[
        bool | None,
        "Long nardy: the player on turn is on his first turn of the game (6-6, 4-4 or 3-3"
        " may then take two checkers off the head); null in tavla.",
    ]
    cube: Cube
    crawford: Crawford
    score: Score
    resignation: Resignation | None
    clock: Annotated[ClockState | None, "null: no clock."]
    result: Result | None
    games: list[GameResult]
    gnubg: Gnubg
    moves: int
    created_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match in a list, from the projected row (no replay)."""

    id: UUID
    status: Status
    settings: Settings
    players: Annotated[list[Player | None], "Seat 0 and seat 1; null: the seat is free."]
    score: list[int]
    to_act: Annotated[Who | None, "Who must act now."]
    winner: Annotated[int | None, "The seat that won the match."]
    ended_by: EndedBy | None
    version: int
    lobby: Lobby
    created_at: datetime
    last_move_at: datetime | None


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    type: EventType
    at: datetime
    data: Annotated[dict[str, Any], "The event's payload; seats are 0 and 1."]


@dataclass(frozen=True, slots=True)
class Events:
    version: int
    events: list[Event]


@dataclass(frozen=True, slots=True)
class PlayBoards:
    seq: Annotated[int, "The `moved` event."]
    seat: Annotated[int, "Who played it."]
    boards: Annotated[list[Board], "The board after each of its steps, in order."]


@dataclass(frozen=True, slots=True)
class Boards:
    """A match's plays drawn step by step, from one seat's side (`seat`), by the server."""

    version: int
    seat: Annotated[int, "The side the boards are seen from."]
    plays: list[PlayBoards]


@dataclass(frozen=True, slots=True)
class NextSteps:
    steps_so_far: list[Step]
    next_steps: list[Step]
    complete: Annotated[bool, "The steps so far are a whole legal play."]
    dice_to_use: Annotated[int, "How many dice a legal play uses."]
    board: Annotated[Board, "The board after the steps so far, from the mover's side."]
    pips: Annotated[SideCount, "The pip counts after the steps so far (you: the mover)."]


@dataclass(frozen=True, slots=True)
class RulesPlays:
    game: Game
    position_id: Annotated[str | None, "The position asked about (tavla); null in long nardy."]
    dice: list[int]
    plays: Annotated[list[RulesPlay], "The page of plays asked for (`offset`, `limit`)."]
    total: Annotated[int, "How many legal plays there are in all."]


# -- players, ratings, quick pairing (docs/ratings.md) -------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player named in a list (his page: GET /players/{username})."""

    username: str
    display_name: str
    kind: AccountKind


@dataclass(frozen=True, slots=True)
class GameRating:
    game: Game
    rating: Annotated[float, "FIBS rating; everyone starts at 1500."]
    experience: Annotated[int, "The sum of the lengths of his rated matches in this game."]
    matches: Annotated[int, "Rated matches."]
    wins: int
    losses: int
    last_match_at: datetime | None


@dataclass(frozen=True, slots=True)
class MatchCounts:
    """Every match he sat in, by outcome (rated or not, any mode)."""

    finished: int
    won: int
    lost: int
    aborted: int
    playing: Annotated[int, "Active now."]


@dataclass(frozen=True, slots=True)
class EarlyExits:
    """Online matches he left before moving (docs/ratings.md, "Abuse")."""

    aborted: Annotated[int, "Matches he aborted after the opponent sat down."]
    timeout: Annotated[int, "Lost on time before his first move."]
    forfeit: Annotated[int, "Forfeited (gone) before his first move."]
    recent: Annotated[int, "Of these, how many count now for the seek queue's rule."]
    seek_refused_until: Annotated[
        datetime | None, "The seek queue refuses him until then; null: it does not."
    ]


@dataclass(frozen=True, slots=True)
class Viewer:
    """You and this player (issue 28)."""

    following: bool
    blocked: Annotated[bool, "You blocked him."]


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A player's page: who he is, his ratings per game, his matches."""

    username: str
    display_name: str
    kind: AccountKind
    rated: Annotated[bool, "Registered players and bots are rated; guests and the computer not."]
    ratings: Annotated[list[GameRating], "One per game he has played rated matches in."]
    matches: MatchCounts
    early_exits: EarlyExits
    joined: datetime
    performance: Annotated[
        list[GamePerformance],
        "His PR per game over his analysed rated matches (docs/analysis.md); [] when none.",
    ]
    viewer: Annotated[Viewer | None, "You and him: null when anonymous or yourself."] = None


@dataclass(frozen=True, slots=True)
class MatchPr:
    """His Performance Rating in one analysed rated match."""

    match: UUID
    date: Annotated[datetime, "When the match finished."]
    pr: Annotated[float, "500 x his error per unforced decision (lower is better)."]


@dataclass(frozen=True, slots=True)
class GamePerformance:
    """A player's analysed rated matches in one game."""

    game: Game
    matches: Annotated[int, "His analysed rated matches in this game."]
    unforced: Annotated[int, "His unforced decisions in them."]
    pr: Annotated[float, "500 x his total error / his unforced decisions, over them all."]
    history: Annotated[list[MatchPr], "Per match, oldest first (the last 100)."]


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """One rated match in a player's history: his rating before and after."""

    match: UUID
    game: Game
    finished_at: datetime
    opponent: PlayerRef
    opponent_rating: Annotated[float, "The opponent's rating before the match."]
    length: int
    won: bool
    rating_before: float
    rating_after: float
    change: Annotated[float, "rating_after - rating_before."]
    experience_before: int


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: Annotated[int, "1 = the highest rating."]
    player: PlayerRef
    rating: float
    experience: int
    matches: int
    wins: int
    losses: int


@dataclass(frozen=True, slots=True)
class SeekComputer:
    level: Annotated[str, "The computer's level (GET /rules/levels)."]
    after: Annotated[int, "Seconds of waiting after which the computer plays you."]


@dataclass(frozen=True, slots=True)
class Seek:
    """A quick-pairing request and what became of it: poll it until `status` is not
    "waiting" (each poll also says you are still there)."""

    id: UUID
    status: SeekStatus
    game: Game
    length: int
    cube: bool
    clock: Annotated[str, "The clock preset."]
    rating: Annotated[float, "Your rating in the game when you asked (1500: none yet)."]
    rating_min: Annotated[float | None, "Your own bounds on the opponent's rating."]
    rating_max: float | None
    window: Annotated[
        float | None,
        "The rating difference accepted now (it widens as you wait); null: anyone.",
    ]
    waited: Annotated[float, "Seconds since you asked."]
    expires_at: Annotated[
        datetime | None, "A waiting seek expires then unless you poll it (or keep a socket)."
    ]
    match: Annotated[UUID | None, "The match you were paired into: GET /matches/{id}."]
    opponent: Annotated[PlayerRef | None, "Who you play (null: waiting, or the computer)."]
    computer: Annotated[SeekComputer | None, "Play the computer if nobody comes in time."]
    created_at: datetime


# -- the games: each game's board facts (GET /rules/games) -------------------------------------


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What one game's board is and what its rules allow, from the side of the player on roll
    (he moves from his 24 toward his 1): a client draws and explains the board from these."""

    game: Game
    title: Annotated[str, "The game's name in a sentence (English)."]
    bar: Annotated[bool, "Hit checkers go to the bar (tavla); false: no bar, no hitting."]
    heads: Annotated[
        list[int] | None,
        "[your head, the opponent's head] in your numbering (long nardy: [24, 12]); null: none.",
    ]
    direction: Annotated[
        Literal["opposite", "same"],
        "opposite: the opponent moves the other way round (tavla: his 24 is your 1); same: both"
        " players move the same way round (long nardy: his point q is your (q + 11) mod 24 + 1).",
    ]
    start: Annotated[list[int], "The starting points from your side, as `Board.points`."]
    closed_by: Annotated[int, "How many opposing checkers close a point (tavla 2, long nardy 1)."]
    head_rule: Annotated[
        bool,
        "At most one checker leaves the head in a turn; two on a player's first turn of a game"
        " with 6-6, 4-4 or 3-3.",
    ]
    wall: Annotated[
        int | None,
        "A play may not leave this many of your points in a row with no opposing checker past"
        " them (long nardy: 6); null: no such rule.",
    ]
    cube: Annotated[bool, "The doubling cube may be used."]
    backgammons: Annotated[bool, "A backgammon (3 points) exists."]
    gnubg_ids: Annotated[bool, "GNU Backgammon's Position and Match IDs describe its positions."]
    opening_dice_played: Annotated[
        bool, "The opening roll's dice are the first play (else they only pick who starts)."
    ]
    resign_values: Annotated[list[int], "What a player may resign: 1, 2 (and 3) points."]
    results: Annotated[
        list[str], "The names of a win worth 1, 2 (and 3) points: single, gammon, backgammon."
    ]


@dataclass(frozen=True, slots=True)
class Games:
    """Every game the site plays, with its board facts."""

    games: list[GameFacts]
