"""Request and response bodies of the notification routes (JSON in camelCase)."""

from functools import lru_cache
from zoneinfo import available_timezones

from pydantic import ConfigDict, Field, StrictBool, field_validator, model_validator

from tradeideas.core.schemas import CamelModel


class EventSwitches(CamelModel):
    model_config = ConfigDict(extra="forbid")

    new_idea: StrictBool = True
    idea_closed: StrictBool = True
    chat_message: StrictBool = False


HH_MM = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


@lru_cache(maxsize=1)
def _time_zones() -> frozenset[str]:
    return frozenset(available_timezones())


class QuietHours(CamelModel):
    """Pushes wait from `start` to `end` (local time in `timezone`; may span midnight)."""

    model_config = ConfigDict(extra="forbid")

    start: str = Field(pattern=HH_MM, examples=["22:00"])
    end: str = Field(pattern=HH_MM, examples=["07:00"])
    timezone: str = Field(max_length=64, examples=["Europe/Berlin"], description="An IANA time zone name")

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        if value not in _time_zones():
            raise ValueError(f"Unknown time zone {value!r}: use an IANA name such as Europe/Berlin")
        return value

    @model_validator(mode="after")
    def _not_empty(self) -> "QuietHours":
        if self.start == self.end:
            raise ValueError("Quiet hours must end at a different time than they start")
        return self


class NotificationSettings(CamelModel):
    """What reaches the customer's phone. A push is sent only when its market, educator and event are all on.

    In a PUT, `educators`, `events` and `quietHours` may be left out (unchanged); `quietHours: null` turns
    quiet hours off; `educators` may name only some educators (the others keep their switch).
    """

    model_config = ConfigDict(extra="forbid")

    forex: StrictBool = True
    crypto: StrictBool = True
    educators: dict[int, StrictBool] | None = Field(
        default=None, description="Educator id -> on/off (all on by default)"
    )
    events: EventSwitches | None = None
    quiet_hours: QuietHours | None = None
