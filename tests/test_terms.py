"""One word per term and language, and Spanish in usted, in the catalogs the shop serves (docs/terms.toml,
decision 0440).

Issue 29's readers found two words for one term on one page (Vietnamese "trình tối ưu" and "optimizer", "lớp" and
"layer", "mạng" and "mạng lưới"), a wrong word ("Pedir una detención", an arrest, for a stop request; "Cualquier
pila"; Turkish "ayırma düşer") and Spanish slipping from usted to tú. Every page, e-mail, PDF and API message
takes its words from the compiled catalogs, so the check reads those: `locale/<language>/LC_MESSAGES/django.mo`
(`make compilemessages`; compiled here from the `.po` when missing).
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.mofile import read_mo

ROOT = Path(__file__).resolve().parents[1]
TERMS = tomllib.loads((ROOT / "docs" / "terms.toml").read_text(encoding="utf-8"))
LANGUAGES = ["es", "vi", "tr"]


@cache
def catalog(language: str, directory: Path = ROOT / "locale") -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(msgid, its translations) of every translated message of the compiled catalog; plural forms together."""
    mo = directory / language / "LC_MESSAGES" / "django.mo"
    if not mo.exists():
        po = mo.with_suffix(".po")
        subprocess.run(["/usr/bin/msgfmt", "-o", str(mo), str(po)], check=True, timeout=60)
    with mo.open("rb") as handle:
        messages = read_mo(handle)
    found = []
    for message in messages:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string or ())
        if any(strings):
            found.append((msgid, strings))
    return tuple(found)


@cache
def word(pattern: str) -> re.Pattern[str]:
    """`pattern` as a whole word (not starting or ending inside one), case-insensitive."""
    return re.compile(rf"(?<!\w)(?:{pattern})(?!\w)", re.IGNORECASE)


@cache
def starts(pattern: str) -> re.Pattern[str]:
    """`pattern` at the start of a word (an inflected form counts: "lotes", "kiralamanız")."""
    return re.compile(rf"(?<!\w)(?:{pattern})", re.IGNORECASE)


# Text a translation carries over from the English untouched: placeholders, markup, code and quoted identifiers.
NOT_WORDS = re.compile(r"%\(\w+\)[sd]|%[sd]|<[^>]+>|`[^`]*`|'[\w.-]*'|\b\w+(?:[._]\w+)+\b|--[\w-]+")


@cache
def prose(text: str) -> str:
    return NOT_WORDS.sub(" ", text)


def avoided(terms: list[dict[str, Any]], language: str, messages: Any) -> list[str]:
    """Every translation using a variant the term base tells `language` to avoid, as "term: variant in 'text'"."""
    found = []
    for term in terms:
        scope = re.compile(term["match"], re.IGNORECASE) if term.get("scoped") else None
        for pattern in term.get("avoid", {}).get(language, []):
            variant = word(pattern)
            for msgid, strings in messages:
                if scope is not None and not scope.search(msgid):
                    continue
                for text in strings:
                    if hit := variant.search(prose(text)):
                        found.append(f"{term['en']}: {hit.group()!r} in {text[:120]!r} (for {msgid[:60]!r})")
    return found


def missing(terms: list[dict[str, Any]], language: str, messages: Any) -> list[str]:
    """Every translation of a msgid that speaks of a term without the language's word for it."""
    found = []
    for term in terms:
        if language not in term.get("require", []):
            continue
        scope = re.compile(term["match"], re.IGNORECASE)
        expected = starts(term.get(f"{language}_word", re.escape(term[language])))
        for msgid, strings in messages:
            if scope.search(prose(msgid)) and not all(expected.search(text) for text in strings):
                found.append(f"{term['en']} (→ {term[language]}): {strings[0][:120]!r} (for {msgid[:60]!r})")
    return found


CLAUSE = r"(?:^|[.;:(¿¡—–]\s*|,\s+)"


