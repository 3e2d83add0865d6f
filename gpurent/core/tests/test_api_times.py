"""The API writes every time with its milliseconds, so an idempotent replay (the stored JSON read back) is the same
text as the first answer."""

import json
from datetime import UTC, datetime

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from gpurent.core.api import ShopJSONEncoder


@pytest.mark.parametrize("microsecond", [0, 123, 999, 1000, 999_999])
def test_a_time_read_back_from_its_stored_json_is_written_as_it_first_was(microsecond):
    first = datetime(2026, 12, 5, 23, 27, 51, microsecond, tzinfo=UTC)
    stored = json.loads(json.dumps({"at": first}, cls=DjangoJSONEncoder))["at"]  # the idempotency key's body
    read_back = datetime.fromisoformat(stored)
    assert json.dumps(first, cls=ShopJSONEncoder) == json.dumps(read_back, cls=ShopJSONEncoder)
    assert json.dumps(first, cls=ShopJSONEncoder).endswith(f'.{microsecond // 1000:03d}Z"')
