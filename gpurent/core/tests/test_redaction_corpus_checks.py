"""The corpus builders' self-check (`redaction_corpus/checks.py`) refuses a malformed part and writes a good one."""

import json

import pytest

from tests.data.redaction_corpus.checks import check_and_write

SECRET = "Gp7xQ2mZ9kLw"


@pytest.mark.parametrize(
    ("positives", "negatives", "message"),
    [
        ([("no secret here", [])], [], "lists no secret"),
        ([(f"pw {SECRET}", ["short7!"])], [], "too short or not verbatim"),
        ([(f"pw {SECRET}", [SECRET + "x"])], [], "too short or not verbatim"),
        ([(f"pw {SECRET}", [SECRET])], ["clean", "clean"], "appears twice"),
    ],
)
def test_check_and_write_malformed_part_raises_and_writes_nothing(tmp_path, positives, negatives, message):
    with pytest.raises(ValueError, match=message):
        check_and_write(tmp_path / "part", "x", positives, negatives)
    assert not (tmp_path / "part").exists()


def test_check_and_write_repeated_text_allowed_for_old_parts(tmp_path):
    check_and_write(tmp_path / "part", "x", [], ["clean", "clean"], distinct=False)
    assert [json.loads(line)["id"] for line in (tmp_path / "part" / "clean.jsonl").read_text().splitlines()] == [
        "x-neg-0",
        "x-neg-1",
    ]


def test_check_and_write_good_part_reads_back_with_ids(tmp_path):
    check_and_write(tmp_path / "part", "x", [(f"pw {SECRET}", [SECRET])], ["nvidia-smi -pm 1"])
    back = json.loads((tmp_path / "part" / "secrets.jsonl").read_text())
    assert back == {"id": "x-pos-0", "text": f"pw {SECRET}", "secrets": [SECRET]}
