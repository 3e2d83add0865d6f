"""How the shop's log lines look: one JSON object per line in production, readable text on a developer's machine.

`LOGGING` (config/settings/base.py, `logging_config`) puts `ContextFilter` on the one handler (standard error),
so every record, whichever library logged it, gets the current request id and task id
(`core.observability.request_id`) and has its message scrubbed before either formatter sees it:

- `JsonFormatter` (`LOG_FORMAT=json`, production's default): `time` (UTC, ISO 8601 with milliseconds),
  `level`, `logger`, `message`, `request_id` (null outside a request), then `task_id` inside a background task,
  the fields a caller passed with `extra=` that are plain JSON values, and `exception` (the traceback) when
  one was logged.
- `TEXT_FORMAT` (`LOG_FORMAT=text`, the local settings' default): `time level logger [request_id] message`.

Scrubbing is a safety net, not the rule: the shop logs ids (a user's pk, an order's reference), never an e-mail
address, a password, a token or a customer's text (tests/test_logs_private.py drives the flows that handle them
and reads every line). What the net removes anyway, in every message and traceback: e-mail addresses, API
tokens (`gpr_…`), `Authorization` values, session and CSRF cookies, and the shapes of Bitcoin, Litecoin,
Ethereum and Tron addresses, and a path segment (after a `/`) holding 16 or more letters and digits in a row,
both mixed, that is not a UUID: Django's request lines and tracebacks quote the URL's path, where a
password-reset or e-mail-change link carries its token (a slug's words are shorter). A field passed with `extra=`
whose value is not a plain JSON value (Django passes the request object) is left out.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from .request_id import current_request_id, current_task_id

__all__ = ["TEXT_FORMAT", "ContextFilter", "JsonFormatter", "scrub"]

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"

_EVERYWHERE = [
    (re.compile(r"[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"), "[email]"),
    (re.compile(r"\bgpr_[A-Za-z0-9_-]+"), "[api token]"),
    (re.compile(r"\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+", re.IGNORECASE), r"\1 [credentials]"),
    (re.compile(r"\b(sessionid|csrftoken|csrfmiddlewaretoken)=[^\s;,&]+", re.IGNORECASE), r"\1=[cookie]"),
    (re.compile(r"\b0x[0-9a-fA-F]{40}\b"), "[address]"),
    (re.compile(r"\b(?:bc|tb|bcrt|ltc|tltc|rltc)1[02-9ac-hj-np-z]{8,87}\b", re.IGNORECASE), "[address]"),
    (re.compile(r"\b[13LMT][1-9A-HJ-NP-Za-km-z]{25,34}\b"), "[address]"),
]
# Django's request lines and tracebacks quote the path: a segment holding a run of 16 or more letters and digits,
# both, is a link's token (password reset, e-mail change), unless it is a UUID (an intent's or an estimate's id,
# public enough); a slug's words are shorter.
_SEGMENT = re.compile(r"(?<=/)[^/\s?#]+")
_TOKEN_RUN = re.compile(r"(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,}")
_UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.IGNORECASE)

# What a LogRecord holds by itself; anything else on a record came from `extra=`.
_RECORD_FIELDS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "request_id",
    "task_id",
    "request",  # Django's request lines pass the request object: never logged
}


def scrub(text: str) -> str:
    """`text` without what the module docstring lists."""
    for pattern, replacement in _EVERYWHERE:
        text = pattern.sub(replacement, text)
    return _SEGMENT.sub(_path_segment, text)


def _path_segment(match: re.Match[str]) -> str:
    segment = match[0]
    return "[redacted]" if _TOKEN_RUN.search(segment) and not _UUID.fullmatch(segment) else segment


class ContextFilter(logging.Filter):
    """Adds `request_id` and `task_id` to every record and scrubs its message (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id()
        record.task_id = current_task_id()
        try:
            message = record.getMessage()
        # A caller's wrong format arguments: left as they are, for logging to report when it formats the line.
        except Exception:  # noqa: BLE001
            return True
        record.msg = scrub(message)
        record.args = None
        return True


class TextFormatter(logging.Formatter):
    """`TEXT_FORMAT`, with `-` for a missing request id and the traceback scrubbed too."""

    def __init__(self, fmt: str = TEXT_FORMAT, **kwargs: Any) -> None:
        super().__init__(fmt, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        if getattr(record, "request_id", None) is None:
            record.request_id = "-"
        return super().format(record)

    def formatException(self, ei: Any) -> str:
        return scrub(super().formatException(ei))


class JsonFormatter(logging.Formatter):
    """One JSON object per line (module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        if (task_id := getattr(record, "task_id", None)) is not None:
            line["task_id"] = task_id
        for name, value in vars(record).items():
            if name not in _RECORD_FIELDS and name not in line and _plain(value):
                line[name] = scrub(value) if isinstance(value, str) else value
        if record.exc_info:
            line["exception"] = scrub(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = scrub(record.exc_text)
        return json.dumps(line, ensure_ascii=False, default=str)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))