def tu_forms(rules: dict[str, Any], messages: Any) -> list[str]:
    """Spanish translations written in tú: a tú pronoun or verb anywhere, or a tú imperative starting a clause of
    a msgid whose English starts a clause with an imperative ("(choose a model)": "(elige un modelo)")."""
    anywhere = word("|".join(rules["words"]))
    imperative = re.compile(rf"{CLAUSE}(?:{'|'.join(rules['imperatives'])})(?!\w)", re.IGNORECASE)
    english = re.compile(rf"{CLAUSE}(?:please\s+)?(?:{'|'.join(rules['english_imperatives'])})\b", re.IGNORECASE)
    found = []
    for msgid, strings in messages:
        if msgid in rules["allow_msgids"]:
            continue
        commands = english.search(prose(msgid)) is not None
        for text in strings:
            plain = prose(text)
            if hit := anywhere.search(plain) or (commands and imperative.search(plain)):
                found.append(f"{hit.group().strip()!r} in {text[:120]!r}")
    return found


# --- The checks -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translation_uses_a_variant_the_term_base_avoids(language):
    found = avoided(TERMS["term"], language, catalog(language))
    assert found == [], f"{len(found)} in {language}:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_of_a_term_uses_the_term_bases_word(language):
    found = missing(TERMS["term"], language, catalog(language))
    assert found == [], f"{len(found)} in {language}:\n" + "\n".join(found[:40])


def test_spanish_addresses_the_reader_as_usted():
    found = tu_forms(TERMS["spanish_usted"], catalog("es"))
    assert found == [], f"{len(found)}:\n" + "\n".join(found[:40])


# --- The checks find what issue 29's readers found ------------------------------------------------------------

TERM_BY_NAME = {term["en"]: term for term in TERMS["term"]}


@pytest.mark.parametrize(
    ("language", "term", "msgid", "translation"),
    [
        ("vi", "optimizer", "Distributed optimizer (Megatron, with DDP)", "Optimizer phân tán (Megatron, với DDP)"),
        ("vi", "layer", "cannot split fewer layers than cards", "không thể chia số layer ít hơn số card"),
        ("vi", "network", "Check the network.", "Hãy kiểm tra mạng."),
        ("vi", "checkout", "Checkout steps", "Các bước thanh toán"),
        ("es", "stop", "Ask for a stop", "Pedir una detención"),
        ("es", "software stack", "Any stack", "Cualquier pila"),
        ("es", "batch", "Batch size", "Tamaño de lote"),
        ("tr", "reservation", "or the reservation lapses", "aksi halde ayırma düşer"),
        ("tr", "quantization", "Quantization", "Quantization"),
    ],
)
def test_the_variants_issue_29_found_are_flagged(language, term, msgid, translation):
    assert avoided([TERM_BY_NAME[term]], language, [(msgid, (translation,))]) != []


def test_a_translation_without_the_terms_word_is_flagged():
    lot = TERM_BY_NAME["lot"]
    assert missing([lot], "es", [("Choose your lots", ("Elija sus paquetes",))]) != []
    assert missing([lot], "es", [("Choose your lots", ("Elija sus lotes",))]) == []


@pytest.mark.parametrize(
    ("msgid", "translation"),
    [
        ("Too many attempts from your network.", "Demasiados intentos de registro desde tu red."),
        ("Log in with your password.", "Inicia sesión con tu contraseña."),
        ("no vision encoder (choose a vision-language model)", "no tiene codificador (elige un modelo de visión)"),
        ("Try again in an hour.", "Vuelve a intentarlo dentro de una hora."),
        ("choose a preset or paste a config.json", "elige un preset o pega un config.json"),
    ],
)
def test_tu_forms_are_flagged(msgid, translation):
    assert tu_forms(TERMS["spanish_usted"], [(msgid, (translation,))]) != []


@pytest.mark.parametrize(
    ("msgid", "translation"),
    [
        ("You choose an asset and its network.", "Usted elige un activo y su red."),
        ("Choose a preset or paste a config.json", "Elija un preset o pegue un config.json"),
        ("The whole amount, %(amount)s, is back on your balance.", "El importe completo vuelve a estar en su saldo."),
        ("That is a result: it marks the limit.", "Eso es un resultado: marca el límite."),
    ],
)
def test_usted_sentences_are_not_flagged(msgid, translation):
    assert tu_forms(TERMS["spanish_usted"], [(msgid, (translation,))]) == []


def test_the_catalogs_are_read():
    """A catalog that could not be read would pass every check above."""
    for language in LANGUAGES:
        assert len(catalog(language)) > 1500
