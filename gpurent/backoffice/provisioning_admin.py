"""The provisioning desk: paid orders to provision (role `provisioning`, permission
`backoffice.provision_order`), and the customers' machine requests.

Each step calls `gpurent.orders.provisioning`, which checks the rules, writes the audit row and queues the
emails in one transaction. Split from `admin.py` to keep modules short (decision 0216).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Case, F, IntegerField, QuerySet, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from gpurent.core.admin import ONCE_PER_KEY_CHANGE_LIST, BoundedListAdmin, customer_language_html, email_html
from gpurent.core.errors import InvalidRequest
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.hosts.enums import HostHealth
from gpurent.hosts.models import HostOperation, HostRental
from gpurent.orders.access_details import AccessGiven, access_given
from gpurent.orders.access_removal import access_removed_mark, needs_access_removed
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus
from gpurent.orders.machine_requests import machine_requests_mark_handled
from gpurent.orders.models import MachineRequest, OrderSshKey, ProvisioningRun
from gpurent.orders.provisioning import AccessDetails, order_authorized_keys
from gpurent.orders.provisioning_steps import (
    CORRECT,
    FAILED,
    JUPYTER_ENVIRONMENTS,
    READY,
    STEP_LABELS,
    provision_step,
    provisioning_no_step,
    provisioning_step_refusal,
    provisioning_steps,
)

from .admin import DeskAdmin, NeedsActionFilter, _operator, _with_zone
from .models import ProvisioningDesk


class ProvisionForm(forms.Form):
    """The next step of one paid rental: only the steps that apply to its state (`provisioning_steps`), and only the
    fields those steps take; the Jupyter URL only for an image that has Jupyter."""

    action = forms.ChoiceField(label=_("Step"))
    host = forms.CharField(label=_("SSH host"), required=False, max_length=255)
    port = forms.IntegerField(label=_("SSH port"), required=False, initial=22, min_value=1, max_value=65535)
    username = forms.CharField(label=_("SSH user"), required=False, max_length=64)
    public_key = forms.CharField(
        label=_("Other public key installed"),
        required=False,
        widget=forms.Textarea,
        help_text=_(
            "Leave empty when the customer's chosen keys (above) were installed. One OpenSSH public key a line, "
            "checked as the account page checks a customer's key."
        ),
    )
    one_time_secret = forms.CharField(
        label=_("Or a one-time password (shown once to the customer)"), required=False, widget=forms.PasswordInput
    )
    jupyter_url = forms.CharField(
        label=_("Jupyter URL with its token"), required=False, max_length=500, widget=forms.PasswordInput
    )
    reason = forms.CharField(label=_("Reason (for a failure, told to the customer)"), required=False, max_length=200)

    def __init__(self, data: Any, *, order: Any, current: AccessGiven | None) -> None:
        super().__init__(data)
        steps = provisioning_steps(order)
        cast(forms.ChoiceField, self.fields["action"]).choices = [(step, STEP_LABELS[step]) for step in steps]
        gives_access = bool({READY, CORRECT} & set(steps))
        dropped = [] if gives_access else ["host", "port", "username", "public_key", "one_time_secret", "jupyter_url"]
        if order.environment not in JUPYTER_ENVIRONMENTS:
            dropped.append("jupyter_url")
        if FAILED not in steps:
            dropped.append("reason")
        for name in dropped:
            self.fields.pop(name, None)
        if CORRECT in steps and current is not None:
            # A correction starts from what was given; the secrets are never sent back to the page.
            self.fields["host"].initial, self.fields["port"].initial = current.host, current.port
            self.fields["username"].initial = current.username
            kept = _("Left empty with the password, the login given before is kept (%(login)s).") % {
                "login": current.login
            }
            self.fields["public_key"].help_text = kept
            if "jupyter_url" in self.fields:
                self.fields["jupyter_url"].help_text = _("Left empty, the Jupyter URL given before is kept.")


def _access(data: dict[str, Any]) -> AccessDetails:
    return AccessDetails(
        data.get("host") or "",
        data.get("port") or 22,
        data.get("username") or "",
        data.get("public_key") or "",
        data.get("one_time_secret") or "",
        data.get("jupyter_url") or "",
    )


def _access_checked(form: ProvisionForm, order: Any) -> bool:
    """For "ready" and "correct", the access details pass the service's own checks, else the form shows why and
    keeps what the operator typed (refused after the redirect, the page came back empty with "Start preparing"
    selected)."""
    step = form.cleaned_data["action"]
    if step not in (READY, CORRECT):
        return True
    access = _access(form.cleaned_data)
    login_kept = step == CORRECT and not (access.public_key.strip() or access.one_time_secret)
    try:
        access.validated(order_keys=order_authorized_keys(order), login_kept=login_kept)
    except InvalidRequest as error:
        form.add_error(None, error.message)
        return False
    return True


def _page_title(order: Any) -> str:
    """The page's title says what the rental is now: to provision, running, ended or failed (an ended rental was
    still titled "Provision order")."""
    titles = {
        ProvisioningStatus.NOT_STARTED: _("Provision order %(ref)s"),
        ProvisioningStatus.PREPARING: _("Provision order %(ref)s"),
        ProvisioningStatus.READY: _("Running rental %(ref)s"),
        ProvisioningStatus.ENDED: _("Ended rental %(ref)s"),
        ProvisioningStatus.FAILED: _("Failed order %(ref)s"),
    }
    return str(titles[order.provisioning_status]) % {"ref": order.ref}


class ProvisioningQueueFilter(NeedsActionFilter):
    """The desk's queue: what needs an operator (by default), only the ended rentals whose access is still to remove
    from their machine (oldest term end first), or everything."""

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("action", _("Needs action")), ("access", _("Access to remove")), ("all", _("All"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "access":
            return queryset.filter(desk_rank=ProvisioningDesk.DESK_RANK_ACCESS_TO_REMOVE)
        return super().queryset(request, queryset)


@admin.register(ProvisioningDesk)
class ProvisioningDeskAdmin(DeskAdmin):
    action_permission = "backoffice.provision_order"
    rows_noun = ("order to provision", "orders to provision")
    all_rows_noun = ("order", "orders")
    queue_nouns = {"access": ("order with access to remove", "orders with access to remove")}
    list_display = [
        "ref",
        "owner_email",
        "gpu",
        "lots",
        "cards",
        "environment",
        "provisioning_status",
        "host",
        "paid",
        "term_ends",
    ]
    list_filter = [ProvisioningQueueFilter, "provisioning_status", "gpu"]
    desk_ordering = ("desk_rank", "paid_at")
    search_fields = ["ref", "owner__email"]
    list_select_related = ["owner", "gpu", "host_rental__host"]

    def get_ordering(self, request: HttpRequest) -> list[str]:
        if request.GET.get(ProvisioningQueueFilter.parameter_name) == "access":
            return ["term_ends_at", "pk"]  # the access left open longest first
        return super().get_ordering(request)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        order = Case(
            When(provisioning_status=ProvisioningStatus.NOT_STARTED, then=Value(0)),
            When(provisioning_status=ProvisioningStatus.PREPARING, then=Value(1)),
            # As `access_to_remove` selects them: ended without a GPU host, access not marked removed yet.
            When(
                provisioning_status=ProvisioningStatus.ENDED,
                host_rental__isnull=True,
                access_removed_at__isnull=True,
                then=Value(ProvisioningDesk.DESK_RANK_ACCESS_TO_REMOVE),
            ),
            When(provisioning_status=ProvisioningStatus.READY, then=Value(3)),
            default=Value(4),
            output_field=IntegerField(),
        )
        # Extensions need no machine (paying one moves its rental's term end): not on this desk.
        queryset = self.base_queryset().filter(payment_status=PaymentStatus.PAID, extends__isnull=True)
        return queryset.annotate(desk_rank=order).order_by(*self.desk_ordering)

    @admin.display(description=_("GPU host"))
    def host(self, order: Any) -> str:
        """Where a host-managed rental runs: host, GPU indices, account state; flagged when the host is down."""
        rental = getattr(order, "host_rental", None)
        if rental is None:
            return "—"
        if rental.host is None:
            return f"{rental.get_state_display()} ({rental.attempts})"
        flag = "" if rental.host.health == HostHealth.HEALTHY else f" ⚠ {rental.host.get_health_display()}"
        gpus = ",".join(map(str, rental.gpu_indices))
        return f"{rental.host.name} [{gpus}] {rental.get_state_display()}{flag}"

    @admin.display(description=_("paid"), ordering="paid_at")
    def paid(self, order: Any) -> str:
        return _with_zone(order.paid_at)

    @admin.display(description=_("term ends"), ordering="term_ends_at")
    def term_ends(self, order: Any) -> str:
        return _with_zone(order.term_ends_at)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> HttpResponse:
        order = get_object_or_404(self.get_queryset(request), pk=object_id)
        if not self.has_view_permission(request, order):
            raise PermissionDenied
        current = access_given(order)
        form = ProvisionForm(request.POST or None, order=order, current=current)
        language = customer_language_html(order.owner)
        if "reason" in form.fields:
            # A failure's reason reaches the customer as typed (the order's history on the rental page): the operator
            # writes it in the customer's language, or leaves it empty for the standard sentence, which is translated.
            form.fields["reason"].help_text = format_html(
                "{} {} {}",
                _("Customer's language:"),
                language,
                _("Left empty, the customer reads “could not be provided” in their language."),
            )
        if request.method == "POST" and request.POST.get("action") == "access_removed":
            if self.may_act(request):
                return self._access_removed(request, order)
            messages.error(request, _("Your role cannot provision orders."))
        elif request.method == "POST":
            step = request.POST.get("action", "")
            if not self.may_act(request):
                messages.error(request, _("Your role cannot provision orders."))
            elif provisioning_step_refusal(order, step) is not None:
                # A step that does not apply to the order as it is now (a page opened before it moved): through the
                # idempotent action all the same, so that a double submit replays its first answer; a new one is
                # refused by `provision_step`, naming the order's state and what applies.
                return self._act(request, order, {"action": step})
            elif form.is_valid() and _access_checked(form, order):
                return self._act(request, order, form.cleaned_data)
        status = order.provisioning_status
        context = {
            **self.admin_site.each_context(request),
            "title": _page_title(order),
            "order": order,
            "form": form,
            "may_act": self.may_act(request),
            "customer_language": language,
            "runs": ProvisioningRun.objects.filter(order=order)[:5],
            # The keys to put on the machine, while it is being prepared; afterwards "Access given" says which are.
            "ssh_keys": OrderSshKey.objects.filter(order=order),
            "keys_to_install": status in (ProvisioningStatus.NOT_STARTED, ProvisioningStatus.PREPARING),
            "access": current,
            "requests": MachineRequest.objects.filter(order=order)[:10],
            "host_rental": HostRental.objects.select_related("host").filter(order=order).first(),
            "host_operations": HostOperation.objects.filter(rental__order=order)[:5],
            "access_to_remove": needs_access_removed(order),
            "no_step": provisioning_no_step(order),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "backoffice/provision_order.html", context)

    def _act(self, request: HttpRequest, order: Any, data: dict[str, Any]) -> HttpResponse:
        """Take the chosen step through `provisioning_steps.provision_step` (the command's rules too), once per the
        page's idempotency key (a double submit acts once)."""
        done = reverse("admin:backoffice_provisioningdesk_changelist")

        def act() -> Outcome:
            step = data["action"]
            provision_step(
                order=order, step=step, actor=_operator(request), access=_access(data), reason=data.get("reason") or ""
            )
            if step == CORRECT:
                message = str(_("Access details of %(ref)s corrected; the customer is e-mailed.")) % {"ref": order.ref}
            else:
                message = str(_("Order %(ref)s updated.")) % {"ref": order.ref}
            return Outcome(200, {"message": message, "redirect": request.path if step == CORRECT else done})

        return form_action(request, act, back=request.path)

    def _access_removed(self, request: HttpRequest, order: Any) -> HttpResponse:
        """Record that the operator removed the customer's access from the machine, once per the page's key."""

        def act() -> Outcome:
            access_removed_mark(order=order, actor=_operator(request))
            message = str(_("Access of %(ref)s marked removed.")) % {"ref": order.ref}
            return Outcome(200, {"message": message, "redirect": self._access_queue_url()})

        return form_action(request, act, back=request.path)

    @staticmethod
    def _access_queue_url() -> str:
        return reverse("admin:backoffice_provisioningdesk_changelist") + "?queue=access"


class OpenRequestsFilter(NeedsActionFilter):
    """The requests an operator still has to carry out, by default; "Handled" and "All" show the history."""

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("open", _("Open")), ("handled", _("Handled")), ("all", _("All"))]

    def value(self) -> str:
        return admin.SimpleListFilter.value(self) or "open"

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "all":
            return queryset
        return queryset.filter(handled_at__isnull=self.value() != "handled")


