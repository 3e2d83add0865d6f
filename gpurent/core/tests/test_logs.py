"""The log format (one JSON object per line, or text), the request id in every line of a request, and the scrubbing
safety net (gpurent/core/observability/logs.py, core/observability/request_id.py,
core/observability/middleware.py; decision 0412)."""

from __future__ import annotations

import io
import json
import logging
import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from config.settings.base import logging_config
from gpurent.core.observability.logs import ContextFilter, JsonFormatter, TextFormatter, scrub
from gpurent.core.observability.request_id import bound, current_request_id, incoming_or_new, well_formed
from gpurent.core.testing import logged_lines


def _format(formatter: logging.Formatter, emit) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(formatter)
    logger = logging.getLogger("logs_test.format")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        emit(logger)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    return stream.getvalue()


def test_json_line_has_time_level_logger_message_request_id_and_plain_extra_fields():
    def emit(logger):
        with bound("req-7f3a"):
            logger.warning("order %s held", "R-1234", extra={"order_ref": "R-1234", "lots": 2, "request": object()})

    (line,) = _format(JsonFormatter(), emit).splitlines()
    record = json.loads(line)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", record.pop("time"))
    assert record == {
        "level": "WARNING",
        "logger": "logs_test.format",
        "message": "order R-1234 held",
        "request_id": "req-7f3a",
        "order_ref": "R-1234",
        "lots": 2,
    }


def test_json_line_outside_a_request_has_a_null_request_id_and_a_task_id_inside_a_task():
    def emit(logger):
        logger.info("outside")
        with bound(None, task_id="0b7c5a1e-task"):
            logger.info("in a task no request started")

    outside, in_task = (json.loads(line) for line in _format(JsonFormatter(), emit).splitlines())
    assert outside["request_id"] is None
    assert "task_id" not in outside
    assert in_task["request_id"] is None
    assert in_task["task_id"] == "0b7c5a1e-task"


def test_json_line_carries_the_traceback_scrubbed():
    def emit(logger):
        try:
            raise ValueError("duplicate key (email)=(someone@example.com)")
        except ValueError:
            logger.exception("could not save")

    record = json.loads(_format(JsonFormatter(), emit))
    assert "ValueError: duplicate key (email)=([email])" in record["exception"]
    assert "someone@example.com" not in json.dumps(record)


def test_text_line_has_the_request_id_in_brackets():
    def emit(logger):
        logger.info("outside")
        with bound("req-1"):
            logger.info("inside")

    outside, inside = _format(TextFormatter(), emit).splitlines()
    assert outside.endswith(" INFO logs_test.format [-] outside")
    assert inside.endswith(" INFO logs_test.format [req-1] inside")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mail to Someone.Else+x@mail.example.co.uk failed", "mail to [email] failed"),
        ("token gpr_AbCdEf0123456789_-xyz used", "token [api token] used"),
        ("Authorization: Bearer eyJhbGciOi.abc-def_1", "Authorization: Bearer [credentials]"),
        ("Cookie: sessionid=abc123def; csrftoken=XYZ", "Cookie: sessionid=[cookie]; csrftoken=[cookie]"),
        ("paid from 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "paid from [address]"),
        ("to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "to [address]"),
        ("to TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t now", "to [address] now"),
        ("database postgres://shop:s3cret@db.internal:5432/shop", "database postgres://shop:[email]:5432/shop"),
        ("user 42 registered; order R-7KQ3-M9XA paid", "user 42 registered; order R-7KQ3-M9XA paid"),
        ("intent 0b7c5a1e-9d2f-4c1b-8e3a-5f6d7c8b9a0e expired", "intent 0b7c5a1e-9d2f-4c1b-8e3a-5f6d7c8b9a0e expired"),
    ],
)
def test_scrub_removes_addresses_tokens_and_credentials_and_keeps_ids(text, expected):
    assert scrub(text) == expected


def test_scrub_removes_a_link_token_from_a_path_but_not_a_uuid_or_a_slug():
    line = "Not Found: /account/reset/MTI/cb0x3k-9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d/"
    assert scrub(line) == "Not Found: /account/reset/MTI/[redacted]/"
    uuid_path = "Not Found: /pay/intents/0b7c5a1e-9d2f-4c1b-8e3a-5f6d7c8b9a0e/"
    assert scrub(uuid_path) == uuid_path
    assert scrub("Not Found: /catalog/a100-80gb-sxm4-extended-name/").endswith("extended-name/")


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("7f3a9c1e2b4d4e6f8a0b1c2d3e4f5a6b", True),
        ("0b7c5a1e-9d2f-4c1b-8e3a-5f6d7c8b9a0e", True),
        ("lb-1:req.42_x", True),
        ("", False),
        ("a" * 129, False),
        ("has space", False),
        ("line\nbreak", False),
        ('quote"d', False),
        ("ümlaut", False),
        (None, False),
    ],
)
def test_a_request_id_is_taken_only_when_well_formed(value, ok):
    assert well_formed(value) is ok
    taken = incoming_or_new(value)
    assert (taken == value) is ok
    if not ok:
        assert re.fullmatch(r"[0-9a-f]{32}", taken)


def test_log_format_is_json_or_text():
    assert logging_config("json")["handlers"]["console"]["formatter"] == "json"
    assert logging_config("text")["handlers"]["console"]["formatter"] == "text"
    with pytest.raises(ImproperlyConfigured, match="LOG_FORMAT"):
        logging_config("xml")


@pytest.mark.django_db
def test_a_request_echoes_a_well_formed_id_and_every_line_of_it_carries_it(client):
    with logged_lines() as lines:
        response = client.post(
            reverse("accounts:register"),
            {
                "email": "id-echo@example.com",
                "password": "velvet harbour cobalt ninety",
                "first_name": "I",
                "last_name": "D",
            },
            headers={"X-Request-ID": "edge-7f3a9c1e"},
        )
    assert response.status_code == 302
    assert response["X-Request-ID"] == "edge-7f3a9c1e"
    registered = [line for line in lines if line["message"].startswith("user ") and "registered" in line["message"]]
    assert len(registered) == 1
    assert {line["request_id"] for line in lines} == {"edge-7f3a9c1e"}
    assert current_request_id() is None  # not left bound after the request


@pytest.mark.django_db
def test_a_request_without_a_usable_id_gets_a_new_one_in_its_header_and_lines(client):
    with logged_lines() as lines:
        response = client.get(reverse("catalog:index"), headers={"X-Request-ID": "not a valid id"})
    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])
    (done,) = [line for line in lines if line["logger"] == "gpurent.core.observability"]
    assert done["request_id"] == response["X-Request-ID"]
    assert (done["method"], done["route"], done["status"]) == ("GET", "catalog:index", 200)
    assert done["message"].startswith("GET catalog:index 200 ")
    assert isinstance(done["duration_ms"], float)
    assert client.get(reverse("catalog:index"))["X-Request-ID"] != response["X-Request-ID"]
