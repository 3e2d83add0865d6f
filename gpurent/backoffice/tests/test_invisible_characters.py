"""The back office shows invisible and bidirectional characters as `<U+XXXX>`, in rows stored before labels
were cleaned and in free text that keeps them (issue 32, decision 0377: `core.invisible`)."""

import pytest
from django.urls import reverse

from gpurent.accounts.models import User
from gpurent.orders.models import Order
from gpurent.orders.services import Contact, order_place
from gpurent.support.enums import Author
from gpurent.support.models import SupportRequest
from gpurent.support.services import RequestInput, support_message_post, support_request_create

pytestmark = pytest.mark.django_db

RLO, PDF, ZWSP = "\u202e", "\u202c", "\u200b"


@pytest.fixture
def operator(db) -> User:
    return User.objects.create_superuser("op@example.com", "operator passphrase", first_name="O", last_name="P")


@pytest.fixture
def customer(db) -> User:
    return User.objects.create_user("ada@example.com", "customer passphrase", first_name="Ada", last_name="L")


def test_an_old_subject_and_a_message_body_are_escaped_for_the_operator(client, operator, customer):
    request = support_request_create(owner=customer, data=RequestInput(subject="NCCL", observed="hangs"))
    # A row stored before subjects were cleaned.
    SupportRequest.objects.filter(pk=request.pk).update(subject=f"Refund to {RLO}moc.knab{PDF}")
    support_message_post(request=request, author=customer, role=Author.CUSTOMER, body=f"pay to{ZWSP} eve\nplease")
    client.force_login(operator)
    for url in [
        reverse("admin:support_supportrequest_changelist"),
        reverse("admin:support_supportrequest_change", args=[request.pk]),
    ]:
        page = client.get(url).content.decode()
        assert "Refund to &lt;U+202E&gt;moc.knab&lt;U+202C&gt;" in page, url
        assert not {RLO, PDF, ZWSP} & set(page), url
    thread = client.get(reverse("admin:support_supportrequest_change", args=[request.pk])).content.decode()
    assert "pay to&lt;U+200B&gt; eve" in thread


def test_an_old_contact_name_is_escaped_in_the_orders_list(client, operator, customer, gpu):
    order = order_place(
        owner=customer,
        gpu_slug=gpu.slug,
        term_days=3,
        lots=1,
        environment="ubuntu",
        contact=Contact("Ada", "L", "ada@example.com"),
    )
    Order.objects.filter(pk=order.pk).update(contact_first_name=f"{RLO}adA")
    client.force_login(operator)
    page = client.get(reverse("admin:orders_order_change", args=[order.pk]))
    assert page.status_code == 200
    assert "&lt;U+202E&gt;adA" in page.content.decode()
    assert RLO not in page.content.decode()
    assert page.get("Content-Length", str(len(page.content))) == str(len(page.content))


def test_customer_pages_are_left_as_they_are(client, customer):
    request = support_request_create(owner=customer, data=RequestInput(subject="NCCL", observed=f"hangs {RLO}here"))
    client.force_login(customer)
    page = client.get(reverse("support:detail", args=[request.ref])).content.decode()
    assert f"hangs {RLO}here" in page


def test_an_editable_field_keeps_the_stored_value_so_saving_the_form_changes_nothing(client, operator, customer):
    """The escape is for reading: an input's value and a textarea's text are sent back when the operator saves, so
    they hold what is stored (else saving a user, e.g. to deactivate it, would store the text `<U+202E>`)."""
    User.objects.filter(pk=customer.pk).update(last_name=f"Love{RLO}lace")
    client.force_login(operator)
    page = client.get(reverse("admin:accounts_user_change", args=[customer.pk])).content.decode()
    assert f'name="last_name" value="Love{RLO}lace"' in page
    assert "&lt;U+202E&gt;" not in page.split('name="last_name"')[1].split(">")[0]
