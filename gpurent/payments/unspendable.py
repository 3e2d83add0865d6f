"""Addresses nobody can spend from: burn addresses, and the system and program accounts of each network.

`validate_address` refuses them on every network with one message (docs/decisions/0371), for withdrawals and
for the receiving addresses an operator loads: anything sent there is lost for good. Two rules and a list:

- **All zero.** A hash or key of twenty (or thirty-two) zero bytes has no known preimage: Bitcoin's
  `1111111111111111111114oLvT2`, `bc1qqqq…`, Litecoin's, Ethereum's `0x000…0`, Tron's black hole
  `T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`, and Solana's system program `11111111111111111111111111111111`.
- **Ethereum and Tron below 2^16.** No key or contract deployment reaches an address whose first 18 bytes
  are zero (that is 2^144 tries): those are the precompiles (0x01…, P256VERIFY at 0x100) and `0x…dEaD`.
- **The list below**: vanity burn addresses with a valid checksum, Ethereum's system contracts and
  placeholders, and the Solana runtime's reserved account keys (builtin programs and sysvars, as
  `agave-reserved-account-keys` lists them), its incinerator and the SPL programs and native mint.

Ethereum entries are lower-case hex (compared after canonicalisation); the others are compared as spelled.
"""

from __future__ import annotations

__all__ = ["UNSPENDABLE", "is_unspendable"]

UNSPENDABLE: dict[str, frozenset[str]] = {
    "bitcoin": frozenset({"1BitcoinEaterAddressDontSendf59kuE", "1CounterpartyXXXXXXXXXXXXXXXUWLpVr"}),
    "litecoin": frozenset(),
    "ethereum": frozenset(
        {
            "0xdead000000000000000042069420694206942069",  # the "dEaD…2069" burn address
            "0x" + "e" * 40,  # 0xEeee…EEeE, the "native ether" placeholder of swap routers
            "0x" + "f" * 39 + "e",  # SYSTEM_ADDRESS, the caller of system contracts (EIP-4788)
            "0x" + "f" * 40,
            "0x000f3df6d732807ef1319fb7b8bb8522d0beac02",  # EIP-4788 beacon roots
            "0x0000f90827f1c53a10cb7a02335b175320002935",  # EIP-2935 block hashes
            "0x00000961ef480eb55e80d19ad83579a64c007002",  # EIP-7002 withdrawal requests
            "0x0000bbddc7ce488642fb579f8b00f3a590007251",  # EIP-7251 consolidation requests
        }
    ),
    "tron": frozenset(),
    "solana": frozenset(
        {
            "11111111111111111111111111111111",
            "1nc1nerator11111111111111111111111111111111",
            "AddressLookupTab1e1111111111111111111111111",
            "BPFLoader1111111111111111111111111111111111",
            "BPFLoader2111111111111111111111111111111111",
            "BPFLoaderUpgradeab1e11111111111111111111111",
            "ComputeBudget111111111111111111111111111111",
            "Config1111111111111111111111111111111111111",
            "Ed25519SigVerify111111111111111111111111111",
            "Feature111111111111111111111111111111111111",
            "KeccakSecp256k11111111111111111111111111111",
            "LoaderV411111111111111111111111111111111111",
            "NativeLoader1111111111111111111111111111111",
            "Secp256r1SigVerify1111111111111111111111111",
            "Stake11111111111111111111111111111111111111",
            "StakeConfig11111111111111111111111111111111",
            "Sysvar1111111111111111111111111111111111111",
            "Sysvar1nstructions1111111111111111111111111",
            "SysvarC1ock11111111111111111111111111111111",
            "SysvarEpochRewards1111111111111111111111111",
            "SysvarEpochSchedu1e111111111111111111111111",
            "SysvarFees111111111111111111111111111111111",
            "SysvarLastRestartS1ot1111111111111111111111",
            "SysvarRecentB1ockHashes11111111111111111111",
            "SysvarRent111111111111111111111111111111111",
            "SysvarRewards111111111111111111111111111111",
            "SysvarS1otHashes111111111111111111111111111",
            "SysvarS1otHistory11111111111111111111111111",
            "SysvarStakeHistory1111111111111111111111111",
            "Vote111111111111111111111111111111111111111",
            "ZkE1Gama1Proof11111111111111111111111111111",
            "ZkTokenProof1111111111111111111111111111111",
            # SPL: token programs, associated token accounts, memo, and the wrapped-SOL mint.
            "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
            "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
            "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
            "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
            "So11111111111111111111111111111111111111112",
        }
    ),
}


def is_unspendable(network: str, canonical: str, payload: bytes) -> bool:
    """Whether nobody can spend from `canonical`, a valid address on `network`.

    Args:
        payload: what the address encodes: the 20-byte hash (Base58Check, Ethereum, Tron), the witness program
            (segwit) or the 32-byte key (Solana).
    """
    if not any(payload):
        return True
    if network in ("ethereum", "tron") and not any(payload[:18]):
        return True
    return (canonical.lower() if network == "ethereum" else canonical) in UNSPENDABLE.get(network, frozenset())
