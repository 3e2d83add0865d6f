"""Characters a reader cannot see: stripped from the labels customers type, shown escaped to operators.

Unicode's format characters (category Cf: the bidirectional overrides and isolates such as U+202E RIGHT-TO-LEFT
OVERRIDE, the zero-width space, joiners and no-break, the byte order mark, soft hyphens, tag characters) and the
control characters (category Cc) draw nothing, or reorder what follows them. In a name or a subject they can make
one customer's text read as another's in the back office, where rows of every customer are listed together
(issue 32, decision 0377). So:

- `label_clean` is the one rule for every single-line label a customer types (a name, a subject, a question):
  those characters are removed, any other white space (a tab, a line break, a no-break space) becomes a plain
  space, and the ends are stripped. Services call it before they check that the label is not empty.
- `invisible_escaped` writes each of them as `<U+202E>`, leaving tabs and line breaks. Free text (messages, logs,
  notes) keeps what the customer sent, and rows stored before the rule keep theirs: on the back office's pages
  `BackOfficeInvisibleMiddleware` shows every such character escaped, whatever the page and the field.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Callable
from functools import cache

from django.http import HttpRequest, HttpResponse

__all__ = ["BackOfficeInvisibleMiddleware", "invisible_escaped", "is_invisible", "label_clean"]

_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc"})
_KEPT_IN_TEXT = frozenset("\t\n\r")


def is_invisible(char: str) -> bool:
    """Whether `char` is a format or control character (see the module docstring)."""
    return unicodedata.category(char) in _INVISIBLE_CATEGORIES


def label_clean(text: str) -> str:
    """`text` as a single-line label: format and control characters removed, other white space a plain space,
    the ends stripped. Empty when nothing visible is left (the caller refuses an empty label)."""
    kept = (" " if char.isspace() else char for char in text if char.isspace() or not is_invisible(char))
    return "".join(kept).strip()


@cache
def _escapable() -> re.Pattern[str]:
    """Every format or control character but tab, line feed and carriage return (one scan of the code points,
    about 0.2 s, on first use)."""
    chars = (chr(point) for point in range(sys.maxunicode + 1))
    return re.compile("[" + "".join(re.escape(c) for c in chars if is_invisible(c) and c not in _KEPT_IN_TEXT) + "]")


def invisible_escaped(text: str, *, template: str = "<U+{:04X}>") -> str:
    """`text` with each format or control character (but tabs and line breaks) written as `<U+XXXX>`."""
    return _escapable().sub(lambda match: template.format(ord(match.group())), text)


# What an operator's form sends back when saved: an input's value and a textarea's text. They are left as stored, so
# that saving a form never writes the escape into the row; everything between them is what the page shows.
_FORM_VALUES = re.compile(r'(\svalue="[^"]*"|<textarea\b[^>]*>.*?</textarea>)', re.DOTALL | re.IGNORECASE)


def _shown_escaped(html: str) -> str:
    """`html` with every format or control character escaped, except in form values (`_FORM_VALUES`)."""
    parts = _FORM_VALUES.split(html)  # the form values are the odd parts
    parts[::2] = [invisible_escaped(part, template="&lt;U+{:04X}&gt;") for part in parts[::2]]
    return "".join(parts)


class BackOfficeInvisibleMiddleware:
    """On the back office's HTML pages (the `admin` namespace), every format or control character is shown as
    `<U+XXXX>` (HTML-escaped), in lists, read-only fields and threads: the operator sees that a name or a message
    holds one, and it cannot reorder the text around it. An editable field's value and a textarea's text are left
    as stored, so that saving the form never writes the escape into the row. Other pages are left as they are."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        if (
            match is None
            or "admin" not in match.namespaces
            or response.streaming
            or not response.get("Content-Type", "").startswith("text/html")
        ):
            return response
        text = response.content.decode(response.charset)
        escaped = _shown_escaped(text)
        if escaped != text:
            response.content = escaped.encode(response.charset)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response
