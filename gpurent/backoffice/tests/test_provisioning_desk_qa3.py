"""The provisioning desk and `manage.py provision` after the third outside QA walk (the back office): only the steps
that apply to the order's state, refusals that name it (defect 11), failing a paid order from "not started" (11),
the access given shown without its secret (8), corrected after "Ready" (9), an installed key checked and
fingerprinted (24), and a page that fits the rental's state (28)."""

import io
import re

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import CommandError, call_command

from conftest import make_running_rental
from gpurent.core.models import AuditLogEntry
from gpurent.core.money import Usd
from gpurent.ledger.selectors import balance_for
from gpurent.orders.models import Order, OrderAccess
from gpurent.orders.provisioning import provision_start
from tests.conftest import fund, order_paid, term_swept

pytestmark = pytest.mark.django_db

DESK = "/backoffice/backoffice/provisioningdesk/"
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo ops"
KEY_FINGERPRINT = "SHA256:xCEx7JbDd3x2dkFBo6frjzFkHBhSZZMGlIXTf6NN5OA"


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", language="es")
    fund(user, 1_000_000)
    return user


@pytest.fixture
def operator(client, django_user_model):
    user = django_user_model.objects.create_user("ops@shop.example", "passphrase 12", is_staff=True)
    user.groups.set(Group.objects.filter(name="provisioning"))
    client.force_login(user)
    return user


def page(client, order: Order) -> str:
    return client.get(f"{DESK}{order.pk}/change/").content.decode()


def post(client, order: Order, key: str, **fields) -> str:
    form = {"port": "22", "reason": "", "idempotency_key": key, **fields}
    return client.post(f"{DESK}{order.pk}/change/", form, follow=True).content.decode()


def steps(html: str) -> list[str]:
    select = re.search(r'<select name="action".*?</select>', html, re.S)
    return re.findall(r'<option value="([a-z_]+)"', select.group(0)) if select else []


# --- Defect 11 -------------------------------------------------------------------------------------------------------


def test_a_paid_order_not_started_is_failed_at_the_desk_and_refunded(client, customer, gpu, operator):
    order = order_paid(customer, gpu.slug)
    assert steps(page(client, order)) == ["preparing", "ready", "failed"]
    post(client, order, "k1", action="failed", reason="")
    order.refresh_from_db()
    assert order.provisioning_status == "failed"
    assert balance_for(customer) == Usd(1_000_000)
    assert order.status_changes.filter(from_status="not_started", to_status="failed").exists()
    entry = AuditLogEntry.objects.get(action="provisioning.failed")
    assert (entry.actor_label, entry.after) == ("ops@shop.example", {"reason": "could not be provided"})


def test_the_step_select_offers_only_the_steps_of_the_orders_state(client, customer, gpu, operator):
    preparing = provision_start(order=order_paid(customer, gpu.slug), actor=None)
    assert steps(page(client, preparing)) == ["ready", "failed"]
    ready = make_running_rental(customer, gpu)
    html = page(client, ready)
    assert steps(html) == ["correct"]
    assert 'name="reason"' not in html  # a Ready rental cannot fail
    post(client, preparing, "k2", action="failed", reason="no capacity")
    html = page(client, Order.objects.get(pk=preparing.pk))
    assert steps(html) == []
    assert f"{preparing.ref} is Failed: no provisioning step applies to it any more." in html
    assert "Next step" not in html


def test_a_step_that_no_longer_applies_is_refused_naming_the_state_and_what_applies(client, customer, gpu, operator):
    order = make_running_rental(customer, gpu)  # the page was opened while it was being prepared
    html = post(client, order, "k3", action="failed", reason="too late")
    assert f"{order.ref} is Ready (term ends " in html
    assert (
        "UTC): it cannot be failed and refunded. What applies now: Correct the access details (the term is unchanged)."
        in html
    )
    assert Order.objects.get(pk=order.pk).provisioning_status == "ready"
    assert not AuditLogEntry.objects.filter(action="provisioning.failed").exists()


def test_the_command_follows_the_desks_rules(customer, gpu):
    order = order_paid(customer, gpu.slug)
    out = io.StringIO()
    call_command("provision", order.ref.lower(), "--failed", stdout=out)  # no --reason: the standard note, as the desk
    assert f"order {order.ref}: failed" in out.getvalue()
    assert AuditLogEntry.objects.get(action="provisioning.failed").after == {"reason": "could not be provided"}
    running = make_running_rental(customer, gpu)
    with pytest.raises(CommandError, match=rf"{running.ref} is Ready \(term ends .*\): it cannot be started\."):
        call_command("provision", running.ref, "--preparing")
    call_command("provision", running.ref, "--correct", "--host", "gpu2.example.net", "--user", "ubuntu", stdout=out)
    assert OrderAccess.objects.get(order=running).host == "gpu2.example.net"
    with pytest.raises(CommandError, match="Other public key installed: This is not a valid SSH public key"):
        call_command("provision", running.ref, "--correct", "--host", "h", "--user", "u", "--public-key", "hello world")


