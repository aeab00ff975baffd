"""Every error answer in the OpenAPI document has the app's error body (`ErrorResponse`): `core.errors` renders
every refusal as `{message, code}`, so clients generated from the document can read any of them."""

from typing import Any

import pytest

from tradeideas.app import create_app
from tradeideas.core.routing import with_error_bodies
from tradeideas.core.schemas import ErrorResponse
from tradeideas.settings import Settings

ERROR_REF = "#/components/schemas/ErrorResponse"
# Error answers documented with another body than JSON, by (method, path, status), each with its reason. None
# today: the routes whose answers are not JSON are outside the document (`/metrics`, the media files, the SPA's
# pages: `include_in_schema=False`), and the event stream's refusals (401, 422) are the usual JSON errors; only
# its 200 is `text/event-stream`.
NON_JSON_ERRORS: dict[tuple[str, str, str], str] = {}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    openapi: dict[str, Any] = app.openapi()
    return openapi


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in ("get", "put", "post", "patch", "delete", "head", "options")
    ]


def _is_error_body(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """`ErrorResponse` itself, or a schema that extends it: its fields, as required, with more beside (the
    refused bulk invitation's rows)."""
    ref = schema.get("$ref")
    if ref == ERROR_REF:
        return True
    if not isinstance(ref, str) or not ref.startswith("#/components/schemas/"):
        return False
    base, own = components["ErrorResponse"], components[ref.rsplit("/", 1)[1]]
    return all(own["properties"].get(name) == field for name, field in base["properties"].items()) and set(
        base["required"]
    ) <= set(own.get("required", []))


def test_every_error_answer_has_the_error_body(document: dict[str, Any]) -> None:
    components = document["components"]["schemas"]
    wrong = []
    for method, path, operation in _operations(document):
        for status, response in operation["responses"].items():
            if status[:1] not in ("4", "5") or (method, path, status) in NON_JSON_ERRORS:
                continue
            content = response.get("content", {})
            json_body = content.get("application/json", {}).get("schema", {})
            if set(content) != {"application/json"} or not _is_error_body(json_body, components):
                wrong.append(f"{method} {path} {status}: {content or 'no body documented'}")
    assert not wrong, "error answers without ErrorResponse:\n" + "\n".join(wrong)
    assert not NON_JSON_ERRORS.keys() - {
        (method, path, status) for method, path, operation in _operations(document) for status in operation["responses"]
    }, "an exception names an answer the document no longer has"


def test_every_operation_documents_refusals(document: dict[str, Any]) -> None:
    """Any route can refuse (signed out, forbidden, cross-site, too large, invalid): each documents the 4XX range
    and 422 with the error body, besides the statuses it names itself."""
    missing = [
        f"{method} {path}"
        for method, path, operation in _operations(document)
        if not {"4XX", "422"} <= operation["responses"].keys()
    ]
    assert not missing
    assert document["paths"]["/api/health"]["get"]["responses"]["503"]["content"]["application/json"]["schema"] == {
        "$ref": ERROR_REF
    }


def test_an_error_status_named_without_a_body_gets_the_error_body() -> None:
    class Other(ErrorResponse):
        rows: list[int]

    text = {"content": {"text/plain": {"schema": {"type": "string"}}}}
    responses = with_error_bodies({200: {"description": "ok"}, 404: {}, "5XX": {}, 409: {"model": Other}, 410: text})
    assert responses == {
        200: {"description": "ok"},
        404: {"model": ErrorResponse},
        "5XX": {"model": ErrorResponse},
        409: {"model": Other},
        410: text,
    }
