"""The provisioning services after the third outside QA walk (the back office): a paid desk rental e-mails the
provisioning operators (defect 7), an installed key is checked as the account page checks one (24), a paid order is
failed from "not started" (11), a Ready rental's access is corrected (9), and the operators' e-mails say which
machine and account (8, 30)."""

import re

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from conftest import make_running_rental
from gpurent.accounts.services import ssh_key_add
from gpurent.core.errors import InvalidRequest
from gpurent.core.models import AuditLogEntry, OutboundEmail
from gpurent.core.money import Usd
from gpurent.core.testing import public_key
from gpurent.ledger.selectors import balance_for, ledger_check
from gpurent.orders.access_correction import access_correct
from gpurent.orders.errors import TransitionNotAllowed
from gpurent.orders.models import Order, OrderAccess
from gpurent.orders.provisioning import AccessDetails, CommandProvisioner, provision_fail, provision_start
from gpurent.orders.provisioning_steps import provision_step
from gpurent.orders.rental import access_reveal_secret, machine_request_create
from gpurent.orders.services import Contact, order_place
from gpurent.payments.services import order_pay_from_balance
from tests.conftest import fund, order_paid, term_swept

pytestmark = pytest.mark.django_db

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo ops"
KEY_FINGERPRINT = "SHA256:xCEx7JbDd3x2dkFBo6frjzFkHBhSZZMGlIXTf6NN5OA"


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", language="tr")
    fund(user, 1_000_000)
    return user


@pytest.fixture
def operators(django_user_model):
    """Two provisioning operators and a payments one (who is not told of machines)."""
    made = []
    for email, group in [
        ("p1@shop.example", "provisioning"),
        ("p2@shop.example", "provisioning"),
        ("pay@x.io", "payments"),
    ]:
        user = django_user_model.objects.create_user(email, "passphrase 12", is_staff=True)
        user.groups.set(Group.objects.filter(name=group))
        made.append(user)
    return made


def to_operators():
    return [message for message in mail.outbox if message.to[0].endswith("shop.example") or message.to == ["pay@x.io"]]


# --- Defect 7: a paid desk rental e-mails the provisioning operators, once per order ---------------------------


def test_a_paid_desk_rental_emails_each_provisioning_operator_once(
    customer, gpu, operators, django_capture_on_commit_callbacks
):
    ssh_key_add(user=customer, name="laptop", public_key=KEY)
    with django_capture_on_commit_callbacks(execute=True):
        order = order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=7,
            lots=2,
            environment="pytorch",
            contact=Contact("C", "U", "c@x.io"),
            ssh_keys=list(customer.ssh_keys.all()),
        )
        mail.outbox.clear()
        order = order_pay_from_balance(order=order, owner=customer)
    told = to_operators()
    assert sorted(message.to[0] for message in told) == ["p1@shop.example", "p2@shop.example"]
    message = told[0]
    assert message.subject == f"Rental {order.ref} paid: prepare its machine"
    assert f"2 × {gpu.name} = {order.cards} GPUs for 7 days, PyTorch." in message.body  # in English, not Turkish
    assert "Customer: c@example.com (reads Türkçe (tr))" in message.body
    assert f"SSH keys to install: laptop {KEY_FINGERPRINT}" in message.body
    assert f"/backoffice/backoffice/provisioningdesk/{order.pk}/change/" in message.body
    # The worker runs the task again after a crash: still one e-mail per operator.
    from gpurent.orders.provisioning import provision_paid_order

    with django_capture_on_commit_callbacks(execute=True):
        provision_paid_order.call(order.pk)
    assert len(to_operators()) == 2


def test_a_command_provisioner_that_gives_no_access_leaves_the_rental_to_the_operators(
    customer, gpu, operators, tmp_path, django_capture_on_commit_callbacks
):
    order = order_paid(customer, gpu.slug, lots=2)
    mail.outbox.clear()
    script = tmp_path / "broken.sh"
    script.write_text("#!/bin/sh\necho 'no machine free' >&2\nexit 3\n")
    script.chmod(0o700)
    with django_capture_on_commit_callbacks(execute=True):
        CommandProvisioner(str(script)).start(Order.objects.get(pk=order.pk))
    told = to_operators()
    assert len(told) == 2
    assert "The provisioning command exited 3 without giving the access" in told[0].body
    assert "The customer chose no SSH key: give a one-time password." in told[0].body


