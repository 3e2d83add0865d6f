"""Issue 26 in real Chromium, on a phone: a customer with their SSH key rents an A100 that a real test host
(sshd, the host agent) provides, pays from the balance, and sees the rental Ready with its `ssh` command with no
operator involved; that command logs in with their key; after the term end the page says access is closed and
the same `ssh` is refused."""

import re
import shlex
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from conftest import register_test_host
from gpurent.backoffice.management.commands.sweep import sweep_once
from gpurent.catalog.models import GpuModel
from gpurent.core.money import Usd
from gpurent.ledger.services import EXTERNAL_CRYPTO, customer_account, system_account, transfer_post
from gpurent.orders.models import Order

from .journeys import customer_logs_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_rental_provisions_itself_and_closes_at_the_term_end(
    live_server, page, demo_catalog, django_user_model, test_host, customer_key, screenshot, console_errors
):
    register_test_host(test_host, GpuModel.objects.get(slug="a100-80gb"), name="node-1", gpus="0,1,2,3")
    page.set_viewport_size({"width": 390, "height": 844})
    customer = customer_logs_in(page, live_server.url, django_user_model)
    transfer_post(
        reference="deposit:B-HOST",
        debit=system_account(EXTERNAL_CRYPTO),
        credit=customer_account(customer),
        amount=Usd(200_000),
    )
    page.goto(live_server.url + "/account/")
    page.get_by_label("Key name").fill("laptop")
    page.get_by_label("Public key").fill(customer_key.with_suffix(".pub").read_text())
    page.get_by_role("button", name="Add key").click()
    expect(page.get_by_test_id("ssh-key-fingerprint")).to_be_visible()

    page.goto(live_server.url + "/checkout/?gpu=a100-80gb&term=3&lots=2")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_label(re.compile(r"laptop"))).to_be_checked()
    page.get_by_role("button", name=re.compile("^Place order")).click()
    page.get_by_role("button", name=re.compile(r"^Pay \$.* from my balance")).click()
    expect(page.get_by_test_id("order-paid")).to_be_visible()

    order = Order.objects.get(owner=customer)
    page.goto(f"{live_server.url}/rentals/{order.ref}/")
    command = page.get_by_test_id("ssh-command")
    expect(command).to_have_text(Order.objects.get(pk=order.pk).access.ssh_command)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the rental page scrolls sideways"
    screenshot("host-rental-ready-phone")

    _ssh, _p, port, target = shlex.split(command.inner_text())
    username = target.split("@")[0]
    assert int(port) == test_host.port
    login = test_host.ssh(username, customer_key, f"{test_host.nvidia_smi} -L")
    assert login.returncode == 0, login.stderr
    assert len(login.stdout.splitlines()) == 2  # their two GPUs, not the host's eight

    term_ends_at = Order.objects.get(pk=order.pk).term_ends_at
    assert term_ends_at is not None
    sweep_once(now=term_ends_at + timedelta(minutes=1))
    page.reload()
    expect(page.get_by_text("The term is over; access is closed.")).to_be_visible()
    screenshot("host-rental-ended-phone")
    assert test_host.ssh(username, customer_key, "true").returncode == 255
    assert console_errors == []
