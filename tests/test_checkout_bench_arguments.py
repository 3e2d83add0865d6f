"""The checkout contention bench's buyer arguments: threads (the default) or processes, never both."""

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "checkout_contention.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("checkout_contention", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_threads_by_default(bench: ModuleType) -> None:
    args = bench.parse_arguments([])
    assert (args.buyers, args.processes) == (8, None)


@pytest.mark.parametrize("count", [1, 8])
def test_processes_set_the_buyers(bench: ModuleType, count: int) -> None:
    args = bench.parse_arguments(["--processes", str(count)])
    assert (args.buyers, args.processes, args.threads) == (count, count, None)


@pytest.mark.parametrize(
    "argv",
    [["--threads", "8", "--processes", "8"], ["--processes", "0"], ["--processes", "9", "--orders", "8"]],
)
def test_impossible_buyers_are_refused(bench: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.parse_arguments(argv)
