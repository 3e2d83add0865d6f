"""What the language-and-width walk checks on each page, read from the rendered DOM (decision 0436).

- Overflow: the page must not scroll sideways, and no element's box may reach past the viewport's edges,
  except inside a declared scroll container (`SCROLLERS`); a sideways scroller that is not declared is a
  finding too, and so is a reference or command token (`UNBROKEN`) that wraps inside itself.
- Untranslated text: in es/vi/tr every text node of the body (and the texts of attributes a customer reads) is
  compared with the catalog: a text equal to an English msgid whose translation differs, or matching a msgid
  with placeholders, is untranslated; so is a word that the catalog's English uses and none of that language's
  translations does (plus a few English function words), unless `untranslated_allow.txt` lists it. Text inside
  `code`, `pre`, `kbd`, `samp` and elements marked `translate="no"` (a customer's own words, identifiers) is
  left out.
- Fit (`FIT_JS`): on a phone a `.stack-table` (its rows are cards) does not scroll sideways, and a guide's
  decision table does not at any width; a reference (R-8H2K-HT56) in any text stays on one line; no text is cut
  with an ellipsis; no fieldset shows the browser's grey border; fields that stack keep a gap between them; and
  every option of every select shows whole once chosen (`CHOSEN_OPTIONS_THAT_DO_NOT_FIT`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from gettext import GNUTranslations
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
ALLOW_FILE = Path(__file__).with_name("untranslated_allow.txt")

# Boxes that may scroll sideways on purpose: a data table in its shadowed wrapper (decision 0436).
SCROLLERS = [".table-wrap"]
# Tokens a reader copies or reads as one word: they may move to the next line, never break inside.
UNBROKEN = [".ref", ".unbroken", ".ledger-ref code"]

OVERFLOW_JS = """([scrollers, unbroken]) => {
  const doc = document.documentElement;
  const width = doc.clientWidth;
  const found = [];
  const name = (el) => {
    const cls = [...el.classList].slice(0, 3).map((c) => '.' + c).join('');
    const text = (el.innerText || '').replace(/\\s+/g, ' ').trim().slice(0, 50);
    return `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls}> "${text}"`;
  };
  if (doc.scrollWidth > width) found.push(`the page is ${doc.scrollWidth} px wide in a ${width} px viewport`);
  const declared = scrollers.join(',');
  const outside = new Set();
  for (const el of document.body.querySelectorAll('*')) {
    if (el.parentElement && el.parentElement.closest(declared)) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || box.right <= 0) continue;  // visually hidden, or parked off-screen
    if (box.right > width + 1 || box.left < -1) {
      if (![...outside].some((parent) => parent.contains(el))) {
        outside.add(el);
        found.push(`${name(el)} spans ${Math.round(box.left)}..${Math.round(box.right)} px`);
      }
      continue;
    }
    if (el.matches(declared)) continue;
    const overflowX = getComputedStyle(el).overflowX;
    if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1
        && !['TEXTAREA', 'INPUT', 'SELECT'].includes(el.tagName)) {
      found.push(`${name(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px)`);
    }
  }
  for (const el of document.querySelectorAll(unbroken.join(','))) {
    const range = document.createRange();
    range.selectNodeContents(el);
    // Boxes that do not overlap vertically are on different lines.
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top);
    if (boxes.some((box, i) => i > 0 && box.top >= boxes[i - 1].bottom - 2)) {
      found.push(`${name(el)} breaks inside the token`);
    }
  }
  return found;
}"""

# Tables that must not scroll sideways: on a phone every `.stack-table` (its rows are cards, decision 0435), and a
# guide's decision table at any width (its columns are the page's answer).
FITTING_TABLES = {"phone": ".stack-table, .decision-table", "wide": ".decision-table"}
# An order, top-up or support reference: a letter and two groups of four.
REFERENCE = r"\b[A-Z]-[A-Z0-9]{4}-[A-Z0-9]{4}\b"
# Fields stacked one above the other closer than this read as one: the label sits on the field above.
MIN_FIELD_GAP = 8

FIT_JS = """([tables, reference, minGap]) => {
  const found = [];
  const name = (el) => {
    const cls = [...el.classList].slice(0, 3).map((c) => '.' + c).join('');
    const text = (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 50);
    return `<${el.tagName.toLowerCase()}${cls}> "${text}"`;
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const phone = matchMedia('screen and (max-width: 720px)').matches;
  for (const table of document.querySelectorAll(phone ? tables.phone : tables.wide)) {
    const box = table.closest('.table-wrap') || table.parentElement;
    if (shown(table) && box.scrollWidth > box.clientWidth + 1) {
      found.push(`${name(table)} is ${box.scrollWidth} px wide in its ${box.clientWidth} px box`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.nodeValue.matchAll(new RegExp(reference, 'g'))) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const boxes = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top);
      if (boxes.some((box, i) => i > 0 && box.top >= boxes[i - 1].bottom - 2)) {
        found.push(`reference ${match[0]} breaks over two lines in ${name(node.parentElement)}`);
      }
    }
  }
  for (const el of document.body.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (style.textOverflow === 'ellipsis' && shown(el) && el.scrollWidth > el.clientWidth + 1) {
      found.push(`${name(el)} is cut off (${el.scrollWidth} px of text in ${el.clientWidth} px)`);
    }
  }
  for (const el of document.querySelectorAll('fieldset')) {
    if (shown(el) && getComputedStyle(el).borderTopStyle === 'groove') {
      found.push(`${name(el)} shows the browser's default fieldset border`);
    }
  }
  for (const form of document.querySelectorAll('form')) {
    const fields = [...form.querySelectorAll('.field')].filter(shown).map((el) => [el, el.getBoundingClientRect()]);
    fields.forEach(([el, box], i) => {
      if (i === 0) return;
      const above = fields[i - 1][1];
      const gap = box.top - above.bottom;
      if (box.top >= above.bottom - 1 && gap < minGap) {
        found.push(`${name(el)} is ${Math.round(gap)} px under the field above it`);
      }
    });
  }
  return found;
}"""

# For each option of each select shown: the width the select needs to show that option whole once chosen (a copy of
# the select holding only that option, sized to its content, so text, padding and arrow all count) against the
# select's own width. The copy is styled through the CSSOM, which the CSP allows. Every select's width is read first,
# then one copy per option is placed (hidden, out of the flow) and all are read in one layout, not one per option: a
# model select of a hundred presets cost a hundred layouts of the whole page.
CHOSEN_OPTIONS_THAT_DO_NOT_FIT = """(selector) => {
  const shown = [...document.querySelectorAll(selector)]
    .map((select) => ({select, have: select.getBoundingClientRect().width}))
    .filter(({have}) => have);
  const copies = [];
  for (const {select, have} of shown) {
    for (const option of select.options) {
      const copy = select.cloneNode(false);
      copy.removeAttribute("id");
      copy.removeAttribute("name");
      Object.assign(copy.style, {width: "auto", minWidth: "0", maxWidth: "none"});
      Object.assign(copy.style, {position: "absolute", visibility: "hidden"});
      copy.append(option.cloneNode(true));
      select.parentElement.append(copy);
      copies.push({copy, select, have, text: option.text});
    }
  }
  const found = [];
  for (const {copy, select, have, text} of copies) {
    const need = copy.getBoundingClientRect().width;
    if (need > have) found.push(`${select.name}: "${text}" needs ${Math.round(need)} px of ${Math.round(have)}`);
  }
  copies.forEach(({copy}) => copy.remove());
  return found;
}"""

# Buttons and button-like links whose content is wider or taller than their box (text cut off or spilling).
CLIPPED_JS = """() => [...document.querySelectorAll('button, .button, input[type=submit]')]
  .filter((el) => el.offsetParent !== null)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => (el.innerText || el.value || '').trim().slice(0, 60))"""

TEXTS_JS = """() => {
  const skip = 'script, style, noscript, template, code, pre, kbd, samp, svg, [translate="no"]';
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue.replace(/\\s+/g, ' ').trim();
    if (text && /\\p{L}/u.test(text) && !node.parentElement.closest(skip)) texts.push(text);
  }
  for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title], [alt], input[type=submit]')) {
    if (el.closest(skip)) continue;
    for (const attribute of ['placeholder', 'aria-label', 'title', 'alt', 'value']) {
      if (attribute === 'value' && el.type !== 'submit') continue;
      const text = (el.getAttribute(attribute) || '').replace(/\\s+/g, ' ').trim();
      if (text && /\\p{L}/u.test(text)) texts.push(text);
    }
  }
  return [...new Set(texts)];
}"""

WORD = re.compile(r"[^\W\d_]+")
# English words that no sentence in Spanish, Vietnamese or Turkish uses: one in a text is English left over.
FUNCTION_WORDS = frozenset(
    WORD.findall(
        "the and with your you this that from for are is was were have has been will would should which what when "
        "where there their they our not can cannot left only per each than then into"
    )
)
# A word with a digit, "_", "/", "{", a quote, "@", an inner dot or a leading "--" is a name to type as it is
# (fp8, model.safetensors, --peak, {"metadata":), and so is a text that is one lowercase slug (bert-base-cased).
IDENTIFIER = re.compile(r"^(?=\S*[\d_/{}\"@]|\S*\w\.\w|--)\S+$")
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|%[sd]|\{[a-z_]+\}")


@dataclass
class Catalog:
    """One language's compiled catalog, read as the shop reads it."""

    language: str
    exact: dict[str, str] = field(default_factory=dict)  # English text -> its translation, where they differ
    patterns: list[re.Pattern[str]] = field(default_factory=list)  # msgids with placeholders, untranslated shape
    english_only: frozenset[str] = frozenset()  # words of the English msgids no translation uses


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text) if len(word) >= 3}


