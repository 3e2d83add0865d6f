"""The journal pages: entries, an entry with its runs, a run, comparing two runs, and the exports."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from gpurent.accounts.owners import Owner, owner_for
from gpurent.core.errors import ApplicationError, NotFound
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action
from gpurent.core.pagination import page_from_request

from .comparison import runs_compare
from .errors import JournalInputInvalid
from .export import entry_document, entry_markdown, journal_whole
from .forms import EntryForm, RunForm
from .models import JournalEntry
from .observations import estimated_peak, observed_peak, peak_check
from .selectors import (
    entry_get_for,
    entry_head_for,
    entry_list_for,
    entry_runs,
    estimate_choices_for,
    order_choices_for,
    run_choices,
    run_get,
)
from .services import entry_create, run_create

# Runs in one page of an entry's runs table (decision 0315).
RUNS_PER_PAGE = 50


@require_GET
def journal_index(request: HttpRequest) -> HttpResponse:
    """The owner's entries, newest first, with the whole-journal exports."""
    owner = owner_for(request)
    page = page_from_request(request, entry_list_for(owner))
    context = {"entries": page.items, "page": page, "is_guest": owner.user is None}
    return render(request, "journal/index.html", context)


def _entry_form(owner: Owner, data: Any = None, initial: dict[str, Any] | None = None) -> EntryForm:
    return EntryForm(
        data,
        initial=initial,
        estimates=list(estimate_choices_for(owner)),
        orders=list(order_choices_for(owner)),
    )


@require_http_methods(["GET", "POST"])
def entry_create_view(request: HttpRequest) -> HttpResponse:
    """A new entry; `?estimate=<id>` (from a saved estimate) and `?rental=<ref>` preselect the links."""
    owner = owner_for(request, create=request.method == "POST")
    if request.method == "GET":
        initial = {"estimate": request.GET.get("estimate", ""), "rental": request.GET.get("rental", "")}
        form = _entry_form(owner, initial=initial)
        return render(request, "journal/entry_form.html", {"form": form, "is_guest": owner.user is None})
    form = _entry_form(owner, request.POST)
    if form.is_valid():

        def create() -> Outcome:
            entry = entry_create(owner=owner, draft=form.to_draft())
            return Outcome(303, {"redirect": reverse("journal:entry", args=[entry.public_id])})

        def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
            field = error.field if isinstance(error, JournalInputInvalid) and error.field in form.fields else None
            form.add_error(field, message)
            context = {"form": form, "is_guest": owner.user is None}
            return render(request, "journal/entry_form.html", context, status=status)

        success = _("Entry opened. Add a run when you have one.")
        return form_action(request, create, back=request.path, success=success, on_error=failed)
    context = {"form": form, "is_guest": owner.user is None}
    return render(request, "journal/entry_form.html", context, status=422)


@require_GET
def entry_detail(request: HttpRequest, entry_id: uuid.UUID) -> HttpResponse:
    """An entry and one page of its runs, newest first, with "Older" links (decision 0315); the compare form
    lists every run by number and name (at most `JOURNAL_MAX_RUNS_PER_ENTRY`)."""
    entry = entry_head_for(owner_for(request), entry_id)
    page = page_from_request(request, entry_runs(entry), size=RUNS_PER_PAGE, key=("-number",))
    for run in page.items:
        run.entry = entry
    rows = [(run, observed_peak(run), peak_check(run)) for run in page.items]
    choices = list(run_choices(entry))
    context = {"entry": entry, "rows": rows, "estimate": estimated_peak(entry.estimate), "runs": choices, "page": page}
    return render(request, "journal/entry_detail.html", context)


@require_http_methods(["GET", "POST"])
def run_create_view(request: HttpRequest, entry_id: uuid.UUID) -> HttpResponse:
    """A new run, prefilled from the entry's last run so that changing one variable changes one field."""
    entry = entry_get_for(owner_for(request), entry_id)
    runs = list(entry.runs.all())
    if request.method == "GET":
        form = RunForm(initial=RunForm.initial_from(runs[-1] if runs else None))
        return render(request, "journal/run_form.html", {"entry": entry, "form": form, "previous": runs[-1:]})
    form = RunForm(request.POST)
    if form.is_valid():

        def create() -> Outcome:
            run = run_create(entry=entry, draft=form.to_draft())
            return Outcome(303, {"redirect": reverse("journal:run", args=[entry.public_id, run.public_id])})

        def failed(message: str, status: int, error: ApplicationError | None) -> HttpResponse:
            form.add_error(form.field_for(error.field) if isinstance(error, JournalInputInvalid) else None, message)
            context = {"entry": entry, "form": form, "previous": runs[-1:]}
            return render(request, "journal/run_form.html", context, status=status)

        return form_action(request, create, back=request.path, success=_("Run recorded."), on_error=failed)
    context = {"entry": entry, "form": form, "previous": runs[-1:]}
    return render(request, "journal/run_form.html", context, status=422)


