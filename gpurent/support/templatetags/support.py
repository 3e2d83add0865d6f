"""Template helpers of support: escaped customer text with the redaction markers highlighted, and findings."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gpurent.core.redaction import Finding

from ..models import SupportRequest
from ..services import LONG_TEXT_FIELDS, field_label
from ..shortening import MARKER, Shown, marker_html, shown

register = template.Library()

# The findings listed in a notice; past them one line says how many more (a text can hold thousands of markers,
# each of which the text itself shows). Bounds a notice to a few hundred bytes (decision 0352).
FINDINGS_LISTED = 5


@register.filter
def with_markers(text: str) -> SafeString:
    """`text` escaped, with each `[REDACTED: …]` marker wrapped in `<mark>` so the customer sees where it was, in
    the page's language ("[ELIMINADO: Clave de acceso de AWS]"; the stored text keeps the English marker,
    decision 0444).

    The text is escaped first and the markers are found in the escaped text; a marker contains no character
    that escaping changes, so no customer text can become markup; the marker's words are escaped in turn.
    """
    escaped = str(conditional_escape(text))
    return mark_safe(MARKER.sub(lambda match: marker_html(match.group()), escaped))  # noqa: S308


@register.filter
def findings_list(redactions: list[dict[str, Any]]) -> list[str]:
    """Each stored finding as a sentence: "AWS access key in 'Messages and logs', line 12"; past the first
    `FINDINGS_LISTED`, one sentence for the rest."""
    sentences = []
    for data in redactions[:FINDINGS_LISTED]:
        finding = Finding.from_json(data)
        if finding.field == "body":
            sentences.append(_("%(kind)s on line %(line)d") % {"kind": finding.kind.label, "line": finding.line})
        else:
            sentences.append(
                _("%(kind)s in ‘%(field)s’, line %(line)d")
                % {"kind": finding.kind.label, "field": field_label(finding.field), "line": finding.line}
            )
    if (more := len(redactions) - FINDINGS_LISTED) > 0:
        sentences.append(
            ngettext(
                "and %(count)d more, marked in the text",
                "and %(count)d more, each marked in the text",
                more,
            )
            % {"count": more}
        )
    return sentences


@register.filter(name="shown")
def shown_filter(text: str) -> Shown:
    """What the page shows of a customer's text: all of it, or its beginning when its HTML would be too long."""
    return shown(text)


@register.filter
def request_sections(support_request: SupportRequest) -> list[tuple[str, str, Shown]]:
    """The request's non-empty text fields as (name, label, what the page shows of it), in form order."""
    sections = []
    for name in LONG_TEXT_FIELDS:
        text = getattr(support_request, name)
        if text:
            sections.append((name, field_label(name), shown(text)))
    return sections


@register.simple_tag
def status_badge(status: str, label: str) -> SafeString:
    return format_html('<span class="status support-status-{}">{}</span>', status, label)
