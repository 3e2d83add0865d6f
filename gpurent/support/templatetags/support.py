"""Template helpers of support: escaped customer text with the redaction markers highlighted, and findings."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from gpurent.core.redaction import Finding

from ..models import SupportRequest
from ..services import field_label

register = template.Library()

_MARKER = re.compile(r"\[REDACTED: [A-Za-z0-9 .,-]{1,60}\]")


@register.filter
def with_markers(text: str) -> SafeString:
    """`text` escaped, with each `[REDACTED: …]` marker wrapped in `<mark>` so the customer sees where it was.

    The text is escaped first and the markers are found in the escaped text; a marker contains no character
    that escaping changes, so no customer text can become markup.
    """
    escaped = str(conditional_escape(text))
    return mark_safe(_MARKER.sub(lambda match: f'<mark class="redacted">{match.group()}</mark>', escaped))  # noqa: S308


@register.filter
def findings_list(redactions: list[dict[str, Any]]) -> list[str]:
    """Each stored finding as a sentence: "AWS access key in 'Messages and logs', line 12"."""
    sentences = []
    for data in redactions:
        finding = Finding.from_json(data)
        if finding.field == "body":
            sentences.append(_("%(kind)s on line %(line)d") % {"kind": finding.kind.label, "line": finding.line})
        else:
            sentences.append(
                _("%(kind)s in ‘%(field)s’, line %(line)d")
                % {"kind": finding.kind.label, "field": field_label(finding.field), "line": finding.line}
            )
    return sentences


_SECTIONS = ("library_versions", "reproduction_steps", "expected", "observed", "logs")


@register.filter
def request_sections(support_request: SupportRequest) -> list[tuple[str, str]]:
    """The request's non-empty text fields, with their labels, in form order."""
    sections = []
    for name in _SECTIONS:
        text = getattr(support_request, name)
        if text:
            sections.append((field_label(name), text))
    return sections


@register.simple_tag
def status_badge(status: str, label: str) -> SafeString:
    return format_html('<span class="status support-status-{}">{}</span>', status, label)
