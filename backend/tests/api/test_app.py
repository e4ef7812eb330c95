"""The app shell: health, docs without internet, security headers, the schema the UI uses."""

import json
from pathlib import Path

from fastapi.testclient import TestClient

from headroom.api.app import create_app
from headroom.core.settings import Settings

REPO = Path(__file__).resolve().parents[3]


def test_health_checks_the_database(settings: Settings) -> None:
    response = TestClient(create_app(settings)).get("/api/health")
    assert response.status_code == 200 and response.json()["status"] == "ok"


def test_docs_are_served_from_local_assets(settings: Settings) -> None:
    client = TestClient(create_app(settings))
    page = client.get("/api/docs")
    assert page.status_code == 200 and "/api/docs-assets/swagger-ui-bundle.js" in page.text
    assert "http" not in page.text.split("openapi.json")[0].split("<script")[-1]
    assert client.get("/api/docs-assets/swagger-ui-bundle.js").status_code == 200


def test_security_headers(settings: Settings) -> None:
    response = TestClient(create_app(settings)).get("/api/health")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


def test_unknown_api_route_is_a_json_404_not_the_ui(settings: Settings) -> None:
    response = TestClient(create_app(settings)).get("/api/v1/nothing-here")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_ui_routes_fall_back_to_index_html(settings: Settings, tmp_path: Path) -> None:
    (tmp_path / "ui" / "assets").mkdir(parents=True)
    (tmp_path / "ui" / "index.html").write_text("<html>headroom ui</html>")
    app = create_app(settings.model_copy(update={"static_dir": tmp_path / "ui"}))
    client = TestClient(app)
    assert "headroom ui" in client.get("/datasets/12").text
    assert client.get("/../../etc/passwd").status_code in (200, 404)
    assert "root:" not in client.get("/..%2F..%2Fetc%2Fpasswd").text


def test_frontend_schema_is_up_to_date(settings: Settings) -> None:
    """frontend/openapi.json is what the typed client is generated from (`make openapi`)."""
    committed = json.loads((REPO / "frontend" / "openapi.json").read_text())
    assert committed == json.loads(json.dumps(create_app(settings).openapi()))
