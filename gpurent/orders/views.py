"""Checkout (choice → account → summary → place) and "My rentals"."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from gpurent.accounts.errors import RegistrationRateLimited
from gpurent.accounts.forms import LoginForm, RegistrationForm
from gpurent.accounts.login_flow import login_begin
from gpurent.accounts.models import User
from gpurent.accounts.services import user_register
from gpurent.accounts.throttling import registration_throttle
from gpurent.catalog.enums import Term
from gpurent.catalog.models import GpuModel
from gpurent.catalog.pricing import quote_for
from gpurent.catalog.selectors import gpu_get
from gpurent.core.errors import ApplicationError, InvalidRequest, NotFound
from gpurent.core.form_targets import post_or_back
from gpurent.core.idempotency.keys import Outcome, finish_early
from gpurent.core.idempotency.request import form_action
from gpurent.core.pagination import page_from_request
from gpurent.core.schemas import contains_nul

from .checkout import CheckoutDraft, draft_clear, draft_get, draft_save
from .enums import Environment, PaymentStatus, ProvisioningStatus
from .errors import CancelNeedsConfirmation
from .export import order_ledger_references, orders_csv_whole
from .extensions import TooManyExtensions, order_extension_place
from .files_after_term import files_after_term_text
from .forms import CheckoutChoiceForm, PlaceOrderForm
from .models import Order, OrderAccess
from .money import order_money
from .rental import TERM_END_NOTICE, access_reveal_secret, machine_request_create
from .selectors import order_get_for, order_history, order_list_for, rental_extensions_attach, rental_list_for
from .services import Contact, order_cancel, order_cancel_warning, order_place


def _authenticated_user(request: HttpRequest) -> User:
    # login_required (or an explicit check) guarantees it; this narrows the type for the services.
    return cast(User, request.user)


def _choice_initial(request: HttpRequest, draft: CheckoutDraft | None) -> dict[str, Any]:
    initial: dict[str, Any] = {}
    if draft is not None:
        initial = {
            "gpu": draft.gpu_slug,
            "term": draft.term_days,
            "lots": draft.lots,
            "environment": draft.environment,
            "environment_note": draft.environment_note,
        }
    # Coming from a catalog card: its choice wins over an older draft.
    for field in ("gpu", "term", "lots"):
        if request.GET.get(field):
            initial[field] = request.GET[field]
    return initial


@require_http_methods(["GET", "POST"])
def checkout_start(request: HttpRequest) -> HttpResponse:
    """Step 1: GPU, term, lots and environment."""
    if request.method == "POST":
        form = CheckoutChoiceForm(request.POST)
        if form.is_valid():
            draft_save(request, form.to_draft())
            return redirect("orders:checkout_summary" if request.user.is_authenticated else "orders:checkout_account")
    else:
        form = CheckoutChoiceForm(initial=_choice_initial(request, draft_get(request)))
    gpus = {gpu.slug: gpu for gpu in form.fields["gpu"].queryset}  # type: ignore[attr-defined]
    values = form.data if form.is_bound else form.initial
    quote = _choice_quote(
        gpus.get(str(values.get("gpu") or next(iter(gpus), ""))), values.get("term"), values.get("lots")
    )
    return render(request, "orders/checkout_start.html", {"form": form, "gpus": gpus, "step": 1, "quote": quote})


def _choice_quote(gpu: GpuModel | None, term: Any, lots: Any) -> Any:
    """The lot price and total of a choice in progress, or None while it cannot be priced."""
    try:
        return quote_for(gpu, term_days=int(term), lots=int(lots)) if gpu is not None else None
    except (TypeError, ValueError, InvalidRequest):
        return None


@require_GET
def checkout_quote(request: HttpRequest) -> HttpResponse:
    """Step 1's price box, redrawn by htmx as the choice changes (the page computes it too, without JS). Reads
    the chosen GPU only, whatever the catalog's size (a slug with a NUL, which PostgreSQL cannot compare, is none)."""
    slug = request.GET.get("gpu", "")
    try:
        gpu: GpuModel | None = None if contains_nul(slug) else gpu_get(slug)
    except NotFound:
        gpu = None
    quote = _choice_quote(gpu, request.GET.get("term"), request.GET.get("lots"))
    return render(request, "orders/partials/checkout_quote.html", {"quote": quote})


