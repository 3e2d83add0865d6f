"""The main navigation is rendered once per language, kind of visitor and current page (`{% site_nav %}`,
decision 0428): each page still marks its own section, speaks its visitor's language, and a signed-in visitor's
logout form carries that visitor's own token."""

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


NAV = re.compile(r'<ul class="nav">.*?</ul>\s*<ul class="nav nav-account">.*?</ul>', re.S)


def navs(response) -> list[str]:
    return NAV.findall(response.content.decode())


def current(nav: str) -> list[str]:
    return re.findall(r'<a href="([^"]*)" aria-current="page"', nav)


def test_each_page_marks_its_own_section_in_both_navigations(client, demo_catalog):
    for path, section in [("/", "/"), ("/guides/", "/guides/"), ("/glossary/", "/glossary/"), ("/help/", None)]:
        both = navs(client.get(path))
        assert len(both) == 2
        assert both[0] == both[1]
        assert current(both[0]) == ([section] if section else [])
    login = navs(client.get(reverse("accounts:login")))[0]
    assert current(login) == [reverse("accounts:login")]


def test_the_navigation_follows_the_language_and_the_visitor(client, django_user_model):
    assert "Log in" in navs(client.get("/glossary/"))[0]
    assert "Glosario" in navs(client.get("/glossary/", headers={"accept-language": "es"}))[0]
    assert "csrfmiddlewaretoken" not in client.get("/glossary/").content.decode()  # no form: no token, no cookie
    user = django_user_model.objects.create_user("ana@example.com", "a" * 16)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    first, second = navs(browser.get("/glossary/"))
    assert "Log out" in first
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first)
    assert found is not None
    token = found[1]
    assert token in second  # one token for the page, as {% csrf_token %} gives
    assert browser.post(reverse("accounts:logout"), {"csrfmiddlewaretoken": token}).status_code == 302
