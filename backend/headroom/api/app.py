"""The FastAPI application: /api/v1 routers, stable error bodies, and the built UI."""

import gc
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from starlette.exceptions import HTTPException as StarletteHTTPException
from swagger_ui_bundle import swagger_ui_path

from headroom import __version__
from headroom.alerts.router import router as alerts_router
from headroom.analyses.router import router as analyses_router
from headroom.api.upload_access import RedisUploadSlots, UploadSlots
from headroom.auth.router import router as auth_router
from headroom.auth.throttle import LoginThrottle, RedisLoginThrottle
from headroom.characterizations.router import router as characterizations_router
from headroom.core import heavy_calls
from headroom.core.db import get_engine
from headroom.core.errors import HeadroomError, envelope, error_responses
from headroom.core.middleware import ApiGuard
from headroom.core.request_ids import RequestIds, request_id_of
from headroom.core.settings import Settings, get_settings
from headroom.core.storage import open_store
from headroom.core.unexpected_errors import UnexpectedErrors
from headroom.datasets.router import router as datasets_router
from headroom.exports.router import router as exports_router
from headroom.forecasts.router import router as forecasts_router
from headroom.jobs.router import router as jobs_router
from headroom.policies.router import router as policies_router
from headroom.reports.router import router as reports_router
from headroom.simulations.router import router as simulations_router
from headroom.sources.router import router as sources_router
from headroom.telemetry.router import router as telemetry_router
from headroom.uploads.router import router as uploads_router
from headroom.workspaces.router import router as workspaces_router


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(
        lifespan=_lifespan,
        title="Headroom",
        version=__version__,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
        description="Capacity planning and SLA setting from web access logs.",
    )
    app.state.settings = settings
    shared = settings.counters_url()
    app.state.login_throttle = RedisLoginThrottle(shared) if shared else LoginThrottle()
    app.state.upload_slots = RedisUploadSlots(shared) if shared else UploadSlots()
    api = APIRouter(prefix="/api/v1", responses=error_responses(401, 403, 404, 422, 500))
    for router in (
        auth_router,
        workspaces_router,
        datasets_router,
        forecasts_router,
        analyses_router,
        jobs_router,
        uploads_router,
        characterizations_router,
        simulations_router,
        reports_router,
        policies_router,
        exports_router,
        sources_router,
        telemetry_router,
        alerts_router,
    ):
        api.include_router(router)
    app.include_router(api)
    app.add_api_route("/api/health", health, methods=["GET"], tags=["health"])
    _add_docs(app)
    _add_error_handlers(app)
    app.add_middleware(ApiGuard, settings=settings)
    app.middleware("http")(_security_headers)
    app.add_middleware(RequestIds)
    app.add_middleware(UnexpectedErrors)  # outermost: answers 500s, keeps the connection
    _mount_ui(app, settings.static_dir)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    open_store(app.state.settings.resolved_storage_url())  # a bucket that is not there stops it
    heavy_calls.open_pool()
    # The modules and settings loaded so far live as long as the process: out of the
    # collector's sight; and a collection per 50,000 new objects rather than 700, since the
    # pauses of frequent ones land in the slowest requests' latency.
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    yield
    heavy_calls.shutdown_pool()


def health(request: Request) -> dict[str, str]:
    settings: Settings = request.app.state.settings
    with get_engine(settings.resolved_database_url()).connect() as connection:
        connection.execute(text("SELECT 1"))
    return {"status": "ok", "version": __version__}


DOCS_PATH = "/api/docs"
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; frame-ancestors 'none'"
    ),
}


async def _security_headers(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    response = await call_next(request)
    for name, value in SECURITY_HEADERS.items():
        if name != "Content-Security-Policy" or request.url.path != DOCS_PATH:
            response.headers.setdefault(name, value)  # Swagger UI's page has an inline script
    return response


def _add_docs(app: FastAPI) -> None:
    """Swagger UI served from the installed package, so the docs work without internet."""
    app.mount("/api/docs-assets", StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get(DOCS_PATH, include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/api/openapi.json",
            title="Headroom API",
            swagger_js_url="/api/docs-assets/swagger-ui-bundle.js",
            swagger_css_url="/api/docs-assets/swagger-ui.css",
            swagger_favicon_url="/api/docs-assets/favicon-32x32.png",
        )


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HeadroomError)
    async def headroom_error(request: Request, error: HeadroomError) -> JSONResponse:
        retry_after = getattr(error, "retry_after_s", None)
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        body = error.to_body(request_id_of(request.scope))
        return JSONResponse(body, status_code=error.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        field = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query"))
        message = f"{field or 'request'}: {first.get('msg', 'invalid')}"
        body = envelope("validation_error", message, field or None, None, _rid(request))
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, f"http_{error.status_code}")
        body = envelope(code, str(error.detail), None, None, _rid(request))
        return JSONResponse(body, status_code=error.status_code, headers=error.headers)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}


def _rid(request: Request) -> str | None:
    return request_id_of(request.scope)


def _mount_ui(app: FastAPI, static_dir: Path) -> None:
    index = static_dir / "index.html"
    if (static_dir / "assets").is_dir():
        app.mount("/assets", StaticFiles(directory=static_dir / "assets"), name="assets")

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    def spa(request: Request, path: str) -> FileResponse | JSONResponse:
        if path.startswith("api/"):
            body = envelope("not_found", f"no route /{path}", None, None, _rid(request))
            return JSONResponse(body, status_code=404)
        candidate = (static_dir / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(static_dir.resolve()):
            return FileResponse(candidate)
        if index.is_file():
            return FileResponse(index)
        message = "the UI is not built: run `make run`"
        return JSONResponse(envelope("ui_not_built", message, request_id=_rid(request)), 503)
