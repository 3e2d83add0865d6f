"""`{{ reference|ledger_reference }}`: a ledger reference as a word of the page's language and the ref in `<code>`."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from ..references import reference_parts

register = template.Library()


@register.filter
def ledger_reference(reference: str) -> SafeString:
    """`<span class="ledger-ref" data-reference="deposit:D-1">Pago recibido <code>D-1</code></span>`: the kind in the
    reader's language, the ref to copy, and the whole machine reference (as the CSV and the API write it) in
    `data-reference`. A reference of an unknown kind is shown whole in `<code>`."""
    label, ref = reference_parts(str(reference))
    if not label:
        return format_html('<span class="ledger-ref" data-reference="{}"><code>{}</code></span>', reference, ref)
    return format_html('<span class="ledger-ref" data-reference="{}">{} <code>{}</code></span>', reference, label, ref)
