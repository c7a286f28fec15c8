"""Django's admin autodiscovery imports `<app>.admin`; the review lives in `matches.review`."""

from .review import admin, tournaments  # noqa: F401
