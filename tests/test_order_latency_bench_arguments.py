"""The order latency bench's arguments (bench/order_latency.py) and the pieces it reads its figures with."""

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "order_latency.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("order_latency", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_defaults_are_eight_buyers_on_this_checkout(bench: ModuleType) -> None:
    args = bench.parse_arguments([])
    assert (args.buyers, args.orders, args.warm_up, args.rounds) == (8, 15, 2, 3)
    assert args.tree == [ROOT]
    assert args.database_url == "postgres://postgres@127.0.0.1:5432/gpurent_orderlatency"


def test_several_trees_are_compared_in_the_order_given(bench: ModuleType, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "manage.py").touch()
    args = bench.parse_arguments(["--tree", str(ROOT), "--tree", str(other)])
    assert args.tree == [ROOT, other.resolve()]


@pytest.mark.parametrize(
    "argv",
    [
        ["--database-url", "postgres://postgres@127.0.0.1:5432/gpurent"],  # the shared database
        ["--database-url", "postgres://postgres@127.0.0.1:5432/postgres"],
        ["--database-url", "postgres://postgres@127.0.0.1:5432/drop me"],
        ["--database-url", "postgres://postgres@db.example.com:5432/scratch"],  # never another machine
        ["--database-url", "sqlite:///scratch"],
        ["--buyers", "0"],
        ["--orders", "0"],
        ["--rounds", "0"],
        ["--warm-up", "-1"],
        ["--redis-db", "16"],
        ["--tree", "/"],  # no manage.py there
        ["--tree", str(ROOT), "--tree", str(ROOT)],
    ],
)
def test_impossible_arguments_are_refused(bench: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.parse_arguments(argv)


def test_percentiles_are_nearest_rank(bench: ModuleType) -> None:
    values = [float(value) for value in range(100, 0, -1)]
    assert bench.percentile(values, 0.5) == 50.0
    assert bench.percentile(values, 0.99) == 99.0
    assert bench.percentile([7.0], 0.99) == 7.0


def test_a_forms_fields_are_read_as_a_browser_sends_them(bench: ModuleType) -> None:
    page = b"""
        <form action="/elsewhere/" method="post"><input type="hidden" name="other" value="no"></form>
        <form action="/checkout/place/" method="post">
          <input type="hidden" name="csrfmiddlewaretoken" value="token">
          <input type="hidden" name="idempotency_key" value="key">
          <input type="text" name="contact_first_name" value="Ana">
          <input type="checkbox" name="ssh_keys" value="1" checked>
          <input type="checkbox" name="ssh_keys_off" value="2">
          <button type="submit" name="go">Place</button>
        </form>"""
    assert bench.form_fields(page, "/checkout/place/") == {
        "csrfmiddlewaretoken": "token",
        "idempotency_key": "key",
        "contact_first_name": "Ana",
        "ssh_keys": "1",
    }
    with pytest.raises(RuntimeError):
        bench.form_fields(page, "/payments/orders/R-1/pay/")
