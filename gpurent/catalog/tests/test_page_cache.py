"""Whole catalog, GPU and guide pages from the cache for every visitor (decisions 0200, 0425): served without
rendering, with stock read live, never stale after a price, name or model change, per language, query and kind
of visitor, and with each visitor's own token and header only."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import INFO, add_message
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse

from gpurent.accounts.services import api_token_create
from gpurent.catalog.models import GpuModel
from gpurent.catalog.selectors import catalog_state, catalog_version, gpus_like
from gpurent.catalog.services import stock_release, stock_reserve
from gpurent.core.caching.pages import cached_page, public_key, shared_page, store_page

pytestmark = pytest.mark.django_db

INDEX = "catalog/index.html"
DETAIL = "catalog/detail.html"
PASSWORD = "x" * 16


def rendered(response) -> list[str]:
    return [template.name for template in response.templates]


def card_of(response, slug: str) -> str:
    """The card's HTML, from its opening tag (its class says whether it is sold out)."""
    page = response.content.decode()
    start = page.rindex("<article", 0, page.index(f'data-gpu="{slug}"'))
    return page[start : page.index("</article>", start)]


def token_of(response) -> str:
    return response.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]


def test_the_second_anonymous_visit_renders_nothing_and_is_the_same_page(client, demo_catalog):
    first = client.get(reverse("catalog:index"))
    assert INDEX in rendered(first)
    second = client.get(reverse("catalog:index"))
    assert rendered(second) == []
    assert second.content == first.content
    assert second["Content-Type"] == first["Content-Type"]
    assert "Cookie" in second["Vary"]
    assert not second.cookies
    assert "<!--" not in second.content.decode().split("<body", 1)[1]  # every hole was filled


