"""What an integrator does: generate a typed Python client from /api/v1/schema
(openapi-python-client, into a temporary folder) and play a whole hot-seat match with it.

Every response is parsed by the generated models, so a body that does not match the schema
(a missing field, an unknown enum value, a wrong type) fails here the way it would fail for
the integrator."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.core.wsgi import get_wsgi_application
from rest_framework.test import APIClient

from tests.api.test_fuzz import connection_kept

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module")
def tavla_client(tmp_path_factory: pytest.TempPathFactory, django_db_blocker: Any) -> Any:
    """The client package generated from the served schema, imported."""
    folder = tmp_path_factory.mktemp("typed-client")
    with django_db_blocker.unblock():
        schema = APIClient().get("/api/v1/schema", {"format": "json"}).content
    (folder / "schema.json").write_bytes(schema)
    (folder / "config.yaml").write_text("post_hooks: []\npackage_name_override: tavla_client\n")
    result = subprocess.run(
        [
            *(str(GENERATOR), "generate", "--path", "schema.json", "--meta", "none"),
            *("--output-path", "tavla_client", "--config", "config.yaml"),
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # The one thing the generator cannot express: the .mat upload as a text/plain body (the
    # same operation is generated for its JSON and multipart bodies).
    warnings = [line for line in result.stdout.splitlines() if line.startswith("WARNING")]
    assert warnings in ([], ["WARNING parsing POST /api/v1/matches/import within matches."])
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("tavla_client")
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m.split(".")[0] == "tavla_client"]:
            del sys.modules[name]


def api(package: Any, name: str) -> Any:
    return importlib.import_module(f"tavla_client.api.{name}")


@pytest.mark.django_db
def test_a_generated_client_plays_a_hotseat_match(tavla_client: Any) -> None:
    models = importlib.import_module("tavla_client.models")
    transport = httpx.WSGITransport(app=get_wsgi_application())
    anonymous = tavla_client.Client(
        base_url="http://testserver", httpx_args={"transport": transport}
    )
    with connection_kept():
        token = api(tavla_client, "accounts.auth_guest").sync(
            client=anonymous, body=models.GuestRequest(display_name="Typed")
        )
        assert isinstance(token, models.TokenResponse) and token.user.kind.value == "guest"
        client = tavla_client.AuthenticatedClient(
            base_url="http://testserver",
            token=token.token,
            prefix="Token",
            httpx_args={"transport": transport},
        )
        state = api(tavla_client, "matches.matches_create").sync(
            client=client,
            body=models.MatchCreateRequest(
                mode=models.MatchCreateModeEnum.HOTSEAT, length=1, cube=False
            ),
        )
        assert isinstance(state, models.MatchState), state
        match_id = str(state.id)
        roll, play = api(tavla_client, "play.matches_roll"), api(tavla_client, "play.matches_play")
        for _ in range(1000):
            if state.status != models.StatusEnum.ACTIVE:
                break
            actions = [a.value for a in state.actions]
            if "roll" in actions:
                body = models.EmptyWriteRequest(expected_version=state.version)
                state = roll.sync(match_id, client=client, body=body)
            else:
                assert "play" in actions and state.legal_plays, actions
                chosen = state.legal_plays[-1]
                steps = [[s.from_, s.to] for s in chosen.steps]
                body = models.PlayRequest(play=steps, expected_version=state.version)
                state = play.sync(match_id, client=client, body=body)
            assert isinstance(state, models.MatchState), state
        assert state.status == models.StatusEnum.FINISHED
        assert state.result is not None and state.result.winner is not None
        assert max(state.score.seats) >= 1
        # the reads a client makes around a match parse too
        page = api(tavla_client, "lobby.matches_mine").sync(client=client)
        assert isinstance(page, models.MatchSummaryPage) and str(page.results[0].id) == match_id
        events = api(tavla_client, "matches.matches_events").sync(match_id, client=client)
        assert isinstance(events, models.Events) and events.version == state.version
        refused = roll.sync_detailed(match_id, client=client, body=models.EmptyWriteRequest())
        assert refused.status_code == 422 and isinstance(refused.parsed, models.Error)
