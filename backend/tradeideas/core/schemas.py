"""Base schema classes shared by every domain."""

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel

# Row ids are the databases' 32-bit INTEGER: a larger number can name nothing, and the drivers refuse to
# send it, so it is rejected at the edge (422 in a query or body, 404 in a path) instead of failing inside.
MAX_ID = 2**31 - 1


def json_integer(value: Any) -> Any:
    """Before an integer's own validation: a JSON integer (`12`, or `12.0`, which JSON Schema counts as one), not
    `true` (Python's bool is an int, so `[true]` was idea 1) or "12" (pydantic's lax mode reads digits in text).
    Put it after the constraints (`Annotated[int, Field(ge=1), BeforeValidator(json_integer)]`), so the OpenAPI
    schema still states them."""
    if isinstance(value, bool | str):
        raise ValueError("Input should be a valid integer")
    return value


# An id in a JSON body.
Id = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(json_integer)]
# An id in a query string, where every value is text (digits).
QueryId = Annotated[int, Field(ge=1, le=MAX_ID)]
# Routes declare such parameters as `{name:int}`, so a path like `/trade-ideas/seen` never matches them.
PathId = Annotated[int, Path(ge=1, le=MAX_ID)]
# The vocabulary of a trade idea, shared by ideas, the desk and push payloads: defined here once.
OrderType = Literal["BUY", "SELL"]
IdeaType = Literal["Leverage", "Exchange"]


class CamelModel(BaseModel):
    """JSON in camelCase (the spec's exposed field names), Python in snake_case."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, from_attributes=True)


class TradeLevels(CamelModel):
    """The prices a trader acts on, as the educator typed them (decimal text, digits kept): the one declaration
    of the levels block, which an idea and a journal entry copied from one both answer with."""

    entry1: str
    entry2: str | None
    invalidation_level: str
    exit1: str
    exit2: str | None
    exit3: str | None


# The levels' Python names, in the block's order.
LEVEL_NAMES: tuple[str, ...] = tuple(TradeLevels.model_fields)


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
