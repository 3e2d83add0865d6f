"""Service tests for orders: placing, the transition table (one test per rule), expiry and cancelling."""

from datetime import timedelta
from unittest import mock

import pytest
from django.db.models.sql.compiler import SQLCompiler
from django.utils import timezone

from gpurent.catalog.models import GpuModel
from gpurent.core.errors import InvalidRequest
from gpurent.orders.enums import PaymentStatus, ProvisioningStatus, Track
from gpurent.orders.errors import OutOfStock, TransitionNotAllowed
from gpurent.orders.models import Order, OrderAccess, OrderStatusChange
from gpurent.orders.services import Contact, order_cancel, order_place, order_transition, orders_expire_due
from gpurent.orders.transitions import PAYMENT_TRANSITIONS, PROVISIONING_TRANSITIONS

pytestmark = pytest.mark.django_db

CONTACT = Contact("Ada", "Lovelace", "ada@example.com")


@pytest.fixture
def customer(django_user_model):
    return django_user_model.objects.create_user(
        "ada@example.com", "long enough passphrase", first_name="Ada", last_name="Lovelace"
    )


def place(customer, gpu_slug="a100-80gb", lots=1, term_days=7, environment="pytorch", note=""):
    return order_place(
        owner=customer,
        gpu_slug=gpu_slug,
        term_days=term_days,
        lots=lots,
        environment=environment,
        environment_note=note,
        contact=CONTACT,
    )


def stock(slug):
    return GpuModel.objects.get(slug=slug).stock_lots


def test_order_place_two_b200_lots_reserves_two_lots_for_four_gpus(customer, b200, settings):
    before = timezone.now()
    order = place(customer, gpu_slug="b200-2x180gb", lots=2)
    assert (order.lots, order.cards, order.lot_price_cents, order.total_cents) == (2, 4, 170_000, 340_000)
    assert stock("b200-2x180gb") == 0
    assert order.payment_status == PaymentStatus.AWAITING_PAYMENT
    assert order.provisioning_status == ProvisioningStatus.NOT_STARTED
    assert order.reserved_until >= before + timedelta(hours=settings.ORDER_PAYMENT_WINDOW_HOURS)
    assert order.ref.startswith("R-")
    assert len(order.ref) == 11
    history = list(OrderStatusChange.objects.filter(order=order).values_list("track", "from_status", "to_status"))
    assert history == [("payment", "", "awaiting_payment"), ("provisioning", "", "not_started")]


def test_order_place_new_order_reverse_relations_read_without_compiling_sql(customer, gpu):
    # What the API's answer reads of a new order (intents, extensions, access) is known to be empty: reading it
    # neither runs a query nor builds one (decision 0300: a `.none()` queryset compiled its SELECT to skip it).
    order = place(customer)
    with mock.patch.object(SQLCompiler, "as_sql", side_effect=AssertionError("SQL compiled")):
        assert list(order.intents.all()) == []
        assert list(order.extensions.all()) == []
        assert not order.intents.exists()
        with pytest.raises(OrderAccess.DoesNotExist):
            order.access  # noqa: B018 (the read is the test)
    assert list(order.status_changes.all())  # the relations it wrote are read as usual


def test_order_place_more_lots_than_stock_is_out_of_stock_and_writes_nothing(customer, b200):
    with pytest.raises(OutOfStock) as raised:
        place(customer, gpu_slug="b200-2x180gb", lots=3)
    assert (raised.value.code, raised.value.status) == ("out_of_stock", 409)
    assert stock("b200-2x180gb") == 2
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lots": 11}, "between 1 and 10"),
        ({"lots": 0}, "between 1 and 10"),
        ({"term_days": 14}, "3, 7 or 30 days"),
        ({"environment": "windows"}, "Choose an environment"),
        ({"environment": "other"}, "Describe the environment"),
        ({"gpu_slug": "tpu-v5"}, "not on sale"),
    ],
)
def test_order_place_invalid_input_is_refused_before_any_write(customer, gpu, kwargs, message):
    with pytest.raises(InvalidRequest, match=message):
        place(customer, **kwargs)
    assert stock("a100-80gb") == 8
    assert not Order.objects.exists()


def test_order_place_other_environment_keeps_its_note_and_others_drop_it(customer, gpu):
    assert (
        place(customer, environment="other", note="  Debian 12 + CUDA 12.4 ").environment_note
        == "Debian 12 + CUDA 12.4"
    )
    assert place(customer, environment="ubuntu", note="ignored").environment_note == ""


def test_order_place_off_sale_gpu_is_refused(customer, gpu):
    GpuModel.objects.filter(pk=gpu.pk).update(on_sale=False)
    with pytest.raises(InvalidRequest, match="not on sale"):
        place(customer)


# --- the transition table, one test per rule -------------------------------------------------------


def test_transition_table_is_closed_over_the_documented_states():
    assert set(PAYMENT_TRANSITIONS) == set(PaymentStatus.values)
    assert set(PROVISIONING_TRANSITIONS) == set(ProvisioningStatus.values)
    for table in (PAYMENT_TRANSITIONS, PROVISIONING_TRANSITIONS):
        for targets in table.values():
            assert targets <= set(table)


def test_transition_awaiting_to_paid_sets_paid_at_and_records_the_change(customer, gpu):
    order = order_transition(order=place(customer), track=Track.PAYMENT, to=PaymentStatus.PAID)
    assert order.payment_status == PaymentStatus.PAID
    assert order.paid_at is not None
    assert OrderStatusChange.objects.filter(order=order, from_status="awaiting_payment", to_status="paid").exists()


