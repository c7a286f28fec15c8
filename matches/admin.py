"""Django's admin autodiscovery imports `<app>.admin`; the review lives in `matches.review`."""

from .review import admin  # noqa: F401
