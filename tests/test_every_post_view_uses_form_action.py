"""Every view that handles an HTML POST runs its action through `form_action` (once per the page's idempotency
key), or is listed below with the reason it does not; every bulk action of the back office's lists runs
through it, with no exceptions (issue 15, decision 0260).

The views are found from the URL configuration, so a new POST view that skips the helper fails here, not in
review. A view "handles a POST" when it is a class-based view with `post`, or a function view whose source
(decorators included) says `require_POST` or `post_or_back(`, allows "POST", or reads `request.POST` /
`request.method`. It "uses the helper" when its source calls `form_action(`, or calls a function of its module
(a method of its class) that does. Django's own views (`django.*`: the admin's generic pages, its login) are not
the shop's. The API is not here: its writes go through `api_idempotent` (`tests/test_one_idempotency_helper.py`).
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.urls import URLPattern, URLResolver, get_resolver

HANDLES_POST = re.compile(
    r'require_POST|post_or_back\(|require_http_methods\([^)]*"POST"|request\.POST|request\.method'
)
CALLS = re.compile(r"(?<![\w.])(\w+)\(|\bself\.(\w+)\(")

SESSION = "Changes only the visitor's session, not a stored thing of theirs"
ONE_TIME_CODE = "Checked with a one-time code, which is refused when used again."
EXEMPT = {
    "gpurent.hosts.admin.GpuHostAdmin.add_view": (
        "Registering a host connects to it over SSH, which must not run inside the idempotent action's transaction "
        "(no network call while a lock is held); a second submit finds the name taken and says so on the form."
    ),
    # Log-in and account plumbing: each submit is checked again with what only the person knows (a password,
    # a one-time code, a signed link); a stored answer replayed for the same key would skip that check.
    "gpurent.accounts.views.LoginView": f"{SESSION}; the password is checked on every submit.",
    "gpurent.accounts.two_factor_views.login_code": f"{SESSION}; a one-time code is refused when used again.",
    "gpurent.orders.views.checkout_account": (
        "The checkout's log-in or register step: as the log-in page and registration (the draft stays in the "
        "session either way)."
    ),
    "gpurent.accounts.views.register": (
        "There is no owner for a key before the account exists; a second submit finds the address taken and is "
        "answered as any registration with a known address is."
    ),
    "gpurent.accounts.views.logout_view": f"{SESSION}; a second logout finds nothing left to end.",
    "gpurent.accounts.views.language_set": (
        "Sets the language to the submitted one (a second submit sets the same); the switcher is on every page, "
        "cached public pages included (decision 0200), where a per-render key would be shared by visitors."
    ),
    "gpurent.accounts.two_factor_views.two_factor_setup": (
        "Shows a new secret to scan: it must not be stored for a replay; nothing is on until it is confirmed."
    ),
    "gpurent.accounts.two_factor_views.two_factor_confirm": ONE_TIME_CODE,
    "gpurent.accounts.two_factor_views.two_factor_disable_view": ONE_TIME_CODE,
    "gpurent.accounts.two_factor_views.recovery_codes_renew_view": (
        "Checked with a one-time code, refused when used again; the new recovery codes must not be stored for a replay."
    ),
    "gpurent.accounts.views.PasswordChangeView": "Django's view: the current password is checked on every submit.",
    "gpurent.accounts.views.PasswordResetView": (
        "Django's view: sends a link to the address, the same answer for any address (no account enumeration)."
    ),
    "gpurent.accounts.views.PasswordResetConfirmView": "Django's view: the signed link stops working once used.",
    "gpurent.accounts.email_views.email_change": (
        "The password is checked on every submit; a second submit only e-mails another link for the same change."
    ),
    "gpurent.accounts.email_views.email_confirm": "The signed link is checked on every submit.",
    # Naturally idempotent: the stored state after a second submit is the state after the first.
    "gpurent.accounts.views.profile_edit": "Sets the name to the submitted values: a second submit writes the same.",
    "gpurent.sizing.views.estimate_measure": "Sets the measured peak to the submitted value (a retry replaces it).",
    "gpurent.orders.views.checkout_start": "Stores the choice as the session's draft: a second submit stores the same.",
    "gpurent.payments.views.intent_report_view": "Marks the intent reported once (a conditional update).",
    "gpurent.orders.views.rental_reveal_secret": (
        "Shows the one-time password once and erases it in the same transaction: it must not be stored for a "
        "replay, and a second submit is told that it was already shown."
    ),
    # Reads only: a POST because the inputs (a pasted config.json) are too long for a URL.
    "gpurent.sizing.views.estimate_page": "Computes an estimate and writes nothing.",
    "gpurent.sizing.views.estimate_result": "Computes an estimate and writes nothing.",
}


def _patterns(resolver: URLResolver) -> Iterator[URLPattern]:
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern)
        else:
            yield pattern


def _target(callback: Any) -> Any:
    """The class of a class-based view, else the function (or method) under the decorators."""
    if hasattr(callback, "view_class"):
        return callback.view_class
    target = inspect.unwrap(callback)
    return getattr(target, "__func__", target)


def _name(target: Any) -> str:
    return f"{target.__module__}.{target.__qualname__}"


def _post_views() -> dict[str, Any]:
    views = {}
    for pattern in _patterns(get_resolver()):
        target = _target(pattern.callback)
        if not hasattr(target, "__qualname__") or not target.__module__.startswith("gpurent."):
            continue  # Django's own views, and django-ninja's API (a partial)
        if inspect.isclass(target):
            handles_post = hasattr(target, "post")
        else:
            handles_post = bool(HANDLES_POST.search(inspect.getsource(target)))
        if handles_post:
            views[_name(target)] = target
    return views


def _uses_form_action(function: Callable[..., Any]) -> bool:
    """Its source calls `form_action(`, or calls a function of its module or a method of its class that does."""
    source = inspect.getsource(function)
    if "form_action(" in source:
        return True
    module = vars(sys.modules[function.__module__])
    owner = module.get(function.__qualname__.split(".")[0]) if "." in function.__qualname__ else None
    for plain, method in CALLS.findall(source):
        helper = getattr(owner, method, None) if method else module.get(plain)
        if inspect.isfunction(helper) and helper is not function and "form_action(" in inspect.getsource(helper):
            return True
    return False


POST_VIEWS = _post_views()


def test_the_search_finds_the_post_views_it_should():
    # The kinds this test must see: function views, class-based views, and the desks' admin change pages.
    assert {
        "gpurent.orders.views.checkout_place",
        "gpurent.accounts.views.LoginView",
        "gpurent.backoffice.provisioning_admin.ProvisioningDeskAdmin.change_view",
        "gpurent.support.admin.SupportRequestAdmin.change_view",
    } <= set(POST_VIEWS)
    assert len(POST_VIEWS) >= 40


@pytest.mark.parametrize("name", sorted(set(POST_VIEWS) - set(EXEMPT)))
def test_a_post_view_runs_its_action_through_form_action(name):
    assert _uses_form_action(POST_VIEWS[name]), (
        f"{name} handles a POST without gpurent.core.idempotency.request.form_action: route it through the helper, or "
        "add it to EXEMPT here with the reason a double submit is harmless"
    )


@pytest.mark.parametrize("name", sorted(EXEMPT))
def test_an_exemption_names_a_post_view_that_does_not_use_the_helper(name):
    # A stale entry (a view renamed, removed, or converted) would hide the next one that skips the helper.
    assert name in POST_VIEWS, f"{name} is no longer a POST view: remove it from EXEMPT"
    assert not _uses_form_action(POST_VIEWS[name]), f"{name} uses form_action now: remove it from EXEMPT"


def _bulk_actions() -> dict[str, Callable[..., Any]]:
    actions = {}
    for model_admin in admin.site._registry.values():
        for action in model_admin.actions or ():
            function = getattr(model_admin, action) if isinstance(action, str) else action
            function = getattr(function, "__func__", function)
            if function.__module__.startswith("gpurent."):
                actions[_name(function)] = function
    return actions


BULK_ACTIONS = _bulk_actions()


def test_the_back_office_has_bulk_actions_to_check():
    assert {
        "gpurent.support.admin.SupportRequestAdmin.close_requests",
        "gpurent.backoffice.provisioning_admin.MachineRequestAdmin.mark_handled",
        "gpurent.accounts.admin.ApiTokenAdmin.revoke",
    } <= set(BULK_ACTIONS)


@pytest.mark.parametrize("name", sorted(BULK_ACTIONS))
def test_a_bulk_action_runs_through_form_action_on_a_list_that_carries_a_key(name):
    assert _uses_form_action(BULK_ACTIONS[name]), f"{name}: run the action through form_action"
    model_admin = next(m for m in admin.site._registry.values() if name.startswith(_name(type(m)) + "."))
    assert model_admin.change_list_template == "admin/change_list_once_per_key.html", (
        f"{name}: its list page must carry the key (change_list_template = ONCE_PER_KEY_CHANGE_LIST)"
    )
