"""The web client takes what differs between the games from the games' facts (GET /rules/games,
games.js), never by asking which game it is by name; and it never applies a step to a board:
the boards it draws are the server's (docs/architecture.md, "Adding a game"). Both are read
from the modules' text (jsscan.py); each scan is shown to catch what it is for."""

from __future__ import annotations

import re

import pytest

from games.rules import GAMES

from .jsscan import asked_by_name, modules, steps_applied, strip_comments

# the API's names and their form keys (games.js `key`: the name as a form value, a catalog key)
NAMES = sorted(
    {g.name for g in GAMES.values()} | {re.sub(r"\W", "_", g.name) for g in GAMES.values()}
)
MODULES = modules()


def test_the_names_and_modules_are_there() -> None:
    assert {"tavla", "long-nardy", "long_nardy"} <= set(NAMES)
    assert {"board.js", "match.js", "recordpage.js", "games.js", "lobby.js"} <= set(MODULES)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_asks_which_game_it_is_by_name(name: str) -> None:
    """A game's name may be shown or sent to the API; what the game is comes from its facts."""
    assert asked_by_name(MODULES[name], NAMES) == [], name


PLANTED_BY_NAME: dict[str, set[str]] = {
    # what the client did before it took the facts
    'const nardy = model.game === "long-nardy";': {"compared"},
    'const nardy = (s.settings.game || "tavla") === "long-nardy";': {
        "compared",
        "a default game by name",
    },
    'if (game === "tavla") {': {"compared"},
    "if ('long_nardy' !== g.id) return;": {"compared"},
    'const x = "tavla" == game ? 1 : 2;': {"compared"},
    "const y = `tavla` != game;": {"compared"},
    'switch (game) { case "long-nardy": return [1, 2]; }': {"a switch case"},
    'if (["long-nardy"].includes(game)) {}': {"looked for"},
    'if (game.startsWith("long-nardy")) {}': {"looked for"},
    'const values = { tavla: [1, 2, 3], "long-nardy": [1, 2] }[game];': {
        "a key of a table by game"
    },
    'const game = s.settings.game || "tavla";': {"a default game by name"},
    'const game = s.game ?? "long-nardy";': {"a default game by name"},
    "h('p', { text: `${game === 'tavla' ? 'a' : 'b'}` });": {"compared"},
}

ALLOWED = [
    'api.post("/matches", { game: "long-nardy", length: 3 });',  # sent to the API
    'h("option", { value: "tavla" }, t("game.tavla"));',  # shown
    '// if (game === "tavla") the old way',  # a comment
    '/* case "tavla": */ const a = 1;',
    'const url = "http://x/?game=tavla"; // === "tavla"',
    'page.wait_for_selector("#board[data-game=long-nardy]");',
]


@pytest.mark.parametrize("line", sorted(PLANTED_BY_NAME))
def test_the_name_scan_catches_a_planted_case(line: str) -> None:
    found = asked_by_name(strip_comments(line), NAMES)
    assert {how for _, how, _ in found} == PLANTED_BY_NAME[line], found


@pytest.mark.parametrize("line", ALLOWED)
def test_the_name_scan_lets_a_name_be_shown_or_sent(line: str) -> None:
    assert asked_by_name(strip_comments(line), NAMES) == []


def test_the_name_scan_finds_a_case_planted_in_a_real_module() -> None:
    """Planted in the middle of match.js, past its strings, templates and regular expressions."""
    lines = (MODULES["match.js"]).splitlines()
    at = len(lines) // 2
    lines.insert(at, '    if (this.state.settings.game === "long-nardy") return;')
    found = asked_by_name(strip_comments("\n".join(lines)), NAMES)
    assert [(line, how) for line, how, _ in found] == [(at + 1, "compared")]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_applies_a_step_to_a_board(name: str) -> None:
    """A board's counts are written nowhere, derived from another board nowhere, read only where
    the board is drawn (board.js), and the one board made is a game's opening position from its
    facts' `start` (recordpage.js `openingBoard`): the boards drawn during a partial play, the
    other side's play and the record's positions are the server's."""
    assert steps_applied(name, MODULES[name]) == [], name


