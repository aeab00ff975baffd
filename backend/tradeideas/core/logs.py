"""Log lines: plain text or one JSON object per line (`LOG_FORMAT`), each tagged with its request's id.

The same configuration is handed to uvicorn (so its own error lines, in every worker process, come out in
the chosen format) and applied by `create_app` when the app runs without it (tests, other ASGI servers).
Access lines come from `core.middleware.AppEdge`, which knows each request's id and duration;
uvicorn's own access log stays off.
"""

import itertools
import logging
import re
import secrets
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from pythonjsonlogger.json import JsonFormatter

from tradeideas.settings import Settings

# The id of the request being handled by the current task (None outside requests: background workers).
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
# An incoming X-Request-ID is kept only when it is a short token that cannot break a log line or a header.
SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")

HANDLER = "tradeideas"  # the root handler this module installs (found again by name, never added twice)
ACCESS_LOGGER = "tradeideas.access"
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"
# Fields every JSON line starts with (request_id is null outside requests); extras (method, path, status,
# duration_ms, ...) follow.
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"
JSON_RENAMES = {"asctime": "time", "levelname": "level", "name": "logger"}
# Record attributes that are not worth a JSON field (uvicorn adds a coloured copy of its message).
JSON_SKIPPED = ("color_message",)


# Request ids are 16 hex digits: this process's random half, then a counter (no system call per request; a
# restarted or another worker process draws its own half).
_ID_PREFIX = secrets.token_hex(4)
_ID_COUNTER = itertools.count(secrets.randbelow(1 << 32))


def new_request_id() -> str:
    return f"{_ID_PREFIX}{next(_ID_COUNTER) & 0xFFFFFFFF:08x}"


def accepted_request_id(value: bytes) -> str | None:
    """The caller's X-Request-ID when it is safe to reuse (a proxy's correlation id), else None."""
    text = value.decode("latin-1")
    return text if SAFE_REQUEST_ID.fullmatch(text) else None


class RequestIdFilter(logging.Filter):
    """Tags every record passing the handler with the current request's id (records made outside a request get
    none, and the text format shows `-`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            request_id = REQUEST_ID.get()
            if request_id is not None:
                record.request_id = request_id
        return True


class JsonLines(JsonFormatter):
    """python-json-logger's formatter with the time first, in ISO 8601 UTC (what log stores parse without help)."""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


def json_formatter() -> JsonFormatter:
    return JsonLines(
        JSON_FIELDS,
        rename_fields=JSON_RENAMES,
        reserved_attrs=[*JsonFormatter().reserved_attrs, *JSON_SKIPPED],
    )


def text_formatter() -> logging.Formatter:
    return logging.Formatter(TEXT_FORMAT, defaults={"request_id": "-"})


def logging_config(settings: Settings) -> dict[str, Any]:
    """A `logging.config.dictConfig` document: one handler on the root logger, which uvicorn's loggers use too."""
    level = settings.log_level.upper()
    formatter = {"()": json_formatter} if settings.log_format == "json" else {"()": text_formatter}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"chosen": formatter},
        "handlers": {
            HANDLER: {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "chosen",
                "filters": ["request_id"],
            }
        },
        "root": {"level": level, "handlers": [HANDLER]},
        "loggers": {
            # uvicorn's loggers pass their lines to the root handler instead of printing them their own way.
            "uvicorn": {"level": level, "handlers": [], "propagate": True},
            "uvicorn.error": {"level": level, "handlers": [], "propagate": True},
            "uvicorn.access": {"level": level, "handlers": [], "propagate": True},
            ACCESS_LOGGER: {"level": "INFO" if settings.access_log_enabled else "WARNING"},
        },
    }


def configure_logging(settings: Settings) -> None:
    """Install `logging_config`'s root handler unless uvicorn did already, and set the format and levels.

    Other handlers on the root logger (a test runner's) are left as they are.
    """
    root = logging.getLogger()
    handler = next((h for h in root.handlers if h.name == HANDLER), None)
    if handler is None:
        handler = logging.StreamHandler(sys.stderr)
        handler.name = HANDLER
        handler.addFilter(RequestIdFilter())
        root.addHandler(handler)
    handler.setFormatter(json_formatter() if settings.log_format == "json" else text_formatter())
    root.setLevel(settings.log_level.upper())
    logging.getLogger(ACCESS_LOGGER).setLevel("INFO" if settings.access_log_enabled else "WARNING")
