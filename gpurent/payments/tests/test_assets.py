from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpurent.core.money import Usd
from gpurent.payments.assets import (
    ASSETS,
    MAX_UNITS,
    NETWORKS,
    PAIRS,
    chain_units,
    format_units,
    pair_from_key,
    pair_get,
    pairs_for_choice,
    parse_units,
    quote_units,
    required_confirmations,
    usd_value,
)
from gpurent.payments.errors_crypto import UnsupportedPair
from gpurent.payments.networks.codecs import b58check_decode, eip55_checksum

BTC = pair_get("BTC", "bitcoin")
ETH = pair_get("ETH", "ethereum")
USDT_TRON = pair_get("USDT", "tron")
SOL = pair_get("SOL", "solana")

# --- the nine pairs ---------------------------------------------------------------------------------------------


def test_pairs_are_exactly_the_nine_with_their_chain_decimals():
    assert [(p.asset, p.network, p.chain_decimals) for p in PAIRS] == [
        ("BTC", "bitcoin", 8),
        ("ETH", "ethereum", 18),
        ("USDT", "ethereum", 6),
        ("USDC", "ethereum", 6),
        ("SOL", "solana", 9),
        ("USDC", "solana", 6),
        ("TRX", "tron", 6),
        ("USDT", "tron", 6),
        ("LTC", "litecoin", 8),
    ]
    assert set(NETWORKS) == {"bitcoin", "ethereum", "solana", "tron", "litecoin"}
    assert ASSETS == ("BTC", "ETH", "USDT", "USDC", "SOL", "TRX", "LTC")


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: p.key)
def test_pair_quote_precision_is_at_most_nine_and_never_finer_than_the_chain(pair):
    assert 0 < pair.quote_decimals <= min(9, pair.chain_decimals)
    assert pair.confirmations >= 1
    assert pair.needs_memo is False
    assert (pair.token_contract is None) == (pair.token_standard is None) == (not pair.is_token)


