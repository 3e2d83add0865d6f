"""Fresh receiving addresses from watch-only extended public keys (BIP32 public derivation).

The operator registers, per network, the *account* extended public key of a wallet they hold elsewhere
(depth 3: m/purpose'/coin'/account'). The shop derives the external chain `…/0/i`, one index per intent, and
never holds a private key. Which key each network takes, and how a derived key becomes an address, is the
network's (`Network.account_key_rule`, `Network.address_from_key`); Bitcoin and Litecoin follow the variant the
shop runs (`PAYMENTS_SEGWIT_HRP`, docs/decisions/0372):

| network           | standard | account path | accepted key prefixes                 | address            |
|-------------------|----------|--------------|---------------------------------------|--------------------|
| bitcoin           | BIP84    | m/84'/0'/a'  | zpub, xpub                            | P2WPKH `bc1q…`     |
| bitcoin test/reg  | BIP84    | m/84'/1'/a'  | vpub, tpub                            | `tb1q…`, `bcrt1q…` |
| litecoin          | BIP84    | m/84'/2'/a'  | zpub, Ltub, xpub                      | P2WPKH `ltc1q…`    |
| litecoin test/reg | BIP84    | m/84'/1'/a'  | ttub, tpub (Litecoin Core), vpub      | `tltc1q…`,`rltc1q…`|
| ethereum          | BIP44    | m/44'/60'/a' | xpub                                  | EIP-55 hex         |
| tron              | BIP44    | m/44'/195'/a'| xpub                                  | Base58Check `T…`   |

A key of the other variant (a test network key on a mainnet shop, or the reverse) is refused with what is
expected: its addresses would be watched on one network by the shop and on another by the wallet. The path
itself is not in the key, only its depth and last step: an account key is at depth 3 and its last step is
hardened. Solana is absent on purpose: SLIP-10 ed25519 derivation is hardened-only, so no public key can
derive a child (docs/decisions/0140). Keys for wrapped SegWit (ypub/upub/Mtub) are refused: their wallet
watches P2SH addresses, not the native ones derived here, so payments would arrive where the wallet does not
look.

The BIP32 arithmetic and the version bytes are bip-utils' (docs/decisions/0141); this module only checks what
an operator pastes and encodes the addresses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bip_utils import Bip32KeyError, Bip32KeyNetVersions, Bip32Secp256k1, Bip84Conf
from bip_utils.bip.bip32 import Bip32Const

from ..errors_crypto import InvalidAddress
from ..networks import AccountKeyRule, all_networks, network_get
from ..networks.codecs import b58check_decode

__all__ = [
    "DERIVABLE_NETWORKS",
    "KEY_VERSIONS",
    "AccountKey",
    "account_key_hints",
    "account_key_parse",
    "address_derive",
    "looks_like_private_key",
]

# The public version bytes of each accepted prefix, from bip-utils' tables (SLIP-132).
KEY_VERSIONS: dict[str, bytes] = {
    "xpub": Bip32Const.MAIN_NET_KEY_NET_VERSIONS.Public(),
    "tpub": Bip32Const.TEST_NET_KEY_NET_VERSIONS.Public(),
    "zpub": Bip84Conf.BitcoinMainNet.KeyNetVersions().Public(),
    "vpub": Bip84Conf.BitcoinTestNet.KeyNetVersions().Public(),
    "ttub": Bip84Conf.LitecoinTestNet.KeyNetVersions().Public(),
    # Litecoin's own mainnet prefix; bip-utils keeps it only as BIP44 Litecoin's alternate versions.
    "Ltub": bytes.fromhex("019da462"),
}
_TEST_PREFIXES = frozenset({"tpub", "vpub", "ttub"})
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

# Networks with public derivation; Solana has none (SLIP-10 ed25519 is hardened-only: docs/decisions/0140).
DERIVABLE_NETWORKS: tuple[str, ...] = tuple(network.id for network in all_networks() if network.derivable)
_ACCOUNT_DEPTH = 3
_HARDENED = 2**31
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
    """Check an operator's extended public key for `network`, as the shop runs it, and return it.

    Raises:
        InvalidAddress: a private key (refused before anything else, and never repeated back), a network
            without public derivation, a prefix of another network, test network or kind (the message names
            the expected standard, path and prefixes), a bad checksum, or a key that is not an account key
            (depth 3, hardened last step).
    """
    text = text.strip() if isinstance(text, str) else ""
    if looks_like_private_key(text):
        raise InvalidAddress(
            "This is a private key or a recovery phrase. Never paste one here: register the wallet's "
            "extended PUBLIC key (xpub, zpub, Ltub…). Consider that secret exposed and move the funds."
        )
    rule = _account_key_rule(network)
    if rule is None:
        raise InvalidAddress(f"Addresses on “{network}” cannot be derived from a public key; use the address pool.")
    try:
        payload = b58check_decode(text)
    except ValueError:
        raise InvalidAddress("This is not an extended public key (the Base58Check checksum fails).") from None
    if len(payload) != 78:
        raise InvalidAddress("This is not an extended public key (wrong length).")
    if payload[:4] in _WRAPPED_SEGWIT_VERSIONS:
        raise InvalidAddress("Wrapped SegWit keys (ypub, upub, Mtub) are not used: register the native SegWit key.")
    prefix = next((name for name, version in KEY_VERSIONS.items() if version == payload[:4]), None)
    if prefix is None or prefix not in rule.prefixes:
        raise InvalidAddress(_wrong_prefix(prefix or text[:4], rule))
    if payload[4] != _ACCOUNT_DEPTH:
        raise InvalidAddress(
            f"This key is at depth {payload[4]}; register the account key (depth 3, m/purpose'/coin'/account')."
        )
    if int.from_bytes(payload[9:13], "big") < _HARDENED:
        raise InvalidAddress(
            f"This key's last step is not hardened, so it is not an account key: register the key of {rule.path}."
        )
    _node(text, prefix)  # a point that is not on the curve fails here
    return AccountKey(network=network, text=text, prefix=prefix)


def _wrong_prefix(prefix: str, rule: AccountKeyRule) -> str:
    """Why a key starting with `prefix` is refused, and which key `rule` expects instead."""
    names = rule.prefixes
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    expected = f"{rule.label} takes the {rule.standard} account key of {rule.path}, starting with {listed}"
    test_key = prefix in _TEST_PREFIXES
    if rule.setting and prefix in KEY_VERSIONS and test_key != (rule.prefixes[0] in _TEST_PREFIXES):
        kind = "a test network key" if test_key else "a mainnet key"
        return f"This is {kind} ({prefix}…), but the shop runs {rule.label} ({rule.setting} “{rule.hrp}”). {expected}."
    return f"This key ({prefix}…) is not one {rule.label} takes. {expected}."


def account_key_hints() -> list[str]:
    """One line per network for the form where operators paste keys, as the shop runs each network now."""
    rules = [_account_key_rule(network) for network in DERIVABLE_NETWORKS]
    return [rule.hint for rule in rules if rule is not None]


def _account_key_rule(network: str) -> AccountKeyRule | None:
    """The key `network` takes as the shop runs it, or None where no public key derives addresses (or no such
    network)."""
    try:
        return network_get(network).account_key_rule()
    except KeyError:
        return None


def _node(text: str, prefix: str) -> Bip32Secp256k1:
    version = KEY_VERSIONS[prefix]
    try:
        # The private version is irrelevant for a public key; bip-utils only wants the pair.
        return Bip32Secp256k1.FromExtendedKey(text, Bip32KeyNetVersions(version, b"\0\0\0\0"))
    except (Bip32KeyError, ValueError) as error:
        raise InvalidAddress(f"This extended public key is not valid: {error}.") from None


def address_derive(key: AccountKey, index: int) -> str:
    """The receiving address at external-chain index `index` (…/0/index) of an account key.

    Raises:
        ValueError: the index is negative or hardened (≥ 2^31).
    """
    if not 0 <= index < 2**31:
        raise ValueError(f"a receiving index is within 0..2^31-1, got {index}")
    child = _node(key.text, key.prefix).ChildKey(0).ChildKey(index).PublicKey().KeyObject()
    return network_get(key.network).address_from_key(child)
