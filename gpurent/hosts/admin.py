"""GPU hosts in the back office (role `provisioning`): register a host (its key pinned and its inventory read,
as `manage.py hosts add`), see each host's health and free GPUs, drain or check hosts, and read every call
made to a host's agent. Rentals' accounts are shown on the provisioning desk and here, read-only."""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from gpurent.accounts.models import User
from gpurent.catalog.selectors import gpu_list
from gpurent.core.admin import ONCE_PER_KEY_CHANGE_LIST, BoundedListAdmin, ReadOnlyModelAdmin
from gpurent.core.errors import ApplicationError
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action

from .agent import shop_key_problem
from .models import GpuHost, HostOperation, HostRental
from .registry import HostSpec, host_add, host_drain
from .stock import free_gpus
from .work import hosts_check_task


def _operator(request: HttpRequest) -> User:
    # The admin only serves logged-in staff; this narrows the type for the services.
    return cast(User, request.user)


class HostAddForm(forms.Form):
    name = forms.SlugField(label=_("Name"), max_length=63, help_text=_("e.g. gpu-node-1"))
    address = forms.CharField(label=_("Address"), max_length=255, help_text=_("Host name or IP"))
    port = forms.IntegerField(label=_("SSH port"), initial=22, min_value=1, max_value=65535)
    user = forms.CharField(label=_("SSH user"), initial="root", max_length=32)
    gpu = forms.ChoiceField(label=_("GPU model"))
    gpus = forms.RegexField(
        label=_("GPU indices to rent out"), regex=r"^\d+(,\d+)*$", help_text=_("Comma-separated, e.g. 0,1,2,3")
    )
    fingerprint = forms.CharField(
        label=_("Expected host key fingerprint"),
        required=False,
        help_text=_("SHA256:… from ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub on the host (recommended)"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["gpu"].choices = [  # type: ignore[attr-defined]
            (gpu.slug, gpu.name) for gpu in gpu_list(include_off_sale=True)[:200]
        ]


@admin.register(GpuHost)
class GpuHostAdmin(BoundedListAdmin):
    list_display = ["name", "gpu", "health", "drained", "free", "where", "checked_at", "last_error"]
    list_filter = ["health", "drained", "gpu"]
    search_fields = ["name", "address"]
    list_select_related = ["gpu"]
    actions = ["drain", "undrain", "check_now"]
    change_list_template = ONCE_PER_KEY_CHANGE_LIST
    readonly_fields = [
        "name",
        "address",
        "port",
        "user",
        "gpu",
        "gpu_indices",
        "host_key",
        "host_key_fingerprint",
        "inventory",
        "health",
        "drained",
        "checked_at",
        "last_error",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[GpuHost]:
        return super().get_queryset(request).prefetch_related("allocations")  # the free GPUs of each row

    @admin.display(description=_("free GPUs"))
    def free(self, host: GpuHost) -> str:
        return f"{len(free_gpus(host))} / {len(host.gpu_indices)}"

    @admin.display(description=_("SSH"))
    def where(self, host: GpuHost) -> str:
        return f"{host.user}@{host.address}:{host.port}"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Viewable; every change goes through the actions (drain, check) or `manage.py hosts`.
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_urls(self) -> list[URLPattern]:
        guide = path("guide/", self.admin_site.admin_view(self.guide_view), name="hosts_gpuhost_guide")
        return [guide, *super().get_urls()]

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        # With no host at all, say what the shop does then (rentals by hand at the provisioning desk), and whether
        # the shop could reach a host at all (its own SSH key).
        notes: list[SafeString] = []
        problem = shop_key_problem()
        if problem:
            notes.append(
                format_html(
                    "<strong>{}</strong> {}", "The shop has no SSH key for its GPU hosts: it can reach none.", problem
                )
            )
        if not GpuHost.objects.exists():
            notes.append(
                format_html(
                    "<strong>No GPU hosts: paid rentals are provisioned by hand at the "
                    '<a href="{}">provisioning desk</a>.</strong> Register a host (its SSH key pinned, its GPUs '
                    "read) and the rentals of its GPU model are made ready on it with no one involved, and their "
                    'access removed at the term\'s end: <a href="{}">docs/hosts.md</a>.',
                    reverse("admin:backoffice_provisioningdesk_changelist"),
                    reverse("admin:hosts_gpuhost_guide"),
                )
            )
        return super().changelist_view(request, {**(extra_context or {}), "list_notes": notes})

    def guide_view(self, request: HttpRequest) -> HttpResponse:
        """docs/hosts.md, as the repository has it, for operators who have the back office but not the code."""
        if not self.has_view_permission(request):
            return HttpResponseRedirect(reverse("admin:index"))
        try:
            guide = (settings.BASE_DIR / "docs" / "hosts.md").read_text(encoding="utf-8")
        except OSError:
            guide = ""
        # One block per "## " section, each with the anchor GitHub would give its heading (#add-a-gpu-host).
        sections = [
            {"anchor": slugify(part.partition("\n")[0].lstrip("# ")) if index else "top", "text": part.strip()}
            for index, part in enumerate(re.split(r"^(?=## )", guide, flags=re.MULTILINE))
            if part.strip()
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": "GPU hosts: the guide (docs/hosts.md)",
            "sections": sections,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/hosts/guide.html", context)

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> HttpResponse:
        """Register a host as `manage.py hosts add` does: connect, pin the key, read the inventory."""
        if not self.has_add_permission(request):
            return HttpResponseRedirect(reverse("admin:hosts_gpuhost_changelist"))
        form = HostAddForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            spec = HostSpec(
                name=data["name"],
                address=data["address"].strip(),
                port=data["port"],
                user=data["user"].strip(),
                gpu_slug=data["gpu"],
                gpu_indices=tuple(int(part) for part in data["gpus"].split(",")),
                fingerprint=data["fingerprint"].strip(),
            )
            try:
                host = host_add(spec, actor=_operator(request))
            except ApplicationError as error:
                form.add_error(None, f"{error.message} {error.detail}".strip())
            else:
                messages.success(
                    request,
                    _("Host %(name)s registered, key %(fp)s pinned.")
                    % {"name": host.name, "fp": host.host_key_fingerprint},
                )
                return HttpResponseRedirect(reverse("admin:hosts_gpuhost_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Add a GPU host"),
            "form": form,
            "shop_key_problem": shop_key_problem(),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/hosts/host_add.html", context)

    def _each(self, request: HttpRequest, queryset: QuerySet[GpuHost], step: Any, done: str) -> HttpResponse:
        def act() -> Outcome:
            hosts = list(queryset[:100])
            for host in hosts:
                step(host)
            return Outcome(200, {"message": done % {"count": len(hosts)}})

        return form_action(request, act, back=request.get_full_path())

    @admin.action(description=_("Drain: take no new rentals"))
    def drain(self, request: HttpRequest, queryset: QuerySet[GpuHost]) -> HttpResponse:
        return self._each(
            request,
            queryset,
            lambda host: host_drain(host, actor=_operator(request)),
            str(_("%(count)d hosts drained.")),
        )

    @admin.action(description=_("Take rentals again"))
    def undrain(self, request: HttpRequest, queryset: QuerySet[GpuHost]) -> HttpResponse:
        return self._each(
            request,
            queryset,
            lambda host: host_drain(host, drained=False, actor=_operator(request)),
            str(_("%(count)d hosts take rentals.")),
        )

    @admin.action(description=_("Check now (read the inventory)"))
    def check_now(self, request: HttpRequest, queryset: QuerySet[GpuHost]) -> HttpResponse:
        """Queue the checks for the worker (an SSH call per host has no place in a request), once per key."""

        def act() -> Outcome:
            ids = list(queryset.values_list("pk", flat=True)[:100])
            transaction.on_commit(lambda: hosts_check_task.enqueue(ids))
            message = _("%(count)d hosts will be checked in a moment; reload this list to see their health.")
            return Outcome(200, {"message": str(message) % {"count": len(ids)}})

        return form_action(request, act, back=request.get_full_path())


@admin.register(HostRental)
class HostRentalAdmin(ReadOnlyModelAdmin):
    list_display = [
        "username",
        "order",
        "host",
        "gpu_indices",
        "state",
        "attempts",
        "next_attempt_at",
        "host_expires_on",
        "last_error",
    ]
    list_filter = ["state", "host"]
    search_fields = ["username", "order__ref"]
    list_select_related = ["order", "host"]


@admin.register(HostOperation)
class HostOperationAdmin(ReadOnlyModelAdmin):
    list_display = ["started_at", "host", "rental", "operation", "arguments", "ok", "exit_code", "duration_ms", "error"]
    list_filter = ["ok", "operation", "host"]
    search_fields = ["rental__username", "error"]
    list_select_related = ["host", "rental"]
    date_hierarchy = "started_at"