def _text_of(msgid: str) -> str:
    """The msgid as a reader sees it: tags dropped, whitespace folded, as a text node would hold it."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", msgid)).strip()


@cache
def catalog(language: str) -> Catalog:
    with (ROOT / "locale" / language / "LC_MESSAGES" / "django.mo").open("rb") as handle:
        messages: dict[Any, str] = GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
    found = Catalog(language)
    english: set[str] = set()
    translated: set[str] = set()
    for key, translation in messages.items():
        msgid = (key[0] if isinstance(key, tuple) else key).split("\x04", 1)[-1]  # "amount\x04Paid": the context
        if not msgid:  # the header
            continue
        english |= _words(PLACEHOLDER.sub(" ", _text_of(msgid)))
        translated |= _words(PLACEHOLDER.sub(" ", _text_of(translation)))
        text = _text_of(msgid)
        if _text_of(translation) == text:
            continue
        if PLACEHOLDER.search(text):
            pieces = PLACEHOLDER.split(text)
            if sum(len(piece.strip()) for piece in pieces) >= 12:
                found.patterns.append(re.compile(".+?".join(map(re.escape, pieces)) + "$"))
        elif len(text) >= 2:
            found.exact[text] = translation
    found.english_only = frozenset((english | FUNCTION_WORDS) - translated - allowed_words())
    return found


@cache
def allowed_words() -> frozenset[str]:
    """Product names and units that read the same in every language (`untranslated_allow.txt`)."""
    lines = ALLOW_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(word.lower() for line in lines if not line.startswith("#") for word in WORD.findall(line))


def untranslated(texts: list[str], language: str) -> list[str]:
    """The texts of a page in `language` that are still English, each with the reason."""
    book = catalog(language)
    found = []
    for text in texts:
        if text in book.exact:
            found.append(f"{text!r} (msgid, translated {book.exact[text]!r})")
        elif any(pattern.match(text) for pattern in book.patterns):
            found.append(f"{text!r} (a msgid with placeholders, untranslated)")
        elif not SLUG.match(text):
            words = {word.lower() for part in text.split() if not IDENTIFIER.match(part) for word in WORD.findall(part)}
            english = sorted(words & book.english_only)
            if english:
                found.append(f"{text[:90]!r} (English words: {', '.join(english)})")
    return found


def page_findings(page: Page, *, language: str, texts: bool) -> list[str]:
    """Every overflow, cut-off button and (when `texts`) untranslated text of the page as it is now."""
    found: list[str] = page.evaluate(OVERFLOW_JS, [SCROLLERS, UNBROKEN])
    found += [f"button text cut off: {text!r}" for text in page.evaluate(CLIPPED_JS)]
    found += page.evaluate(FIT_JS, [FITTING_TABLES, REFERENCE, MIN_FIELD_GAP])
    found += [f"chosen option cut off: {what}" for what in page.evaluate(CHOSEN_OPTIONS_THAT_DO_NOT_FIT, "select")]
    if texts and language != "en":
        found += untranslated(page.evaluate(TEXTS_JS), language)
    return found