# --- Defect 24: an installed key is a public key --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("hello world", "Other public key installed: This is not a valid SSH public key."),
        (f"{KEY}\nssh-ed25519 AAAA nope", "Other public key installed, line 2: This is not a valid SSH public key."),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "Other public key installed: This is a private key."),
    ],
)
def test_an_installed_key_that_is_not_a_public_key_is_refused(customer, gpu, text, error):
    order = order_paid(customer, gpu.slug, lots=2)
    with pytest.raises(InvalidRequest) as refused:
        provision_step(order=order, step="ready", actor=None, access=AccessDetails("h.example", 22, "u", text))
    assert refused.value.message.startswith(error)
    order.refresh_from_db()
    assert order.provisioning_status == "not_started"  # refused before the order moved
    assert not OrderAccess.objects.exists()


def test_installed_keys_are_stored_normalised_and_audited_by_fingerprint(customer, gpu):
    other = public_key("other")
    order = provision_step(
        order=order_paid(customer, gpu.slug, lots=2),
        step="ready",
        actor=None,
        access=AccessDetails("h.example", 22, "u", f"  {KEY}  \n\n{other}\n"),
    )
    assert OrderAccess.objects.get(order=order).public_key == f"{KEY}\n{other}"
    after = AuditLogEntry.objects.get(action="provisioning.ready").after or {}
    assert after["ssh_keys"][0] == KEY_FINGERPRINT
    assert len(after["ssh_keys"]) == 2


# --- Defect 11: failed from "not started", through the refund service --------------------------------------------


def test_a_paid_order_not_started_is_failed_refunded_and_its_lots_released(
    customer, gpu, django_capture_on_commit_callbacks
):
    order = order_paid(customer, gpu.slug, lots=2)
    stock = type(gpu).objects.get(pk=gpu.pk).stock_lots
    with django_capture_on_commit_callbacks(execute=True):
        failed = provision_fail(order=order, actor=None, reason="no capacity")
    assert failed.provisioning_status == "failed"
    assert balance_for(customer) == Usd(1_000_000)
    assert type(gpu).objects.get(pk=gpu.pk).stock_lots == stock + 2
    changes = list(failed.status_changes.filter(track="provisioning").values_list("from_status", "to_status"))
    assert changes[-1] == ("not_started", "failed")  # never "preparing": the customer was not told it was prepared
    assert ledger_check() == []


def test_an_unpaid_order_cannot_be_failed(customer, gpu):
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="ubuntu",
        contact=Contact("C", "U", "c@x.io"),
    )
    with pytest.raises(TransitionNotAllowed):
        provision_fail(order=order, actor=None, reason="x")
    with pytest.raises(TransitionNotAllowed) as refused:
        provision_step(order=order, step="failed", actor=None)
    assert (
        refused.value.message
        == f"{order.ref} is not paid (Awaiting payment): nothing is provisioned before it is paid."
    )


def test_a_refused_step_names_the_state_and_what_applies(customer, gpu):
    order = make_running_rental(customer, gpu)
    with pytest.raises(TransitionNotAllowed) as refused:
        provision_step(order=order, step="failed", actor=None)
    ends = timezone.localtime(order.term_ends_at).strftime("%d %b %Y, %H:%M UTC")
    assert refused.value.message == (
        f"{order.ref} is Ready (term ends {ends}): it cannot be failed and refunded. "
        "What applies now: Correct the access details (the term is unchanged)."
    )


# --- Defect 9: a Ready rental's access is corrected ---------------------------------------------------------------