# --- Defect 24 -------------------------------------------------------------------------------------------------------


def test_hello_world_is_refused_as_an_installed_key_on_the_form(client, customer, gpu, operator):
    order = order_paid(customer, gpu.slug)
    html = post(client, order, "k4", action="ready", host="gpu1.example.net", username="dan", public_key="hello world")
    assert "Other public key installed: This is not a valid SSH public key." in html
    assert ">\nhello world</textarea>" in html  # what was typed is kept
    assert Order.objects.get(pk=order.pk).provisioning_status == "not_started"


# --- Defect 8 --------------------------------------------------------------------------------------------------------


def test_a_ready_rental_shows_the_access_given_with_fingerprints_never_the_secret(client, customer, gpu, operator):
    order = order_paid(customer, gpu.slug)
    post(client, order, "k5", action="ready", host="gpu1.example.net", port="2201", username="ana", public_key=KEY)
    html = page(client, order)
    given = html.split('data-testid="desk-access-given">', 1)[1].split("</fieldset>", 1)[0]
    assert "<code>gpu1.example.net</code> · port 2201 · user <code>ana</code>" in given
    assert "<code>ssh -p 2201 ana@gpu1.example.net</code>" in given
    assert "<label>Login</label> SSH key" in given
    assert f"<code>other key {KEY_FINGERPRINT}</code>" in given
    assert "<label>Given by</label> ops@shop.example · " in given
    assert "AAAAC3NzaC1lZDI1NTE5" not in given  # the fingerprint, not the key


def test_the_access_removal_page_shows_which_machine_and_account(client, customer, gpu, operator):
    order = order_paid(customer, gpu.slug)
    post(
        client,
        order,
        "k6",
        action="ready",
        host="gpu1.example.net",
        port="2201",
        username="ana",
        one_time_secret="pw-9",
    )
    term_swept(order)
    html = page(client, order)
    assert 'data-testid="desk-access-to-remove"' in html
    given = html.split('data-testid="desk-access-given">', 1)[1].split("</fieldset>", 1)[0]
    assert "<code>gpu1.example.net</code> · port 2201 · user <code>ana</code>" in given
    assert "one-time password (never revealed, erased at the term&#x27;s end)" in given
    assert "pw-9" not in html


# --- Defect 9 --------------------------------------------------------------------------------------------------------


def test_a_ready_rentals_access_is_corrected_at_the_desk(
    client, customer, gpu, operator, django_capture_on_commit_callbacks
):
    order = make_running_rental(customer, gpu)
    ends = order.term_ends_at
    html = page(client, order)
    assert 'name="host" value="h.example"' in html  # the correction starts from what was given
    assert "Left empty with the password, the login given before is kept (one-time password (not revealed))." in html
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        html = post(client, order, "k7", action="correct", host="gpu2.example.net", port="22", username="ubuntu")
    assert f"Access details of {order.ref} corrected; the customer is e-mailed." in html
    assert "<label>Corrected by</label> ops@shop.example · " in html
    access = OrderAccess.objects.get(order=order)
    assert (access.host, access.one_time_secret) == ("gpu2.example.net", "pw")  # the login kept
    assert Order.objects.get(pk=order.pk).term_ends_at == ends
    assert AuditLogEntry.objects.get(action="provisioning.access_corrected").actor_label == "ops@shop.example"
    assert [message.to for message in mail.outbox] == [["r@example.com"]]


# --- Defect 28 -------------------------------------------------------------------------------------------------------


def test_an_ended_rentals_page_is_titled_as_such_without_keys_to_install(client, customer, gpu, operator):
    order = make_running_rental(customer, gpu)
    assert f"<h1>Running rental {order.ref}</h1>" in page(client, order)
    term_swept(order)
    html = page(client, order)
    assert f"<h1>Ended rental {order.ref}</h1>" in html
    assert "Provision order" not in html
    assert "SSH keys to install" not in html
    assert "Ended · term ended " in html  # not "term ends", in the past
    assert f"<h1>Provision order {order_paid(customer, gpu.slug).ref}</h1>" in page(client, Order.objects.latest("pk"))


@pytest.mark.parametrize(("environment", "shown"), [("ubuntu", False), ("blender", False), ("pytorch", True)])
def test_the_jupyter_url_is_asked_only_for_an_image_with_jupyter(client, customer, gpu, operator, environment, shown):
    html = page(client, order_paid(customer, gpu.slug, environment=environment))
    assert ('name="jupyter_url"' in html) is shown
