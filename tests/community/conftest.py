"""The API tests' settings (throttles out of the way) for the community tests too."""

from tests.api.conftest import _api_settings, make_player

__all__ = ["_api_settings", "make_player"]