def test_pair_tokens_are_the_four_with_contracts():
    tokens = {p.key: (p.token_standard, p.token_contract) for p in PAIRS if p.is_token}
    assert tokens == {
        "USDT/ethereum": ("ERC-20", "0xdAC17F958D2ee523a2206206994597C13D831ec7"),
        "USDC/ethereum": ("ERC-20", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
        "USDC/solana": ("SPL", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"),  # Circle's USDC mint
        "USDT/tron": ("TRC-20", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
    }


@pytest.mark.parametrize("pair", [p for p in PAIRS if p.network == "ethereum" and p.is_token], ids=lambda p: p.key)
def test_pair_erc20_contract_passes_its_eip55_checksum(pair):
    # Mixed case is a checksum claim; the checksum of its lower-case form must reproduce it exactly.
    assert pair.token_contract != pair.token_contract.lower()
    assert eip55_checksum(pair.token_contract.lower()) == pair.token_contract


def test_pair_trc20_contract_passes_base58check_and_is_a_tron_contract():
    assert USDT_TRON.token_contract is not None
    payload = b58check_decode(USDT_TRON.token_contract)
    assert payload.hex() == "41a614f803b6fd780986a42c78ec9c7f77e6ded13c"


def test_pair_misquoted_tron_contract_from_the_wild_fails_its_checksum():
    # payments_security §4.1: the same payload with a wrong checksum, copied from a third-party page.
    with pytest.raises(ValueError, match="checksum"):
        b58check_decode("TR7NHqjeKQxGTCi8q8ZY4pL8otSzg5uV7p")


@pytest.mark.parametrize(
    ("asset", "network", "key"),
    [("usdt", "TRON", "USDT/tron"), (" Btc ", "bitcoin", "BTC/bitcoin"), ("USDC", "Ethereum", "USDC/ethereum")],
)
def test_pair_get_is_case_insensitive_and_returns_the_canonical_pair(asset, network, key):
    assert pair_get(asset, network).key == key


@pytest.mark.parametrize("network", [None, "", "  "])
def test_pair_get_symbol_without_network_is_refused_with_the_choices(network):
    with pytest.raises(UnsupportedPair) as caught:
        pair_get("USDT", network)
    error = caught.value
    assert (error.code, error.status, error.replayable) == ("unsupported_pair", 422, False)
    assert error.message == (
        "Choose the network for USDT: Ethereum (ERC-20) (network “ethereum”) or Tron (TRC-20) (network “tron”)."
    )


@pytest.mark.parametrize(
    ("asset", "network", "message"),
    [
        (
            "USDC",
            "tron",
            "USDC is not accepted on Tron. Use Ethereum (ERC-20) (network “ethereum”) or Solana (SPL) (network "
            "“solana”).",
        ),
        ("SOL", "ethereum", "SOL is not accepted on Ethereum. Use Solana (network “solana”)."),
        ("BTC", "lightning", "BTC is not accepted on lightning. Use Bitcoin (network “bitcoin”)."),
        ("DOGE", "dogecoin", "DOGE is not accepted. Accepted: BTC on Bitcoin, ETH on Ethereum, "),
        ("", "bitcoin", "This asset is not accepted."),
    ],
)
def test_pair_get_unsupported_combinations_are_refused(asset, network, message):
    with pytest.raises(UnsupportedPair) as caught:
        pair_get(asset, network)
    assert caught.value.message.startswith(message)


def test_pair_get_refuses_non_strings():
    with pytest.raises(UnsupportedPair):
        pair_get(None, "bitcoin")  # type: ignore[arg-type]


def test_pairs_for_choice_labels_always_name_the_network():
    assert pairs_for_choice() == [
        ("BTC/bitcoin", "BTC on Bitcoin"),
        ("ETH/ethereum", "ETH on Ethereum"),
        ("USDT/ethereum", "USDT on Ethereum (ERC-20)"),
        ("USDC/ethereum", "USDC on Ethereum (ERC-20)"),
        ("SOL/solana", "SOL on Solana"),
        ("USDC/solana", "USDC on Solana (SPL)"),
        ("TRX/tron", "TRX on Tron"),
        ("USDT/tron", "USDT on Tron (TRC-20)"),
        ("LTC/litecoin", "LTC on Litecoin"),
    ]
    assert all(pair_from_key(value).label == label for value, label in pairs_for_choice())


@pytest.mark.parametrize("key", ["USDT", "USDT/", "USDC/tron", "", "/tron"])
def test_pair_from_key_refuses_what_is_not_a_pair(key):
    with pytest.raises(UnsupportedPair):
        pair_from_key(key)


def test_required_confirmations_default_and_operator_override(settings):
    assert required_confirmations(BTC) == 2
    settings.PAYMENTS_CONFIRMATIONS = {"bitcoin": 6}
    assert required_confirmations(BTC) == 6
    assert required_confirmations(ETH) == 64
    settings.PAYMENTS_CONFIRMATIONS = {"bitcoin": 0}
    with pytest.raises(ValueError, match="positive integer"):
        required_confirmations(BTC)


# --- exact arithmetic -------------------------------------------------------------------------------------------


def test_quote_units_rounds_up_to_the_quote_unit():
    # $95 at $3000/ETH = 0.031666… ETH → 0.03166667 (8 decimals, rounded up).
    assert quote_units(Usd(9_500), Decimal("3000"), ETH) == 3_166_667
    assert usd_value(3_166_667, Decimal("3000"), ETH) == Usd(9_500)
    # A stablecoin at par quotes exactly.
    assert quote_units(Usd(123_450), Decimal("1"), USDT_TRON) == 1_234_500_000
    # An exact division needs no rounding.
    assert quote_units(Usd(5_000), Decimal("100000"), BTC) == 50_000


def test_usd_value_rounds_down_to_the_cent():
    # 0.00000001 BTC at $97,000.12 is $0.00097…: no cent is created.
    assert usd_value(1, Decimal("97000.12"), BTC) == Usd(0)
    assert usd_value(100_000_000, Decimal("97000.129"), BTC) == Usd(9_700_012)


def test_chain_units_scales_quote_units_to_the_base_unit():
    assert chain_units(3_166_667, ETH) == 31_666_670_000_000_000  # wei
    assert chain_units(1_000_000, USDT_TRON) == 1_000_000
    assert chain_units(5, SOL) == 5


@pytest.mark.parametrize(
    "call",
    [
        lambda: quote_units(Usd(100), 1.5, BTC),  # type: ignore[arg-type]
        lambda: quote_units(1.5, Decimal("1.5"), BTC),  # type: ignore[arg-type]
        lambda: quote_units(100, Decimal("1.5"), BTC),  # type: ignore[arg-type]
        lambda: usd_value(1.0, Decimal("1.5"), BTC),  # type: ignore[arg-type]
        lambda: usd_value(100, 1.5, BTC),  # type: ignore[arg-type]
        lambda: usd_value(True, Decimal("1.5"), BTC),
        lambda: usd_value(Decimal(1), Decimal("1.5"), BTC),  # type: ignore[arg-type]
        lambda: format_units(1.5, BTC),  # type: ignore[arg-type]
        lambda: chain_units(1.5, BTC),  # type: ignore[arg-type]
        lambda: parse_units(1.5, BTC),  # type: ignore[arg-type]
    ],
)
def test_money_helpers_refuse_floats_and_other_types(call):
    with pytest.raises(TypeError):
        call()


@pytest.mark.parametrize("rate", [Decimal(0), Decimal(-1), Decimal("NaN"), Decimal("Infinity")])
def test_quote_units_refuses_a_rate_that_is_not_positive_and_finite(rate):
    with pytest.raises(ValueError, match="positive finite"):
        quote_units(Usd(100), rate, BTC)


def test_quote_units_refuses_negative_usd_and_results_beyond_a_bigint():
    with pytest.raises(ValueError, match="negative"):
        quote_units(Usd(-1), Decimal(1), BTC)
    with pytest.raises(ValueError, match="beyond"):
        quote_units(Usd(10**15), Decimal("0.000000000001"), BTC)


def test_format_units_shows_exactly_the_quote_decimals():
    assert format_units(150_000, BTC) == "0.00150000"
    assert format_units(1_000_000, USDT_TRON) == "1.000000"
    assert format_units(0, SOL) == "0.000000000"
    assert format_units(1_234_567_891, SOL) == "1.234567891"
    with pytest.raises(ValueError, match="out of range"):
        format_units(-1, BTC)
    with pytest.raises(ValueError, match="out of range"):
        format_units(MAX_UNITS + 1, BTC)


@pytest.mark.parametrize(
    ("text", "pair", "units"),
    [
        ("0.0015", BTC, 150_000),
        ("12", USDT_TRON, 12_000_000),
        (" 1.5 ", USDT_TRON, 1_500_000),
        ("0.00000001", BTC, 1),
        ("0.012345670000000000", ETH, 1_234_567),  # an explorer's 18 decimals, trailing zeros only
        ("007", BTC, 700_000_000),
    ],
)
def test_parse_units_reads_exact_amounts(text, pair, units):
    assert parse_units(text, pair) == units


@pytest.mark.parametrize(
    "text", ["0.000000001", "-1", "+1", "1e5", "abc", "", " ", "1..2", "1,5", ".5", "5.", "NaN", "١", "1 000"]
)
def test_parse_units_refuses_junk_negatives_and_excess_precision(text):
    with pytest.raises(ValueError, match=r"not an amount of BTC|at most 8 decimals"):
        parse_units(text, BTC)


def test_parse_units_refuses_more_than_a_bigint():
    with pytest.raises(ValueError, match="out of range"):
        parse_units("999999999999999999999", BTC)


# --- properties -------------------------------------------------------------------------------------------------

pairs = st.sampled_from(PAIRS)
# Order totals: 1..10 lots at up to $6,600, and top-ups up to $1M, in cents.
usd_amounts = st.integers(min_value=1, max_value=100_000_000).map(Usd)
# The cheapest asset (TRX) trades around $0.1; at $0.001 a $1M top-up still fits a BIGINT of quote units.
rates = st.decimals(min_value=Decimal("0.001"), max_value=Decimal("10000000"), places=12, allow_nan=False)


@given(usd=usd_amounts, rate=rates, pair=pairs)
def test_quote_units_never_undercharges_and_overshoots_by_less_than_one_unit(usd, rate, pair):
    units = quote_units(usd, rate, pair)
    assert type(units) is int
    assert usd_value(units, rate, pair) >= usd
    # Exactly, as fractions: the quote covers the total, and one unit less would not.
    unit_value = Fraction(rate) / 10**pair.quote_decimals
    total = Fraction(usd.cents, 100)
    assert units * unit_value >= total
    assert (units - 1) * unit_value < total


@given(units=st.integers(min_value=0, max_value=MAX_UNITS), pair=pairs)
def test_format_units_and_parse_units_round_trip(units, pair):
    text = format_units(units, pair)
    assert len(text.partition(".")[2]) == pair.quote_decimals
    assert parse_units(text, pair) == units


@given(units=st.integers(min_value=0, max_value=10**15), rate=rates, pair=pairs)
def test_usd_value_never_creates_money(units, rate, pair):
    value = usd_value(units, rate, pair)
    exact = Fraction(units) * Fraction(rate) / 10**pair.quote_decimals
    assert Fraction(value.cents, 100) <= exact < Fraction(value.cents + 1, 100)
