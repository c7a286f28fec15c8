"""A bounded schemathesis run of the whole API against its own OpenAPI schema: whatever the
generated requests (valid ones and deliberately invalid ones), no response is a server error,
every status code and content type is one the schema declares, and every response body is
valid against the schema of its status and content type."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from matches.api.authentication import digest
from matches.api.models import ApiToken
from tests.api.conftest import create, signup

EXAMPLES = 8  # per operation and mode: ~30 operations x 2 modes, a few hundred requests
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@contextmanager
def connection_kept() -> Iterator[None]:
    """The real WSGI handler runs in the test's transaction: like Django's test client, it
    must not close the connection when a request finishes."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.django_db
def test_no_server_errors_anywhere() -> None:
    ana = signup("fuzzer")
    online = create(ana, mode="online", length=3)
    hotseat = create(ana, mode="hotseat", length=1, cube=True)
    nardy = create(ana, game="long-nardy", mode="hotseat", length=3)  # docs/long-nardy.md
    match_ids = [online["id"], hotseat["id"], nardy["id"]]
    code = online["lobby"]["invite_code"]
    with connection_kept():
        _fuzz(ana.token, ana.user_id, match_ids, code)


def _fuzz(token: str, user_id: int, match_ids: list[str], code: str) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema?format=json", get_wsgi_application())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 28
    calls = 0

    for operation in operations:
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                database=None,
                phases=[Phase.explicit, Phase.generate],
                derandomize=True,
            )
            def run(case) -> None:  # type: ignore[no-untyped-def]
                nonlocal calls
                pick = hash(repr(case.body)) % 4
                params = case.path_parameters or {}
                if "match_id" in params and pick < 3:
                    params["match_id"] = match_ids[pick]
                if "code" in params and pick == 0:
                    params["code"] = code
                headers = {"Authorization": f"Token {token}"} if pick != 3 else {}
                calls += 1
                # a fuzzed logout (everywhere, too) deleted the token: give it back
                ApiToken.objects.get_or_create(digest=digest(token), defaults={"user_id": user_id})
                case.call_and_validate(headers=headers, checks=CHECKS)

            try:
                run()
            except Unsatisfiable:
                # nothing to get wrong (no parameters, no body): no negative case exists
                assert mode == schemathesis.GenerationMode.NEGATIVE, operation.label
    print(f"schemathesis: {calls} requests over {len(operations)} operations")
    assert calls >= 200
