"""The redaction bench's `--part`: checked against the corpus's own list of parts (`scoring.PARTS`, no copy in the
bench, decision 0293), after Django is set up; an unknown name is argparse's usage error naming the parts."""

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.data.redaction_corpus.scoring import PARTS

BENCH = Path(__file__).resolve().parents[1] / "bench" / "redaction_recall.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("redaction_recall", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_part_by_default(bench: ModuleType) -> None:
    parser, args = bench.parse_arguments([])
    assert bench.chosen_parts(parser, args.part, PARTS) == tuple(PARTS)


@pytest.mark.parametrize("name", PARTS)
def test_each_part_of_the_corpus_can_be_chosen(bench: ModuleType, name: str) -> None:
    parser, args = bench.parse_arguments(["--part", name])
    assert bench.chosen_parts(parser, args.part, PARTS) == (name,)


def test_an_unknown_part_is_a_usage_error_that_names_the_parts(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    parser, args = bench.parse_arguments(["--part", "heldout99"])
    with pytest.raises(SystemExit) as exited:
        bench.chosen_parts(parser, args.part, PARTS)
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "argument --part: unknown part 'heldout99' (choose from tuning, " in error
    assert f"{PARTS[-1]}, all)" in error
    assert not hasattr(bench, "PART_NAMES")
