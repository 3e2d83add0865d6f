"""The checkout draft: what a customer (guest or not) has chosen, kept in the session between the steps.

The draft belongs to the session, not to an email: it survives login (Django keeps session data when it
rotates the key) and is gone with logout (the session is flushed).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.http import HttpRequest

__all__ = ["CheckoutDraft", "draft_clear", "draft_get", "draft_save"]

SESSION_KEY = "checkout_draft"


@dataclass(frozen=True, slots=True)
class CheckoutDraft:
    gpu_slug: str
    term_days: int
    lots: int
    environment: str
    environment_note: str = ""


def draft_get(request: HttpRequest) -> CheckoutDraft | None:
    data = request.session.get(SESSION_KEY)
    if not isinstance(data, dict):
        return None
    try:
        return CheckoutDraft(**data)
    except TypeError:  # a draft saved by an older version of the shop
        return None


def draft_save(request: HttpRequest, draft: CheckoutDraft) -> None:
    request.session[SESSION_KEY] = asdict(draft)


def draft_clear(request: HttpRequest) -> None:
    request.session.pop(SESSION_KEY, None)
