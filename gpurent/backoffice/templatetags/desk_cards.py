"""The desks' lists as cards on a phone (outside QA walk of the back office, defects 25 and 26).

Below 768 px a desk's table is one card per row (`backoffice/desk.css`): the column headings are hidden, so each
cell carries its heading in `data-label`, which the stylesheet writes above the value ("Requested", "To send").
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

register = template.Library()

# The opening of a cell as Django's admin renders it (`items_for_result`): `<td class="…">` or `<th class="…">`.
_CELL = re.compile(r"^<(td|th)\b")


@register.filter
def labelled(cells: list[SafeString], headers: list[dict[str, Any]]) -> list[SafeString]:
    """Each cell of a result row with its column's heading in `data-label`; the selection checkbox's column has no
    heading to give (its heading is the select-all box) and keeps its cell as it is."""
    out = []
    for cell, header in zip(cells, headers, strict=False):
        if "action-checkbox-column" in str(header.get("class_attrib", "")):
            out.append(cell)
            continue
        html, opening = str(cell), _CELL.match(str(cell))
        if opening is not None:
            label = escape(capfirst(str(header["text"])))
            html = f'{opening[0]} data-label="{label}"{html[opening.end() :]}'
        out.append(mark_safe(html))  # noqa: S308 (Django's safe cell, the label escaped)
    return out
