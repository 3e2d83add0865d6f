"""The estimator bench's hindsight windows (`--width-bound`, decision 0618): what one window of the target width can
hold when it is placed after seeing the peaks, and how wide it must be to hold nine in ten, each kind its own."""

from bench import estimator_accuracy as bench


def _row(kind: str, need: float) -> dict[str, object]:
    """A measured peak ``need`` of the expected value above (or below) it, nothing not modelled beside it."""
    estimate = 1_000_000
    return {"kind": kind, "estimate": estimate, "published": round(estimate * (1 + need)), "below": 0, "above": 0}


def test_one_window_holds_the_densest_run_of_needs() -> None:
    needs = [-0.5, -0.1, 0.0, 0.1, 0.2, 0.25, 0.9]
    assert bench.best_window(needs, 0.35) == 5
    assert bench.best_window(needs, 0.30) == 4
    assert bench.best_window(needs, 2.0) == 7
    assert bench.best_window([0.0], 0.0) == 1


def test_each_kind_takes_its_own_window() -> None:
    """Two kinds ten points wide each, a whole point apart: each holds all of its own in a window 10 points wide,
    though one window over both would need 110."""
    rows = [_row("a", n) for n in (0.0, 0.05, 0.1)] * 3 + [_row("b", n) for n in (1.0, 1.05, 1.1)] * 3
    held, width = bench.hindsight_windows(rows)
    assert held == 1.0
    assert width == 10


def test_a_far_peak_in_ten_is_left_out_at_nine_in_ten() -> None:
    rows = [_row("a", n / 100) for n in range(9)] + [_row("a", 2.0)]
    held, width = bench.hindsight_windows(rows)
    assert held == 0.9
    assert width == 8
