"""What a player may be called: display names (and usernames) that are safe to show anywhere
and do not pass for someone they are not.

Refused in a display name: control characters (the terminal's escape `\\x1b` among them),
format characters (the bidirectional overrides and isolates U+202A-U+202E, U+2066-U+2069 that
turn "ana" into a name read backwards, zero-width joiners, the BOM), line and paragraph
separators, private-use and unassigned code points, and runs of combining marks (text that
spills over its neighbours). Refused in a display name and a username: anything that reads,
once case, accents, spacing, punctuation and look-alike digits are set aside, as the computer
("Computer", "gnubg", "Računar", "Bilgisayar") or as the site's staff ("admin", "Moderator",
"tavla support", "5ystem").
"""

from __future__ import annotations

import unicodedata

REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
MAX_COMBINING_RUN = 2
# Look-alikes folded before comparing: 0dmin, adm1n, 5ystem, c0mputer, $taff, @dmin.
_FOLD = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a"})
_FOLD_EXTRA = str.maketrans({"$": "s", "|": "l", "!": "i"})
# Names that start with these are the computer's or the staff's.
RESERVED_STARTS = (
    "computer",
    "gnubg",
    "racunar",  # Serbian: the computer
    "bilgisayar",  # Turkish: the computer
    "admin",
    "moderator",
    "yonetici",  # Turkish: administrator
    "staff",
    "system",
)
# Short words refused only as the whole name (as a prefix they would catch real names).
RESERVED_WHOLE = (
    "mod",
    "bot",
    "root",
    "support",
    "official",
    "server",
    "sysop",
    "tavla",
    "tavlateam",
    "tavlasupport",
    "tavlastaff",
    "tavlaofficial",
)


def skeleton(name: str) -> str:
    """The name with case, accents, look-alike digits, spaces and punctuation set aside."""
    text = unicodedata.normalize("NFKD", name).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u0131", "i").translate(_FOLD).translate(_FOLD_EXTRA)  # dotless i
    return "".join(c for c in text if c.isalnum())


def name_key(name: str) -> str:
    """The key two names share when one passes for the other ("Ana", "4na", "ANA "; "Ali"
    and "A1i" and "All"...): the skeleton with l and i made one letter."""
    return skeleton(name).replace("l", "i")[:64]


def impersonates(name: str) -> bool:
    """Whether the name passes for the computer or the staff."""
    bare = skeleton(name)
    variants = {bare, bare.replace("i", "l"), bare.replace("l", "i")}
    return any(v.startswith(RESERVED_STARTS) or v in RESERVED_WHOLE for v in variants)


def display_name_problem(name: str) -> str | None:
    """Why a display name is refused, or None when it is fine."""
    problem = characters_problem(name)
    if problem is None and impersonates(name):
        return "this name is kept for the computer and the site's staff"
    return problem


def imported_name_problem(name: str) -> str | None:
    """Why a player's name in an imported .mat file is refused: the characters of a display
    name (it is shown on the same pages and written into exports). Not the reserved names:
    an imported seat is nobody's account, and gnubg's own files call a player "gnubgA"."""
    if len(name) > 40:
        return "at most 40 characters"
    return characters_problem(name)


def characters_problem(name: str) -> str | None:
    """Why the characters of a name are refused (control and format characters, odd spaces,
    runs of accents), or None."""
    run = 0
    for char in name:
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES:
            return "use letters, digits, spaces and punctuation only (no control characters)"
        if category.startswith("M"):
            run += 1
            if run > MAX_COMBINING_RUN:
                return "too many accents on one letter"
        else:
            run = 0
        if category.startswith("Z") and char != " ":
            return "use plain spaces only"
    return None
