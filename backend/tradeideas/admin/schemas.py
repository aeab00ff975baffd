"""Request and response bodies of the admin area, invitations and password resets."""

from datetime import datetime
from typing import Literal

from email_validator import EmailNotValidError, validate_email
from pydantic import Field, StrictBool, field_validator

from tradeideas.core.schemas import CamelModel, ErrorResponse

MemberRole = Literal["customer", "educator", "admin"]
MemberState = Literal["active", "disabled", "invited"]
BAD_EMAIL = "Enter a valid e-mail address"


def normalise_email(value: str) -> str:
    """The e-mail in lower case, or ValueError with a clear message (no DNS lookups)."""
    value = value.strip().lower()
    try:
        validate_email(value, check_deliverability=False)
    except EmailNotValidError as exc:
        raise ValueError(BAD_EMAIL) from exc
    return value


class Member(CamelModel):
    id: int
    email: str
    first_name: str
    last_name: str
    role: MemberRole
    state: MemberState
    created_at: datetime
    last_seen_at: datetime | None


class MemberPage(CamelModel):
    items: list[Member]
    total: int
    page: int
    page_size: int


class InviteIn(CamelModel):
    # `format` tells clients what `normalise_email` checks (with its own message, so not as a constraint).
    email: str = Field(max_length=254, json_schema_extra={"format": "email"})
    first_name: str = Field(default="", max_length=100)
    last_name: str = Field(default="", max_length=100)
    complimentary_access: StrictBool = Field(
        default=True, description="Give the new member complimentary access to every educator (paid access)"
    )

    _email = field_validator("email")(normalise_email)

    @field_validator("first_name", "last_name")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()


class InviteOut(CamelModel):
    invite_url: str
    expires_at: datetime
    member: Member


class ResetOut(CamelModel):
    reset_url: str
    expires_at: datetime


class BulkInviteIn(CamelModel):
    # Even escaped as JSON (up to 12 bytes a character) this fits in MAX_JSON_BODY_BYTES' default.
    csv: str = Field(
        max_length=20_000,
        description="Lines of `e-mail,first name,last name` (names optional; a header line is skipped)",
    )


class BulkInviteRow(CamelModel):
    line: int
    email: str
    first_name: str = ""
    last_name: str = ""
    invite_url: str | None = None
    expires_at: datetime | None = None
    error: str | None = None


class BulkInviteOut(CamelModel):
    rows: list[BulkInviteRow]


class BulkInviteRejected(CamelModel, ErrorResponse):
    """The app's error body (`ErrorResponse`) with every row of a refused bulk invitation."""

    rows: list[BulkInviteRow] = Field(
        default_factory=list,
        description="Every row; those with `error` must be fixed (nothing was created). Absent when the body "
        "itself was invalid.",
    )


class LinkInfo(CamelModel):
    """What an invitation or reset page shows before the password is chosen."""

    email: str
    first_name: str
    expires_at: datetime


class PasswordIn(CamelModel):
    password: str = Field(max_length=1024)


class AuditItem(CamelModel):
    id: int
    created_at: datetime
    actor_id: int | None
    actor_email: str
    action: str
    target_id: int | None
    target_email: str
    detail: str


class AuditPage(CamelModel):
    items: list[AuditItem]
    total: int
    page: int
    page_size: int
