"""Password refusals in the reader's language, in the shop's words (decision 0443). Issue 29: the checkout's
account step said "This password is too short…" in English to a Vietnamese reader (Django's Vietnamese catalog
has no translation of it), and the Spanish similarity message read "similar a la de correo electrónico"."""

import pytest
from django.urls import reverse
from django.utils import translation

from gpurent.accounts.models import User
from gpurent.accounts.passwords import password_errors

ANA = User(email="anaruiz@example.com", first_name="Ana", last_name="Ruiz")


@pytest.mark.parametrize(
    ("language", "short", "similar", "common"),
    [
        (
            "en",
            "This password is too short. It must contain at least 12 characters.",
            "The password is too similar to your email address.",
            "This password is too common.",
        ),
        (
            "es",
            "La contraseña es demasiado corta: debe tener al menos 12 caracteres.",
            "La contraseña se parece demasiado al dato «correo electrónico» de su cuenta.",
            "Esta contraseña es demasiado común.",
        ),
        (
            "vi",
            "Mật khẩu này quá ngắn: cần có ít nhất 12 ký tự.",
            "Mật khẩu quá giống địa chỉ email của bạn.",
            "Mật khẩu này quá phổ biến.",
        ),
        (
            "tr",
            "Bu parola çok kısa: en az 12 karakter olmalıdır.",
            "Parola, e-posta adresi bilginize çok benziyor.",
            "Bu parola çok yaygın.",
        ),
    ],
)
def test_each_refusal_reads_in_the_language(language, short, similar, common):
    with translation.override(language):
        assert password_errors("short", ANA) == [short]
        assert password_errors("anaruizexample", ANA) == [similar]
        assert password_errors("password1234", ANA) == [common]


@pytest.mark.django_db
def test_the_checkout_account_step_refuses_a_short_password_in_vietnamese(client, gpu):
    client.post(
        reverse("orders:checkout_start"),
        {"gpu": gpu.slug, "term": "7", "lots": "1", "environment": "ubuntu", "environment_note": ""},
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    response = client.post(
        reverse("orders:checkout_account"),
        {
            "step_action": "register",
            "first_name": "Linh",
            "last_name": "Nguyễn",
            "email": "l@example.com",
            "password": "short",
        },
        HTTP_ACCEPT_LANGUAGE="vi",
    )
    page = response.content.decode()
    assert "Mật khẩu này quá ngắn: cần có ít nhất 12 ký tự." in page
    assert "too short" not in page
