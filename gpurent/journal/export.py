"""An entry, or the whole journal, as a JSON document and as Markdown (downloads and the API).
The Markdown is written in the active language (the customer's); the JSON keeps stable keys.

The whole journal grows with the customer's history, so it is written one keyset page of entries at a time
(`selectors.journal_pages_for_export`, a fixed number of queries a page) into the same bytes the whole document
would have been (decision 0290), each page freed by reference counting once the next is read (decision 0325).
A short journal is answered at once, with its length and digest; a longer one is written by the background
worker into a stored file (`gpurent.exports`, decision 0430). One entry is a bounded document and is written whole.

The JSON shape of an entry is the API's (`api.EntryOut`). Estimates and observations stay apart here too:
an estimate carries `"kind": "estimate"` and is only ever the entry's linked estimate; measurements carry
`"kind": "observation"`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, Literal

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from gpurent.accounts.owners import Owner
from gpurent.core.downloads import Pieces, count_up_to, download_whole
from vramcalc.units import format_bytes

from .enums import Phase
from .models import JournalEntry, Measurement, Run
from .observations import peak_check
from .selectors import entry_list_for, journal_pages_for_export

__all__ = [
    "FORMAT",
    "JOURNAL_DIRECT_MAX",
    "entry_data",
    "entry_document",
    "entry_markdown",
    "journal_json",
    "journal_markdown",
    "journal_pieces",
    "journal_rows",
    "journal_whole",
    "run_data",
]

FORMAT = "gpurent-journal/1"


def _measurement_data(m: Measurement | None) -> dict[str, Any] | None:
    if m is None:
        return None
    return {
        "kind": "observation",
        "peak_bytes_per_gpu": list(m.peak_bytes_per_gpu),
        "peak_bytes": m.peak_bytes,
        "peak_source": m.peak_source,
        "throughput": m.throughput,
        "throughput_unit": m.throughput_unit,
        "latency_ms": m.latency_ms,
        "quality_metric": m.quality_metric,
        "quality_value": m.quality_value,
    }


def _web_url(path: str, absolute: bool) -> str:
    """The page's address: the path, as the API has always answered it (clients such as `tools/gpurent_journal.py`
    put the shop's address before it), or the whole URL on the shop's address (`SITE_URL`, as e-mails link),
    for the exported documents, which are read away from the site (QA2 #22)."""
    return settings.SITE_URL.rstrip("/") + path if absolute else path


def run_data(run: Run, *, absolute: bool = False) -> dict[str, Any]:
    """A run as the API and the JSON export show it (its entry and measurements loaded); `absolute`: its
    `web_url` a whole URL (the export) rather than a path (the API)."""
    by_phase = {m.phase: m for m in run.measurements.all()}
    check = peak_check(run)
    return {
        "id": str(run.public_id),
        "entry_id": str(run.entry.public_id),
        "number": run.number,
        "name": run.name,
        "code_version": run.code_version,
        "environment": run.environment,
        "versions": run.versions,
        "parameters": run.parameters,
        "seeds": run.seeds,
        "determinism": run.determinism,
        "reproducibility": run.reproducibility,
        "tolerance": run.tolerance,
        "outcome": run.outcome,
        "failure": run.failure,
        "checkpoint": run.checkpoint,
        "first": _measurement_data(by_phase.get("first")),
        "steady": _measurement_data(by_phase.get("steady")),
        "conclusion": run.conclusion,
        "estimate_check": None
        if check is None
        else {
            "estimated_peak_bytes": check.estimated.bytes,
            "observed_peak_bytes": check.observed.bytes,
            "observed_phase": check.observed.phase,
            "error_bytes": check.error_bytes,
            "error_pct": round(check.error_pct, 2),
        },
        "created_at": run.created_at.isoformat(),
        "web_url": _web_url(reverse("journal:run", args=[run.entry.public_id, run.public_id]), absolute),
    }


def _entry_fields(entry: JournalEntry) -> dict[str, Any]:
    estimate = entry.estimate
    return {
        "id": str(entry.public_id),
        "question": entry.question,
        "hypothesis": entry.hypothesis,
        "metrics": entry.metrics,
        "stop_criterion": entry.stop_criterion,
        "rental": entry.order.ref if entry.order else None,
        "estimate": None
        if estimate is None
        else {
            "kind": "estimate",
            "id": str(estimate.public_id),
            "title": estimate.title_text,
            "peak_bytes": estimate.peak_bytes,
            "engine_version": estimate.engine_version,
            "computed_at": estimate.created_at.isoformat(),
        },
        "created_at": entry.created_at.isoformat(),
    }


def _runs_data(entry: JournalEntry, runs: list[Run], absolute: bool) -> list[dict[str, Any]]:
    for run in runs:
        run.entry = entry  # the prefetched runs point at this very entry: no query per run
    return [run_data(run, absolute=absolute) for run in runs]


def entry_data(entry: JournalEntry, *, absolute: bool = False) -> dict[str, Any]:
    """An entry with all its runs (at most `JOURNAL_MAX_RUNS_PER_ENTRY`), as one entry in the API and the JSON
    export show it; `absolute`: the `web_url`s whole URLs (the export) rather than paths (the API)."""
    runs = list(entry.runs.all())
    web_url = _web_url(reverse("journal:entry", args=[entry.public_id]), absolute)
    runs_data = _runs_data(entry, runs, absolute)
    return {**_entry_fields(entry), "run_count": len(runs), "runs": runs_data, "web_url": web_url}


def entry_document(entry: JournalEntry, *, now: datetime | None = None) -> dict[str, Any]:
    """One entry as an exported JSON document: its links are whole URLs."""
    exported = (now or timezone.now()).isoformat()
    return {"format": FORMAT, "exported_at": exported, "entry": entry_data(entry, absolute=True)}


# An entry of the "entries" list sits two levels deep in a document indented by 2.
_ENTRY_INDENT = " " * 4


def _json(value: dict[str, Any], ensure_ascii: bool) -> str:
    return json.dumps(value, cls=DjangoJSONEncoder, indent=2, ensure_ascii=ensure_ascii)


def journal_json(
    pages: Iterable[list[JournalEntry]], *, ensure_ascii: bool, now: datetime | None = None
) -> Iterator[str]:
    """The whole journal (`pages` of entries, oldest first) as one JSON document, `{"format", "exported_at",
    "entries": [...]}` indented by 2, written a page at a time: the same text as `json.dumps` of the whole
    document with these options, without holding more than one page."""
    envelope = {"format": FORMAT, "exported_at": (now or timezone.now()).isoformat(), "entries": []}
    # "entries" is the envelope's last key, so its empty list is the last "[]" of the text.
    head, tail = _json(envelope, ensure_ascii).rsplit("[]", 1)
    yield head + "["
    separator = "\n"
    for page in pages:
        parts = []
        for entry in page:
            lines = _json(entry_data(entry, absolute=True), ensure_ascii).split("\n")
            parts.append(separator + "\n".join(_ENTRY_INDENT + line for line in lines))
            separator = ",\n"
        yield "".join(parts)
    yield ("]" if separator == "\n" else "\n  ]") + tail


def _cell(value: object) -> str:
    """A table cell: pipes and line breaks would break the Markdown table."""
    text = "—" if value is None or value == "" else str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _block(title: str, text: str) -> list[str]:
    return [f"**{title}:** {text.strip()}", ""] if text.strip() else []


def _pairs(title: str, pairs: dict[str, str]) -> list[str]:
    if not pairs:
        return []
    return [f"**{title}:** " + ", ".join(f"`{key}={value}`" for key, value in pairs.items()), ""]


def _bytes(value: int | None) -> str:
    return format_bytes(value) if value is not None else "—"


def _item(label: str, value: object) -> str:
    return f"- {label}: {value}"


def _run_markdown(run: Run, level: str) -> list[str]:
    lines = [f"{level} " + _("Run %(number)s: %(name)s") % {"number": run.number, "name": run.name}, ""]
    lines += [
        _item(_("Recorded"), f"{run.created_at:%Y-%m-%d %H:%M} UTC"),
        _item(_("Outcome"), run.get_outcome_display()),
    ]
    lines += [_item(_("Code version"), run.code_version or "—"), _item(_("Environment"), run.environment or "—")]
    definition = run.get_reproducibility_display() + (f" ({run.tolerance})" if run.tolerance else "")
    lines += [_item(_("Reproducibility"), definition), _item(_("Checkpoint"), run.get_checkpoint_display()), ""]
    lines += _pairs(_("Library versions"), run.versions) + _pairs(_("Parameters"), run.parameters)
    lines += _pairs(_("Seeds"), run.seeds) + _pairs(_("Determinism"), run.determinism)
    lines += _block(_("Failure"), run.failure)
    measurements = list(run.measurements.all())
    if measurements:
        header = [_("Phase"), _("Peak per GPU"), _("Throughput"), _("Latency (ms)"), _("Quality")]
        lines += [_("Observations (measured):"), "", "| " + " | ".join(header) + " |", "|---|---|---|---|---|"]
        for m in measurements:
            peaks = ", ".join(format_bytes(peak) for peak in m.peak_bytes_per_gpu) or "—"
            throughput = f"{m.throughput:g} {m.throughput_unit}".strip() if m.throughput is not None else None
            latency = f"{m.latency_ms:g}" if m.latency_ms is not None else None
            quality = f"{m.quality_metric} = {m.quality_value:g}" if m.quality_value is not None else None
            row = [m.get_phase_display(), peaks, throughput, latency, quality]
            lines.append("| " + " | ".join(_cell(value) for value in row) + " |")
        lines.append("")
    check = peak_check(run)
    if check is not None:
        phase = Phase(check.observed.phase).label if check.observed.phase in Phase.values else check.observed.phase
        text = _(
            "Estimate vs observation: estimated %(estimated)s per card (assumption), observed %(observed)s "
            "(%(phase)s); estimate error %(error)s %%."
        ) % {
            "estimated": format_bytes(check.estimated.bytes),
            "observed": format_bytes(check.observed.bytes),
            "phase": phase,
            "error": f"{check.error_pct:+.1f}",
        }
        lines += [text, ""]
    lines += _block(_("Conclusion"), run.conclusion)
    return lines


def _entry_markdown(entry: JournalEntry, level: str) -> list[str]:
    lines = [f"{level} {entry.question}", "", _item(_("Opened"), f"{entry.created_at:%Y-%m-%d %H:%M} UTC")]
    lines.append(_item(_("Rental"), entry.order.ref if entry.order else "—"))
    if entry.estimate is not None:
        est = entry.estimate
        text = _(
            "Estimate (an assumption, not a measurement): %(title)s, peak %(peak)s per card, %(engine)s, "
            "computed %(date)s"
        ) % {
            "title": est.title_text,
            "peak": format_bytes(est.peak_bytes),
            "engine": est.engine_version,
            "date": f"{est.created_at:%Y-%m-%d}",
        }
        lines.append(f"- {text}")
    else:
        lines.append(_item(_("Estimate"), "—"))
    lines.append("")
    lines += _block(_("Hypothesis"), entry.hypothesis) + _block(_("Metrics and quality criteria"), entry.metrics)
    lines += _block(_("Stop criterion"), entry.stop_criterion)
    runs = list(entry.runs.all())
    if not runs:
        lines += [_("No runs yet."), ""]
    for run in runs:
        run.entry = entry
        lines += _run_markdown(run, level + "#")
    return lines


def entry_markdown(entry: JournalEntry) -> str:
    """One entry as a Markdown document."""
    return "\n".join(_entry_markdown(entry, "#")).rstrip() + "\n"


def _without_trailing_space(parts: Iterable[str]) -> Iterator[str]:
    """`"".join(parts).rstrip() + "\\n"`, streamed: trailing white space is held back until text follows it."""
    pending = ""
    for part in parts:
        text = pending + part
        kept = text.rstrip()
        if kept:
            yield kept
        pending = text[len(kept) :]
    yield "\n"


def journal_markdown(pages: Iterable[list[JournalEntry]], *, brand: str, now: datetime | None = None) -> Iterator[str]:
    """The whole journal (`pages` of entries, oldest first) as one Markdown document, written a page at a time."""
    exported = f"{(now or timezone.now()):%Y-%m-%d %H:%M} UTC"
    title = "# " + _("Experiment journal (%(brand)s)") % {"brand": brand}

    def parts() -> Iterator[str]:
        yield "\n".join([title, "", _item(_("Exported"), exported), ""])
        empty = True
        for page in pages:
            yield "\n" + "\n".join(line for entry in page for line in _entry_markdown(entry, "##"))
            empty = False
        if empty:
            yield "\n" + _("No entries yet.")

    return _without_trailing_space(parts())


# A journal of at most this many entries and runs together is answered at once (`core.downloads.download_whole`);
# a longer one is prepared by the background worker (gpurent.exports, decision 0430).
JOURNAL_DIRECT_MAX = 2_000


def journal_rows(owner: Owner, limit: int | None = None) -> int:
    """The rows of the owner's whole-journal export: entries and runs (counting each no further than `limit + 1`
    when given)."""
    entries = entry_list_for(owner).order_by()
    runs = Run.objects.filter(entry__in=entries.values("pk")).order_by()
    if limit is None:
        return entries.count() + runs.count()
    return count_up_to(entries, limit) + count_up_to(runs, limit)


def journal_pieces(owner: Owner, kind: Literal["json", "md"], *, now: datetime, ensure_ascii: bool = False) -> Pieces:
    """The owner's whole journal as JSON or Markdown, a page of entries at a time, each piece with the entries
    and runs written so far; written in the active language."""
    written = 0

    def counted() -> Iterator[list[JournalEntry]]:
        nonlocal written
        for page in journal_pages_for_export(owner):
            written += len(page) + sum(len(entry.runs.all()) for entry in page)
            yield page

    if kind == "json":
        parts = journal_json(counted(), ensure_ascii=ensure_ascii, now=now)
    else:
        parts = journal_markdown(counted(), brand=settings.BRAND_NAME, now=now)
    for part in parts:
        yield part, written


def journal_whole(
    owner: Owner, kind: Literal["json", "md"], filename: str, *, ensure_ascii: bool = False
) -> HttpResponse | None:
    """The owner's whole journal as one response with its length and digest (the page and the API both answer
    with this) when it has at most `JOURNAL_DIRECT_MAX` entries and runs; None for a longer one, which the
    background worker prepares instead (decision 0430)."""
    if journal_rows(owner, JOURNAL_DIRECT_MAX) > JOURNAL_DIRECT_MAX:
        return None
    content_type = "application/json" if kind == "json" else "text/markdown"
    pieces = journal_pieces(owner, kind, now=timezone.now(), ensure_ascii=ensure_ascii)
    return download_whole(pieces, filename=filename, content_type=content_type)