@admin.register(MachineRequest)
class MachineRequestAdmin(BoundedListAdmin):
    """The customers' stop and restart requests as a desk: the open ones first and oldest first, each linked to its
    rental's page at the provisioning desk (where its machine's access is), marked handled from the list. Operators
    are e-mailed each request a person must carry out (`orders.machine_requests`); a host's agent handles its own."""

    list_display = ["requested", "rental", "customer", "kind", "note", "handled"]
    list_display_links = None  # a request is not edited: its rental's desk page is the link
    list_filter = [OpenRequestsFilter, "kind"]
    search_fields = ["order__ref", "order__owner__email", "note"]
    list_select_related = ["order__owner"]
    readonly_fields = ["order", "kind", "note", "created_at", "handled_at"]
    actions = ["mark_handled"]
    change_list_template = ONCE_PER_KEY_CHANGE_LIST

    class Media:
        css = {"all": ["backoffice/desk.css"]}
        js = ["backoffice/desk_cards.js"]  # each cell's heading, for the cards on a phone

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        return [F("handled_at").desc(nulls_first=True), "created_at", "id"]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # The desk's name, not Django's "Select machine request to change".
        title = capfirst(self.model._meta.verbose_name_plural)
        return super().changelist_view(request, {"title": title, **(extra_context or {})})

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # only a customer makes one, from the rental's page

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # The list's "Mark as handled" needs the change permission; a request itself is only read.
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("requested"), ordering="created_at")
    def requested(self, item: MachineRequest) -> str:
        return _with_zone(item.created_at)

    @admin.display(description=_("handled"), ordering="handled_at")
    def handled(self, item: MachineRequest) -> str:
        return _with_zone(item.handled_at)

    @admin.display(description=_("rental"), ordering="order__ref")
    def rental(self, item: MachineRequest) -> str:
        url = reverse("admin:backoffice_provisioningdesk_change", args=[item.order_id])
        return format_html('<a href="{}"><span class="ref">{}</span></a>', url, item.order.ref)

    @admin.display(description=_("customer"), ordering="order__owner__email")
    def customer(self, item: MachineRequest) -> str:
        return email_html(item.order.owner.email)

    @admin.action(description=_("Mark as handled"), permissions=["change"])
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[MachineRequest]) -> HttpResponse:
        """Mark the selected requests handled (each audited), once per the list page's idempotency key
        (`change_list.html`)."""

        def act() -> Outcome:
            ids = list(queryset.values_list("pk", flat=True))
            count = machine_requests_mark_handled(request_ids=ids, actor=_operator(request))
            return Outcome(200, {"message": ngettext("%d request handled.", "%d requests handled.", count) % count})

        return form_action(request, act, back=request.get_full_path())
