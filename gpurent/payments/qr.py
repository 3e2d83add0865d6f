"""Wallet payment URIs and their QR codes as inline SVG.

`payment_uri` follows each network's published scheme (`Network.payment_uri` in `networks/<network>.py`), so a
wallet that scans the code fills in the address, the exact amount and, for tokens, the right contract:

| network           | URI                                                                     | standard     |
|-------------------|-------------------------------------------------------------------------|--------------|
| Bitcoin, Litecoin | `bitcoin:ADDR?amount=0.0015` / `litecoin:ADDR?amount=…` (whole coins)   | BIP-21       |
| Ethereum: ETH     | `ethereum:ADDR@1?value=WEI` (integer wei)                               | EIP-681      |
| Ethereum: ERC-20  | `ethereum:TOKEN@1/transfer?address=ADDR&uint256=BASE_UNITS`             | EIP-681      |
| Solana            | `solana:ADDR?amount=0.5` (whole coins, never exponent notation), an SPL | Solana Pay   |
|                   | token adds `&spl-token=MINT` (the wallet pays the owner's token account)|              |
| Tron              | `ADDR` alone: Tron has no URI standard that wallets agree on            | —            |

`qr_svg` renders any payload (a URI, or a bare address) with segno. The SVG has no `style` attribute, so the
Content Security Policy (`style-src 'self'`, nothing inline) allows it inline; it scales with its `viewBox`.
"""

from __future__ import annotations

import io

import segno

from .addresses import validate_address
from .assets import Pair, chain_units, format_units
from .networks import network_get

__all__ = ["payment_uri", "qr_svg"]


def payment_uri(pair: Pair, address: str, amount_units: int, memo: str = "") -> str:
    """The URI a wallet opens to pay `amount_units` (quote units) of `pair` to `address`.

    The address is validated again and written in its canonical form: whatever reaches this function ends up
    in a string a wallet trusts, so a value such as "addr?amount=1" must not slip through.

    Raises:
        InvalidAddress: `address` is not valid on the pair's network.
        TypeError / ValueError: `amount_units` is not a positive int.
        ValueError: a memo on a network whose URI cannot carry one (only Solana Pay has a memo field).
    """
    address = validate_address(pair.network, address)
    if type(amount_units) is int and amount_units <= 0:
        raise ValueError("a payment request is for a positive amount")
    amount = _plain_decimal(format_units(amount_units, pair))
    network = network_get(pair.network)
    if memo and not network.uri_memo:
        raise ValueError(f"a {pair.network_label} payment URI has no memo field")
    return network.payment_uri(pair, address, amount, chain_units(amount_units, pair), memo)


def _plain_decimal(text: str) -> str:
    """Drop trailing zeros ("0.00150000" → "0.0015", "2.000000" → "2"): shorter codes, as the specs show."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def qr_svg(payload: str, *, title: str = "Payment QR code") -> str:
    """An inline `<svg>` QR code of `payload` (error correction M, 4-module quiet zone, black on white).

    No XML declaration, no fixed size (a `viewBox` only: CSS sizes it), no `style` attribute; the `title`
    is the accessible name.

    Raises:
        ValueError: an empty payload, or one too long for a QR code.
    """
    if not payload:
        raise ValueError("nothing to encode")
    try:
        code = segno.make(payload, error="m", micro=False, boost_error=False)
    except segno.DataOverflowError as error:
        raise ValueError("too long for a QR code") from error
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        omitsize=True,
        border=4,
        dark="#000",
        light="#fff",
        title=title,
        svgclass="payment-qr",
        lineclass=None,
        nl=False,
    )
    return out.getvalue().decode("utf-8")