def test_transition_awaiting_to_expired_releases_the_lots(customer, gpu):
    order = place(customer, lots=3)
    order_transition(order=order, track=Track.PAYMENT, to=PaymentStatus.EXPIRED)
    assert stock("a100-80gb") == 8


def test_transition_awaiting_to_cancelled_releases_the_lots(customer, gpu):
    order = order_cancel(order=place(customer, lots=2), actor=customer)
    assert order.payment_status == PaymentStatus.CANCELLED
    assert stock("a100-80gb") == 8


@pytest.mark.parametrize("final", [PaymentStatus.PAID, PaymentStatus.EXPIRED, PaymentStatus.CANCELLED])
@pytest.mark.parametrize("target", PaymentStatus.values)
def test_transition_payment_final_states_allow_nothing(customer, gpu, final, target):
    order = order_transition(order=place(customer), track=Track.PAYMENT, to=final)
    with pytest.raises(TransitionNotAllowed):
        order_transition(order=order, track=Track.PAYMENT, to=target)


def test_transition_provisioning_needs_a_paid_order(customer, gpu):
    with pytest.raises(TransitionNotAllowed, match="once the order is paid"):
        order_transition(order=place(customer), track=Track.PROVISIONING, to=ProvisioningStatus.PREPARING)


def test_transition_provisioning_cannot_skip_preparing(customer, gpu):
    order = order_transition(order=place(customer), track=Track.PAYMENT, to=PaymentStatus.PAID)
    with pytest.raises(TransitionNotAllowed):
        order_transition(order=order, track=Track.PROVISIONING, to=ProvisioningStatus.READY)


@pytest.mark.parametrize("term_days", [3, 7, 30])
def test_transition_ready_starts_a_term_of_exactly_days_times_24_hours(customer, gpu, term_days):
    order = order_transition(order=place(customer, term_days=term_days), track=Track.PAYMENT, to=PaymentStatus.PAID)
    order = order_transition(order=order, track=Track.PROVISIONING, to=ProvisioningStatus.PREPARING)
    ready_at = timezone.now()
    order = order_transition(order=order, track=Track.PROVISIONING, to=ProvisioningStatus.READY, now=ready_at)
    assert order.term_starts_at == ready_at
    assert order.term_ends_at == ready_at + timedelta(hours=24 * term_days)


@pytest.mark.parametrize("final", [ProvisioningStatus.ENDED, ProvisioningStatus.FAILED])
def test_transition_provisioning_end_or_failure_releases_the_lots_once(customer, gpu, final):
    order = order_transition(order=place(customer, lots=4), track=Track.PAYMENT, to=PaymentStatus.PAID)
    order = order_transition(order=order, track=Track.PROVISIONING, to=ProvisioningStatus.PREPARING)
    if final == ProvisioningStatus.ENDED:
        order = order_transition(order=order, track=Track.PROVISIONING, to=ProvisioningStatus.READY)
    assert stock("a100-80gb") == 4
    order = order_transition(order=order, track=Track.PROVISIONING, to=final)
    assert stock("a100-80gb") == 8
    with pytest.raises(TransitionNotAllowed):
        order_transition(order=order, track=Track.PROVISIONING, to=final)
    assert stock("a100-80gb") == 8


def test_order_cancel_of_a_paid_order_is_refused(customer, gpu):
    order = order_transition(order=place(customer), track=Track.PAYMENT, to=PaymentStatus.PAID)
    with pytest.raises(TransitionNotAllowed):
        order_cancel(order=order, actor=customer)


# --- expiry ---------------------------------------------------------------------------------------------


def test_orders_expire_due_expires_only_unpaid_orders_past_their_deadline(customer, gpu):
    due = place(customer, lots=2)
    not_due = place(customer, lots=1)
    paid = order_transition(order=place(customer, lots=1), track=Track.PAYMENT, to=PaymentStatus.PAID)
    later = timezone.now() + timedelta(hours=25)
    Order.objects.filter(pk=not_due.pk).update(reserved_until=later + timedelta(hours=1))
    Order.objects.filter(pk=paid.pk).update(reserved_until=timezone.now())
    assert orders_expire_due(now=later) == 1
    assert Order.objects.get(pk=due.pk).payment_status == PaymentStatus.EXPIRED
    assert Order.objects.get(pk=not_due.pk).payment_status == PaymentStatus.AWAITING_PAYMENT
    assert Order.objects.get(pk=paid.pk).payment_status == PaymentStatus.PAID
    assert stock("a100-80gb") == 8 - 1 - 1


def test_orders_expire_due_twice_gives_the_same_result(customer, gpu):
    place(customer, lots=2)
    later = timezone.now() + timedelta(days=2)
    assert orders_expire_due(now=later) == 1
    assert orders_expire_due(now=later) == 0
    assert stock("a100-80gb") == 8
    assert OrderStatusChange.objects.filter(to_status="expired").count() == 1


def test_order_place_retries_with_a_new_reference_when_one_clashes(customer, demo_catalog, monkeypatch):
    taken = place(customer).ref
    refs = iter([taken, "R-FRES-HREF"])
    monkeypatch.setattr("gpurent.orders.services.new_reference", lambda prefix: next(refs))
    order = place(customer)
    assert order.ref == "R-FRES-HREF"
    assert OrderStatusChange.objects.filter(order=order).count() == 2
    assert Order.objects.count() == 2
