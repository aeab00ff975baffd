"""Base schema classes shared by every domain."""

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class CamelModel(BaseModel):
    """JSON in camelCase (the spec's exposed field names), Python in snake_case."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)


class ErrorResponse(BaseModel):
    message: str
    code: str


# What services hand to the outbox and the push queue: a response model or a JSON-ready mapping.
JsonPayload = BaseModel | Mapping[str, Any]


def json_payload(payload: JsonPayload) -> dict[str, Any]:
    """The payload as the API would send it (camelCase JSON types)."""
    if isinstance(payload, BaseModel):
        return payload.model_dump(mode="json", by_alias=True)
    return dict(payload)
