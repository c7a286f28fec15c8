"""Static checks of the web client's modules (matches/web/static/web), read as text: no module
asks which game it is by name (the game's facts, GET /rules/games, say what differs), and no
module applies a step to a board (the server's boards are drawn as they come)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "matches" / "web" / "static" / "web"

# a `/` after one of these (or at the start) begins a regular expression, not a division
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}


def strip_comments(source: str) -> str:
    """The code with its comments blanked (newlines kept, so lines still count); strings,
    template literals (with their `${...}` code) and regular expressions are kept as they are."""
    out: list[str] = []
    i, n = 0, len(source)
    braces: list[int] = []  # for each open `${`: the brace depth of its code
    depth = 0

    def last_code_char() -> str:
        for ch in reversed(out):
            if not ch.isspace():
                return ch[-1]
        return ""

    def template(i: int) -> int:
        """From after an opening backtick: copy up to its close, or to a `${` (returns the
        index after it, with the code's brace depth pushed)."""
        nonlocal depth
        while i < n:
            ch = source[i]
            if ch == "\\":
                out.append(source[i : i + 2])
                i += 2
            elif ch == "`":
                out.append(ch)
                return i + 1
            elif source.startswith("${", i):
                out.append("${")
                braces.append(depth)
                depth += 1
                return i + 2
            else:
                out.append(ch)
                i += 1
        return i

    while i < n:
        ch = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", source[i:end]))
            i = end
        elif ch in "\"'":
            j = i + 1
            while j < n and source[j] != ch and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append(source[i : j + 1])
            i = j + 1
        elif ch == "`":
            out.append(ch)
            i = template(i + 1)
        elif ch == "/" and (
            last_code_char() in _REGEX_BEFORE or re.search(r"\breturn\s*$", "".join(out[-8:]))
        ):
            j, in_class = i + 1, False
            while j < n and source[j] != "\n":
                if source[j] == "\\":
                    j += 2
                    continue
                if source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                elif source[j] == "/" and not in_class:
                    break
                j += 1
            out.append(source[i : j + 1])
            i = j + 1
        elif ch == "{":
            depth += 1
            out.append(ch)
            i += 1
        elif ch == "}":
            depth -= 1
            if braces and depth == braces[-1]:  # the end of a `${...}`: back in the template
                braces.pop()
                out.append(ch)
                i = template(i + 1)
            else:
                out.append(ch)
                i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def modules() -> dict[str, str]:
    """Every module of the client (catalogs too), by its path under static/web, comments
    blanked."""
    return {
        p.relative_to(STATIC).as_posix(): strip_comments(p.read_text())
        for p in sorted(STATIC.rglob("*.js"))
    }


def line_of(code: str, at: int) -> int:
    return code.count("\n", 0, at) + 1


# -- asking which game it is by name ------------------------------------------------------------


def name_patterns(names: Iterable[str]) -> dict[str, re.Pattern[str]]:
    """The ways code asks by a game's name (`names`: the API's names and their form keys)."""
    alt = "|".join(sorted((re.escape(name) for name in names), key=len, reverse=True))
    lit = "(?:" + "|".join(f"{q}(?:{alt}){q}" for q in "\"'`") + ")"
    return {
        "compared": re.compile(rf"[!=]==?\s*{lit}|{lit}\s*[!=]==?"),
        "a switch case": re.compile(rf"\bcase\s+{lit}\s*:"),
        "looked for": re.compile(
            rf"\.(?:includes|indexOf|lastIndexOf|startsWith|endsWith|has|match|test)\(\s*{lit}"
            rf"|\[[^\[\]]*{lit}[^\[\]]*\]\s*\)?\s*\.\s*(?:includes|indexOf|has)\b"
        ),
        "a key of a table by game": re.compile(rf"(?:[{{,]\s*)(?:{lit}|\b(?:{alt})\b)\s*:(?!:)"),
        "a default game by name": re.compile(rf"(?:\|\||\?\?)\s*{lit}"),
    }


def asked_by_name(code: str, names: Iterable[str]) -> list[tuple[int, str, str]]:
    """(line, how, text) of each place `code` asks which game it is by a game's name."""
    found = []
    for how, pattern in name_patterns(names).items():
        for m in pattern.finditer(code):
            found.append((line_of(code, m.start()), how, m.group(0).strip()))
    return sorted(found)


# -- applying steps to a board ------------------------------------------------------------------

# A board is {points: [24 counts], bar: {you, opponent} | null, off: {you, opponent}, heads}.
# Applying a step means taking a checker from one count and putting it on another: written in
# place, or a new board made from the old one's counts. The client only reads a board's counts
# where it draws them (board.js), and makes one board only: a game's opening position from its
# facts' `start` (recordpage.js `openingBoard`).
_ASSIGN = r"(?:[-+*/%]?=(?!=)|\+\+|--)"
_SIDE = r"(?:you|opponent)"
BOARD_WRITES = {
    "a point's count written": re.compile(
        rf"\bpoints\s*\[[^\]]*\]\s*{_ASSIGN}|(?:\+\+|--)\s*[\w.$]*\bpoints\s*\["
    ),
    "a count on the bar or off written": re.compile(
        rf"\.(?:bar|off)\s*(?:\.\s*{_SIDE}\b|\[[^\]]*\])\s*{_ASSIGN}"
        rf"|(?:\+\+|--)\s*[\w.$]*\.(?:bar|off)\s*(?:\.\s*{_SIDE}\b|\[)"
    ),
    "a board's points copied or transformed": re.compile(
        r"\.points\s*\.\s*(?:map|slice|splice|fill|with|concat|copyWithin|toSpliced|reverse"
        r"|toReversed|forEach|reduce|entries)\s*\("
        r"|\[\s*\.\.\.\s*[\w.$]*\.points\s*\]"
        r"|(?:Array\.from|structuredClone|Object\.assign)\s*\(\s*[\w.$]*\.(?:points|board)\b"
    ),
    "a board's points taken apart": re.compile(
        r"(?:\b(?:const|let|var)\s+[\w$]+\s*=\s*[\w.$]*\.points\s*[;,\n)]"
        r"|\{[^{}]*\bpoints\b[^{}]*\}\s*=(?!=))"
    ),
}
BOARD_READS = re.compile(rf"\.points\s*\[|\.(?:bar|off)\s*(?:\.\s*{_SIDE}\b|\[)")
BOARD_MADE = re.compile(r"\boff\s*:\s*\{")
DRAWING = "board.js"


def steps_applied(name: str, code: str) -> list[tuple[int, str, str]]:
    """(line, what, text) of each place module `name` writes, derives, reads outside the
    drawing, or makes a board other than the opening position from the game's facts."""
    found = []
    for what, pattern in BOARD_WRITES.items():
        for m in pattern.finditer(code):
            found.append((line_of(code, m.start()), what, m.group(0).strip()))
    if name != DRAWING:
        for m in BOARD_READS.finditer(code):
            found.append((line_of(code, m.start()), "a board's counts read", m.group(0).strip()))
    opening = re.search(r"export const openingBoard = \(g\) => \(\{.*?\}\);", code, re.S)
    for m in BOARD_MADE.finditer(code):
        inside = (
            name == "recordpage.js"
            and opening is not None
            and opening.start() <= m.start() < opening.end()
            and re.search(r"\bpoints:\s*\[\.\.\.g\.start\]\s*,", opening.group(0)) is not None
        )
        if not inside:
            found.append((line_of(code, m.start()), "a board made", m.group(0).strip()))
    return sorted(found)
