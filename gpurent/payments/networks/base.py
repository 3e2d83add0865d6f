"""What a network is to the shop: one small interface that each network module fills in (docs/decisions/0470).

A `Network` holds, for one network, everything that differs between networks: its id and name, its pairs as
data (`PairSpec`: decimals, token contract and standard), the default confirmations, how its addresses are
checked and written, the payment URI its QR code carries, its watch-only account keys, the operator's explorer
link, and the dotted path of the chain watcher that reads it (payments never imports chains). The rest of the
shop asks the registry (`gpurent.payments.networks.network_get`) and never branches on a network's name.

The defaults below are what a network without a feature does: an address is refused unless `address_decode`
knows it, a URI is the bare address, no public key derives addresses.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings

from .codecs import Decoded, b58decode

if TYPE_CHECKING:
    from gpurent.payments.assets import Pair

__all__ = ["HEX64_TXID", "AccountKeyRule", "Network", "PairSpec", "TxidFormat", "demo_digest"]


def demo_digest(network_id: str, size: int) -> bytes:
    """`size` bytes of a hash nobody holds a key for: what the demo shop's address on a network encodes."""
    return hashlib.sha256(f"gpurent demo receiving address: {network_id}".encode()).digest()[:size]


@dataclass(frozen=True, slots=True)
class PairSpec:
    """One asset a network carries, as data; `assets.PAIRS` makes a `Pair` of it with the network's id, name and
    confirmations.

    Attributes:
        asset: the symbol, upper case ("USDT").
        chain_decimals: decimals of the chain's base unit for this asset (USDT on Tron: 6).
        quote_decimals: decimals of the quote unit (≤ 9 and ≤ chain_decimals); amounts are integers of it.
        token_contract: the token's contract address where the asset is a token, else None.
        token_standard: the token's standard for tokens ("ERC-20", "TRC-20", "SPL"), else None.
        needs_memo: whether a payment must carry a memo/tag to be attributed.
    """

    asset: str
    chain_decimals: int
    quote_decimals: int
    token_contract: str | None = None
    token_standard: str | None = None
    needs_memo: bool = False


@dataclass(frozen=True, slots=True)
class TxidFormat:
    """How a network writes a transaction id, as its explorers and wallets show it: what an operator's txid (the
    payments desk, `confirm_payment`, the payouts desk's "Sent") is checked against before anything is recorded
    (`networks.txid_refusal`).

    Attributes:
        pattern: the whole id, as a regular expression (matched in full, after the outer spaces are cut).
        form: the form in words, for the refusal ("64 hexadecimal characters").
        base58_bytes: where the id is Base58, the number of bytes it must decode to (a Solana signature: 64);
            0 where it is not Base58.
    """

    pattern: re.Pattern[str]
    form: str
    base58_bytes: int = 0

    def accepts(self, text: str) -> bool:
        """Whether `text` (stripped) is a transaction id of this form."""
        if self.pattern.fullmatch(text) is None:
            return False
        if not self.base58_bytes:
            return True
        try:
            return len(b58decode(text)) == self.base58_bytes
        except ValueError:
            return False


# Bitcoin, Litecoin and Tron: the transaction's hash, 32 bytes in hex, without a prefix.
HEX64_TXID = TxidFormat(re.compile(r"[0-9a-fA-F]{64}", re.ASCII), "64 hexadecimal characters (0-9, a-f), no 0x")


@dataclass(frozen=True, slots=True)
class AccountKeyRule:
    """Which watch-only account key a network takes, as the shop runs it.

    Attributes:
        label: the network as the shop runs it ("Litecoin regtest").
        standard: "BIP84" (native SegWit) or "BIP44".
        path: the account's path for account 0 ("m/84'/1'/0'").
        prefixes: the accepted prefixes, the usual one first.
        setting: the setting that picks the variant, where there is one ("PAYMENTS_SEGWIT_HRP_LITECOIN").
        hrp: that setting's value.
    """

    label: str
    standard: str
    path: str
    prefixes: tuple[str, ...]
    setting: str = ""
    hrp: str = ""

    @property
    def hint(self) -> str:
        """One line for operators: "Litecoin regtest: BIP84 m/84'/1'/0' (ttub, tpub, vpub)"."""
        return f"{self.label}: {self.standard} {self.path} ({', '.join(self.prefixes)})"


