"""The prepared downloads' pages: ask for a file, watch it being written, download it."""

from __future__ import annotations

import uuid

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from gpurent.accounts.owners import owner_for
from gpurent.core.errors import NotFound
from gpurent.core.htmx import HtmxHttpRequest
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action

from .errors import ExportNotReady
from .files import export_file_response
from .kinds import KINDS
from .selectors import export_get_for, exports_of
from .services import export_request
from .writing import PROGRESS_SECONDS

# How often the export's page asks how far the worker is.
POLL_SECONDS = max(2, int(PROGRESS_SECONDS))


@require_http_methods(["GET", "POST"])
def export_new(request: HttpRequest, kind: str) -> HttpResponse:
    """What the file holds and a button that has it prepared (the download links of a long history lead here);
    the owner's current file of this kind, if any, is linked."""
    spec = KINDS.get(kind)
    if spec is None:
        raise NotFound()
    if not spec.for_guests and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    owner = owner_for(request, create=request.method == "POST")
    if request.method != "POST":
        current = exports_of(owner).filter(kind=kind).first()
        return render(request, "exports/new.html", {"spec": spec, "kind": kind, "current": current})

    def prepare() -> Outcome:
        export = export_request(owner=owner, kind=kind, language=get_language())
        return Outcome(303, {"redirect": reverse("exports:detail", args=[export.public_id])})

    return form_action(request, prepare, back=request.path)


@require_GET
def export_detail(request: HtmxHttpRequest, export_id: uuid.UUID) -> HttpResponse:
    """The export's state and progress; while it is written, the progress part asks again every POLL_SECONDS."""
    export = export_get_for(owner_for(request), export_id)
    context = {"export": export, "spec": KINDS[export.kind], "poll_seconds": POLL_SECONDS}
    template = "exports/partials/progress.html" if request.htmx else "exports/export.html"
    return render(request, template, context)


@require_GET
def export_file(request: HttpRequest, export_id: uuid.UUID) -> HttpResponseBase:
    """The file, or a range of it; an export that is not ready sends the customer to its page."""
    export = export_get_for(owner_for(request), export_id)
    try:
        return export_file_response(request, export)
    except ExportNotReady:
        return redirect("exports:detail", export_id=export.public_id)