def _draft_quote(request: HttpRequest, draft: CheckoutDraft) -> tuple[GpuModel, Any] | None:
    """The GPU and price of the draft, or None (with a message) when it can no longer be ordered."""
    try:
        gpu = gpu_get(draft.gpu_slug)
        return gpu, quote_for(gpu, term_days=draft.term_days, lots=draft.lots)
    except (NotFound, InvalidRequest):
        draft_clear(request)
        messages.error(request, _("That GPU is no longer on sale. Please choose again."))
        return None


@require_http_methods(["GET", "POST"])
def checkout_account(request: HttpRequest) -> HttpResponse:
    """Step 2 for guests: create an account, or log in to an existing one. The draft survives either."""
    draft = draft_get(request)
    if draft is None:
        messages.info(request, _("Choose a GPU, a term and a number of lots first."))
        return redirect("orders:checkout_start")
    if request.user.is_authenticated:
        return redirect("orders:checkout_summary")
    register_form = RegistrationForm(auto_id="register_%s")
    login_form = LoginForm(request, auto_id="login_%s")
    status = 200
    if request.method == "POST" and request.POST.get("step_action") == "register":
        try:
            registration_throttle(request)  # as on the register page: before the form looks the email up (0111)
        except RegistrationRateLimited as error:
            register_form = RegistrationForm.refused(request.POST, error, auto_id="register_%s")
            status = error.status
        else:
            register_form = RegistrationForm(request.POST, auto_id="register_%s")
            if register_form.is_valid():
                try:
                    user_register(request=request, **register_form.cleaned_data)
                except ApplicationError as error:
                    register_form.apply_error(error)
                else:
                    return redirect("orders:checkout_summary")
    elif request.method == "POST" and request.POST.get("step_action") == "login":
        login_form = LoginForm(request, data=request.POST, auto_id="login_%s")
        if login_form.is_valid():
            # An account with two-factor login goes through the code page, which comes back here after.
            return redirect(login_begin(request, login_form.get_user(), next_url=reverse("orders:checkout_summary")))
    sent = request.POST.get("step_action") if request.method == "POST" else None
    _focus_first_error(register_form, sent == "register")
    _focus_first_error(login_form, sent == "login")
    context = {"register_form": register_form, "login_form": login_form, "draft": draft, "step": 2}
    return render(request, "orders/checkout_account.html", context, status=status)


def _focus_first_error(form: forms.Form, sent: bool) -> None:
    """The page's focus on the form just sent, at its first field with an error (its first field for an error of
    the whole form), and nowhere on a first view: the login form's own autofocus on its email took the focus from
    a refused sign-up password, and on a phone scrolled past it."""
    for field in form.fields.values():
        field.widget.attrs.pop("autofocus", None)
    if sent and form.errors:
        name = next((name for name in form.fields if name in form.errors), next(iter(form.fields)))
        form.fields[name].widget.attrs["autofocus"] = True


@require_GET
def checkout_summary(request: HttpRequest) -> HttpResponse:
    """Step 3: everything the order will say, the contact prefilled from the account, and the place button."""
    draft = draft_get(request)
    if draft is None:
        messages.info(request, _("Choose a GPU, a term and a number of lots first."))
        return redirect("orders:checkout_start")
    if not request.user.is_authenticated:
        return redirect("orders:checkout_account")
    priced = _draft_quote(request, draft)
    if priced is None:
        return redirect("orders:checkout_start")
    gpu, quote = priced
    user = _authenticated_user(request)
    form = PlaceOrderForm.for_draft(draft, user=user)
    return render(request, "orders/checkout_summary.html", _summary_context(draft, gpu, quote, form))


def _summary_context(draft: CheckoutDraft, gpu: GpuModel, quote: Any, form: PlaceOrderForm) -> dict[str, Any]:
    return {
        "draft": draft,
        "gpu": gpu,
        "quote": quote,
        "form": form,
        "step": 3,
        "payment_window_hours": settings.ORDER_PAYMENT_WINDOW_HOURS,
        "environment_label": Environment(draft.environment).label,
    }


