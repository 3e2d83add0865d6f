"""Wallet seed phrases: runs of BIP-39 English words, as a wallet shows them for backup.

A seed phrase is 12, 15, 18, 21 or 24 words of the BIP-39 English list (shipped in `data/`, the list is in the
public domain; its SHA-256 is checked at load). Ordinary English almost never strings twelve list words
together, because the commonest words ("the", "a", "of", "to", "is", "and") are not in the list, so any run of
at least 12 list words is treated as a seed phrase, whether its checksum is valid or not: a phrase with a typo,
or one the customer shortened, still gives an attacker most of a wallet (decision 0061).

Words may be separated by spaces, line breaks, commas or list numbering ("1. abandon 2. ability"), as wallets
print them; a word glued to other characters (`abandon_ability`, `ability2`) breaks the run.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

__all__ = ["MIN_WORDS", "PHRASE_LENGTHS", "find_seed_phrases", "is_valid_mnemonic", "mnemonic_from_entropy", "wordlist"]

PHRASE_LENGTHS = (12, 15, 18, 21, 24)
MIN_WORDS = PHRASE_LENGTHS[0]
_WORDLIST = Path(__file__).resolve().parent / "data" / "bip39_english.txt"
# The published hash of the BIP-39 English list: a corrupted or edited copy must not silently weaken detection.
_WORDLIST_SHA256 = "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"

# A word, not inside a longer token: no letter, digit or underscore directly before or after it.
_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]+(?![A-Za-z0-9_])")
# What may stand between two words of one phrase: spacing, commas, slashes, the quotes of a JSON list of words,
# and list numbering such as "2." or "(3)".
_GAP = re.compile(r"[\s,;|·•\-/\"']*(?:(?:\(?#?\d{1,2}[.):]?)[\s,;|·•\-/\"']*)?")


@cache
def wordlist() -> tuple[str, ...]:
    """The 2048 BIP-39 English words, in list order.

    Raises:
        RuntimeError: the shipped list is not the published one.
    """
    data = _WORDLIST.read_bytes()
    if hashlib.sha256(data).hexdigest() != _WORDLIST_SHA256:
        raise RuntimeError(f"{_WORDLIST} is not the BIP-39 English word list")
    words = tuple(data.decode().split())
    return words


@cache
def _index() -> dict[str, int]:
    return {word: position for position, word in enumerate(wordlist())}


def find_seed_phrases(text: str) -> Iterator[tuple[int, int]]:
    """The (start, end) offsets in `text` of every run of at least `MIN_WORDS` BIP-39 words."""
    index = _index()
    run_start = run_end = -1
    count = 0
    for match in _WORD.finditer(text):
        word = match.group().lower()
        if word in index and count and _GAP.fullmatch(text, run_end, match.start()):
            run_end, count = match.end(), count + 1
            continue
        if count >= MIN_WORDS:
            yield run_start, run_end
        if word in index:
            run_start, run_end, count = match.start(), match.end(), 1
        else:
            count = 0
    if count >= MIN_WORDS:
        yield run_start, run_end


def is_valid_mnemonic(words: Sequence[str]) -> bool:
    """Whether `words` is a BIP-39 mnemonic with a correct checksum (the last bits: SHA-256 of the entropy)."""
    index = _index()
    if len(words) not in PHRASE_LENGTHS or any(word.lower() not in index for word in words):
        return False
    bits = "".join(f"{index[word.lower()]:011b}" for word in words)
    checksum_bits = len(bits) // 33
    entropy_bits = bits[:-checksum_bits]
    entropy = int(entropy_bits, 2).to_bytes(len(entropy_bits) // 8, "big")
    expected = f"{hashlib.sha256(entropy).digest()[0]:08b}"[:checksum_bits]
    return bits[-checksum_bits:] == expected


def mnemonic_from_entropy(entropy: bytes) -> list[str]:
    """The BIP-39 words for `entropy` (16 to 32 bytes, a multiple of 4); used to build fake test phrases.

    Raises:
        ValueError: the entropy has a length BIP-39 does not define.
    """
    if len(entropy) not in (16, 20, 24, 28, 32):
        raise ValueError("BIP-39 entropy is 16, 20, 24, 28 or 32 bytes")
    checksum_bits = len(entropy) * 8 // 32
    bits = "".join(f"{byte:08b}" for byte in entropy) + f"{hashlib.sha256(entropy).digest()[0]:08b}"[:checksum_bits]
    words = wordlist()
    return [words[int(bits[i : i + 11], 2)] for i in range(0, len(bits), 11)]
