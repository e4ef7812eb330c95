"""docker-compose.yml is valid and runs the same commands the tests run."""

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
COMPOSE = REPO / "docker-compose.yml"


def services() -> dict[str, dict[str, object]]:
    return yaml.safe_load(COMPOSE.read_text())["services"]  # type: ignore[no-any-return]


def test_compose_file_validates() -> None:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed (.ci/run installs it)")
    done = subprocess.run(
        [binary, "-f", str(COMPOSE), "config", "-q"], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr


def test_services_use_the_headroom_commands_the_tests_use() -> None:
    found = services()
    assert {"postgres", "redis", "api", "worker", "web", "migrate"} <= set(found)
    assert found["api"]["command"][:2] == ["headroom", "serve"]  # type: ignore[index]
    assert found["worker"]["command"][:2] == ["headroom", "worker"]  # type: ignore[index]
    assert found["migrate"]["command"] == ["headroom", "migrate"]
    assert "postgres:16" in str(found["postgres"]["image"])
    assert "redis:7" in str(found["redis"]["image"])


def test_every_long_running_service_has_a_healthcheck_and_named_volumes() -> None:
    found = services()
    for name in ("postgres", "redis", "api", "worker", "web"):
        assert "healthcheck" in found[name], name
    volumes = yaml.safe_load(COMPOSE.read_text())["volumes"]
    assert {"postgres-data", "redis-data", "storage"} <= set(volumes)
    assert "storage:/data" in found["minio"]["volumes"]  # type: ignore[operator]


def test_configuration_is_by_headroom_environment_variables() -> None:
    env = services()["api"]["environment"]
    assert isinstance(env, dict)
    for key in (
        "HEADROOM_DATABASE_URL",
        "HEADROOM_BROKER_URL",
        "HEADROOM_STORAGE_URL",
        "HEADROOM_SECRET_KEY",
    ):
        assert key in env


def test_api_and_workers_share_only_the_object_store() -> None:
    """MinIO holds the objects (its bucket made by a one-shot step); the API and workers
    do not mount its volume, so they could run on separate machines."""
    found = services()
    assert "minio/minio" in str(found["minio"]["image"])
    assert "mc mb --ignore-existing store/headroom" in str(found["minio-bucket"]["command"])
    for name in ("api", "worker"):
        assert not any(str(v).startswith("storage:") for v in found[name]["volumes"]), name  # type: ignore[union-attr]
        assert found[name]["environment"]["HEADROOM_STORAGE_URL"] == "s3://headroom/storage"  # type: ignore[index]
        depends = found[name]["depends_on"]
        assert depends["minio-bucket"] == {"condition": "service_completed_successfully"}  # type: ignore[index]


def test_exactly_one_service_runs_the_schedule_in_one_replica() -> None:
    """Two beat processes would refresh each source and send each weekly report twice."""
    found = services()
    with_beat = [name for name, service in found.items() if "--beat" in service.get("command", [])]
    assert with_beat == ["scheduler"]
    scheduler = found["scheduler"]
    assert scheduler["command"][:2] == ["headroom", "worker"]  # type: ignore[index]
    assert scheduler["deploy"] == {"replicas": 1}
    assert "healthcheck" in scheduler