PLANTED_STEPS = {
    # the plain ways to apply a step [from, to] to a board
    "in place": (
        "function applyStep(board, from, to) {\n"
        "  board.points[from - 1] -= 1;\n"
        "  board.points[to - 1] += 1;\n"
        "}",
        {"a point's count written"},
    ),
    "increments": (
        "function applyStep(b, s) { b.points[s.from - 1]--; ++b.points[s.to - 1]; }",
        {"a point's count written"},
    ),
    "a copy": (
        "const after = (board, f, t) => {\n"
        "  const points = [...board.points];\n"
        "  points[f - 1] -= 1;\n"
        "  points[t - 1] += 1;\n"
        "  return { ...board, points };\n"
        "};",
        {"a point's count written", "a board's points copied or transformed"},
    ),
    "a map": (
        "const next = { ...board, points: board.points.map((n, i) => (i === f - 1 ? n - 1 : n)) };",
        {"a board's points copied or transformed"},
    ),
    "an alias": (
        "const p = board.points;\np[from - 1] = p[from - 1] - 1;",
        {"a board's points taken apart"},
    ),
    "destructured": (
        "const { points, bar } = board;\nconst n = points.length;",
        {"a board's points taken apart"},
    ),
    "a hit to the bar": ("board.bar.opponent += 1;", {"a count on the bar or off written"}),
    "borne off": ("b.off[who]++;", {"a count on the bar or off written"}),
    "a new board": (
        "const b = { points: s.points, bar: null, off: { you: 1, opponent: 0 } };",
        {"a board made"},
    ),
}


@pytest.mark.parametrize("case", sorted(PLANTED_STEPS))
def test_the_step_scan_catches_a_planted_application(case: str) -> None:
    code, expected = PLANTED_STEPS[case]
    found = {what for _, what, _ in steps_applied("match.js", strip_comments(code))}
    assert expected <= found, (case, found)


def test_a_board_is_read_only_where_it_is_drawn() -> None:
    read = "const n = board.points[point - 1]; const m = board.bar.you;"
    assert steps_applied("board.js", read) == []
    assert {what for _, what, _ in steps_applied("match.js", read)} == {"a board's counts read"}


def test_the_step_scan_finds_a_step_planted_in_a_real_module() -> None:
    """An applyStep added to match.js is found; the record page's opening board made anywhere
    else, or not from the facts' `start`, is too."""
    code = MODULES["match.js"] + "\nfunction applyStep(b, s) { b.points[s.from - 1] -= 1; }\n"
    found = {what for _, what, _ in steps_applied("match.js", code)}
    assert found == {"a point's count written", "a board's counts read"}
    page = MODULES["recordpage.js"]
    assert steps_applied("recordpage.js", page) == []
    assert steps_applied("recordpage.js", page.replace("[...g.start]", "[...g.start].fill(0)"))
    moved = steps_applied("lobby.js", page)
    assert [what for _, what, _ in moved] == ["a board made"]


def test_comments_are_blanked_and_code_is_kept() -> None:
    code = (
        'const a = "//not a comment"; // a comment with "tavla"\n'
        "const r = /[\"'/]/g; /* block\n"
        " comment */ const t = `x ${b === 'y' ? `z${c}` : 'w'} // kept`;"
    )
    stripped = strip_comments(code)
    assert len(stripped) == len(code)
    assert stripped.count("\n") == code.count("\n")
    assert '"//not a comment"' in stripped and "with" not in stripped
    assert "/[\"'/]/g" in stripped and "block" not in stripped
    assert "`x ${b === 'y' ? `z${c}` : 'w'} // kept`" in stripped
