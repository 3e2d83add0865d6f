"""`{% site_nav %}`: the main navigation (`partials/site_nav.html`), rendered once per process for each
language, kind of visitor and current page, then reused (issue 30, decision 0428).

base.html shows the navigation twice (the header row and the phone menu, decision 0435), on every page: about
30 URL reversals and a dozen translations per page, for HTML that depends only on the language, whether the
visitor is signed in, the page's app and URL name (which link is current) and the script prefix, and, for a
signed-in visitor, on the logout form's CSRF token. The token is left out of the stored HTML and written into
each copy from the page's own token (`csrf_token` in the context, as `{% csrf_token %}` reads it).
"""

from __future__ import annotations

import secrets

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

# Stands for the token in a stored navigation: random, so no page text can be taken for it.
_TOKEN = f"csrf-{secrets.token_hex(16)}"
_RENDERED: dict[tuple[str, ...], str] = {}
_KEPT = 512


@register.simple_tag(takes_context=True)
def site_nav(context: template.Context) -> SafeString:
    request = context.get("request")
    user = context.get("user")
    token = context.get("csrf_token")
    if token is None:  # rendered without a request: as `{% csrf_token %}` would, no field (the token is lazy:
        # reading it sets the CSRF cookie, so it is read only where the navigation has a form)
        flat = {str(name): value for name, value in context.flatten().items()}
        return mark_safe(render_to_string("partials/site_nav.html", flat))  # noqa: S308 (our template)
    match = getattr(request, "resolver_match", None)
    key = (
        get_language() or "",
        "signed-in" if user is not None and user.is_authenticated else "visitor",
        getattr(match, "app_name", "") or "",
        getattr(match, "url_name", "") or "",
        get_script_prefix(),
    )
    html = _RENDERED.get(key)
    if html is None:
        html = render_to_string("partials/site_nav.html", {"request": request, "user": user, "csrf_token": _TOKEN})
        if len(_RENDERED) >= _KEPT:
            _RENDERED.clear()
        _RENDERED[key] = html
    if _TOKEN in html:
        html = html.replace(_TOKEN, escape(str(token)))
    return mark_safe(html)  # noqa: S308 (our template, autoescaped; the token escaped above)
