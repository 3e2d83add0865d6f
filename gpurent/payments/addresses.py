"""Address validation per network, with checksums where the network has them.

`validate_address(network, address)` returns the address in its canonical form or raises `InvalidAddress`.
Validation is per network on purpose: the same 20 bytes can be spelled as an Ethereum or a Tron address, and
Litecoin's legacy `3…` P2SH collides with Bitcoin's, so "it parses" never means "it belongs to this network"
(payments_security §4.1). Each network's module (`networks/<network>.py`) decodes its own addresses; Bitcoin
and Litecoin follow the variant the shop runs (`BitcoinFamily.variant`: mainnet unless `PAYMENTS_SEGWIT_HRP`
names a test network's prefix):

| network  | accepted (mainnet; test networks in `networks/bitcoin_family.py`)               | canonical form    |
|----------|---------------------------------------------------------------------------------|-------------------|
| bitcoin  | Base58Check P2PKH (0x00) / P2SH (0x05); segwit hrp `bc`: v0 Bech32, v1+ Bech32m | bech32 lower case |
| litecoin | Base58Check 0x30 `L…`, 0x32 `M…`; segwit hrp `ltc`                              | bech32 lower case |
| ethereum | `0x` + 40 hex; mixed case must pass EIP-55; all-lower/all-upper accepted        | EIP-55 checksummed|
| tron     | Base58Check of 21 bytes starting 0x41 (`T…`, 34 characters)                     | as given          |
| solana   | Base58 of exactly 32 bytes (no checksum exists)                                 | as given          |

A refusal says why when it can (docs/decisions/0370): an address of another network or test network is named
("This is an address on Bitcoin, not on Litecoin"); Litecoin's `3…` (and `m…`/`n…`/`2…` on its test networks)
is refused because a Bitcoin address spelled the same would pass for it; Tron's checksum-less hex form asks
for the `T…` form. A valid address nobody can spend from (burn, system and program addresses, the zero
address of every network) is refused with one message (`Network.is_unspendable`, docs/decisions/0371).

Ethereum: an all-lower or all-upper address carries no checksum, and wallets and explorers print them; we
accept them and return the checksummed spelling, so what we store and show from then on is protected. A
mixed-case address is a claim that it is checksummed, and a wrong one is a typo: refused.

The codecs (Base58Check, Bech32/Bech32m, Keccak-256 and EIP-55) are in `networks/codecs.py`.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from .errors_crypto import InvalidAddress
from .networks import all_networks, network_get

__all__ = ["validate_address"]

# No address on our networks is longer than a segwit v0 P2WSH (62/63 characters); refusing long input before
# decoding keeps Base58's quadratic big-integer loop bounded.
MAX_ADDRESS_LENGTH = 100


def validate_address(network: str, address: str) -> str:
    """The canonical form of `address` on `network`, after checking its format, version and checksum.

    Surrounding whitespace (a careless paste) is ignored; anything else that is not exactly an address is
    refused.

    Raises:
        InvalidAddress: the address is not valid on that network as the shop runs it, or nobody can spend from
            it; the message says why. An unknown network is refused the same way.
        ImproperlyConfigured: `PAYMENTS_SEGWIT_HRP` names no known Bitcoin or Litecoin network.
    """
    try:
        found = network_get(network)
    except KeyError:
        raise InvalidAddress(f"Addresses on “{network}” are not accepted.") from None
    text = address.strip() if isinstance(address, str) else ""
    if not text or len(text) > MAX_ADDRESS_LENGTH or not text.isascii() or not text.isprintable():
        raise InvalidAddress(_not_valid(found.running_label()))
    decoded = found.address_decode(text)
    if decoded is None:
        raise InvalidAddress(found.address_refusal(text) or _refusal(found.running_label(), text))
    canonical, payload = decoded
    if found.is_unspendable(canonical, payload):
        raise InvalidAddress(
            _(
                "Nobody can spend from this address: it is a burn or system address, and anything sent to it is "
                "lost. Use an address from your own wallet."
            )
        )
    return canonical


def _not_valid(label: str) -> str:
    return _("This is not a valid %(network)s address.") % {"network": label}


def _refusal(label: str, text: str) -> str:
    """Why `text` is not an address on the network the shop runs as `label`: the network it belongs to where
    that can be told."""
    found = _network_of(text)
    if found is None or found == label:
        return _not_valid(label)
    return _("This is an address on %(found)s, not on %(expected)s. Coins sent to the wrong network are lost.") % {
        "found": found,
        "expected": label,
    }


def _network_of(text: str) -> str | None:
    """The network (and variant) `text` is a valid address of, as people call it, or None. Networks whose
    addresses carry no checksum (Solana) are asked last: they match the most text."""
    for network in sorted(all_networks(), key=lambda network: not network.address_checksum):
        owner = network.address_owner(text)
        if owner is not None:
            return owner
    return None
