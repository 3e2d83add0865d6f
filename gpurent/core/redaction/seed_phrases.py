"""Wallet seed phrases: runs of BIP-39 words, as a wallet shows them for backup, in any of the ten BIP-39 lists.

A seed phrase is 12, 15, 18, 21 or 24 words of one BIP-39 list. Ordinary prose almost never strings twelve list
words together, because the commonest words ("the", "a", "of", "de", "la", "que", "le", "il", "o") are in no list,
so any run of at least 12 words of one list is treated as a seed phrase, whether its checksum is valid or not: a
phrase with a typo, or one the customer shortened, still gives an attacker most of a wallet (decision 0061).

The lists (decision 0390): English and Japanese are shipped in `data/` (the official files of the BIP, MIT, see
`data/BIP39-LICENSE.txt`); the other eight come from bip-utils, a dependency already (it ships them, not Japanese).
Each list's SHA-256 is checked at load against the published file. Words are compared as BIP-39 compares them,
after NFKD, and without accents (the BIP's Spanish and French lists are designed so that "abaco" is "ábaco"), in
any case; a text typed in NFC or NFD matches alike.

Words may be separated by spaces (an ideographic space in Japanese), line breaks, commas (also "、" and "，") or
list numbering ("1. abandon 2. ability"), as wallets print them; a word glued to other characters
(`abandon_ability`, `ability2`) breaks the run. Between two Chinese characters only spacing, commas and numbering
count (not the quotes of a list of strings).

Round 9 (decision 0394): a run whose words stand in list order ("abandon ability able about …", what `head
english.txt` prints) is the word list itself, not a phrase (a wallet's random phrase is in list order once in 12!
times). Chinese characters written together without any separator ("懂针黎采秩迟廷助字风滚旁") are a phrase when
the whole run, between two characters that are not Chinese, is 12, 15, 18, 21 or 24 characters of one Chinese list
and its BIP-39 checksum is valid: ordinary Chinese prose is made of the same common characters, so without
separators only the checksum (and the exact length) tells a phrase from a clause.

Round 10 (decision 0398): twelve or more list words are also what a class-label list, a spelling list, a language
learner's vocabulary or a word game's board is made of ("silla, perro, leche, …", a 5×5 Codenames board). A run
counts as a phrase when its checksum is valid, with at most two more list words beside the phrase (a list of random
words passes once in 16 at 12 words, once in 256 at 24; a card printed in two columns is read in its numbers'
order), when it is the whole text (a phrase pasted alone into a field), or when the text names a wallet or a seed
phrase in one of the ten lists' languages ("seed phrase", "frase semilla", "cụm từ khôi phục", "kurtarma ifadesi",
"助记词", …). A phrase with a typo or cut short keeps counting where the customer says what it is; a bare "seed"
counts only just before the run ("seed: …"), since a sampler's seed is in every machine-learning question.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "MIN_WORDS",
    "PHRASE_LENGTHS",
    "find_seed_phrases",
    "is_valid_mnemonic",
    "mnemonic_from_entropy",
    "wordlist",
]

PHRASE_LENGTHS = (12, 15, 18, 21, 24)
MIN_WORDS = PHRASE_LENGTHS[0]
_DATA = Path(__file__).resolve().parent / "data"
# The SHA-256 of each list as published in the BIP (bitcoin/bips, bip-0039/*.txt): a corrupted or edited copy must
# not silently weaken detection.
_SHA256 = {
    "english": "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda",
    "japanese": "2eed0aef492291e061633d7ad8117f1a2b03eb80a29d0e4e3117ac2528d05ffd",
    "spanish": "46846a5a0139d1e3cb77293e521c2865f7bcdb82c44e8d0a06a2cd0ecba48c0b",
    "french": "ebc3959ab7801a1df6bac4fa7d970652f1df76b683cd2f4003c941c63d517e59",
    "italian": "d392c49fdb700a24cd1fceb237c1f65dcc128f6b34a8aacb58b59384b5c648c2",
    "portuguese": "2685e9c194c82ae67e10ba59d9ea5345a23dc093e92276fc5361f6667d79cd3f",
    "czech": "7e80e161c3e93d9554c2efb78d4e3cebf8fc727e9c52e03b83b94406bdcc95fc",
    "korean": "9e95f86c167de88f450f0aaf89e87f6624a57f973c67b516e338e8e8b8897f60",
    "chinese_simplified": "5c5942792bd8340cb8b27cd592f1015edf56a8c5b26276ee18a482428e7c5726",
    "chinese_traditional": "417b26b3d8500a4ae3d59717d7011952db6fc2fb84b807f3f94ac734e89c1b5f",
}
LANGUAGES = tuple(_SHA256)
_SHIPPED = frozenset({"english", "japanese"})

# A word, not inside a longer token: letters of any script, with the combining marks a decomposed (NFD) text puts
# after them (Latin accents, the kana voicing marks); no letter, digit or underscore directly before or after it.
_WORD = re.compile(r"(?<!\w)[^\W\d_](?:[^\W\d_]|[\u0300-\u036f\u3099\u309a])*(?!\w)")
# What may stand between two words of one phrase: spacing, commas, slashes, the quotes of a JSON list of words,
# and list numbering such as "2." or "(3)", with their full-width forms.
_SEPARATORS = r"[\s,;|·•\-/\"'、，；]*"
_NUMBERING = r"(?:[(（]?#?\d{1,2}[.):．）：]?)"
_GAP = re.compile(rf"{_SEPARATORS}(?:{_NUMBERING}{_SEPARATORS})?")
# The Chinese lists' words are single characters, and lists of quoted characters are common outside wallets (a
# tokenizer's vocabulary, a table of CJK code points): between two of them only spacing, commas and numbering.
_PLAIN_SEPARATORS = r"[\s,、，]*"
_PLAIN_GAP = re.compile(rf"{_PLAIN_SEPARATORS}(?:{_NUMBERING}{_PLAIN_SEPARATORS})?")
_SINGLE_CHARACTERS = frozenset({"chinese_simplified", "chinese_traditional"})


@cache
def wordlist(language: str = "english") -> tuple[str, ...]:
    """The 2048 words of a BIP-39 list (`LANGUAGES`), in list order, as the published file spells them.

    Raises:
        RuntimeError: the list read is not the published one.
    """
    if language in _SHIPPED:
        data = (_DATA / f"bip39_{language}.txt").read_bytes()
    else:
        data = resources.files("bip_utils.bip.bip39").joinpath("wordlist", f"{language}.txt").read_bytes()
    if hashlib.sha256(data).hexdigest() != _SHA256[language]:
        raise RuntimeError(f"the BIP-39 {language} word list read is not the published one")
    return tuple(data.decode().split())


def _key(word: str) -> str:
    """How BIP-39 tells words apart: NFKD, accents dropped (Latin combining marks only), case folded."""
    if word.isascii():
        return word.lower()
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(char for char in decomposed if not "\u0300" <= char <= "\u036f").casefold()


_NONE: frozenset[str] = frozenset()


@cache
def _lists_of() -> dict[str, frozenset[str]]:
    """For each word (as `_key` spells it), the lists it is in."""
    lists: dict[str, set[str]] = {}
    for language in LANGUAGES:
        for word in wordlist(language):
            lists.setdefault(_key(word), set()).add(language)
    return {word: frozenset(languages) for word, languages in lists.items()}


@cache
def _index(language: str) -> dict[str, int]:
    return {_key(word): position for position, word in enumerate(wordlist(language))}


def _runs(text: str) -> Iterator[tuple[int, int, str | None]]:
    """(start, end, list) of every run of at least `MIN_WORDS` words of one BIP-39 list not in list order, and of
    every glued Chinese phrase (its checksum already checked: list None)."""
    lists_of = _lists_of()
    # language: (start, end, words, the last word's place in the list, whether every word followed the one before
    # it in list order) of the run open at this point
    runs: dict[str, tuple[int, int, int, int, bool]] = {}
    previous_end = -1
    for match in _WORD.finditer(text):
        key = _key(match.group())
        languages = lists_of.get(key, _NONE)
        if not languages and len(key) in PHRASE_LENGTHS and _glued_chinese(key):
            yield match.start(), match.end(), None
        if not languages and not runs:  # most words of most texts
            previous_end = match.end()
            continue
        gap = (previous_end, match.start())
        joined = previous_end >= 0 and _GAP.fullmatch(text, *gap) is not None
        plain = joined and _PLAIN_GAP.fullmatch(text, *gap) is not None
        previous_end = match.end()
        still: dict[str, tuple[int, int, int, int, bool]] = {}
        for language, (start, end, count, last, ordered) in runs.items():
            if (plain if language in _SINGLE_CHARACTERS else joined) and language in languages:
                place = _index(language)[key]
                still[language] = (start, match.end(), count + 1, place, ordered and place > last)
            elif count >= MIN_WORDS and not ordered:
                yield start, end, language
        for language in languages - still.keys():
            still[language] = (match.start(), match.end(), 1, _index(language)[key], True)
        runs = still
    for language, (start, end, count, _last, ordered) in runs.items():
        if count >= MIN_WORDS and not ordered:
            yield start, end, language


def find_seed_phrases(text: str) -> Iterator[tuple[int, int]]:
    """The (start, end) offsets in `text` of every seed phrase: a run of at least `MIN_WORDS` words of one BIP-39
    list (not in list order) with a valid checksum (give or take two words beside it), alone in the text, or in a
    text that names a seed phrase (0398).

    Runs of different lists are found in the same pass and may overlap (the two Chinese lists share characters).
    """
    for start, end, language in _runs(text):
        # the whole field (its numbering and spacing aside): a phrase pasted alone
        alone = _GAP.fullmatch(text, 0, start) is not None and _GAP.fullmatch(text, end) is not None
        if language is None or alone or _has_valid_stretch(text, start, end, language):
            yield start, end
            continue
        # named outside the run: "semilla" is a word of the Spanish list, and one of a list of words names nothing
        named = _NAMES_A_PHRASE.search(text, 0, start) or _NAMES_A_PHRASE.search(text, end)
        if named or _SEED_JUST_BEFORE.search(text, max(0, start - 40), start):
            yield start, end


# What names a seed phrase or a wallet, in the ten lists' languages and the shop's (round 10, decision 0398).
_NAMES_A_PHRASE = re.compile(
    r"(?i)\b(?:seed[ \t_-]*(?:phrase|words?)|recovery[ \t_-]*(?:phrase|words?|seed)|backup[ \t_-]*(?:phrase|words)"
    r"|secret[ \t_-]*(?:recovery[ \t_-]*)?phrase|(?:backup|recovery)[ \t]+(?:card|sheet)|mnemonic|bip[ \t-]?39"
    r"|wallets?|metamask|trezor|ledger[ \t]+(?:nano|live)|electrum|phantom|exodus|keplr|\d{2}[ \t-]*words?"
    r"|frase[ \t]+(?:semilla|semente|de[ \t]+recupera\w*|di[ \t]+recupero|segreta|secreta)|semilla|mnem[oó]nic\w*"
    r"|palabras[ \t]+(?:de[ \t]+recuperaci[oó]n|semilla|clave)|cartera|billetera|monedero|carteira|portafoglio"
    r"|phrase[ \t]+(?:de[ \t]+r[ée]cup[ée]ration|secr[èe]te)|mn[ée]monique|portefeuille|obnovovac\w*"
    r"|pen[ěe][žz]enk\w*|c[ụu]m[ \t]+t[ừu][ \t]+(?:kh[ôo]i[ \t]+ph[ụu]c|b[íi][ \t]+m[ậa]t|h[ạa]t[ \t]+gi[ốo]ng)"
    r"|v[íi][ \t]+(?:ti[ềe]n|crypto|metamask)|kurtarma[ \t]+(?:ifade|kelime)\w*|gizli[ \t]+(?:ifade|kelime)\w*"
    r"|an[ıi]msat[ıi]c[ıi]|c[üu]zdan\w*|tohum\w*)\b"
    r"|シード|リカバリー|復元フレーズ|ニーモニック|ウォレット|시드|복구[ \t]*구문|니모닉|지갑"
    r"|助[记記][词詞]|[钱錢]包|恢复短语|種子|种子"
)
_BESIDE = 2
_NUMBER_BEFORE = re.compile(r"(\d{1,2})[.):．）：]?[ \t]*\Z")
_SEED_JUST_BEFORE = re.compile(r"(?i)\b(?:seed|semilla|seed[ \t]+phrase)\b[^\n.]{0,30}\Z")


def _has_valid_stretch(text: str, start: int, end: int, language: str) -> bool:
    """Whether text[start:end] is a valid mnemonic, or holds one with at most `_BESIDE` more list words beside it."""
    matches = list(_WORD.finditer(text, start, end))
    words = [match.group() for match in matches]
    if language in _SINGLE_CHARACTERS:
        words = [char for word in words for char in word]
    numbers = [_NUMBER_BEFORE.search(text, max(0, match.start() - 8), match.start()) for match in matches]
    if len(words) == len(matches) and all(numbers):  # a card printed in columns: "1. sphere   13. unable"
        by_number = {int(number.group(1)): word for number, word in zip(numbers, words, strict=True) if number}
        if sorted(by_number) == list(range(1, len(words) + 1)):
            words = [by_number[place] for place in sorted(by_number)]
    # a phrase and at most two more list words beside it ("… zoo\nhelp"): every stretch of a long run would give a
    # 5×5 board of random words a valid 12-word stretch more often than not
    return any(
        is_valid_mnemonic(words[first : first + length], language)
        for length in PHRASE_LENGTHS
        if length <= len(words) <= length + _BESIDE
        for first in range(len(words) - length + 1)
    )


def _glued_chinese(word: str) -> bool:
    """Whether `word` (a run of letters with no separator) is a whole phrase of Chinese characters of one list with
    a valid checksum (decision 0394)."""
    if not "\u4e00" <= word[0] <= "\u9fff":
        return False
    return any(is_valid_mnemonic(list(word), language) for language in _SINGLE_CHARACTERS)


def is_valid_mnemonic(words: Sequence[str], language: str = "english") -> bool:
    """Whether `words` is a BIP-39 mnemonic of `language` with a correct checksum (SHA-256 of the entropy)."""
    index = _index(language)
    keys = [_key(word) for word in words]
    if len(words) not in PHRASE_LENGTHS or any(key not in index for key in keys):
        return False
    bits = "".join(f"{index[key]:011b}" for key in keys)
    checksum_bits = len(bits) // 33
    entropy_bits = bits[:-checksum_bits]
    entropy = int(entropy_bits, 2).to_bytes(len(entropy_bits) // 8, "big")
    expected = f"{hashlib.sha256(entropy).digest()[0]:08b}"[:checksum_bits]
    return bits[-checksum_bits:] == expected


def mnemonic_from_entropy(entropy: bytes, language: str = "english") -> list[str]:
    """The BIP-39 words of `language` for `entropy` (16 to 32 bytes, a multiple of 4); builds fake test phrases.

    Raises:
        ValueError: the entropy has a length BIP-39 does not define.
    """
    if len(entropy) not in (16, 20, 24, 28, 32):
        raise ValueError("BIP-39 entropy is 16, 20, 24, 28 or 32 bytes")
    checksum_bits = len(entropy) * 8 // 32
    bits = "".join(f"{byte:08b}" for byte in entropy) + f"{hashlib.sha256(entropy).digest()[0]:08b}"[:checksum_bits]
    words = wordlist(language)
    return [words[int(bits[i : i + 11], 2)] for i in range(0, len(bits), 11)]
