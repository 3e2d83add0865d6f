import re

import pytest

from gpurent.payments.assets import pair_get
from gpurent.payments.errors_crypto import InvalidAddress
from gpurent.payments.qr import payment_uri, qr_svg

ETH_ADDRESS = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"


@pytest.mark.parametrize(
    ("asset", "network", "address", "units", "uri"),
    [
        (
            "BTC",
            "bitcoin",
            "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
            150_000,
            "bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015",
        ),
        (
            "LTC",
            "litecoin",
            "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9",
            200_000_000,
            "litecoin:LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9?amount=2",
        ),
        # EIP-681: ETH in integer wei (8 quote decimals → 18 chain decimals).
        ("ETH", "ethereum", ETH_ADDRESS.lower(), 3_166_667, f"ethereum:{ETH_ADDRESS}@1?value=31666670000000000"),
        # EIP-681 ERC-20 transfer: the token contract is the target, the shop's address and base units are arguments.
        (
            "USDT",
            "ethereum",
            ETH_ADDRESS,
            95_000_000,
            f"ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address={ETH_ADDRESS}&uint256=95000000",
        ),
        (
            "USDC",
            "ethereum",
            ETH_ADDRESS,
            1,
            f"ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address={ETH_ADDRESS}&uint256=1",
        ),
        # Solana Pay: whole SOL as a plain decimal, never exponent notation.
        (
            "SOL",
            "solana",
            "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg",
            1,
            "solana:vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg?amount=0.000000001",
        ),
        # Tron has no agreed URI: the code holds the address, the page shows the amount.
        ("TRX", "tron", "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r", 5_000_000, "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r"),
        ("USDT", "tron", "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r", 5_000_000, "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r"),
    ],
)
def test_payment_uri_follows_each_networks_standard(asset, network, address, units, uri):
    assert payment_uri(pair_get(asset, network), address, units) == uri


def test_payment_uri_solana_pay_carries_a_memo_url_encoded():
    uri = payment_uri(pair_get("SOL", "solana"), "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg", 500_000_000, "D-12 ab")
    assert uri == "solana:vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg?amount=0.5&memo=D-12%20ab"


def test_payment_uri_of_an_spl_token_names_its_mint_so_the_wallet_does_not_send_sol():
    # Solana Pay: the owner's address (the wallet derives its token account), the amount in whole USDC.
    uri = payment_uri(pair_get("USDC", "solana"), "vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg", 12_500_000, "D-12")
    assert uri == (
        "solana:vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg"
        "?amount=12.5&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v&memo=D-12"
    )


def test_payment_uri_refuses_a_memo_where_the_uri_has_no_place_for_it():
    with pytest.raises(ValueError, match="no memo"):
        payment_uri(pair_get("USDT", "tron"), "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r", 1, "123")


@pytest.mark.parametrize(
    "address",
    [
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=21",  # an injected parameter
        "TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r",  # another network's address
    ],
)
def test_payment_uri_validates_the_address_again(address):
    with pytest.raises(InvalidAddress):
        payment_uri(pair_get("BTC", "bitcoin"), address, 1)


@pytest.mark.parametrize(("units", "error"), [(0, ValueError), (-5, ValueError), (1.5, TypeError)])
def test_payment_uri_refuses_amounts_that_are_not_positive_ints(units, error):
    with pytest.raises(error):
        payment_uri(pair_get("BTC", "bitcoin"), "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", units)


def test_qr_svg_is_inline_svg_without_style_attributes():
    svg = qr_svg("bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ')
    assert svg.endswith("</svg>")
    assert "<?xml" not in svg
    assert "style" not in svg  # CSP: style-src 'self', nothing inline
    assert 'class="payment-qr"' in svg
    assert "<title>Payment QR code</title>" in svg
    assert re.search(r'\swidth="|\sheight="', svg) is None  # CSS sizes it through the viewBox


def test_qr_svg_is_deterministic_and_depends_on_the_payload():
    assert qr_svg("TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r") == qr_svg("TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r")
    assert qr_svg("TNDzfERDpxLDS2w1q6yaFC7pzqaSQ3Bg3r") != qr_svg("TFEkshkSXo8yMe8vcA6P77XmiLfstNWHyT")


def test_qr_svg_escapes_the_title():
    svg = qr_svg("x", title='Pay <b>"now"</b> & go')
    assert "<b>" not in svg
    assert "&lt;b&gt;" in svg


def test_qr_svg_refuses_empty_and_oversized_payloads():
    with pytest.raises(ValueError, match="nothing"):
        qr_svg("")
    with pytest.raises(ValueError, match="too long"):
        qr_svg("x" * 5_000)
