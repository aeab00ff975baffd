"""Cross-cutting HTTP rules: security headers, CSRF, body limits, error bodies, health, config, OpenAPI."""

from collections.abc import AsyncIterator

import httpx
from fastapi import FastAPI

from tests.conftest import make_client
from tradeideas.app import create_app
from tradeideas.settings import Settings


async def test_security_headers_on_every_response(anon: httpx.AsyncClient) -> None:
    for path in ("/api/health", "/api/auth/user", "/api/nope", "/some/spa/route"):
        r = await anon.get(path)
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "strict-origin-when-cross-origin"


async def test_cross_origin_unsafe_requests_are_blocked(anon: httpx.AsyncClient) -> None:
    body = {"email": "customer@example.com", "password": "x"}
    r = await anon.post("/api/auth/login", json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert r.json() == {"message": "Cross-site request blocked", "code": "csrf"}
    r = await anon.post("/api/auth/login", json=body, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    same = await anon.post("/api/auth/login", json=body, headers={"Origin": "http://testserver"})
    assert same.status_code == 401  # passed the origin check, failed on the password


async def test_oversized_bodies_are_rejected(anon: httpx.AsyncClient) -> None:
    big = {"email": "a" * 300_000, "password": "x"}
    r = await anon.post("/api/auth/login", json=big)
    assert r.status_code == 413
    assert r.json()["code"] == "payload_too_large"

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(40):
            yield b"x" * 10_000

    r = await anon.post("/api/auth/login", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


async def test_unknown_api_path_is_json_404(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/does-not-exist")
    assert r.status_code == 404
    assert r.json() == {"message": "Not found", "code": "not_found"}


async def test_unexpected_errors_do_not_leak_internals(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/api/boom", include_in_schema=False)
    async def boom() -> None:
        raise RuntimeError("secret connection string postgres://user:pw@host")

    app.router.routes.insert(0, app.router.routes.pop())  # before the SPA catch-all
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
        r = await c.get("/api/boom")
    assert r.status_code == 500
    assert r.json() == {"message": "Internal server error", "code": "internal_error"}


async def test_health_checks_the_database(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "database": "ok"}


async def test_config_is_public_and_lists_no_emails(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/config")
    assert r.status_code == 200
    body = r.json()
    assert body["channelUrl"] == "https://example.com/channel"
    assert body["educatorSlugs"][:2] == ["alex-morgan", "sofia-reyes"] and len(body["educatorSlugs"]) == 7
    assert "@" not in r.text


async def test_openapi_documents_every_api_route_with_schemas(app: FastAPI) -> None:
    async with make_client(app) as c:
        doc = (await c.get("/openapi.json")).json()
    for path, ops in doc["paths"].items():
        assert path.startswith("/api/"), path
        for method, op in ops.items():
            assert op.get("description") or op.get("summary"), f"{method} {path} has no docstring"
            assert "responses" in op
    login = doc["paths"]["/api/auth/login"]["post"]
    assert "requestBody" in login
    assert login["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("LoginResponse")
