"""The customer's SSH keys travel from checkout to the machine: the desk, the command provisioner, the rental
page and the API; the Jupyter URL is shown only to the owner during the term."""

import stat
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gpurent.accounts.services import ssh_key_add
from gpurent.core.errors import InvalidRequest
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order, OrderAccess, OrderSshKey
from gpurent.orders.provisioning import AccessDetails, CommandProvisioner, provision_ready, provision_start
from gpurent.orders.services import Contact, order_place

pytestmark = pytest.mark.django_db

LAPTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJUGuYRqDEl2LE7zPdvoSaHv1/651IMn+SkGdm4Khijo ana@laptop"
LAPTOP_FINGERPRINT = "SHA256:xCEx7JbDd3x2dkFBo6frjzFkHBhSZZMGlIXTf6NN5OA"
WORKSTATION = (
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBCgThtdsPtzuCAiroBi8iCwkHW3o"
    "WZV6XE+UvwPlcMVfVIjy+XTK9wb5IyVir8LBndsUxxDzGsCgzCi6ClmbnYA= ws"
)


@pytest.fixture
def customer(django_user_model):
    user = django_user_model.objects.create_user("ana@example.com", "plum orbit ferry", first_name="Ana", last_name="S")
    ssh_key_add(user=user, name="laptop", public_key=LAPTOP)
    ssh_key_add(user=user, name="workstation", public_key=WORKSTATION)
    transfer_post(
        reference="deposit:T1",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(user),
        amount=Usd(500_000),
    )
    return user


def summary_data(client, **overrides):
    form = client.get(reverse("orders:checkout_summary")).context["form"]
    data = {name: form[name].value() for name in form.fields}
    data.update({"idempotency_key": "k-1", **overrides})
    return data


def paid(order, owner):
    from gpurent.payments.services import order_pay_from_balance

    return order_pay_from_balance(order=order, owner=owner)


def test_checkout_offers_every_key_ticked_and_places_the_chosen_ones(client, customer, gpu):
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), {"gpu": gpu.slug, "term": "7", "lots": "1", "environment": "pytorch"})
    page = client.get(reverse("orders:checkout_summary")).content.decode()
    assert page.count('name="ssh_keys"') == 2
    assert page.count("checked") >= 2
    assert LAPTOP_FINGERPRINT in page
    laptop = customer.ssh_keys.get(name="laptop")
    data = summary_data(client, ssh_keys=[str(laptop.pk)])
    response = client.post(reverse("orders:checkout_place"), data)
    assert response.status_code == 302
    order = Order.objects.get()
    assert list(order.ssh_keys.values_list("name", "fingerprint", "public_key")) == [
        ("laptop", LAPTOP_FINGERPRINT, LAPTOP)
    ]


def test_checkout_cannot_install_another_customers_key(client, customer, django_user_model, gpu):
    other = django_user_model.objects.create_user("bo@example.com", "plum orbit ferry", first_name="B", last_name="L")
    theirs = ssh_key_add(user=other, name="bo", public_key=LAPTOP)
    client.force_login(customer)
    client.post(reverse("orders:checkout_start"), {"gpu": gpu.slug, "term": "7", "lots": "1", "environment": "ubuntu"})
    response = client.post(reverse("orders:checkout_place"), summary_data(client, ssh_keys=[str(theirs.pk)]))
    assert response.status_code == 302
    assert not Order.objects.exists()  # the choice was refused, nothing placed


def test_order_place_copies_only_the_owners_keys(customer, django_user_model, gpu):
    other = django_user_model.objects.create_user("bo@example.com", "plum orbit ferry", first_name="B", last_name="L")
    theirs = ssh_key_add(user=other, name="bo", public_key=WORKSTATION)
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=3,
        lots=1,
        environment="ubuntu",
        contact=Contact("A", "S", "a@x.io"),
        ssh_keys=[*customer.ssh_keys.all(), theirs],
    )
    assert sorted(order.ssh_keys.values_list("name", flat=True)) == ["laptop", "workstation"]
    customer.ssh_keys.all().delete()  # removing keys from the account later changes nothing on the order
    assert OrderSshKey.objects.filter(order=order).count() == 2


