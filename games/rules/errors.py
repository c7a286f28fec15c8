"""Typed errors of the rules engine.

Each carries a stable `code` for APIs (its class) and a message a player understands. A
refusal a player meets also carries its `reason` (a stable code of `REFUSALS`) and the values
it names (`params`: point, count, die, ...), so an API can say it in any language from the
code and the values (matches/api/messages.py) without reading the English sentence.
"""

from __future__ import annotations

from typing import Self


def gettext_noop(text: str) -> str:
    """Marks a sentence for translation (GNU gettext's `makemessages` finds it by this name);
    the rules themselves translate nothing (matches/api/messages.py does)."""
    return text


REFUSALS: dict[str, str] = {
    # plays (validate.py)
    "point_closed": gettext_noop(
        "point %(point)s is closed by %(count)s of your opponent's checkers"
    ),
    "must_play_both": gettext_noop("you must play both dice: %(play)s is possible"),
    "must_play_most": gettext_noop(
        "you must play as many %(die)ss as possible (%(count)s): %(play)s is possible"
    ),
    "larger_die": gettext_noop(
        "only one die can be played, so you must play the larger one (%(die)s): %(play)s"
    ),
    "not_legal": gettext_noop("that play is not legal with %(high)s-%(low)s; %(play)s is"),
    "no_checker_on_bar": gettext_noop("you have no checker on the bar"),
    "enter_first": gettext_noop(
        "you have a checker on the bar: it must enter before any other checker moves"
    ),
    "bear_off_home": gettext_noop(
        "you can bear off only when all your checkers are in your home board"
    ),
    "bear_off_higher": gettext_noop(
        "a %(die)s bears off from point %(point)s only when no checker of yours is on a higher"
        " point (you have one on %(top)s)"
    ),
    "no_checker_on_point": gettext_noop("you have no checker on point %(point)s"),
    "no_such_step": gettext_noop("%(step)s is not a step any die you have left can make"),
    "no_finish": gettext_noop("%(step)s leaves no way to finish a legal play: e.g. %(play)s"),
    "no_die_moves": gettext_noop(
        "no die you have left (%(dice)s) moves a checker from %(from)s to %(to)s"
    ),
    "no_dice_left": gettext_noop("you have no dice left to move a checker from %(from)s to %(to)s"),
    "no_move_possible": gettext_noop("no move is possible with %(high)s-%(low)s: the turn passes"),
    "which_blots": gettext_noop("say which blots you hit: %(options)s"),
    "must_move": gettext_noop("you must move: %(high)s-%(low)s can be played, e.g. %(play)s"),
    # notation and dice (notation.py, dice.py)
    "no_such_point": gettext_noop("there is no point %(number)s: points run from 1 to 24"),
    "unreadable_move": gettext_noop(
        "cannot read %(token)s: write each move as from/to, like 24/18, bar/22* or 6/off"
    ),
    "unreadable_dice": gettext_noop(
        "cannot read dice from %(value)s; write them like 31 or [3, 1]"
    ),
    "play_as_text": gettext_noop("a play is written as text, like 24/18 13/10"),
    "repeat_count": gettext_noop("%(token)s: a move can be repeated 1 to 4 times"),
    "off_cannot_move": gettext_noop("%(token)s: a checker that is off cannot move"),
    "no_move_to_bar": gettext_noop("%(token)s: a checker cannot move to the bar"),
    "move_downwards": gettext_noop("%(token)s: checkers move from higher points to lower ones"),
    "step_pair": gettext_noop("each step is a pair [from, to] of point numbers"),
    "not_a_step": gettext_noop(
        "[%(from)s, %(to)s] is not a step: points run 1-24, 25 is the bar, 0 is off,"
        " and checkers move from higher points to lower ones"
    ),
    "dice_range": gettext_noop("dice show 1 to 6, larger first, not %(high)s-%(low)s"),
    "die_range": gettext_noop("a die shows 1 to 6, not %(die)s"),
    "two_dice": gettext_noop("a roll is two dice"),
    # the match (match.py)
    "match_length": gettext_noop("a match is played to 1-%(max)s points, or 0 for money play"),
    "backgammon_value": gettext_noop(
        "a backgammon counts 3 points, or 2 where clubs count it as mars"
    ),
    "jacoby_money": gettext_noop("the Jacoby rule is for money play only"),
    "match_over": gettext_noop("the match is over"),
    "no_such_player": gettext_noop("there is no player %(player)s: players are 0 and 1"),
    "resign_own_turn": gettext_noop("you may resign only on your own turn"),
    "resign_value": gettext_noop("resign a single (1), gammon (2) or backgammon (3) game"),
    "roll_first": gettext_noop("there is nothing to play now: roll first"),
    "not_rolled": gettext_noop("there is nothing to play now: the dice are not rolled"),
    "opening_over": gettext_noop("the opening roll is over"),
    "not_your_turn": gettext_noop("it is not your turn to %(what)s"),
    "nothing_to_answer": gettext_noop("there is nothing to %(what)s now"),
    "only_opponent": gettext_noop("only your opponent can %(what)s"),
    "opening_first": gettext_noop("the game has not started: the opening roll comes first"),
    "phase_roll": gettext_noop("you cannot %(what)s now: roll the dice first"),
    "phase_play": gettext_noop("you cannot %(what)s now: you have rolled, play your dice"),
    "phase_doubled": gettext_noop("you cannot %(what)s now: the double must be taken or dropped"),
    "phase_resigning": gettext_noop(
        "you cannot %(what)s now: the resignation must be accepted or rejected"
    ),
    "no_cube": gettext_noop("this match is played without the doubling cube"),
    # long nardy (its game in nardy.py; match.py)
    "nardy_no_cube": gettext_noop("long nardy is played without the doubling cube"),
    "nardy_no_jacoby": gettext_noop("long nardy has no Jacoby rule (no cube)"),
    "nardy_resign_value": gettext_noop("resign an oyn (1) or a mars (2)"),
    "nardy_no_bar": gettext_noop("long nardy has no bar"),
    "nardy_point_held": gettext_noop(
        "point %(to)s is held by your opponent: in long nardy one checker closes it"
    ),
    "nardy_head": gettext_noop(
        "only one checker may leave the head (24) in a turn; two only on your first turn of a"
        " game with 6-6, 4-4 or 3-3"
    ),
    "nardy_wall_example": gettext_noop(
        "that play leaves six of your points in a row with none of your opponent's checkers"
        " past them; %(play)s is legal"
    ),
    "nardy_wall": gettext_noop(
        "that play leaves six of your points in a row with none of your opponent's checkers"
        " past them"
    ),
    # the cube (match.py)
    "crawford_no_double": gettext_noop("no doubling in the Crawford game"),
    "double_own_turn": gettext_noop("you may double only on your own turn"),
    "double_before_roll": gettext_noop("you may double only before you roll"),
    "cube_at_max": gettext_noop("the cube is at its maximum of %(max)s"),
    "cube_owner": gettext_noop("only the player who owns the cube may redouble"),
    # settings and the clock (match.py, games.py, clock.py)
    "next_game_starter": gettext_noop("the next game starts with an opening roll or the winner"),
    "no_such_game": gettext_noop("the games are %(games)s, not %(name)s"),
    "clock_object": gettext_noop(
        "a clock is {delay, reserve, max_move, reconnect} in whole seconds"
    ),
    "clock_field": gettext_noop("unknown clock field %(field)s"),
    "clock_seconds": gettext_noop("clock %(field)s must be a number of seconds"),
    "clock_whole": gettext_noop("clock %(field)s must be whole seconds, not %(value)s"),
    "clock_negative": gettext_noop("clock %(field)s must be 0 seconds or more"),
    "clock_max_move": gettext_noop("clock max_move must be more than 0 seconds"),
    # positions (position.py, nardy.py)
    "position_object": gettext_noop("a position is an object with board, bar and off"),
    "nardy_position_object": gettext_noop("a long nardy position is an object with board and off"),
    "position_field": gettext_noop("the position has no %(field)s"),
    "position_list": gettext_noop("%(field)s must be a list of %(length)s integers"),
    "position_integers": gettext_noop("%(field)s must hold integers only"),
    "board_points": gettext_noop("the board has %(count)s points, not 24"),
    "negative_counts": gettext_noop("bar and off counts cannot be negative"),
    "checkers_on_roll": gettext_noop("the player on roll has %(count)s checkers, not 15"),
    "checkers_opponent": gettext_noop("the opponent has %(count)s checkers, not 15"),
    # gnubg Position IDs and Match IDs (gnubgid.py, match.py)
    "nardy_no_ids": gettext_noop("gnubg has no long nardy: there is no Position ID or Match ID"),
    "id_type": gettext_noop("a %(what)s is a string, not %(type)s"),
    "id_length": gettext_noop("a %(what)s has %(length)s characters, not %(count)s: %(id)s"),
    "id_character": gettext_noop(
        "%(character)s is not a Base64 character (A-Z, a-z, 0-9, + or /) in %(id)s"
    ),
    "id_spare_bits": gettext_noop(
        "the last character of %(what)s %(id)s is impossible (spare bits set)"
    ),
    "gnubg_board": gettext_noop("a gnubg board is two lists of 25 counts"),
    "gnubg_counts_on_roll": gettext_noop("the player on roll has a negative or non-integer count"),
    "gnubg_counts_waiting": gettext_noop(
        "the player not on roll has a negative or non-integer count"
    ),
    "gnubg_checkers_on_roll": gettext_noop(
        "the player on roll has %(count)s checkers, more than 15"
    ),
    "gnubg_checkers_waiting": gettext_noop(
        "the player not on roll has %(count)s checkers, more than 15"
    ),
    "gnubg_point_both": gettext_noop(
        "both players have checkers on point %(point)s (of the player on roll)"
    ),
    "gnubg_bars_closed": gettext_noop("both players are on the bar against closed home boards"),
    "position_id_slots": gettext_noop("Position ID %(id)s has checkers past the last slot"),
    "position_id_checkers": gettext_noop("Position ID %(id)s holds more than 30 checkers"),
    "position_id_board": gettext_noop("Position ID %(id)s: %(problem)s"),
    "id_cube_value": gettext_noop(
        "the cube value must be a power of two from 1 to 32768, not %(value)s"
    ),
    "id_cube_owner": gettext_noop("the cube owner is None (centred), 0 or 1, not %(value)s"),
    "id_player": gettext_noop("%(field)s is player 0 or 1, not %(value)s"),
    "id_game_state": gettext_noop("unknown game state %(value)s"),
    "id_resignation": gettext_noop("a resignation is 0 (none) to 3 (backgammon), not %(value)s"),
    "id_dice": gettext_noop("dice are two numbers from 1 to 6 or None, not %(value)s"),
    "id_match_length": gettext_noop("the match length must be 0 to 32767, not %(value)s"),
    "id_score": gettext_noop("the score is two numbers from 0 to 32767, not %(value)s"),
    "match_id_owner": gettext_noop("Match ID %(id)s: cube owner bits are 10, which means nothing"),
    "match_id_state": gettext_noop("Match ID %(id)s: unknown game state %(state)s"),
    "match_id_die": gettext_noop("Match ID %(id)s: a die shows %(die)s"),
    "match_id_one_die": gettext_noop("Match ID %(id)s: one die is rolled and the other is not"),
    "match_id_crawford": gettext_noop("Match ID %(id)s: a Crawford game in money play"),
    # .mat files (matfile.py; the API's import)
    "mat_encoding": gettext_noop("the file is not UTF-8 text"),
    "mat_not_replayable": gettext_noop("the file cannot be replayed: %(problem)s"),
    "mat_tavla_only": gettext_noop(".mat files hold tavla matches (gnubg has no long nardy)"),
    "mat_no_length": gettext_noop("no 'N point match' line"),
    "mat_no_games": gettext_noop("the file has no games"),
    "mat_row_first": gettext_noop("line %(line)s: a move row before any 'Game' line"),
    "mat_wins_first": gettext_noop("line %(line)s: 'Wins' before any 'Game' line"),
    "mat_unreadable": gettext_noop("line %(line)s: cannot read %(text)s"),
    "mat_game_refused": gettext_noop("game %(game)s: %(problem)s"),
    "mat_move_refused": gettext_noop("game %(game)s, move %(row)s: %(problem)s"),
    "mat_play_refused": gettext_noop(
        "game %(game)s, move %(row)s: %(dice)s: %(play)s: %(problem)s"
    ),
    "mat_no_play_refused": gettext_noop(
        "game %(game)s, move %(row)s: %(dice)s: (no move): %(problem)s"
    ),
    "mat_match_over": gettext_noop("game %(game)s: the match was already over"),
    "mat_score": gettext_noop(
        "game %(game)s: the file says the score is %(written)s, the games before make it %(found)s"
    ),
    "mat_no_dice": gettext_noop("game %(game)s, move %(row)s: no dice"),
    "mat_opening_double": gettext_noop("game %(game)s, move %(row)s: the opening roll is a double"),
    "mat_no_result": gettext_noop("game %(game)s: the game has no result"),
    "mat_result": gettext_noop(
        "game %(game)s: the file says player %(player)s wins %(points)s, the rules give player"
        " %(winner)s %(given)s"
    ),
    "mat_cube_points": gettext_noop(
        "game %(game)s: %(points)s points cannot be won at cube %(cube)s"
    ),
}
"""Every reason a player is refused, by its stable code: the English sentence with the values
it names. The codes are the API's `detail.rule`; never rename one."""