@dataclass(frozen=True)
class Network:
    """One network. Each network module makes one (of this class or a subclass that fills in the methods).

    Attributes:
        id: lower case ("tron"); the API, the settings and every row take this id.
        label: its name for people ("Tron").
        pairs: the assets accepted on it, in the order forms list them.
        confirmations: the default number of confirmations before a payment counts (operators override it per
            network with PAYMENTS_CONFIRMATIONS: `assets.required_confirmations`).
        watcher: the dotted path of its chain watcher class ("gpurent.chains.tron.TronWatcher"), built with
            `from_url(network_id, url)` when CHAIN_WATCH_URLS has a URL for it.
        demo_address: a well-formed address made from `demo_digest`, so nobody can spend from it: the demo
            shop's shared receiving address (`manage.py load_demo`, `payments.demo`).
        txid_format: how its transaction ids are written (`TxidFormat`); every network declares its own, and an
            operator's txid that does not fit it is refused.
        unspendable: addresses nobody can spend from beyond the all-zero one, as `is_unspendable` compares them.
        address_checksum: whether its addresses carry a checksum; a network without one matches more text, so
            it is asked last when a refusal names the network an address belongs to.
        uri_memo: whether its payment URI carries a memo.
        derivable: whether its receiving addresses can be derived from a watch-only account key
            (`account_key_rule`, `address_from_key`).
        low_addresses_reserved: whether an address whose first 18 bytes are zero is unspendable (Ethereum and
            Tron: no key or contract deployment reaches one, that is 2^144 tries; those below 2^16 are the
            precompiles, P256VERIFY at 0x100, and `0x…dEaD`).
    """

    id: str
    label: str
    pairs: tuple[PairSpec, ...]
    confirmations: int
    watcher: str
    demo_address: str
    txid_format: TxidFormat
    unspendable: frozenset[str] = frozenset()
    address_checksum: bool = True
    uri_memo: bool = False
    low_addresses_reserved: bool = False
    derivable: bool = False

    def running_label(self) -> str:
        """The network as the shop runs it, for messages: "Litecoin", or "Litecoin regtest" on a test network."""
        return self.label

    def check(self) -> None:
        """Raise ImproperlyConfigured where the settings for this network cannot work (a system check)."""

    # --- addresses ----------------------------------------------------------------------------------------------

    def address_decode(self, text: str) -> Decoded | None:
        """(the canonical form, what it encodes) if `text` is an address on this network as the shop runs it,
        else None. `text` is stripped, printable ASCII, at most `addresses.MAX_ADDRESS_LENGTH` long."""
        return None

    def address_refusal(self, text: str) -> str | None:
        """Why `text`, which `address_decode` refused, is refused, where this network has its own reason."""
        return None

    def address_owner(self, text: str) -> str | None:
        """The name people give this network (or its variant) if `text` is a valid address of it, else None:
        what a refusal on another network says ("This is an address on Bitcoin, not on Litecoin")."""
        return self.label if self.address_decode(text) is not None else None

    def is_unspendable(self, canonical: str, payload: bytes) -> bool:
        """Whether nobody can spend from `canonical`, a valid address here (docs/decisions/0371): what it
        encodes is all zero (no known preimage), below 2^16 where `low_addresses_reserved`, or it is listed in
        `unspendable`.

        Args:
            payload: what the address encodes: the 20-byte hash (Base58Check, Ethereum, Tron), the witness
                program (segwit) or the 32-byte key (Solana).
        """
        if not any(payload) or (self.low_addresses_reserved and not any(payload[:18])):
            return True
        return canonical in self.unspendable

    # --- payment requests ---------------------------------------------------------------------------------------

    def payment_uri(self, pair: Pair, address: str, amount: str, base_units: int, memo: str) -> str:
        """What the payment QR code carries: the bare address where the network has no URI scheme that wallets
        agree on.

        Args:
            pair: one of this network's pairs.
            address: the canonical address.
            amount: the amount in whole coins, without trailing zeros ("0.0015").
            base_units: the amount in the chain's base unit (wei, satoshi, sun, lamport).
            memo: a memo, only where `uri_memo`.
        """
        return address

    # --- watch-only account keys --------------------------------------------------------------------------------

    def account_key_rule(self) -> AccountKeyRule | None:
        """The account key this network takes as the shop runs it, or None where no public key can derive
        addresses."""
        return None

    def address_from_key(self, public_key: object) -> str:
        """The receiving address of a derived secp256k1 public key (a bip-utils key object)."""
        raise ValueError(f"addresses on {self.id} are not derived from a public key")

    # --- explorer -----------------------------------------------------------------------------------------------

    def explorer_tx_url(self, txid: str) -> str:
        """The operator's explorer link for a transaction (CHAIN_EXPLORER_<NETWORK>_TX_URL, `{txid}` replaced),
        or "" where none is set."""
        pattern: str = settings.CHAIN_EXPLORER_TX_URLS.get(self.id, "")
        return pattern.replace("{txid}", txid) if pattern else ""