@pytest.fixture
def keyed_order(customer, gpu):
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=7,
        lots=1,
        environment="pytorch",
        contact=Contact("A", "S", "a@x.io"),
        ssh_keys=list(customer.ssh_keys.filter(name="laptop")),
    )
    return paid(order, customer)


def test_ready_with_the_customers_keys_needs_no_other_key(keyed_order):
    order = provision_ready(
        order=provision_start(order=keyed_order, actor=None),
        actor=None,
        access=AccessDetails("gpu-1.example.net", 22, "ubuntu", jupyter_url="https://gpu-1.example.net/?token=s3cr"),
    )
    access = OrderAccess.objects.get(order=order)
    assert access.public_key == LAPTOP
    assert access.jupyter_url == "https://gpu-1.example.net/?token=s3cr"


def test_ready_without_keys_or_password_is_refused(customer, gpu):
    order = paid(
        order_place(
            owner=customer,
            gpu_slug=gpu.slug,
            term_days=3,
            lots=1,
            environment="ubuntu",
            contact=Contact("A", "S", "a@x.io"),
        ),
        customer,
    )
    with pytest.raises(InvalidRequest, match="public key or a one-time password"):
        provision_ready(order=order, actor=None, access=AccessDetails("h.example", 22, "ubuntu"))


def test_jupyter_url_must_be_a_web_address(keyed_order):
    with pytest.raises(InvalidRequest, match="Jupyter URL"):
        provision_ready(
            order=provision_start(order=keyed_order, actor=None),
            actor=None,
            access=AccessDetails("h.example", 22, "ubuntu", jupyter_url="javascript:alert(1)"),
        )


def test_command_provisioner_receives_the_chosen_keys(keyed_order, tmp_path):
    script = tmp_path / "provision.sh"
    seen = tmp_path / "keys.txt"
    access = '{"host": "10.0.0.5", "user": "ubuntu", "jupyter_url": "https://10.0.0.5:8888/?token=t0k"}'
    script.write_text(f"#!/bin/sh\nprintf '%s' \"$SSH_PUBLIC_KEYS\" > {seen}\necho '{access}'\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    CommandProvisioner(str(script)).start(keyed_order)
    assert seen.read_text() == LAPTOP
    order = Order.objects.get(pk=keyed_order.pk)
    assert order.provisioning_status == "ready"
    assert order.access.public_key == LAPTOP
    assert order.access.jupyter_url == "https://10.0.0.5:8888/?token=t0k"


def test_rental_page_and_api_show_installed_keys_and_jupyter_to_the_owner_during_the_term(
    client, keyed_order, django_user_model
):
    provision_ready(
        order=provision_start(order=keyed_order, actor=None),
        actor=None,
        access=AccessDetails("gpu-1.example.net", 2222, "ubuntu", jupyter_url="https://gpu-1.example.net/?token=s3cr"),
    )
    client.force_login(keyed_order.owner)
    page = client.get(reverse("orders:rental", args=[keyed_order.ref])).content.decode()
    assert "ssh -p 2222 ubuntu@gpu-1.example.net" in page
    assert 'data-copy="ssh -p 2222 ubuntu@gpu-1.example.net"' in page
    assert LAPTOP_FINGERPRINT in page
    assert "https://gpu-1.example.net/?token=s3cr" in page
    api = client.get(f"/api/v1/orders/{keyed_order.ref}").json()["access"]
    assert api["ssh_keys"] == [{"name": "laptop", "fingerprint": LAPTOP_FINGERPRINT}]
    assert api["jupyter_url"] == "https://gpu-1.example.net/?token=s3cr"
    # Another customer gets a 404; after the term nothing is shown.
    stranger = django_user_model.objects.create_user("x@example.com", "plum orbit ferry", first_name="X", last_name="Y")
    client.force_login(stranger)
    assert client.get(reverse("orders:rental", args=[keyed_order.ref])).status_code == 404
    Order.objects.filter(pk=keyed_order.pk).update(term_ends_at=timezone.now() - timedelta(seconds=1))
    client.force_login(keyed_order.owner)
    page = client.get(reverse("orders:rental", args=[keyed_order.ref])).content.decode()
    assert "s3cr" not in page
    assert client.get(f"/api/v1/orders/{keyed_order.ref}").json()["access"] is None
