"""`{% glossary_link "kv-cache" %}`: a link to a glossary entry, named after it."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from gpurent.glossary.terms import term_get

register = template.Library()


@register.simple_tag
def glossary_link(slug: str, text: str = "") -> SafeString:
    """A link to the glossary entry `slug`; unknown slugs render as plain text so a typo never breaks a page."""
    term = term_get(slug)
    if term is None:
        return format_html("{}", text or slug)
    return format_html(
        '<a class="glossary-link" href="{}#{}">{}</a>', reverse("glossary:index"), term.slug, text or term.name
    )