def test_correcting_the_access_keeps_the_term_audits_and_emails_the_customer_in_their_language(
    customer, gpu, operators, django_capture_on_commit_callbacks
):
    order = make_running_rental(customer, gpu)  # h.example:22, user ubuntu, one-time password "pw"
    ends = order.term_ends_at
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        access_correct(
            order=order,
            actor=operators[0],
            access=AccessDetails("gpu2.example.net", 2201, "ubuntu", one_time_secret="new-pw"),
        )
    access = OrderAccess.objects.get(order=order)
    assert (access.host, access.port, access.username, access.one_time_secret) == (
        "gpu2.example.net",
        2201,
        "ubuntu",
        "new-pw",
    )
    assert access.revealed_at is None
    assert Order.objects.get(pk=order.pk).term_ends_at == ends
    entry = AuditLogEntry.objects.get(action="provisioning.access_corrected")
    assert entry.actor_label == "p1@shop.example"
    assert (entry.before or {})["host"] == "h.example"
    assert (entry.after or {})["changed"] == ["host", "port", "login"]
    assert "new-pw" not in str(entry.before) + str(entry.after)
    [message] = [m for m in mail.outbox if m.to == ["r@example.com"]]
    assert order.ref in message.subject
    assert OutboundEmail.objects.get(key__startswith=f"order-access-corrected:{order.ref}@").language == "tr"
    assert "new-pw" not in message.body
    assert "gpu2.example.net" not in message.body  # the details are shown on the order page, to its owner only
    assert access_reveal_secret(order=order) == "new-pw"


def test_a_correction_that_leaves_the_login_empty_keeps_it(customer, gpu, django_capture_on_commit_callbacks):
    order = make_running_rental(customer, gpu)
    assert access_reveal_secret(order=order) == "pw"  # the customer already knows the password
    revealed = OrderAccess.objects.get(order=order).revealed_at
    with django_capture_on_commit_callbacks(execute=True):
        access_correct(order=order, actor=None, access=AccessDetails("h.example", 2222, "ubuntu"))
    access = OrderAccess.objects.get(order=order)
    assert (access.port, access.one_time_secret, access.revealed_at) == (2222, "", revealed)
    assert (AuditLogEntry.objects.get(action="provisioning.access_corrected").after or {})["changed"] == ["port"]


def test_each_correction_emails_the_customer_once(customer, gpu, django_capture_on_commit_callbacks):
    order = make_running_rental(customer, gpu)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        access_correct(order=order, actor=None, access=AccessDetails("a.example", 22, "ubuntu"))
        access_correct(order=order, actor=None, access=AccessDetails("b.example", 22, "ubuntu"))
    assert len([m for m in mail.outbox if m.to == ["r@example.com"]]) == 2


def test_a_correction_that_changes_nothing_or_of_a_rental_not_ready_is_refused(customer, gpu):
    order = make_running_rental(customer, gpu)
    with pytest.raises(InvalidRequest, match="Nothing to correct"):
        access_correct(order=order, actor=None, access=AccessDetails("h.example", 22, "ubuntu"))
    with pytest.raises(InvalidRequest, match="Other public key installed"):
        access_correct(order=order, actor=None, access=AccessDetails("h.example", 22, "ubuntu", "hello world"))
    term_swept(order)
    with pytest.raises(TransitionNotAllowed):
        access_correct(order=order, actor=None, access=AccessDetails("x.example", 22, "ubuntu"))
    with pytest.raises(TransitionNotAllowed, match="is Ended: no provisioning step applies to it any more"):
        provision_step(order=order, step="correct", actor=None, access=AccessDetails("x.example", 22, "ubuntu"))
    assert AuditLogEntry.objects.filter(action="provisioning.access_corrected").count() == 0


def test_a_jupyter_url_only_for_an_image_with_jupyter(customer, gpu):
    ubuntu = order_paid(customer, gpu.slug, lots=2)
    details = AccessDetails("h.example", 22, "u", KEY, jupyter_url="https://h.example/?token=t")
    with pytest.raises(InvalidRequest, match="The Ubuntu image has no Jupyter"):
        provision_step(order=ubuntu, step="ready", actor=None, access=details)
    pytorch = provision_step(
        order=order_paid(customer, gpu.slug, lots=2, environment="pytorch"), step="ready", actor=None, access=details
    )
    assert OrderAccess.objects.get(order=pytorch).jupyter_url == "https://h.example/?token=t"


# --- Defects 8 and 30: the operators' e-mails say which machine and account ----------------------------------------