@login_required
@require_POST
def checkout_place(request: HttpRequest) -> HttpResponse:
    """Place the order once, whatever the number of clicks or retries (the form's idempotency key)."""
    user = _authenticated_user(request)
    form = PlaceOrderForm(request.POST, user=user)

    def place() -> Outcome:
        draft = draft_get(request)
        if not form.is_valid():
            raise InvalidRequest(" ".join(str(error) for errors in form.errors.values() for error in errors))
        if draft is None or not form.matches(draft):
            raise InvalidRequest(_("Your choice changed in another tab. Please check the summary again."))
        data = form.cleaned_data
        placed: list[Outcome] = []
        order_place(
            owner=user,
            gpu_slug=draft.gpu_slug,
            term_days=draft.term_days,
            lots=draft.lots,
            environment=draft.environment,
            environment_note=draft.environment_note,
            contact=Contact(data["contact_first_name"], data["contact_last_name"], data["contact_email"]),
            before_reserve=lambda order: placed.append(finish_early(_placed_outcome(order))),
            ssh_keys=list(data["ssh_keys"]),
            savepoint=False,  # the action's transaction is the placement's (decision 0250)
        )
        return placed[0]

    return form_action(
        request,
        place,
        back=reverse("orders:checkout_summary"),
        # A stored business failure (out of stock): back to the choice, which says how many lots are left.
        failure_back=reverse("orders:checkout_start"),
        success=lambda body: _("Order %(ref)s placed. Your lots are reserved.") % {"ref": body["ref"]},
        first_success=lambda outcome: draft_clear(request),
        claim=False,  # the key is inserted finished by `finish_early`, before the stock lock (decision 0250)
    )


def _placed_outcome(order: Order) -> Outcome:
    return Outcome(303, {"redirect": reverse("orders:rental", args=[order.ref]), "ref": order.ref})


# What the payment badge of an order reads (`{% order_payment_status %}`, payments' `order_payment_badge`).
PAYMENT_BADGE_PREFETCH = ("intents__payments", "intents__chain_observations")


@login_required
@require_GET
def rentals(request: HttpRequest) -> HttpResponse:
    """My rentals: a page of rentals, newest first, with their payment and provisioning shown apart, and under each
    the extensions of its term with their own payment (an extension is an order, not another rental)."""
    user = _authenticated_user(request)
    page = page_from_request(request, rental_list_for(user))
    extensions = rental_extensions_attach(user, page.items)
    # The intents, their payments and what the chain watchers saw (for the payment badge: "Payment reported",
    # "Seen on chain", "In review") of the rentals and their extensions together: three queries, not three per order.
    prefetch_related_objects([*page.items, *extensions], *PAYMENT_BADGE_PREFETCH)
    return render(request, "orders/rentals.html", {"orders": page.items, "page": page})


def _rental_page(request: HttpRequest, order: Order, **extra: Any) -> HttpResponse:
    now = timezone.now()
    prefetch_related_objects([order], *PAYMENT_BADGE_PREFETCH)
    access = OrderAccess.objects.filter(order=order).first()
    # Access is shown to the owner only while the term runs; afterwards it is hidden again.
    running = (
        order.provisioning_status == ProvisioningStatus.READY
        and order.term_ends_at is not None
        and now < order.term_ends_at
    )
    # The last 24 hours, when the reminder email goes out: the page says the same (copy your files off now).
    ending_soon = running and order.term_ends_at is not None and order.term_ends_at - now <= TERM_END_NOTICE
    ended = order.provisioning_status == ProvisioningStatus.ENDED
    # Every extension, newest first: at most ORDERS_MAX_EXTENSIONS_PER_RENTAL (decision 0353).
    extensions = list(order.extensions.all())
    limit = settings.ORDERS_MAX_EXTENSIONS_PER_RENTAL
    full = running and not order.is_extension and len(extensions) >= limit
    context = {
        "order": order,
        "money": order_money([order], order_ledger_references([order]))[order.pk],
        "cancel_warning": order_cancel_warning(order) if order.payment_status == "awaiting_payment" else "",
        "history": order_history(order),
        "now": now,
        "access": access if running else None,
        "installed_keys": list(order.ssh_keys.all()) if running else [],
        "can_extend": running and not order.is_extension and not full,
        "extensions_full": TooManyExtensions(limit).message if full else "",
        "extensions_left": max(limit - len(extensions), 0),
        "extension_prices": [(term, order.gpu.lot_price(term) * order.lots) for term in Term] if running else [],
        "extensions": extensions,
        "machine_requests": order.machine_requests.all()[:5],
        "files_after_term": files_after_term_text(order) if ended else "",
        "ending_soon": ending_soon,
        **extra,
    }
    return render(request, "orders/rental_detail.html", context)


@login_required
@require_GET
def rental_detail(request: HttpRequest, ref: str) -> HttpResponse:
    return _rental_page(request, order_get_for(_authenticated_user(request), ref))


