"""Long customer texts shown shortened on the request's page, so that the page stays under 150 KB (decision 0352).

A message body or a request's text field may hold 100 kB (`SUPPORT_FIELD_MAX_BYTES`), and a page shows 20
messages and 5 fields. Each text is shown whole when its HTML fits in `TEXT_HTML_BUDGET` bytes, and otherwise
cut on a clean boundary (a line end, else a space) so that what is shown fits, with a link to the whole text
(`.txt`). The budget is counted in bytes of the HTML the page sends, not in characters: a character costs its
UTF-8 length (up to 4), or what escaping makes of it (`"` and `'` become 6 bytes), a line end the `<br>` it
becomes, and a redaction marker its words in the page's language in the `<mark>` wrapped around them. So the worst
case (multibyte, `<`- or quote-heavy text, many markers) is bounded by the same figure as plain ASCII text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.utils.html import escape

from gpurent.core.redaction import marker_shown

__all__ = ["MARKER", "TEXT_HTML_BUDGET", "Shown", "marker_html", "shown"]

# The most bytes of HTML one text may take on the page: 25 texts (20 messages, 5 fields) × 4 000 = 100 000 bytes,
# leaving 50 000 for the page around them (see the decision's arithmetic and the worst-case test).
TEXT_HTML_BUDGET = 4_000

# A redaction marker as stored (`gpurent.core.redaction.marker`): "[REDACTED: AWS access key]".
MARKER = re.compile(r"\[REDACTED: [A-Za-z0-9 .,-]{1,60}\]")


def marker_html(stored: str) -> str:
    """A stored marker as the page shows it: in `<mark>`, in the active language (decision 0444)."""
    return f'<mark class="redacted">{escape(marker_shown(stored))}</mark>'


def _marker_cost(stored: str) -> int:
    """Bytes of HTML a stored marker becomes on the page (in the active language, which may be longer)."""
    return len(marker_html(stored).encode())


# Bytes of HTML of the characters escaping (`&lt;`, `&#x27;`…) or `linebreaksbr` (`<br>`) make longer.
_COST = {"&": 5, "<": 4, ">": 4, '"': 6, "'": 6, "\n": 4, "\r": 4}
# A clean boundary is looked for in the last part of what fits: a line end in its last quarter, else a space in
# its last tenth; otherwise the text is cut where the budget ends.
_LINE_WINDOW = 4
_SPACE_WINDOW = 10


@dataclass(frozen=True, slots=True)
class Shown:
    """What the page shows of a text: `text` (all of it, or its beginning when `cut`), and the whole text's size."""

    text: str
    cut: bool
    total_bytes: int

    @property
    def total_kb(self) -> int:
        """The whole text's size in kB, rounded up (what the "Shortened" note says)."""
        return -(-self.total_bytes // 1000)


def shown(text: str, budget: int = TEXT_HTML_BUDGET) -> Shown:
    """`text` whole when its HTML fits in `budget` bytes, else its beginning cut on a clean boundary."""
    end = _fitting_end(text, budget)
    if end is None:
        return Shown(text, cut=False, total_bytes=len(text.encode()))
    beginning = text[: _clean_boundary(text, end)]
    return Shown(beginning.rstrip() or beginning, cut=True, total_bytes=len(text.encode()))


def _fitting_end(text: str, budget: int) -> int | None:
    """The end of the longest beginning of `text` whose HTML fits in `budget`; None when all of it fits.

    Reads at most `budget` characters (each costs at least a byte), whatever the text's length."""
    if len(text) <= budget and _html_bytes_at_most(text) <= budget:
        return None  # the common case, counted without a loop over the characters
    spent = 0
    position = 0
    while position < len(text):
        character = text[position]
        found = MARKER.match(text, position) if character == "[" else None
        if found is not None:
            cost, following = _marker_cost(found.group()), found.end()
        else:
            cost, following = _COST.get(character) or len(character.encode()), position + 1
        if spent + cost > budget:
            return position
        spent += cost
        position = following
    return None


def _html_bytes_at_most(text: str) -> int:
    """An upper bound of the bytes of `text`'s HTML, the same count as `_fitting_end`'s, read with `str.count`."""
    extra = sum((cost - 1) * text.count(character) for character, cost in _COST.items())
    return len(text.encode()) + extra + sum(_marker_cost(found) - len(found) for found in MARKER.findall(text))


def _clean_boundary(text: str, end: int) -> int:
    """Where to cut before `end`: after a line end or a space near it, never inside a marker or a character's
    combining marks (Vietnamese can be written with them)."""
    line = text.rfind("\n", end - end // _LINE_WINDOW, end)
    space = text.rfind(" ", end - end // _SPACE_WINDOW, end)
    boundary = line + 1 if line > 0 else space + 1 if space > 0 else end
    for found in MARKER.finditer(text, max(0, boundary - 80), min(len(text), boundary + 80)):
        if found.start() < boundary < found.end():
            boundary = found.start()
    while 0 < boundary < len(text) and unicodedata.combining(text[boundary]):
        boundary -= 1
    return boundary