def test_the_access_removal_and_machine_request_emails_name_the_machine_and_account(
    customer, gpu, operators, django_capture_on_commit_callbacks
):
    order = provision_step(
        order=order_paid(customer, gpu.slug, lots=2),
        step="ready",
        actor=operators[0],
        access=AccessDetails("gpu1.example.net", 2201, "ana", KEY),
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        machine_request_create(order=order, kind="restart")
    [request] = [m for m in to_operators() if m.to == ["p1@shop.example"]]
    machine = "Machine: gpu1.example.net, port 2201, user ana (ssh -p 2201 ana@gpu1.example.net)"
    assert machine in request.body
    assert "Login: SSH key" in request.body
    assert f"Keys installed: other key {KEY_FINGERPRINT}" in request.body
    assert "Given by p1@shop.example, " in request.body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        term_swept(order)
    [removal] = [m for m in to_operators() if m.to == ["p2@shop.example"]]
    assert machine in removal.body
    assert f"Keys installed: other key {KEY_FINGERPRINT}" in removal.body


def test_the_operators_emails_never_carry_the_password(customer, gpu, operators, django_capture_on_commit_callbacks):
    order = provision_start(order=order_paid(customer, gpu.slug, lots=2), actor=None)
    order = provision_step(
        order=order, step="ready", actor=None, access=AccessDetails("h.example", 22, "u", one_time_secret="s3cret-77")
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        machine_request_create(order=order, kind="stop")
    with django_capture_on_commit_callbacks(execute=True):
        term_swept(order)
    bodies = [message.body for message in to_operators() if message.to == ["p1@shop.example"]]
    assert "Login: one-time password (not revealed)" in bodies[0]  # the machine request, while the term runs
    assert "Login: one-time password (never revealed, erased at the term's end)" in bodies[1]
    assert "s3cret-77" not in " ".join(bodies)


def test_the_removal_email_names_a_password_the_shop_erased_at_the_terms_end(
    customer, gpu, operators, django_capture_on_commit_callbacks
):
    """A key and a password were given: at the term's end the shop erases the password it kept, and the operator is
    still told that one was set on the machine (and a Jupyter URL), to remove them too."""
    access = AccessDetails("h.example", 22, "u", KEY, one_time_secret="pw-3", jupyter_url="https://h.example/?t=1")
    order = provision_step(
        order=order_paid(customer, gpu.slug, lots=2, environment="pytorch"), step="ready", actor=None, access=access
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        term_swept(order)
    [removal] = [m for m in to_operators() if m.to == ["p1@shop.example"]]
    assert "Login: SSH key and one-time password (never revealed, erased at the term's end)" in removal.body
    assert "Jupyter: a URL with its token was given (not shown here)" in removal.body
    assert "Given by system, " in removal.body
    assert "pw-3" not in removal.body
    assert "t=1" not in removal.body


def test_each_step_through_provision_step_as_the_desk_takes_it(customer, gpu):
    order = provision_step(order=order_paid(customer, gpu.slug, lots=2), step="preparing", actor=None)
    assert order.provisioning_status == "preparing"
    order = provision_step(order=order, step="failed", actor=None, reason="  ")
    assert order.status_changes.get(to_status="failed").reason == "could not be provided"  # the standard note


def test_no_step_applies_to_an_extension_nor_to_a_rental_whose_host_made_its_account(customer, gpu):
    from gpurent.hosts.models import HostRental
    from gpurent.orders.extensions import order_extension_place

    rental = make_running_rental(customer, gpu)
    extension = order_extension_place(rental=rental, owner=customer, term_days=3)
    with pytest.raises(
        TransitionNotAllowed, match=re.escape(f"{extension.ref} is an extension: it needs no machine of its own.")
    ):
        provision_step(order=extension, step="preparing", actor=None)
    HostRental.objects.create(order=rental, username="r-host", state="active")
    with pytest.raises(
        TransitionNotAllowed, match=re.escape("a GPU host's agent made its account; correct it on the host.")
    ):
        provision_step(order=rental, step="correct", actor=None, access=AccessDetails("x.example", 22, "u"))
    with pytest.raises(TransitionNotAllowed, match="only a Ready rental prepared at the desk"):
        access_correct(order=rental, actor=None, access=AccessDetails("x.example", 22, "u"))


def test_the_access_given_says_when_the_customer_revealed_the_password(customer, gpu):
    from gpurent.orders.access_details import access_given

    order = make_running_rental(customer, gpu)
    access_reveal_secret(order=order)
    revealed = OrderAccess.objects.get(order=order).revealed_at
    given = access_given(order)
    assert given is not None
    assert given.login == f"one-time password (revealed by the customer {revealed:%d %b %Y, %H:%M} UTC)"
    assert given.keys == ()
    assert access_given(order_paid(customer, gpu.slug, lots=2)) is None
