"""Compile the translations (.po) into the files Django reads (.mo), in pure Python.

    python -m tavla_project.messages           # compile every matches/locale/*/LC_MESSAGES/*.po

The .mo files are committed, so running the service needs nothing but Python; this (and the
test that checks the .mo files are up to date) needs `polib`, from the `dev` extra. Where GNU
gettext is installed, `python manage.py makemessages -l sr_Latn -l tr` finds new msgids in the
code; edit the .po files by hand otherwise (matches/api/messages.py says how).
"""

from __future__ import annotations

import sys
from pathlib import Path

LOCALE = Path(__file__).resolve().parent.parent / "matches" / "locale"


def catalogs() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def compile_all() -> list[Path]:
    """Write the .mo beside every .po; the .mo paths written."""
    import polib

    written = []
    for po_path in catalogs():
        mo_path = po_path.with_suffix(".mo")
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))
        written.append(mo_path)
    return written


def main() -> int:
    for path in compile_all():
        print(path.relative_to(LOCALE.parent.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