@login_required
@post_or_back(lambda request, ref: reverse("orders:rental", args=[ref]) + "#machine-heading")
def rental_reveal_secret(request: HttpRequest, ref: str) -> HttpResponse:
    """Show the one-time password once, in this response only (it is erased as it is shown)."""
    order = order_get_for(_authenticated_user(request), ref)
    if order.provisioning_status != ProvisioningStatus.READY:
        raise NotFound()
    secret = access_reveal_secret(order=order)
    if secret is None:
        messages.info(request, _("The one-time password was already shown. Ask support if you lost it."))
        return redirect("orders:rental", ref=order.ref)
    return _rental_page(request, order, revealed_secret=secret)  # never stored: PrivateResponseMiddleware


@login_required
@post_or_back(lambda request, ref: reverse("orders:rental", args=[ref]) + "#extend")
def rental_extend(request: HttpRequest, ref: str) -> HttpResponse:
    """Place an extension of a running rental, once per form (idempotency key), then go and pay it."""
    user = _authenticated_user(request)
    rental = order_get_for(user, ref)

    def extend() -> Outcome:
        try:
            term_days = int(request.POST.get("term", ""))
        except ValueError:
            raise InvalidRequest(_("Extend by 3, 7 or 30 days.")) from None
        extension = order_extension_place(rental=rental, owner=user, term_days=term_days)
        return Outcome(303, {"redirect": reverse("orders:rental", args=[extension.ref]), "ref": extension.ref})

    return form_action(
        request,
        extend,
        back=reverse("orders:rental", args=[rental.ref]) + "#extend",
        success=lambda body: (
            _("Extension order %(ref)s placed. Pay it before your current term ends to extend the term.")
            % {"ref": body["ref"]}
        ),
    )


@login_required
@require_POST
def rental_machine_request(request: HttpRequest, ref: str) -> HttpResponse:
    order = order_get_for(_authenticated_user(request), ref)

    def record() -> Outcome:
        machine_request_create(order=order, kind=request.POST.get("kind", ""), note=request.POST.get("note", ""))
        return Outcome(303, {"redirect": reverse("orders:rental", args=[order.ref])})

    back = reverse("orders:rental", args=[order.ref])
    return form_action(request, record, back=back, success=_("Request sent. Your term is not paused or extended."))


@login_required
@require_POST
def rental_cancel(request: HttpRequest, ref: str) -> HttpResponse:
    user = _authenticated_user(request)
    order = order_get_for(user, ref)

    def cancel() -> Outcome:
        confirmed = request.POST.get("confirm") == "yes"
        if not confirmed and order.payment_status == PaymentStatus.AWAITING_PAYMENT:
            # The page's form has a required checkbox: one tap on the button alone ends nothing, JavaScript or not.
            # A payment reported or received says what happens to it; otherwise only the tick is asked for.
            message = order_cancel_warning(order) or _("Tick the box to confirm that you want to cancel this order.")
            raise CancelNeedsConfirmation(message)
        order_cancel(order=order, actor=user, confirmed=confirmed)
        return Outcome(303, {"redirect": reverse("orders:rental", args=[order.ref])})

    success = _("Order %(ref)s was cancelled and its lots released.") % {"ref": order.ref}
    return form_action(request, cancel, back=reverse("orders:rental", args=[order.ref]), success=success)


@login_required
@require_GET
def rentals_csv(request: HttpRequest) -> HttpResponse:
    """The orders CSV at once for a short history; a longer one is prepared by the background worker, on the
    page it redirects to (decision 0430)."""
    return orders_csv_whole(order_list_for(_authenticated_user(request))) or redirect("exports:new", kind="rentals.csv")


@login_required
@require_GET
def rentals_printable(request: HttpRequest) -> HttpResponse:
    """A printable page of orders (newest first, "Older" links) and one of balance movements (`?lines=`): bounded
    whatever the history's length, like every list (gpurent/core/pagination.py); the CSV downloads hold it all."""
    page = page_from_request(
        request, order_list_for(_authenticated_user(request)).prefetch_related(*PAYMENT_BADGE_PREFETCH)
    )
    references = order_ledger_references(page.items)
    money = order_money(page.items, references)
    for order in page.items:
        order.ledger_references = references[order.pk]  # type: ignore[attr-defined]
        order.money = money[order.pk]  # type: ignore[attr-defined]
    context = {"orders": page.items, "page": page, "now": timezone.now()}
    return render(request, "orders/rentals_print.html", context)