class RulesError(ValueError):
    """Base class: something the rules do not allow or cannot read.

    `reason` (a key of `REFUSALS`, or None for a sentence of its own) and `params` (the values
    the sentence names) say the refusal as data; `str(error)` is the English sentence.
    """

    code = "rules_error"
    reason: str | None = None
    params: dict[str, object]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.params = {}

    @classmethod
    def because(cls, reason: str, /, *args: object, **params: object) -> Self:
        """The error for a reason of `REFUSALS` with its values (`args`: the class's own
        leading arguments, e.g. InvalidSettings' field). A value whose name is a keyword
        (`from`) is given as `**{"from": ...}`. A value may be another refusal (`problem`:
        why a .mat file or a Position ID is refused), said in the reader's language too."""
        error = cls(*args, REFUSALS[reason] % params)
        error.reason = reason
        error.params = params
        return error


class InvalidPosition(RulesError):
    """A position that cannot exist (wrong checker counts, malformed data)."""

    code = "invalid_position"


class InvalidDice(RulesError):
    """Dice that are not two numbers from 1 to 6."""

    code = "invalid_dice"


class InvalidNotation(RulesError):
    """Text that is not step notation such as "24/18 13/10" or "bar/22*"."""

    code = "invalid_notation"


class IllegalPlay(RulesError):
    """A well-formed play that the rules forbid in this position with these dice."""

    code = "illegal_play"


class IllegalAction(RulesError):
    """An action (roll, double, take, resign, ...) that is not allowed now."""

    code = "illegal_action"


class NotYourTurn(IllegalAction):
    """The action is allowed now, but to the other player."""

    code = "not_your_turn"


class NoCube(IllegalAction):
    """A double in a game played without the doubling cube (long nardy has none)."""

    code = "no_cube_in_long_nardy"


class InvalidSettings(RulesError):
    """Match or clock settings that are not allowed; `field` names the setting at fault."""

    code = "invalid_settings"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class InvalidId(RulesError):
    """A gnubg Position ID or Match ID that does not decode."""

    code = "invalid_id"


class InvalidMatchFile(RulesError):
    """A .mat match file that cannot be read."""

    code = "invalid_match_file"