def test_an_order_leaves_the_cached_page_and_its_stock_is_read_live(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    assert f"{gpu.stock_lots} lots available" in card_of(client.get("/"), gpu.slug)
    assert rendered(client.get("/")) == []  # cached now
    assert stock_reserve(gpu_id=gpu.pk, lots=gpu.stock_lots - 1)  # an order: an UPDATE, no save()
    after_order = client.get("/")
    assert rendered(after_order) == []  # still the cached page
    assert "1 lot available" in card_of(after_order, gpu.slug)
    stock_release(gpu_id=gpu.pk, lots=2)
    released = client.get("/")
    assert rendered(released) == []
    assert "3 lots available" in card_of(released, gpu.slug)


def test_a_gpu_sold_out_from_the_cache_loses_its_rent_button_and_looks_sold_out(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    url = reverse("catalog:detail", args=[gpu.slug])
    for path in ("/", url, url):
        client.get(path)
    card = card_of(client.get("/"), gpu.slug)
    assert "rent-button" in card
    assert card.startswith('<article class="gpu-card" ')
    assert stock_reserve(gpu_id=gpu.pk, lots=gpu.stock_lots)
    page, detail = client.get("/"), client.get(url)
    assert rendered(page) == rendered(detail) == []
    card = card_of(page, gpu.slug)
    assert card.startswith('<article class="gpu-card is-sold-out" ')
    assert "rent-button" not in card
    assert "Sold out" in card
    assert "rent-button" not in detail.content.decode()
    # The GPU page's total for more lots than there are warns, from the stock read now.
    stock_release(gpu_id=gpu.pk, lots=2)
    asked = client.get(url, {"term": "7", "lots": "5"})
    assert "Only 2 lots are in stock right now." in asked.content.decode()
    assert "rent-button" in asked.content.decode()
    assert rendered(client.get(url, {"term": "7", "lots": "5"})) == []
    stock_release(gpu_id=gpu.pk, lots=4)
    assert "in stock right now" not in client.get(url, {"term": "7", "lots": "5"}).content.decode()


def test_a_price_or_name_change_and_a_new_model_show_at_once(client, demo_catalog):
    client.get("/")
    gpu = GpuModel.objects.get(slug="h100-80gb")
    gpu.price_7d_cents = 123_400
    gpu.name = "H100 80GB SXM"
    gpu.save()
    changed = client.get("/")
    assert INDEX in rendered(changed)
    card = card_of(changed, gpu.slug)
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


def test_in_stock_only_is_about_stock_and_never_a_cached_page(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    assert f'data-gpu="{gpu.slug}"' in client.get("/", {"in_stock": "on"}).content.decode()
    assert INDEX in rendered(client.get("/", {"in_stock": "on"}))
    assert stock_reserve(gpu_id=gpu.pk, lots=gpu.stock_lots)
    assert f'data-gpu="{gpu.slug}"' not in client.get("/", {"in_stock": "on"}).content.decode()


def test_a_signed_in_customer_gets_the_cached_page_with_their_own_header(client, demo_catalog, django_user_model):
    anonymous = client.get("/").content.decode()
    assert "Log in" in anonymous
    assert "csrfmiddlewaretoken" not in anonymous
    user = django_user_model.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="L")
    client.force_login(user)
    mine = client.get("/")
    assert INDEX in rendered(mine)  # the signed-in page is its own entry
    again = client.get("/")
    assert rendered(again) == []
    for page in (mine, again):
        text = page.content.decode()
        assert "Log out" in text
        assert "My rentals" in text
        assert "Log in" not in text
        assert token_of(page)
    assert again.cookies["csrftoken"].value  # the token on the page is backed by the visitor's CSRF cookie
    client.logout()
    after = Client().get("/").content.decode()  # a new visitor, no cookie at all
    assert "Log out" not in after
    assert "My rentals" not in after
    assert "csrfmiddlewaretoken" not in after


def test_two_customers_share_one_rendering_and_each_gets_only_their_own_parts(demo_catalog, django_user_model):
    ana = django_user_model.objects.create_user("ana@example.com", PASSWORD, first_name="Ana", last_name="Alpha")
    ben = django_user_model.objects.create_user("ben@example.com", PASSWORD, first_name="Ben", last_name="Beta")
    first, second = Client(), Client(enforce_csrf_checks=True)
    first.force_login(ana)
    second.force_login(ben)
    for path in ("/", "/gpus/h100-80gb/", "/guides/"):
        ana_page = first.get(path)
        ben_page = second.get(path)
        assert rendered(ben_page) == []  # Ben got the page rendered for Ana's request
        assert ana_page.status_code == ben_page.status_code == 200
        for page, other in ((ana_page, ben), (ben_page, ana)):
            text = page.content.decode()
            assert other.email not in text
            assert other.first_name not in text
            assert other.last_name not in text
        assert token_of(ana_page) != token_of(ben_page)
    # Each page carries a token of its own visitor's CSRF secret: Ben's logs Ben out.
    logout = second.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": token_of(ben_page)})
    assert logout.status_code == 302
    assert "Log in" in second.get("/").content.decode()


WHO = "[{{ user.email }}|{{ request.user.email }}|{{ user.is_authenticated }}|{{ perms.catalog }}]"


WHO = "[{{ user.email }}|{{ request.user.email }}|{{ user.is_authenticated }}|{{ perms.catalog.view_gpumodel }}]"
TEMPLATE_WHO = {
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "OPTIONS": {
        "loaders": [("django.template.loaders.locmem.Loader", {"who.html": WHO})],
        "context_processors": [
            "django.template.context_processors.request",
            "django.contrib.auth.context_processors.auth",
        ],
    },
}


@override_settings(TEMPLATES=[TEMPLATE_WHO])
def test_a_shared_page_is_rendered_for_no_customer_in_particular(rf, django_user_model):
    """Whatever a template of a shared page asks of the user, it gets a stand-in: signed in, and nobody."""
    staff = django_user_model.objects.create_superuser("root@example.com", PASSWORD, first_name="R")
    request: Any = rf.get("/who/")
    request.user, request.session, request.LANGUAGE_CODE = staff, SessionStore(), "en"
    request._messages = FallbackStorage(request)
    page = shared_page(request, "who", catalog_state)
    assert page.parts is None
    answer = page.render("who.html", {}).content.decode()
    assert answer == "[||True|False]"
    assert request.user is staff
    assert shared_page(request, "who", catalog_state).response({}).content.decode() == answer
    request.user = AnonymousUser()
    assert shared_page(request, "who", catalog_state).render("who.html", {}).content.decode() == "[||False|False]"


def test_the_gpu_page_is_cached_for_every_visitor_and_a_price_change_renders_it_anew(client, demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    url = reverse("catalog:detail", args=[gpu.slug])
    first = client.get(url)
    assert DETAIL in rendered(first)
    assert rendered(client.get(url)) == []
    gpu.price_30d_cents = 555_500
    gpu.save()
    repriced = client.get(url)
    assert DETAIL in rendered(repriced)
    assert "$5,555" in repriced.content.decode()
    month = client.get(url, {"term": "30", "lots": "1"})
    assert DETAIL in rendered(month)


@pytest.fixture
def anonymous_get():
    def make(path: str = "/", **extra: Any) -> Any:
        request: Any = RequestFactory().get(path, **extra)
        request.session = SessionStore()
        request._messages = FallbackStorage(request)
        request.user = AnonymousUser()
        request.LANGUAGE_CODE = "en"
        return request

    return make


def test_a_shared_page_has_no_key_when_it_must_be_rendered_for_this_request(anonymous_get, django_user_model):
    def key(request: Any) -> str | None:
        return shared_page(request, "t", catalog_state).key

    assert key(anonymous_get()) is not None
    assert key(anonymous_get(HTTP_AUTHORIZATION="Bearer gpr_x")) is None
    assert key(anonymous_get(HTTP_HX_REQUEST="true")) is None
    with_message = anonymous_get()
    add_message(with_message, INFO, "Saved.")
    assert key(with_message) is None
    posted: Any = RequestFactory().post("/")
    posted.user = AnonymousUser()
    assert key(posted) is None
    signed_in = anonymous_get()
    signed_in.user = django_user_model(email="ana@example.com")
    assert key(signed_in) not in (None, key(anonymous_get()))  # its own entry: its header differs
    assert key(anonymous_get("/?a=1")) != key(anonymous_get("/?a=2"))
    gpu_before = key(anonymous_get())
    assert key(anonymous_get()) == gpu_before


def _with_cookie() -> HttpResponse:
    response = HttpResponse("<p>a</p>")
    response.set_cookie("x", "1")
    return response


@pytest.mark.parametrize(
    ("answer", "change", "stored"),
    [
        (lambda: HttpResponse("<p>a</p>"), None, True),
        (lambda: HttpResponse("<p>a</p>"), lambda request: request.session.__setitem__("cart", 1), False),
        (_with_cookie, None, False),
        (lambda: HttpResponse("<p>gone</p>", status=404), None, False),
        (lambda: HttpResponse("{}", content_type="application/json; charset=utf-8"), None, False),
        (lambda: HttpResponse('<input type="hidden" name="idempotency_key" value="k">'), None, False),
    ],
    ids=["plain", "session changed", "cookie", "404", "json", "idempotency key"],
)
def test_a_shared_page_is_stored_only_when_it_holds_nothing_of_this_request(
    anonymous_get, db, monkeypatch, answer, change, stored
):
    import gpurent.core.caching.pages as page_cache

    monkeypatch.setattr(page_cache, "render", lambda *args, **kwargs: answer())
    request = anonymous_get("/t/")
    if change:
        change(request)
    shared_page(request, "t", catalog_state).render("any.html", {})
    assert (shared_page(anonymous_get("/t/"), "t", catalog_state).parts is not None) is stored


def test_a_csrf_field_is_stored_as_a_hole_and_filled_with_each_visitors_token(anonymous_get, db, monkeypatch):
    import gpurent.core.caching.pages as page_cache

    form = '<form><input type="hidden" name="csrfmiddlewaretoken" value="rendered-for-someone"></form>'
    monkeypatch.setattr(page_cache, "render", lambda *args, **kwargs: HttpResponse(form))
    first = shared_page(anonymous_get("/form/"), "t", catalog_state).render("any.html", {}).content.decode()
    again = shared_page(anonymous_get("/form/"), "t", catalog_state)
    assert again.parts is not None
    second = again.response({}).content.decode()
    assert "rendered-for-someone" not in first + second
    assert first.startswith('<form><input type="hidden" name="csrfmiddlewaretoken" value="')
    assert second.startswith('<form><input type="hidden" name="csrfmiddlewaretoken" value="')
    assert first != second


def test_a_cached_page_costs_one_small_statement_and_three_when_signed_in(
    client, demo_catalog, django_user_model, django_assert_num_queries
):
    for _ in range(2):  # the first renders it, the second teaches this process which GPUs it shows
        client.get("/")
        client.get("/gpus/h100-80gb/")
        client.get("/guides/")
    for path in ("/", "/gpus/h100-80gb/", "/guides/"):
        with django_assert_num_queries(1):
            assert client.get(path).status_code == 200
    client.force_login(django_user_model.objects.create_user("ana@example.com", PASSWORD))
    for _ in range(2):
        client.get("/")
    with django_assert_num_queries(3):  # the session, the customer, and the same one statement
        assert client.get("/").status_code == 200


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


def test_the_page_version_moves_with_every_change_but_stock_and_is_never_reused(demo_catalog):
    gpu = GpuModel.objects.get(slug="h100-80gb")
    start = catalog_state([gpu.pk])
    assert start.stock == {gpu.pk: gpu.stock_lots}
    assert stock_reserve(gpu_id=gpu.pk, lots=1)
    stock_release(gpu_id=gpu.pk, lots=3)
    moved = catalog_state([gpu.pk])
    assert moved.version == start.version
    assert moved.stock == {gpu.pk: gpu.stock_lots + 2}
    seen = {start.version}
    gpu.price_30d_cents += 1
    gpu.save()
    seen.add(catalog_state().version)
    GpuModel.objects.filter(pk=gpu.pk).update(on_sale=False)  # even without save(): on_sale is watched
    seen.add(catalog_state().version)
    gpu.pk, gpu.slug, gpu.name = None, "h100-copy", "H100 copy"
    gpu.save()
    seen.add(catalog_state().version)
    GpuModel.objects.filter(slug="h100-copy").delete()
    seen.add(catalog_state().version)
    assert len(seen) == 5
    GpuModel.objects.filter(slug="h100-80gb").update(on_sale=True)  # back as it was: still a new version
    assert catalog_state().version not in seen


def test_the_catalog_version_of_the_api_moves_with_every_change_including_stock(demo_catalog):
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


def test_public_key_is_the_same_whoever_asks_and_store_page_keeps_only_plain_json(anonymous_get, settings):
    anonymous = public_key(anonymous_get(), "t", str)
    assert anonymous is not None
    assert public_key(anonymous_get(), "t", lambda: 1) != public_key(anonymous_get(), "t", lambda: 2)
    assert public_key(anonymous_get("/?a=1"), "t", str) != public_key(anonymous_get("/?a=2"), "t", str)
    assert public_key(anonymous_get(HTTP_AUTHORIZATION="Bearer gpr_x"), "t", str) == anonymous
    assert public_key(anonymous_get(HTTP_COOKIE=f"{settings.SESSION_COOKIE_NAME}=abc"), "t", str) == anonymous
    assert public_key(anonymous_get(HTTP_HX_REQUEST="true"), "t", str) is None
    posted: Any = RequestFactory().post("/")
    assert public_key(posted, "t", str) is None
    request = anonymous_get()
    json = "application/json; charset=utf-8"
    with_cookie = HttpResponse("{}", content_type=json)
    with_cookie.set_cookie("x", "1")
    store_page(request, anonymous, with_cookie)
    assert cached_page(anonymous) is None
    store_page(request, anonymous, HttpResponse("{}", content_type=json, status=404))
    assert cached_page(anonymous) is None
    store_page(request, anonymous, HttpResponse("<p>a</p>"))
    assert cached_page(anonymous) is None
    store_page(request, anonymous, HttpResponse('{"a": 1}', content_type=json))
    stored = cached_page(anonymous)
    assert stored is not None
    assert stored.content == b'{"a": 1}'


def test_a_sold_out_gpu_page_offers_the_likest_gpus_in_stock_and_follows_stock_live(client, demo_catalog):
    h100 = GpuModel.objects.get(slug="h100-80gb")
    url = reverse("catalog:detail", args=[h100.slug])
    page = client.get(url).content.decode()
    assert 'data-testid="sold-out"' not in page
    assert '<ul class="instead-list" data-testid="instead"></ul>' in page
    GpuModel.objects.filter(pk=h100.pk).update(stock_lots=0)
    page = client.get(url).content.decode()  # the cached page, its stock read live
    assert "Sold out right now." in page
    assert "Only 0 lots" not in page
    like = gpus_like(h100, GpuModel.objects.filter(on_sale=True))
    offered = re.findall(r'<li><a href="/gpus/([^/"]+)/">', page.split('data-testid="instead"', 1)[1].split("</ul>")[0])
    assert offered == [gpu.slug for gpu in like if gpu.stock_lots > 0]
    assert offered
    assert like[0].stack == h100.stack
    GpuModel.objects.filter(pk=like[0].pk).update(stock_lots=0)
    page = client.get(url).content.decode()
    assert f"/gpus/{like[0].slug}/" not in page.split('data-testid="instead"', 1)[1].split("</ul>")[0]
