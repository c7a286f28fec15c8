"""The OpenAPI documentation of the API, kept out of the views: the shared parameters and error
responses (`common`), example bodies (`examples`), the text of every operation (`operations`;
players, ratings and quick pairing in `players`) and the hook that puts the error table in
the description (`hooks`)."""

from . import auth  # noqa: F401  (registers the token scheme with drf-spectacular)
