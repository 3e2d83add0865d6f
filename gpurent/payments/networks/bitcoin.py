"""Bitcoin: BTC, quoted to the satoshi; 2 confirmations by default (payments_security §4.3).

Mainnet, testnet or regtest follows `PAYMENTS_SEGWIT_HRP_BITCOIN` (`bitcoin_family.py`). Burn addresses with a
valid checksum are listed; the all-zero hash is refused by rule (docs/decisions/0371).
"""

from __future__ import annotations

from bip_utils import CoinsConf
from bip_utils.slip.slip44 import Slip44

from .base import HEX64_TXID, PairSpec, demo_digest
from .bitcoin_family import BitcoinFamily, variant_read
from .codecs import b58check_encode

__all__ = ["NETWORK"]

_VERSIONS = ("p2pkh_net_ver", "p2sh_net_ver")
_MAINNET_KEYS, _TEST_KEYS = ("zpub", "xpub"), ("vpub", "tpub")

NETWORK = BitcoinFamily(
    id="bitcoin",
    label="Bitcoin",
    pairs=(PairSpec("BTC", chain_decimals=8, quote_decimals=8),),
    confirmations=2,
    watcher="gpurent.chains.bitcoin.BitcoinFamilyWatcher",
    demo_address=b58check_encode(b"\x00" + demo_digest("bitcoin", 20)),
    txid_format=HEX64_TXID,  # the transaction hash as explorers show it (byte-reversed), no 0x
    unspendable=frozenset({"1BitcoinEaterAddressDontSendf59kuE", "1CounterpartyXXXXXXXXXXXXXXXUWLpVr"}),
    variants=(
        variant_read(
            "Bitcoin",
            "mainnet",
            CoinsConf.BitcoinMainNet,
            _VERSIONS,
            (),
            coin_type=Slip44.BITCOIN,
            key_prefixes=_MAINNET_KEYS,
        ),
        variant_read(
            "Bitcoin",
            "testnet",
            CoinsConf.BitcoinTestNet,
            _VERSIONS,
            (),
            coin_type=Slip44.TESTNET,
            key_prefixes=_TEST_KEYS,
        ),
        variant_read(
            "Bitcoin",
            "regtest",
            CoinsConf.BitcoinRegTest,
            _VERSIONS,
            (),
            coin_type=Slip44.TESTNET,
            key_prefixes=_TEST_KEYS,
        ),
    ),
    # Its test networks' 0x6f/0xc4 are also Litecoin's test networks' P2PKH and deprecated P2SH.
    test_versions_shared=True,
)