@require_GET
def run_detail(request: HttpRequest, entry_id: uuid.UUID, run_id: uuid.UUID) -> HttpResponse:
    entry = entry_get_for(owner_for(request), entry_id)
    run = run_get(entry, run_id)
    run.entry = entry
    measurements = {m.phase: m for m in run.measurements.all()}
    runs = list(entry.runs.all())
    previous = next((other for other in reversed(runs) if other.number < run.number), None)
    context = {
        "entry": entry,
        "run": run,
        "first": measurements.get("first"),
        "steady": measurements.get("steady"),
        "estimate": estimated_peak(entry.estimate),
        "observed": observed_peak(run),
        "check": peak_check(run),
        "previous": previous,
        "run_pairs": [
            (_("Parameters"), run.parameters),
            (_("Library versions"), run.versions),
            (_("Seeds"), run.seeds),
            (_("Determinism settings"), run.determinism),
        ],
    }
    return render(request, "journal/run_detail.html", context)


@require_GET
def runs_compare_view(request: HttpRequest, entry_id: uuid.UUID) -> HttpResponse:
    """Two runs of the entry side by side: `?a=<run id>&b=<run id>` (defaults: the last two runs)."""
    entry = entry_get_for(owner_for(request), entry_id)
    runs = list(entry.runs.all())
    if len(runs) < 2:
        messages.info(request, _("Record at least two runs to compare them."))
        return redirect("journal:entry", entry_id=entry.public_id)
    try:
        a = run_get(entry, request.GET["a"]) if request.GET.get("a") else runs[-2]
        b = run_get(entry, request.GET["b"]) if request.GET.get("b") else runs[-1]
    except NotFound:
        messages.error(request, _("Choose two runs of this entry."))
        return redirect("journal:entry", entry_id=entry.public_id)
    comparison = runs_compare(a, b) if a.pk != b.pk else None
    context = {"entry": entry, "runs": runs, "a": a, "b": b, "comparison": comparison}
    return render(request, "journal/compare.html", context)


# The standalone client ships with the shop, so customers download the version that matches this API.
CLIENT_PATH = settings.BASE_DIR / "tools" / "gpurent_journal.py"


@require_GET
def client_download(request: HttpRequest) -> HttpResponse:
    """The journal client, one file to copy to the rented machine."""
    return _download(CLIENT_PATH.read_text(), "text/x-python", "gpurent_journal.py")


def _download(content: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _entry_filename(entry: JournalEntry, extension: str) -> str:
    return f"journal-entry-{entry.public_id}.{extension}"


@require_GET
def entry_export_md(request: HttpRequest, entry_id: uuid.UUID) -> HttpResponse:
    entry = entry_get_for(owner_for(request), entry_id)
    return _download(entry_markdown(entry), "text/markdown", _entry_filename(entry, "md"))


@require_GET
def entry_export_json(request: HttpRequest, entry_id: uuid.UUID) -> HttpResponse:
    entry = entry_get_for(owner_for(request), entry_id)
    content = json.dumps(entry_document(entry), cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)
    return _download(content, "application/json", _entry_filename(entry, "json"))


@require_GET
def journal_export_md(request: HttpRequest) -> HttpResponse:
    """The whole journal as Markdown at once when it is short; a longer one is prepared by the background worker,
    on the page it redirects to (decision 0430)."""
    response = journal_whole(owner_for(request), "md", f"journal-{timezone.now():%Y-%m-%d}.md")
    return response or redirect("exports:new", kind="journal.md")


@require_GET
def journal_export_json(request: HttpRequest) -> HttpResponse:
    """The whole journal as JSON, as `journal_export_md` does."""
    response = journal_whole(owner_for(request), "json", f"journal-{timezone.now():%Y-%m-%d}.json")
    return response or redirect("exports:new", kind="journal.json")
