"""Quiet hours: whether a moment falls inside a customer's quiet period, and when that period ends."""

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo


def _clock(value: str) -> time:
    hours, minutes = value.split(":")
    return time(int(hours), int(minutes))


def quiet_until(start: str, end: str, timezone: str, now: datetime) -> datetime | None:
    """The end (UTC) of the quiet period that contains `now`, or None when `now` is outside quiet hours.

    `start` and `end` are local "HH:MM" times in the IANA `timezone`; a period may span midnight
    ("22:00" to "07:00").
    """
    zone = ZoneInfo(timezone)
    local = now.astimezone(zone)
    begins, ends, clock = _clock(start), _clock(end), local.time().replace(tzinfo=None)
    if begins < ends:
        inside, end_day = begins <= clock < ends, local.date()
    else:  # spans midnight
        inside = clock >= begins or clock < ends
        end_day = local.date() + timedelta(days=1) if clock >= begins else local.date()
    if not inside:
        return None
    return datetime.combine(end_day, ends, tzinfo=zone).astimezone(UTC)
