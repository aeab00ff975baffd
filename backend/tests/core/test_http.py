"""Cross-cutting HTTP rules: security headers, CSRF, body limits, error bodies, health, config, OpenAPI."""

import gzip
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Response
from pydantic import ValidationError

from tests.conftest import CUSTOMER, DEMO_PASSWORD, make_client
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
    assert r.json()["status"] == "ok" and r.json()["database"] == "ok" and r.json()["events"] == "live"


async def test_config_is_public_and_lists_no_emails(anon: httpx.AsyncClient) -> None:
    r = await anon.get("/api/config")
    assert r.status_code == 200
    body = r.json()
    assert body["channelUrl"] == "https://example.com/channel"
    assert body["educatorSlugs"][:2] == ["alex-morgan", "sofia-reyes"] and len(body["educatorSlugs"]) == 7
    # The one address it names is the public support contact (SUPPORT_CONTACT), never an educator's.
    assert body["supportContact"] == "support@example.com"
    assert "@" not in r.text.replace(body["supportContact"], "")


def test_support_contact_is_an_email_or_a_web_address() -> None:
    assert Settings(support_contact="mailto:help@example.com").support_contact == "help@example.com"
    assert Settings(support_contact="https://help.example.com/ask").support_contact == "https://help.example.com/ask"
    for bad in ("call us", "ftp://x.example.com", "help@", ""):
        with pytest.raises(ValidationError, match="SUPPORT_CONTACT must be an e-mail address or an http"):
            Settings(support_contact=bad)


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


async def test_every_api_answer_says_no_store(app: FastAPI, anon: httpx.AsyncClient) -> None:
    login = await anon.post(
        "/api/auth/login", json={"email": CUSTOMER, "password": DEMO_PASSWORD, "selectedRole": "customer"}
    )
    assert login.status_code == 200 and "sessionToken" in login.json()
    answers = [login]
    for path in ("/api/auth/user", "/api/trade-ideas?market=forex", "/api/trade-ideas?market=forex", "/api/nope"):
        answers.append(await anon.get(path))  # the second list is answered from memory, in front of the routes
    async with make_client(app) as stranger:
        answers.append(await stranger.get("/api/auth/user"))  # 401
        answers.append(await stranger.post("/api/auth/logout", headers={"Origin": "https://evil.example"}))  # 403
        answers.append(await stranger.post("/api/auth/login", json={}))  # 422
    for r in answers:
        assert r.headers["cache-control"] == "no-store", (r.request.url, r.status_code)


async def test_static_files_are_sent_precompressed(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    static = tmp_path_factory.mktemp("spa")
    (static / "assets").mkdir()
    (static / "index.html").write_text("<!doctype html><title>x</title>")
    script = b"console.log('hello');" * 100
    (static / "assets" / "app-abc123.js").write_bytes(script)
    (static / "assets" / "app-abc123.js.br").write_bytes(brotli_stand_in := b"brotli bytes")
    (static / "assets" / "app-abc123.js.gz").write_bytes(gzip.compress(script))
    app = create_app(settings.model_copy(update={"static_dir": static}))
    async with make_client(app) as client:
        br = await client.get("/assets/app-abc123.js", headers={"Accept-Encoding": "gzip, br"})
        assert br.headers["content-encoding"] == "br" and br.content == brotli_stand_in
        assert br.headers["content-type"].startswith("text/javascript")
        assert br.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert br.headers["vary"] == "Accept-Encoding"
        gz = await client.get("/assets/app-abc123.js", headers={"Accept-Encoding": "gzip, br;q=0"})
        assert gz.headers["content-encoding"] == "gzip" and gz.content == script  # httpx decodes gzip
        plain = await client.get("/assets/app-abc123.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == script
        page = await client.get("/customer/forex", headers={"Accept-Encoding": "br"})
        assert page.headers["cache-control"] == "no-cache" and "content-encoding" not in page.headers


async def test_hashed_assets_are_read_once_and_sent_from_memory(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> None:
    static = tmp_path_factory.mktemp("spa")
    (static / "assets").mkdir()
    (static / "index.html").write_text("<!doctype html><title>one</title>")
    asset = static / "assets" / "app-abc123.js"
    asset.write_bytes(b"first")
    app = create_app(settings.model_copy(update={"static_dir": static}))
    async with make_client(app) as client:
        assert (await client.get("/assets/app-abc123.js")).content == b"first"
        asset.write_bytes(b"second")  # a hashed name never changes content: what was read is kept
        again = await client.get("/assets/app-abc123.js")
        assert again.content == b"first" and again.headers["cache-control"] == "public, max-age=31536000, immutable"
        (static / "index.html").write_text("<!doctype html><title>two</title>")  # pages are read each time
        assert "two" in (await client.get("/customer/forex")).text


async def test_json_answers_over_1kb_are_gzipped(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/api/big", include_in_schema=False)
    async def big() -> dict[str, str]:
        return {"text": "x" * 5000}

    @app.get("/api/small", include_in_schema=False)
    async def small() -> dict[str, str]:
        return {"text": "x"}

    for _ in range(2):
        app.router.routes.insert(0, app.router.routes.pop())  # before the SPA catch-all
    async with make_client(app) as client:
        r = await client.get("/api/big", headers={"Accept-Encoding": "gzip"})
        assert r.headers["content-encoding"] == "gzip"
        assert int(r.headers["content-length"]) < 1000 and r.json() == {"text": "x" * 5000}
        assert "content-security-policy" in r.headers
        r = await client.get("/api/small", headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in r.headers
        r = await client.get("/api/big", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in r.headers


async def test_repeated_json_answers_are_compressed_once_and_never_stale(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(settings)
    text = {"value": "a" * 5000}

    @app.get("/api/changing", include_in_schema=False)
    async def changing() -> Response:
        return Response(json.dumps(text).encode(), media_type="application/json")

    app.router.routes.insert(0, app.router.routes.pop())  # before the SPA catch-all
    compress_calls: list[int] = []
    real_compress = gzip.compress

    def counting_compress(data: bytes, *args: Any, **kwargs: Any) -> bytes:
        compress_calls.append(len(data))
        return real_compress(data, *args, **kwargs)

    monkeypatch.setattr(gzip, "compress", counting_compress)  # the module the middleware compresses with
    async with make_client(app) as client:
        for _ in range(3):
            r = await client.get("/api/changing", headers={"Accept-Encoding": "gzip"})
            assert r.headers["content-encoding"] == "gzip" and r.json() == {"value": "a" * 5000}
        assert len(compress_calls) == 1
        text["value"] = "b" * 5000  # a different answer is compressed afresh, never served from memory
        r = await client.get("/api/changing", headers={"Accept-Encoding": "gzip"})
        assert r.json() == {"value": "b" * 5000} and len(compress_calls) == 2
