"""Form targets whose answer is rendered from the POST itself: a GET of their address goes back to the form.

Some forms answer with a page instead of a redirect: one with the form's errors and what was typed, or one that
shows a secret once (a new API token, a machine's one-time password, recovery codes). Reloading that page after
arriving elsewhere, or opening its address in a new tab, is a GET of a POST-only address: it was a bare
"405" page with no way on. `post_or_back` sends that GET to the page that holds the form instead.

A secret shown once stays in the POST's answer alone (never in a URL, a session or a log), and that answer is
never stored (`PrivateResponseMiddleware`); the browser's "resubmit?" on reload sends the POST again, which the
view answers as a repeat ("already shown"), so the secret is not shown twice.

A page rendered from such a POST sends its links that come back to "this page" (the footer's language switch) to
`form_page(request)`, the page holding the form, never to the POST-only address (QA walk 2, defect 1).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, HttpResponseRedirect

__all__ = ["form_page", "form_page_set", "post_or_back"]

View = Callable[..., HttpResponse]

# Where `post_or_back` keeps, on a POST it runs, the address of the page holding the form.
_FORM_PAGE = "gpurent_form_page"


def form_page(request: HttpRequest) -> str:
    """The address to show "this page" again with a GET: for a POST to a `post_or_back` target, the page holding
    its form (with its section's anchor); for any other request, its own address."""
    page = getattr(request, _FORM_PAGE, None)
    return page if isinstance(page, str) else request.get_full_path()


def form_page_set(request: HttpRequest, address: str) -> None:
    """Say that the page rendered for this POST shows `address` again (see `form_page`)."""
    setattr(request, _FORM_PAGE, address)


def post_or_back(back: Callable[..., str]) -> Callable[[View], View]:
    """Allow only POST, as `require_POST`, except that a GET or HEAD is redirected (302) to `back(request,
    **kwargs)`, the address of the page holding the form; nothing is done on that GET. On a POST, that address
    is `form_page(request)` for the page the view renders."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in ("GET", "HEAD"):
                return HttpResponseRedirect(back(request, *args, **kwargs))
            if request.method != "POST":
                return HttpResponseNotAllowed(["POST"])
            form_page_set(request, back(request, *args, **kwargs))
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
