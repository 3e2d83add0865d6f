"""The checkout's account step with an account that uses two-factor login: the code page comes between the
password and the summary, and the choice survives."""

import pytest
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.accounts.tests.otp_helpers import OtpClock, install_otp_clock

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
CHOICE = {"gpu": "b200-2x180gb", "term": "7", "lots": "2", "environment": "pytorch", "environment_note": ""}


@pytest.fixture
def otp_clock(monkeypatch: pytest.MonkeyPatch) -> OtpClock:
    return install_otp_clock(monkeypatch)


def test_checkout_login_with_two_factor_asks_the_code_then_returns_to_the_summary(
    client, django_user_model, b200, otp_clock
):
    customer = django_user_model.objects.create_user("ada@example.com", PASSWORD, first_name="Ada", last_name="L")
    device = TOTPDevice.objects.create(user=customer, name="app", confirmed=True)
    client.post(reverse("orders:checkout_start"), CHOICE)
    response = client.post(
        reverse("orders:checkout_account"),
        {"step_action": "login", "username": "ada@example.com", "password": PASSWORD},
    )
    assert response["Location"].startswith(reverse("accounts:login_code"))
    # Not logged in yet: the summary still sends the visitor to the account step.
    assert client.get(reverse("orders:checkout_summary"))["Location"] == reverse("orders:checkout_account")
    done = client.post(
        reverse("accounts:login_code"), {"code": otp_clock.code(device), "next": reverse("orders:checkout_summary")}
    )
    assert done["Location"] == reverse("orders:checkout_summary")
    assert "$3,400.00" in client.get(reverse("orders:checkout_summary")).content.decode()
