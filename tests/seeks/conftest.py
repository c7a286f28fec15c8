"""The API tests' settings (throttles out of the way) for the seeks' tests too."""

from tests.api.conftest import _api_settings

__all__ = ["_api_settings"]
