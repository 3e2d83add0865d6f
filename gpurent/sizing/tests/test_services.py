"""Saving an estimate, attaching a measurement, guest adoption, and owner-scoped reads."""

import uuid

import pytest
from django.db import IntegrityError, transaction

from gpurent.accounts.guests import guest_session_adopt
from gpurent.accounts.models import GuestSession
from gpurent.accounts.owners import Owner
from gpurent.core.errors import InvalidRequest, NotFound
from gpurent.sizing.calculation import inputs_from_payload, size_workload
from gpurent.sizing.models import SavedEstimate
from gpurent.sizing.selectors import estimate_get_for, estimate_list_for
from gpurent.sizing.services import estimate_attach_measurement, estimate_save, estimates_adopt
from vramcalc.serialize import inputs_from_dict

from .conftest import SERVING_70B

pytestmark = pytest.mark.django_db


@pytest.fixture
def sizing(demo_catalog):
    return size_workload(inputs_from_payload(SERVING_70B))


def test_estimate_save_keeps_inputs_result_engine_version_and_catalog(user, sizing):
    saved = estimate_save(owner=Owner(user=user), sizing=sizing, form_data={"preset": "llama-3.1-70b"})
    saved.refresh_from_db()
    assert saved.user == user
    assert saved.guest is None
    assert saved.peak_bytes == sizing.result.peak_bytes
    assert saved.engine_version == sizing.result.engine_version
    assert saved.result["components"][0]["formula"]
    assert saved.title == ""  # the shop's own title is built when shown, in the reader's language
    assert saved.title_text == "llama-3.1-70b · serving · 1 card"
    # The stored inputs re-run to the same peak without the preset library.
    assert inputs_from_dict(saved.inputs) == sizing.inputs
    h100 = next(row for row in saved.catalog_fit if row["gpu"] == "h100-80gb")
    assert h100["lots"] == 4
    assert h100["prices_usd"] == {"3": "680.00", "7": "1480.00", "30": "5800.00"}


def test_estimate_save_without_owner_is_refused(sizing):
    with pytest.raises(InvalidRequest):
        estimate_save(owner=Owner(), sizing=sizing)


def test_saved_estimate_has_exactly_one_owner_by_constraint(user, sizing):
    saved = estimate_save(owner=Owner(user=user), sizing=sizing)
    saved.guest = GuestSession.objects.create()
    with pytest.raises(IntegrityError), transaction.atomic():
        saved.save()


def test_estimate_attach_measurement_shows_the_error(user, sizing):
    saved = estimate_save(owner=Owner(user=user), sizing=sizing)
    measured = saved.peak_bytes * 100 // 110  # the estimate was 10 % high
    estimate_attach_measurement(estimate=saved, peak_bytes=measured, source="nvidia-smi")
    saved.refresh_from_db()
    assert saved.measured_peak_bytes == measured
    assert saved.measured_at is not None
    assert saved.measurement_source == "nvidia-smi"
    assert saved.error_pct == pytest.approx(10.0, abs=0.01)


def test_estimate_attach_measurement_zero_is_refused(user, sizing):
    saved = estimate_save(owner=Owner(user=user), sizing=sizing)
    with pytest.raises(InvalidRequest):
        estimate_attach_measurement(estimate=saved, peak_bytes=0, source="other")
    saved.refresh_from_db()
    assert saved.measured_peak_bytes is None


def test_estimates_adopt_moves_only_that_guests_estimates(user, sizing):
    guest, other_guest = GuestSession.objects.create(), GuestSession.objects.create()
    mine = estimate_save(owner=Owner(guest=guest), sizing=sizing)
    theirs = estimate_save(owner=Owner(guest=other_guest), sizing=sizing)
    assert estimates_adopt(guest, user) == 1
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.user, mine.guest) == (user, None)
    assert theirs.guest == other_guest


def test_estimates_adopt_is_registered_with_the_guest_adoption(rf, user, sizing):
    guest = GuestSession.objects.create()
    estimate_save(owner=Owner(guest=guest), sizing=sizing)
    request = rf.get("/")
    request.session = {"guest_id": str(guest.pk)}
    assert guest_session_adopt(request=request, user=user) == 1
    assert list(estimate_list_for(Owner(user=user)).values_list("guest", flat=True)) == [None]


def test_estimate_list_for_is_scoped_to_the_owner(user, other_user, sizing):
    mine = estimate_save(owner=Owner(user=user), sizing=sizing)
    estimate_save(owner=Owner(user=other_user), sizing=sizing)
    guest = GuestSession.objects.create()
    guests = estimate_save(owner=Owner(guest=guest), sizing=sizing)
    assert list(estimate_list_for(Owner(user=user))) == [mine]
    assert list(estimate_list_for(Owner(guest=guest))) == [guests]
    assert list(estimate_list_for(Owner())) == []


def test_estimate_get_for_another_owner_or_a_bad_id_is_not_found(user, other_user, sizing):
    saved = estimate_save(owner=Owner(user=user), sizing=sizing)
    assert estimate_get_for(Owner(user=user), saved.public_id) == saved
    assert estimate_get_for(Owner(user=user), str(saved.public_id)) == saved
    for owner, key in (
        (Owner(user=other_user), saved.public_id),
        (Owner(user=user), "not-a-uuid"),
        (Owner(user=user), uuid.uuid4()),
    ):
        with pytest.raises(NotFound):
            estimate_get_for(owner, key)
    assert SavedEstimate.objects.count() == 1
