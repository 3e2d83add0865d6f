"""`{% help_links "terms" "identity" %}`: links to the help page's answers, where the question arises."""

from __future__ import annotations

from typing import Any

from django import template

from ..faq import FAQ

register = template.Library()
_BY_SLUG = {answer.slug: answer for answer in FAQ}


@register.inclusion_tag("pages/partials/help_links.html")
def help_links(*slugs: str) -> dict[str, Any]:
    """The questions `slugs` (anchors of /help/), each linked to its answer; an unknown slug is a bug."""
    return {"answers": [_BY_SLUG[slug] for slug in slugs]}
