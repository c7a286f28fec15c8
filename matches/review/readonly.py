"""The admin's read-only pages: staff review, they never add, edit or delete a row by a form.

Matches, events, suspensions and profiles change only through the services' commands (events),
so every review page refuses the three write permissions through this one mixin.
"""

from __future__ import annotations

from django.http import HttpRequest


class ReadOnlyAdmin:
    """Mixed in before `admin.ModelAdmin`: no add, change or delete by a form."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
