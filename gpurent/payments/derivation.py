"""Fresh receiving addresses from watch-only extended public keys (BIP32 public derivation).

The operator registers, per network, the *account* extended public key of a wallet they hold elsewhere
(depth 3: m/purpose'/coin'/account'). The shop derives the external chain `…/0/i`, one index per intent, and
never holds a private key:

| network  | standard                    | accepted key prefixes                              | address            |
|----------|-----------------------------|----------------------------------------------------|--------------------|
| bitcoin  | BIP84, m/84'/0'/a'          | xpub, zpub (mainnet); tpub, vpub (test and regtest)| P2WPKH bech32      |
| litecoin | BIP84, m/84'/2'/a'          | Ltub, xpub, zpub; ttub, tpub, vpub                 | P2WPKH bech32      |
| ethereum | BIP44, m/44'/60'/a'         | xpub                                               | EIP-55 hex         |
| tron     | BIP44, m/44'/195'/a'        | xpub                                               | Base58Check `T…`   |

Solana is absent on purpose: SLIP-10 ed25519 derivation is hardened-only, so no public key can derive a child
(docs/decisions/0140). Keys for wrapped SegWit (ypub/upub/Mtub) are refused: their wallet watches P2SH
addresses, not the native ones derived here, so payments would arrive where the wallet does not look.

The segwit human-readable part comes from `PAYMENTS_SEGWIT_HRP` (`bc`/`ltc` by default; `rltc` on a Litecoin
regtest node). The BIP32 arithmetic is `bip-utils` (docs/decisions/0141); this module only checks what an
operator pastes and encodes the addresses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bip_utils import (
    Bip32KeyError,
    Bip32KeyNetVersions,
    Bip32Secp256k1,
    EthAddrEncoder,
    P2WPKHAddrEncoder,
    TrxAddrEncoder,
)
from django.conf import settings

from .addresses import b58check_decode
from .errors_crypto import InvalidAddress

__all__ = [
    "DERIVABLE_NETWORKS",
    "AccountKey",
    "account_key_parse",
    "address_derive",
    "looks_like_private_key",
]

_PUBLIC_VERSIONS: dict[str, bytes] = {
    "xpub": bytes.fromhex("0488b21e"),
    "zpub": bytes.fromhex("04b24746"),
    "tpub": bytes.fromhex("043587cf"),
    "vpub": bytes.fromhex("045f1c6f"),
    "Ltub": bytes.fromhex("019da462"),
    "ttub": bytes.fromhex("0436f6e1"),
}
_WRAPPED_SEGWIT_VERSIONS = {bytes.fromhex(v) for v in ("049d7cb2", "044a5262", "01b26ef6")}  # ypub, upub, Mtub
_PRIVATE_VERSIONS = {
    bytes.fromhex(v)
    for v in (
        "0488ade4",
        "049d7878",
        "04b2430c",
        "04358394",
        "044a4e28",
        "045f18bc",
        "019d9cfe",
        "01b26792",
        "0436ef7d",
    )
}
_PRIVATE_PREFIXES = ("xprv", "yprv", "zprv", "tprv", "uprv", "vprv", "Ltpv", "Mtpv", "ttpv")
_WIF_VERSIONS = {0x80, 0xEF, 0xB0}  # Bitcoin mainnet, every testnet, Litecoin mainnet

DERIVABLE_NETWORKS: dict[str, tuple[str, ...]] = {
    "bitcoin": ("xpub", "zpub", "tpub", "vpub"),
    "litecoin": ("Ltub", "xpub", "zpub", "ttub", "tpub", "vpub"),
    "ethereum": ("xpub",),
    "tron": ("xpub",),
}
_ACCOUNT_DEPTH = 3
_HEX_SECRET = re.compile(r"(0x)?[0-9a-fA-F]{64}", re.ASCII)
_WORDS = re.compile(r"[a-zA-Z]+(\s+[a-zA-Z]+){11,}")


@dataclass(frozen=True, slots=True)
class AccountKey:
    """A checked account-level extended public key: the text as pasted and the prefix it carries."""

    network: str
    text: str
    prefix: str


def looks_like_private_key(text: str) -> bool:
    """Whether `text` is, or looks like, private key material: an extended private key (any SLIP-132
    prefix, valid or not), a WIF key, 32 bytes of hex, or a mnemonic of 12 or more words."""
    text = text.strip()
    if text.startswith(_PRIVATE_PREFIXES) or _HEX_SECRET.fullmatch(text) or _WORDS.fullmatch(text):
        return True
    try:
        payload = b58check_decode(text)
    except ValueError:
        return False
    if len(payload) == 78 and payload[:4] in _PRIVATE_VERSIONS:
        return True
    return len(payload) in (33, 34) and payload[0] in _WIF_VERSIONS


def account_key_parse(network: str, text: str) -> AccountKey:
    """Check an operator's extended public key for `network` and return it.

    Raises:
        InvalidAddress: a private key (refused before anything else, and never repeated back), a network
            without public derivation, an unknown or wrong prefix, a bad checksum, or a key that is not an
            account key (depth 3).
    """
    text = text.strip() if isinstance(text, str) else ""
    if looks_like_private_key(text):
        raise InvalidAddress(
            "This is a private key or a recovery phrase. Never paste one here: register the wallet's "
            "extended PUBLIC key (xpub, zpub, Ltub…). Consider that secret exposed and move the funds."
        )
    prefixes = DERIVABLE_NETWORKS.get(network)
    if prefixes is None:
        raise InvalidAddress(f"Addresses on “{network}” cannot be derived from a public key; use the address pool.")
    try:
        payload = b58check_decode(text)
    except ValueError:
        raise InvalidAddress("This is not an extended public key (the Base58Check checksum fails).") from None
    if len(payload) != 78:
        raise InvalidAddress("This is not an extended public key (wrong length).")
    if payload[:4] in _WRAPPED_SEGWIT_VERSIONS:
        raise InvalidAddress("Wrapped SegWit keys (ypub, upub, Mtub) are not used: register the native SegWit key.")
    prefix = next((name for name, version in _PUBLIC_VERSIONS.items() if version == payload[:4]), None)
    if prefix is None or prefix not in prefixes:
        raise InvalidAddress(f"For this network, use a key starting with {', '.join(prefixes)}.")
    if payload[4] != _ACCOUNT_DEPTH:
        raise InvalidAddress(
            f"This key is at depth {payload[4]}; register the account key (depth 3, m/purpose'/coin'/account')."
        )
    _node(text, prefix)  # a point that is not on the curve fails here
    return AccountKey(network=network, text=text, prefix=prefix)


def _node(text: str, prefix: str) -> Bip32Secp256k1:
    version = _PUBLIC_VERSIONS[prefix]
    try:
        # The private version is irrelevant for a public key; bip-utils only wants the pair.
        return Bip32Secp256k1.FromExtendedKey(text, Bip32KeyNetVersions(version, b"\0\0\0\0"))
    except (Bip32KeyError, ValueError) as error:
        raise InvalidAddress(f"This extended public key is not valid: {error}.") from None


def segwit_hrp(network: str) -> str:
    """The bech32 human-readable part used for derived addresses on a Bitcoin-family network."""
    defaults = {"bitcoin": "bc", "litecoin": "ltc"}
    configured: dict[str, str] = getattr(settings, "PAYMENTS_SEGWIT_HRP", {})
    return configured.get(network, defaults[network])


def address_derive(key: AccountKey, index: int) -> str:
    """The receiving address at external-chain index `index` (…/0/index) of an account key.

    Raises:
        ValueError: the index is negative or hardened (≥ 2^31).
    """
    if not 0 <= index < 2**31:
        raise ValueError(f"a receiving index is within 0..2^31-1, got {index}")
    child = _node(key.text, key.prefix).ChildKey(0).ChildKey(index).PublicKey().KeyObject()
    if key.network in ("bitcoin", "litecoin"):
        return str(P2WPKHAddrEncoder.EncodeKey(child, hrp=segwit_hrp(key.network), wit_ver=0))
    if key.network == "ethereum":
        return str(EthAddrEncoder.EncodeKey(child))
    return str(TrxAddrEncoder.EncodeKey(child))
