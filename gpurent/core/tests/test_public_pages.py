"""Anonymous pages without a form that needs it carry no CSRF token and set no cookie; they are compressed.
Every form still passes CSRF, the language switcher included (decisions 0183, 0184)."""

import gzip
import re

import pytest
from django.test import Client
from django.urls import reverse

from gpurent.accounts.services import api_token_create

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = [
    "/",
    "/gpus/h100-80gb/",
    "/guides/",
    "/guides/?workload=llm-serving",
    "/glossary/",
    "/help/",
    "/?vendor=AMD",
]
TOKEN_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def visitor(demo_catalog) -> Client:
    return Client(enforce_csrf_checks=True)


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_an_anonymous_public_page_sets_no_cookie_and_carries_no_token(visitor, url):
    response = visitor.get(url)
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    assert not response.cookies
    page = response.content.decode()
    assert "csrfmiddlewaretoken" not in page
    assert "X-CSRFToken" not in page
    assert 'class="language-switch" data-csrf-lazy' in page


def test_a_page_with_a_form_keeps_its_token_and_the_language_switcher_shares_it(visitor):
    response = visitor.get(reverse("sizing:estimate"))
    assert "csrftoken" in response.cookies
    tokens = TOKEN_FIELD.findall(response.content.decode())
    assert len(tokens) == 2  # the estimator's form and the footer's language switcher


def test_the_language_switcher_without_javascript_asks_again_with_a_token(visitor):
    visitor.get("/gpus/h100-80gb/")
    refused = visitor.post(reverse("set_language"), {"language": "es", "next": "/gpus/h100-80gb/"})
    assert refused.status_code == 403
    page = refused.content.decode()
    assert 'data-testid="language-again"' in page
    assert 'name="next" value="/gpus/h100-80gb/"' in page
    token = TOKEN_FIELD.findall(page)[0]
    switched = visitor.post(
        reverse("set_language"), {"language": "es", "next": "/gpus/h100-80gb/", "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302
    assert switched.headers["Location"] == "/gpus/h100-80gb/"
    assert visitor.cookies["gpurent_language"].value == "es"


def test_the_language_again_page_never_redirects_to_another_site(visitor):
    refused = visitor.post(reverse("set_language"), {"language": "es", "next": "https://evil.example/"})
    assert refused.status_code == 403
    assert 'name="next" value="/"' in refused.content.decode()


def test_the_lazily_fetched_token_passes_csrf(visitor):
    response = visitor.get(reverse("csrf_token"))
    assert "no-cache" in response.headers["Cache-Control"]
    token = response.json()["token"]
    switched = visitor.post(reverse("set_language"), {"language": "tr", "next": "/"}, headers={"X-CSRFToken": token})
    assert switched.status_code == 302
    assert visitor.cookies["gpurent_language"].value == "tr"


def test_a_post_without_any_token_is_still_refused(visitor):
    assert visitor.post(reverse("set_language"), {"language": "es"}).status_code == 403
    assert visitor.post(reverse("sizing:estimate"), {}).status_code == 403


def test_an_anonymous_public_page_is_compressed(visitor):
    for url in ["/", "/guides/", "/api/v1/catalog"]:
        plain = visitor.get(url)
        packed = visitor.get(url, headers={"accept-encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert len(packed.content) < len(plain.content) / 3
        assert gzip.decompress(packed.content).count(b'data-gpu="') == plain.content.count(b'data-gpu="')


def test_nothing_with_a_token_or_of_a_visitor_is_compressed(visitor, django_user_model):
    assert (
        "Content-Encoding" not in visitor.get(reverse("sizing:estimate"), headers={"accept-encoding": "gzip"}).headers
    )
    user = django_user_model.objects.create_user("ana@example.com", "x" * 16, first_name="Ana", last_name="L")
    _token, secret = api_token_create(user=user, name="t")
    api = visitor.get("/api/v1/catalog", headers={"accept-encoding": "gzip", "authorization": f"Bearer {secret}"})
    assert "Content-Encoding" not in api.headers
    visitor.force_login(user)
    assert "Content-Encoding" not in visitor.get("/", headers={"accept-encoding": "gzip"}).headers
