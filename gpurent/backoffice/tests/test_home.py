"""The back office's home page, where the login lands (QA walk of the back office, defect 22): what waits for an
operator first (the lines of the desks they may open), then the sections, desks first, the technical apps last
under names an operator reads."""

import re

import pytest
from django.contrib.auth.models import Group

from gpurent.support.services import RequestInput, support_request_create

pytestmark = pytest.mark.django_db

HOME = "/backoffice/"


def _work_lines(page: str) -> list[str]:
    work = page.split('data-testid="home-work"', 1)[1].split("</ul>", 1)[0]
    return [" ".join(re.sub(r"<[^>]+>", "", item).split()) for item in re.findall(r"<li>(.*?)</li>", work, re.S)]


def _sections(page: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", name).strip() for name in re.findall(r"<caption>(.*?)</caption>", page, re.S)]


@pytest.fixture
def staff(django_user_model):
    def make(*groups):
        user = django_user_model.objects.create_user(
            f"{'-'.join(groups) or 'none'}@shop.example", "passphrase 12", first_name="O", last_name="P", is_staff=True
        )
        user.groups.set(Group.objects.filter(name__in=groups))
        return user

    return make


def test_the_home_page_starts_with_the_waiting_work_then_the_desks(client, django_user_model):
    customer = django_user_model.objects.create_user("c@example.com", "passphrase 12", first_name="C", last_name="U")
    support_request_create(owner=customer, data=RequestInput(subject="CUDA OOM", observed="out of memory"))
    client.force_login(django_user_model.objects.create_superuser("root@shop.example", "passphrase 12"))
    page = client.get(HOME).content.decode()
    assert page.index('data-testid="home-work"') < page.index('id="content-main"')
    lines = _work_lines(page)
    assert lines[:5] == [
        "Withdrawals to send: 0",
        "Payments reported, to verify: 0",
        "Late payments in review: 0",
        "Paid rentals waiting for their machine: 0",
        "Machine requests to handle: 0",
    ]
    assert lines[-1].startswith("Support requests to answer: 1 · oldest ")
    sections = _sections(page)
    assert sections[:3] == ["Desks", "Support", "Orders"]
    assert sections[-4:] == [
        "Two-factor: authenticator apps",
        "Two-factor: recovery codes",
        "Login lockouts",
        "Background tasks",
    ]
    for raw in ["Otp_Static", "Otp_Totp", "Tasks Database Backend", "Axes", "Authentication and Authorization"]:
        assert raw not in sections
    support = page.split("<caption>", 3)[2]
    assert support.index(">Support inbox</a>") < support.index(">Support messages</a>")
    assert "<h1>Home</h1>" in page  # not "Site administration"


@pytest.mark.parametrize(
    ("groups", "lines"),
    [
        (("support",), ["Support requests to answer: 0"]),
        (("payouts",), ["Withdrawals to send: 0"]),
        (("payments",), ["Payments reported, to verify: 0", "Late payments in review: 0"]),
        (
            ("provisioning",),
            [
                "Paid rentals waiting for their machine: 0",
                "Machine requests to handle: 0",
                "Ended rentals whose access is still to remove: 0",
            ],
        ),
    ],
)
def test_each_role_sees_the_work_of_its_own_desks(client, staff, groups, lines):
    client.force_login(staff(*groups))
    page = client.get(HOME).content.decode()
    assert _work_lines(page) == lines
    assert _sections(page)[0] in {"Desks", "Support"}


def test_an_operator_without_a_desk_sees_no_work_block(client, staff):
    client.force_login(staff("catalog"))
    page = client.get(HOME).content.decode()
    assert 'data-testid="home-work"' not in page
    assert "Catalog" in _sections(page)
