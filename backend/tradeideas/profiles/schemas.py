"""Request and response bodies of the profile routes."""

from datetime import datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator, Field, StrictBool, WithJsonSchema, field_validator

from tradeideas.core.schemas import CamelModel

MAX_NAME = 100
MAX_BIO = 1000
MAX_INTERESTS = 100
MIN_YEARS, MAX_YEARS = 0, 50
SPECIALTIES = (
    "Forex Trading",
    "Cryptocurrency",
    "Options Trading",
    "Day Trading",
    "Swing Trading",
    "Technical Analysis",
    "Fundamental Analysis",
)
TradingStyle = Literal["Scalping", "Day Trading", "Swing Trading", "Position Trading", "Algorithmic Trading"]
Timezone = Literal["UTC-5", "UTC-6", "UTC-7", "UTC-8", "UTC+0", "UTC+1", "UTC+8"]
TRADING_STYLES: tuple[str, ...] = get_args(TradingStyle)
TIMEZONES: tuple[str, ...] = get_args(Timezone)

NAME_TOO_LONG = f"Name must be {MAX_NAME} characters or fewer"
BIO_TOO_LONG = f"Bio must be {MAX_BIO} characters or fewer"
INTERESTS_TOO_LONG = f"Trading interests must be {MAX_INTERESTS} characters or fewer"
YEARS_OUT_OF_RANGE = f"Years of experience must be between {MIN_YEARS} and {MAX_YEARS}"
BAD_SPECIALTY = "Specialty must be one of: " + ", ".join(SPECIALTIES)
BAD_TRADING_STYLE = "Trading style must be one of: " + ", ".join(TRADING_STYLES)
BAD_TIMEZONE = "Timezone must be one of: " + ", ".join(TIMEZONES)


# What `_years` accepts, as the spec has it: a number from 0 to 50, or anything else (text, true/false), which
# counts as 0 unless it is a number written as text, which must be in range too.
YEARS_SCHEMA = {
    "anyOf": [
        {"type": "number", "minimum": 0, "maximum": 50},
        {"type": "string"},
        {"type": "boolean"},
        {"type": "null"},
    ],
    "description": "Whole years from 0 to 50; text that is not a number counts as 0",
}


def _years(value: Any) -> int | None:
    """Numbers (or numeric strings) are kept; anything non-numeric becomes 0, as in the spec."""
    if value is None:
        return None
    if isinstance(value, dict | list):
        raise ValueError("Years of experience must be a number")
    if isinstance(value, bool):
        return 0
    if isinstance(value, int | float):
        number = float(value)
    else:
        try:
            number = float(str(value).strip())
        except ValueError:
            return 0
    if number != number:  # NaN
        return 0
    if not MIN_YEARS <= number <= MAX_YEARS:
        raise ValueError(YEARS_OUT_OF_RANGE)
    return int(number)


def _choice(options: tuple[str, ...], message: str) -> BeforeValidator:
    def check(value: Any) -> str | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None  # cleared
        if not isinstance(value, str) or value.strip() not in options:
            raise ValueError(message)
        return value.strip()

    return BeforeValidator(check)


class ProfileUpdate(CamelModel):
    """Any subset of the profile; omitted fields are left as they are, empty choices clear them."""

    first_name: str | None = None
    last_name: str | None = None
    display_name: str | None = Field(
        default=None, description="The single Name field: split into first and last name when those are not sent"
    )
    bio: str | None = None
    specialty: str | None = Field(default=None, description="Educators: one of the seven options; customers: free")
    trading_interests: str | None = Field(default=None, description="Customers' free text, stored as specialty")
    years_experience: Annotated[int | None, BeforeValidator(_years), WithJsonSchema(YEARS_SCHEMA)] = None
    trading_style: Annotated[TradingStyle | None, _choice(TRADING_STYLES, BAD_TRADING_STYLE)] = None
    timezone: Annotated[Timezone | None, _choice(TIMEZONES, BAD_TIMEZONE)] = None
    is_public: StrictBool | None = None

    @field_validator("first_name", "last_name", "display_name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = " ".join(value.split())
        if len(value) > MAX_NAME:
            raise ValueError(NAME_TOO_LONG)
        return value

    @field_validator("bio")
    @classmethod
    def _bio(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip()
        if len(value) > MAX_BIO:
            raise ValueError(BIO_TOO_LONG)
        return value

    @field_validator("specialty", "trading_interests")
    @classmethod
    def _trimmed(cls, value: str | None) -> str | None:
        return value.strip() if value is not None else None


class TradingProfile(CamelModel):
    years_experience: int
    trading_style: str | None
    account_status: Literal["Active"] = "Active"


class ProfileOut(CamelModel):
    id: int
    role: Literal["customer", "educator"]
    email: str
    first_name: str
    last_name: str
    display_name: str
    bio: str
    specialty: str | None
    trading_interests: str | None = Field(description="Customers: their free-text interests (same as specialty)")
    years_experience: int
    trading_style: str | None
    timezone: str | None
    is_public: bool
    avatar_url: str | None
    profile_image: str | None = Field(description="Same as avatarUrl (the spec's name)")
    slug: str | None
    updated_at: datetime
    trading_profile: TradingProfile | None = Field(description="Educators only")


class EducatorOut(CamelModel):
    """Public fields only: never an e-mail."""

    id: int
    first_name: str
    last_name: str
    display_name: str
    avatar_url: str | None
    profile_image: str | None
    specialty: str | None
    bio: str
    slug: str | None


class PasswordChange(CamelModel):
    current_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class MessageResponse(CamelModel):
    message: str
