"""Whole catalog and GPU pages from the cache for anonymous visitors (decision 0200): served without rendering,
never stale after a stock, price or model change, per language and query, and never to or from a signed-in
customer."""

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import INFO, add_message
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import catalog_version
from gpurent.catalog.services import stock_release, stock_reserve
from gpurent.core.page_cache import cached_page, page_key, public_key, store_page

pytestmark = pytest.mark.django_db

INDEX = "catalog/index.html"
DETAIL = "catalog/detail.html"


def rendered(response) -> list[str]:
    return [template.name for template in response.templates]


def card_of(response, slug: str) -> str:
    page = response.content.decode()
    start = page.index(f'data-gpu="{slug}"')
    return page[start : page.index("</article>", start)]


def test_the_second_anonymous_visit_renders_nothing_and_is_the_same_page(client, demo_catalog):
    first = client.get(reverse("catalog:index"))
    assert INDEX in rendered(first)
    second = client.get(reverse("catalog:index"))
    assert rendered(second) == []
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"]
    assert "Cookie" in second["Vary"]
    assert not second.cookies


def test_a_stock_change_shows_at_once_on_the_cached_page(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    assert f"{gpu.stock_lots} lots available" in card_of(client.get("/"), gpu.slug)
    assert rendered(client.get("/")) == []  # cached now
    assert stock_reserve(gpu_id=gpu.pk, lots=gpu.stock_lots - 1)  # an order: an UPDATE, no save()
    assert "1 lot available" in card_of(client.get("/"), gpu.slug)
    stock_release(gpu_id=gpu.pk, lots=2)
    assert "3 lots available" in card_of(client.get("/"), gpu.slug)


def test_a_price_or_name_change_and_a_new_model_show_at_once(client, demo_catalog):
    client.get("/")
    gpu = GpuModel.objects.get(slug="h100-80gb")
    gpu.price_7d_cents = 123_400
    gpu.name = "H100 80GB SXM"
    gpu.save()
    card = card_of(client.get("/"), gpu.slug)
    assert "$1,234" in card
    assert "H100 80GB SXM" in card
    gpu.pk, gpu.slug, gpu.name, gpu.position = None, "h100-copy", "H100 copy", 99
    gpu.save()
    page = client.get("/").content.decode()
    assert "8 GPU models" in page
    assert 'data-gpu="h100-copy"' in page


def test_each_language_and_query_has_its_own_cached_page(client, demo_catalog, settings):
    english = client.get("/").content.decode()
    spanish = client.get("/", headers={"accept-language": "es"})
    assert INDEX in rendered(spanish)
    assert 'lang="es"' in spanish.content.decode()
    assert "lotes disponibles" in spanish.content.decode()
    assert 'lang="en"' in client.get("/").content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"  # what the language switcher sets
    assert 'lang="tr"' in client.get("/").content.decode()
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    amd = client.get("/", {"vendor": "AMD"}).content.decode()
    assert amd != english
    assert 'data-gpu="h100-80gb"' not in amd
    assert 'name="next" value="/?vendor=AMD"' in amd  # the language switcher returns to this very query
    assert 'data-gpu="h100-80gb"' in client.get("/").content.decode()


def test_a_signed_in_customer_sees_their_own_header_never_the_cached_page(client, demo_catalog, django_user_model):
    anonymous = client.get("/").content.decode()
    assert "Log in" in anonymous
    user = django_user_model.objects.create_user("ana@example.com", "x" * 16, first_name="Ana", last_name="L")
    client.force_login(user)
    mine = client.get("/")
    assert INDEX in rendered(mine)
    page = mine.content.decode()
    assert "Log out" in page
    assert "My rentals" in page
    assert "Log in" not in page
    client.logout()
    after = Client().get("/").content.decode()  # a new visitor, no cookie at all
    assert "Log out" not in after
    assert "My rentals" not in after
    assert "csrfmiddlewaretoken" not in after


def test_one_customers_page_never_reaches_another(demo_catalog, django_user_model):
    ana = django_user_model.objects.create_user("ana@example.com", "x" * 16)
    ben = django_user_model.objects.create_user("ben@example.com", "y" * 16)
    first, second = Client(), Client()
    first.force_login(ana)
    second.force_login(ben)
    ana_page = first.get("/")
    ben_page = second.get("/")
    assert INDEX in rendered(ana_page)
    assert INDEX in rendered(ben_page)
    tokens = [
        page.content.decode().split('name="csrfmiddlewaretoken" value="')[1][:20] for page in (ana_page, ben_page)
    ]
    assert tokens[0] != tokens[1]  # each page carries its own logout token, none was reused


def test_the_gpu_page_is_cached_and_shows_a_stock_change_at_once(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    url = reverse("catalog:detail", args=[gpu.slug])
    first = client.get(url)
    assert DETAIL in rendered(first)
    assert rendered(client.get(url)) == []
    assert stock_reserve(gpu_id=gpu.pk, lots=gpu.stock_lots)
    sold_out = client.get(url)
    assert DETAIL in rendered(sold_out)
    assert sold_out.content != first.content
    month = client.get(url, {"term": "30", "lots": "1"})
    assert DETAIL in rendered(month)


@pytest.fixture
def anonymous_get():
    def make(path: str = "/", **extra: Any) -> Any:
        request: Any = RequestFactory().get(path, **extra)
        request.session = SessionStore()
        request._messages = FallbackStorage(request)
        request.user = AnonymousUser()
        return request

    return make


def test_page_key_refuses_every_request_that_is_not_the_anonymous_page(anonymous_get, settings, django_user_model):
    assert page_key(anonymous_get(), "t", str) is not None
    assert page_key(anonymous_get(HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}=abc"), "t", str) is None
    assert page_key(anonymous_get(HTTP_AUTHORIZATION="Bearer gpr_x"), "t", str) is None
    assert page_key(anonymous_get(HTTP_HX_REQUEST="true"), "t", str) is None
    with_message = anonymous_get()
    add_message(with_message, INFO, "Saved.")
    assert page_key(with_message, "t", str) is None
    signed_in = anonymous_get()
    signed_in.user = django_user_model(email="ana@example.com")
    assert page_key(signed_in, "t", str) is None
    assert page_key(anonymous_get("/?a=1"), "t", str) != page_key(anonymous_get("/?a=2"), "t", str)
    assert page_key(anonymous_get(), "t", lambda: 1) != page_key(anonymous_get(), "t", lambda: 2)
    # An answer that shows no caller (the catalog API's JSON): the same key whoever asks, never for htmx or POST.
    anonymous = public_key(anonymous_get(), "t", str)
    assert anonymous is not None
    assert public_key(anonymous_get(), "t", lambda: 1) != public_key(anonymous_get(), "t", lambda: 2)
    assert public_key(anonymous_get("/?a=1"), "t", str) != public_key(anonymous_get("/?a=2"), "t", str)
    assert public_key(anonymous_get(HTTP_AUTHORIZATION="Bearer gpr_x"), "t", str) == anonymous
    assert public_key(anonymous_get(HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}=abc"), "t", str) == anonymous
    assert public_key(signed_in, "t", str) == anonymous
    assert public_key(anonymous_get(HTTP_HX_REQUEST="true"), "t", str) is None
    posted: Any = RequestFactory().post("/")
    assert public_key(posted, "t", str) is None


def test_store_page_keeps_only_a_plain_page_without_cookie_or_token(anonymous_get):
    request = anonymous_get()
    key = page_key(request, "t", str)
    with_cookie = HttpResponse("<p>a</p>")
    with_cookie.set_cookie("x", "1")
    store_page(request, key, with_cookie)
    assert cached_page(key) is None
    store_page(request, key, HttpResponse('<input name="csrfmiddlewaretoken" value="t">'))
    assert cached_page(key) is None
    store_page(request, key, HttpResponse("<p>gone</p>", status=404))
    assert cached_page(key) is None
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    store_page(request, key, HttpResponse("<p>a</p>"))
    assert cached_page(key) is None
    del request.META["CSRF_COOKIE_NEEDS_UPDATE"]
    request.session["cart"] = 1
    store_page(request, key, HttpResponse("<p>a</p>"))
    assert cached_page(key) is None
    request.session.modified = False
    store_page(request, key, HttpResponse("<p>a</p>"))
    stored = cached_page(key)
    assert stored is not None
    assert stored.content == b"<p>a</p>"


def test_a_cached_page_costs_one_small_query(client, demo_catalog, django_assert_num_queries):
    client.get("/")
    client.get("/gpus/h100-80gb/")
    with django_assert_num_queries(1):
        assert client.get("/").status_code == 200
    with django_assert_num_queries(1):
        assert client.get("/gpus/h100-80gb/").status_code == 200


def test_a_gpu_taken_off_sale_leaves_the_cached_pages(client, demo_catalog):
    assert client.get("/gpus/h100-80gb/").status_code == 200
    assert "7 GPU models" in client.get("/").content.decode()
    gpu = GpuModel.objects.get(slug="h100-80gb")
    gpu.on_sale = False
    gpu.save()
    assert client.get("/gpus/h100-80gb/").status_code == 404
    page = client.get("/").content.decode()
    assert "6 GPU models" in page
    assert 'data-gpu="h100-80gb"' not in page


def test_the_catalog_version_moves_with_every_change_a_page_shows(demo_catalog):
    seen = {catalog_version()}
    gpu = GpuModel.objects.get(slug="h100-80gb")
    other = GpuModel.objects.exclude(pk=gpu.pk).get(slug="a100-80gb")
    assert stock_reserve(gpu_id=gpu.pk, lots=1)
    stock_release(gpu_id=other.pk, lots=1)  # stock moved on two rows, its sum did not
    seen.add(catalog_version())
    gpu.price_30d_cents += 1
    gpu.save()
    seen.add(catalog_version())
    gpu.on_sale = False
    gpu.save(update_fields=["on_sale", "updated_at"])
    seen.add(catalog_version())
    assert len(seen) == 4


def test_the_public_catalog_api_is_cached_byte_for_byte_and_follows_stock(
    client, demo_catalog, django_user_model, django_assert_num_queries
):
    first = client.get("/api/v1/catalog", {"limit": "3"})
    with django_assert_num_queries(1):
        second = client.get("/api/v1/catalog", {"limit": "3"})
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"] == "application/json; charset=utf-8"
    user = django_user_model.objects.create_user("ana@example.com", "x" * 16)
    _, token = api_token_create(user=user, name="t")
    # Built by ninja from the schema (an htmx request is never cached): the cached copy is the same bytes.
    built = client.get("/api/v1/catalog", {"limit": "3"}, headers={"hx-request": "true"})
    assert built.content == first.content
    # A call with a token, a session or a token that is not one gets the same entry: the answer shows no caller
    # and the endpoint authenticates no one (decision 0255); served with the one version query, no token read.
    with django_assert_num_queries(1):
        with_token = client.get("/api/v1/catalog", {"limit": "3"}, headers={"authorization": f"Bearer {token}"})
    assert with_token.content == first.content
    assert client.get("/api/v1/catalog", {"limit": "3"}, headers={"authorization": "Bearer x"}).content == first.content
    client.force_login(user)
    with django_assert_num_queries(1):  # the version; the session is never read
        assert client.get("/api/v1/catalog", {"limit": "3"}).content == first.content
    client.logout()
    assert len(first.json()["items"]) == 3
    assert first.json()["next"]
    everything = client.get("/api/v1/catalog").json()["items"]
    assert len(everything) == 7
    gpu = GpuModel.objects.get(slug="h100-80gb")
    stock = {item["slug"]: item["stock_lots"] for item in everything}[gpu.slug]
    assert stock_reserve(gpu_id=gpu.pk, lots=1)
    after = {item["slug"]: item["stock_lots"] for item in client.get("/api/v1/catalog").json()["items"]}
    assert after[gpu.slug] == stock - 1
    assert client.get("/api/v1/catalog", {"cursor": "not-a-cursor"}).status_code == 422
    assert client.get("/api/v1/catalog", {"cursor": "not-a-cursor"}).status_code == 422
