"""Schemathesis against the OpenAPI schema: generated requests (a few per operation),
authenticated as a workspace owner, on SQLite: the API answers none of them with a 5xx."""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from alembic import command
from hypothesis import HealthCheck, given, settings

from headroom.api.app import create_app
from headroom.core.migrations import alembic_config
from headroom.core.settings import Settings
from support.factories import api_token, member

TOKEN: dict[str, str] = {}


@pytest.fixture(scope="module")
def api_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    tmp = tmp_path_factory.mktemp("fuzz")
    app_settings = Settings(
        data_dir=tmp,
        database_url=f"sqlite:///{tmp / 'fuzz.db'}",
        static_dir=Path(tmp / "no-ui"),
        rate_limit_ip_per_min=0,
        rate_limit_token_per_min=0,
    )
    command.upgrade(alembic_config(app_settings), "head")
    owner = member(app_settings, "fuzz@example.com", "Fuzz")
    TOKEN["value"] = api_token(app_settings, owner, ["admin"])
    yield schemathesis.openapi.from_asgi("/api/openapi.json", create_app(app_settings))


def test_no_server_errors(api_schema: Any) -> None:
    failures = []
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(
            max_examples=4,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def no_5xx(case: Any) -> None:
            response = case.call(headers={"Authorization": f"Bearer {TOKEN['value']}"})
            assert response.status_code < 500, f"{response.status_code}: {response.text[:300]}"

        try:
            no_5xx()
        except AssertionError as error:
            failures.append(f"{operation.label}: {error}")
    assert not failures, "\n".join(failures)
