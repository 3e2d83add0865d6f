"""Journal services: entries and runs, validation, ownership of links, adoption, comparison, estimate error."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from gpurent.accounts.guests import guest_session_adopt
from gpurent.accounts.models import GuestSession
from gpurent.accounts.owners import Owner
from gpurent.journal.comparison import runs_compare
from gpurent.journal.errors import JournalInputInvalid
from gpurent.journal.models import JournalEntry, Measurement, Run
from gpurent.journal.observations import EstimatedPeak, ObservedPeak, peak_check
from gpurent.journal.records import EntryDraft, MeasurementDraft
from gpurent.journal.selectors import entry_get_for
from gpurent.journal.services import entries_adopt, entry_create, run_create

from .conftest import GIB, make_estimate, run_draft

pytestmark = pytest.mark.django_db


def test_entry_create_links_own_rental_and_estimate(user, estimate, order):
    draft = EntryDraft(question=" Does fp8 fit? ", order_ref=order.ref.lower(), estimate_id=str(estimate.public_id))
    entry = entry_create(owner=Owner(user=user), draft=draft)
    assert (entry.question, entry.order, entry.estimate) == ("Does fp8 fit?", order, estimate)


def test_entry_create_someone_elses_estimate_is_refused_like_a_missing_one(user, other_user):
    theirs = make_estimate(other_user)
    with pytest.raises(JournalInputInvalid) as foreign:
        entry_create(owner=Owner(user=user), draft=EntryDraft(question="q", estimate_id=str(theirs.public_id)))
    with pytest.raises(JournalInputInvalid) as missing:
        entry_create(owner=Owner(user=user), draft=EntryDraft(question="q", estimate_id="not-an-id"))
    assert foreign.value.message == missing.value.message == "You have no saved estimate with this id."
    assert foreign.value.field == "estimate"
    assert not JournalEntry.objects.exists()


def test_entry_create_someone_elses_rental_is_refused(other_user, order):
    with pytest.raises(JournalInputInvalid, match=r"You have no rental with this reference\."):
        entry_create(owner=Owner(user=other_user), draft=EntryDraft(question="q", order_ref=order.ref))


def test_entry_create_guest_cannot_link_a_rental(db):
    guest = GuestSession.objects.create()
    with pytest.raises(JournalInputInvalid, match="rentals belong to accounts"):
        entry_create(owner=Owner(guest=guest), draft=EntryDraft(question="q", order_ref="R-AAAA-BBBB"))


def test_entry_create_without_question_is_refused(user):
    with pytest.raises(JournalInputInvalid) as error:
        entry_create(owner=Owner(user=user), draft=EntryDraft(question="   "))
    assert error.value.field == "question"


def test_entry_needs_exactly_one_owner_in_the_database(user):
    guest = GuestSession.objects.create()
    with pytest.raises(IntegrityError), transaction.atomic():
        JournalEntry.objects.create(user=user, guest=guest, question="q")


def test_run_create_numbers_runs_and_stores_only_observed_phases(entry):
    first = run_create(entry=entry, draft=run_draft())
    second = run_create(entry=entry, draft=run_draft("again"))
    assert (first.number, second.number) == (1, 2)
    assert [m.phase for m in first.measurements.all()] == ["steady"]
    assert first.measurements.get().peak_bytes == 22 * GIB


def test_run_create_tolerance_definition_needs_a_tolerance(entry):
    with pytest.raises(JournalInputInvalid) as error:
        run_create(entry=entry, draft=run_draft(reproducibility="tolerance"))
    assert error.value.field == "tolerance"
    run = run_create(entry=entry, draft=run_draft(reproducibility="tolerance", tolerance="loss within 0.002"))
    assert run.tolerance == "loss within 0.002"
    assert not Run.objects.filter(tolerance="").exists()


def test_run_create_out_of_memory_is_recorded_as_a_result(entry):
    run = run_create(entry=entry, draft=run_draft(outcome="oom", failure="CUDA out of memory at batch 64"))
    assert (run.outcome, run.get_outcome_display()) == ("oom", "Out of memory")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": ""}, "name"),
        ({"outcome": "exploded"}, "outcome"),
        ({"parameters": {"": "1"}}, "parameters"),
        ({"steady": MeasurementDraft(peak_bytes_per_gpu=(0,))}, "steady.peak"),
        ({"first": MeasurementDraft(throughput=-1.0)}, "first.throughput"),
        ({"first": MeasurementDraft(latency_ms=float("inf"))}, "first.latency_ms"),
        ({"first": MeasurementDraft(quality_value=0.5)}, "first.quality_metric"),
    ],
)
def test_run_create_bad_input_names_the_field_and_writes_nothing(entry, overrides, field):
    with pytest.raises(JournalInputInvalid) as error:
        run_create(entry=entry, draft=run_draft(**overrides))
    assert error.value.field == field
    assert not Run.objects.exists()
    assert not Measurement.objects.exists()


def test_runs_compare_two_changed_variables_cannot_be_attributed(two_runs):
    comparison = runs_compare(*two_runs)
    assert [c.label for c in comparison.variables] == ["Parameter batch", "Parameter dtype"]
    assert [(c.before, c.after) for c in comparison.variables] == [("16", "32"), ("bf16", "fp8")]
    assert not comparison.attributable
    assert "Steady state: peak memory (highest GPU)" in [c.label for c in comparison.results]


@pytest.mark.parametrize(
    ("language", "peaks", "throughputs"),
    [
        ("tr", ("61,50 GiB", "70,20 GiB"), ("1.830,5 tokens/s", "2.900,25 tokens/s")),
        ("vi", ("61,50 GiB", "70,20 GiB"), ("1.830,5 tokens/s", "2.900,25 tokens/s")),
        ("en", ("61.50 GiB", "70.20 GiB"), ("1,830.5 tokens/s", "2,900.25 tokens/s")),
    ],
)
def test_runs_compare_writes_results_as_the_run_page_does(entry, language, peaks, throughputs):
    """QA walk 2: "61.50 GiB / 70.20 GiB" and "1830.5 / 2900.25" without the unit on Turkish and Vietnamese pages."""
    steady = [
        MeasurementDraft(peak_bytes_per_gpu=(int(61.5 * GIB),), throughput=1830.5, throughput_unit="tokens/s"),
        MeasurementDraft(peak_bytes_per_gpu=(int(70.2 * GIB),), throughput=2900.25, throughput_unit="tokens/s"),
    ]
    a = run_create(entry=entry, draft=run_draft(steady=steady[0]))
    b = run_create(entry=entry, draft=run_draft(steady=steady[1], seeds={"torch": "1"}))
    with translation.override(language):
        peak, throughput = ((change.before, change.after) for change in runs_compare(a, b).results)
    assert peak == peaks
    assert throughput == throughputs


def test_runs_compare_one_changed_variable_is_attributable(entry):
    a = run_create(entry=entry, draft=run_draft())
    b = run_create(entry=entry, draft=run_draft(seeds={"torch": "1"}))
    comparison = runs_compare(a, b)
    assert [c.label for c in comparison.variables] == ["Seed torch"]
    assert comparison.attributable


def test_peak_check_sets_the_estimate_beside_the_observation(entry):
    run = run_create(entry=entry, draft=run_draft(peak_gib=25))
    check = peak_check(entry_get_for(Owner(user=entry.user), entry.public_id).runs.get(pk=run.pk))
    assert check is not None
    assert isinstance(check.estimated, EstimatedPeak)
    assert isinstance(check.observed, ObservedPeak)
    assert (check.estimated.bytes, check.observed.bytes) == (20 * GIB, 25 * GIB)
    assert check.error_bytes == -5 * GIB
    assert check.error_pct == pytest.approx(-20.0)


def test_peak_check_prefers_steady_state_and_uses_the_highest_gpu(entry):
    draft = run_draft(
        first=MeasurementDraft(peak_bytes_per_gpu=(30 * GIB,)),
        steady=MeasurementDraft(peak_bytes_per_gpu=(19 * GIB, 21 * GIB)),
    )
    run = run_create(entry=entry, draft=draft)
    check = peak_check(run)
    assert check is not None
    assert (check.observed.phase, check.observed.bytes) == ("steady", 21 * GIB)


def test_entries_adopt_moves_guest_entries_to_the_new_account(rf, user):
    guest = GuestSession.objects.create()
    entry = entry_create(owner=Owner(guest=guest), draft=EntryDraft(question="q"))
    assert entries_adopt(guest, user) == 1
    entry.refresh_from_db()
    assert (entry.user, entry.guest) == (user, None)


def test_guest_session_adopt_runs_the_journal_adopter(rf, user):
    guest = GuestSession.objects.create()
    entry_create(owner=Owner(guest=guest), draft=EntryDraft(question="q"))
    request = rf.post("/")
    request.session = {"guest_id": str(guest.pk)}
    guest_session_adopt(request=request, user=user)
    assert JournalEntry.objects.get().user == user


@pytest.mark.parametrize(
    ("language", "overrides", "message"),
    [
        ("en", {"name": ""}, "This field is required: Run name."),
        ("en", {"first": MeasurementDraft(throughput=-1.0)}, "First run: Throughput: enter a number of zero or more."),
        ("en", {"outcome": "exploded"}, "Outcome: choose one of Completed, Out of memory, Failed."),
        ("es", {"code_version": "x" * 201}, "Versión del código: "),
        ("vi", {"parameters": {"": "1"}}, "Tham số: "),
        ("tr", {"steady": MeasurementDraft(latency_ms=-2.0)}, "Kararlı durum: Gecikme (ms): "),
    ],
)
def test_run_create_messages_name_the_field_as_the_form_shows_it(entry, language, overrides, message):
    from django.utils import translation

    with translation.override(language), pytest.raises(JournalInputInvalid) as error:
        run_create(entry=entry, draft=run_draft(**overrides))
    assert error.value.message.startswith(message)
    for key in ("code_version", "parameters", "latency_ms", "throughput", "outcome", "steady.", "first."):
        assert key not in error.value.message


def test_the_markdown_export_is_written_in_the_customers_language(entry):
    from django.utils import translation

    from gpurent.journal.export import entry_markdown, journal_markdown

    run_create(entry=entry, draft=run_draft())
    with translation.override("vi"):
        text = entry_markdown(entry) + "".join(journal_markdown([], brand="IteraGPU"))
    for words in ["## Lần chạy 1: bf16 b16", "Quan sát (đo được):", "Ước tính (một giả định, không phải số đo):"]:
        assert words in text, words
    assert "Nhật ký thí nghiệm (IteraGPU)" in text
    assert "Chưa có mục nào." in text
    for english in ["Observations", "Estimate (an assumption", "Recorded", "No entries yet", "Experiment journal"]:
        assert english not in text, english
