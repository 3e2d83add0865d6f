"""Every HTML money field parses amounts by the API's rule (`Usd.parse`): a field error, never a 500."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from gpurent.core.money import Usd
from gpurent.payments.forms import PayoutForm, TopUpForm
from gpurent.payments.models import Deposit, Payout

TRON = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW"

# Decimal() and forms.DecimalField take all of these; none is a dollar amount.
BAD_AMOUNTS = [
    "1e3",
    "1E2",
    "1E+3",
    "١٢٠",  # Arabic-Indic digits
    "۱۲۰",  # Extended Arabic-Indic (Persian) digits
    "１２０",  # fullwidth digits
    " 120",
    "120 ",
    "\t120",
    "+120",
    "1_000",
    "1,000",
    "120.001",
    "NaN",
    "Infinity",
    "0x78",
    "",
    "99999999999999999999",
]

# Each money form of the shop, with the other fields it needs to be otherwise valid.
MONEY_FORMS = [(TopUpForm, {}), (PayoutForm, {"pair": "USDT/tron", "address": TRON})]


@pytest.mark.parametrize(("form_class", "other"), MONEY_FORMS, ids=lambda value: getattr(value, "__name__", ""))
@pytest.mark.parametrize("amount", BAD_AMOUNTS)
def test_a_money_form_refuses_what_usd_parse_refuses(db, form_class, other, amount):
    form = form_class({**other, "amount_usd": amount})
    assert not form.is_valid()
    assert list(form.errors) == ["amount_usd"]


@pytest.mark.parametrize(("form_class", "other"), MONEY_FORMS, ids=lambda value: getattr(value, "__name__", ""))
def test_a_money_form_gives_exact_cents(db, form_class, other):
    form = form_class({**other, "amount_usd": "120.5"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["amount_usd"] == Usd(12_050)


@pytest.mark.parametrize(
    ("form_class", "other", "low", "high"),
    [(TopUpForm, {}, "4.99", "100000.01"), (PayoutForm, {"pair": "USDT/tron", "address": TRON}, "0.00", "100000.01")],
)
def test_a_money_form_keeps_its_limits(db, form_class, other, low, high):
    for amount in [low, high, "-5"]:
        assert list(form_class({**other, "amount_usd": amount}).errors) == ["amount_usd"], amount


@pytest.mark.django_db
@pytest.mark.parametrize("amount", ["1e3", "1E2", "١٢٠", " 120 "])
@pytest.mark.parametrize(
    ("route", "other", "model"),
    [("payments:top_up", {}, Deposit), ("payments:withdraw", {"pair": "USDT/tron", "address": TRON}, Payout)],
)
def test_the_pages_answer_a_bad_amount_with_a_field_error_and_store_nothing(
    client, customer, payment_setup, route, other, model, amount
):
    client.force_login(customer)
    response = client.post(reverse(route), {**other, "amount_usd": amount, "idempotency_key": f"k-{amount}"})
    assert response.status_code == 422  # the form again, as typed, with the error on the field (not a message)
    assert list(get_messages(response.wsgi_request)) == []
    assert "Enter a dollar amount with at most two decimals, e.g. &quot;250.00&quot;." in response.content.decode()
    assert not model.objects.exists()


# Decision 0400: the comma or the dot is the decimal mark in every language; grouping in threes; a lone mark
# before exactly three digits is refused, never guessed.
TYPED_AMOUNTS = [
    ("150,50", 15_050),
    ("150.50", 15_050),
    ("150,5", 15_050),
    ("1.234,56", 123_456),
    ("1,234.56", 123_456),
    ("12.345", None),
    ("12,345", None),
    ("12.345,00", 1_234_500),
    ("1.2.3", None),
    ("1,23.45", None),
    ("1.234,567", None),
]


@pytest.mark.parametrize("language", ["en", "es", "vi", "tr"])
@pytest.mark.parametrize(("typed", "cents"), TYPED_AMOUNTS)
def test_a_money_form_reads_the_comma_and_the_dot_as_the_decimal_mark(db, language, typed, cents):
    with translation.override(language):
        form = TopUpForm({"amount_usd": typed})
        if cents is None:
            assert list(form.errors) == ["amount_usd"]
        else:
            assert form.is_valid(), form.errors
            assert form.cleaned_data["amount_usd"] == Usd(cents)


def test_an_ambiguous_amount_is_refused_with_both_readings_named(db):
    with translation.override("es"):
        form = TopUpForm({"amount_usd": "12.345"})
        assert form.errors.as_data()["amount_usd"][0].code == "ambiguous"
        assert "12345" in form.errors["amount_usd"][0]
        assert "12.345,00" in form.errors["amount_usd"][0]


# A mark before three digits that no grouping could explain (more than three digits before it, or a leading 0) is
# too many decimals, not an ambiguity: refused as invalid, never a 500 (the huge one used to escape as ValueError).
@pytest.mark.parametrize("typed", ["0,001", "1234,567", "99999999999999999.999", "100000000000000000,000"])
def test_three_decimals_no_grouping_explains_are_refused_as_invalid(db, typed):
    with translation.override("es"):
        form = TopUpForm({"amount_usd": typed})
        assert form.errors.as_data()["amount_usd"][0].code == "invalid"


def test_catalog_with_a_huge_typed_price_answers_200(client, db):
    assert client.get(reverse("catalog:index"), {"max_price": "99999999999999999.999"}).status_code == 200


@pytest.mark.parametrize(("language", "shown"), [("en", 'value="100.00"'), ("es", 'value="100,00"')])
def test_a_money_field_shows_its_value_as_the_reader_writes_it(db, language, shown):
    with translation.override(language):
        assert shown in str(TopUpForm()["amount_usd"])


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "vi", "tr"])
def test_a_top_up_typed_with_a_decimal_comma_is_stored_in_exact_cents(client, customer, payment_setup, language):
    client.force_login(customer)
    client.post(
        reverse("payments:top_up"), {"amount_usd": "150,50", "idempotency_key": "k"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert Deposit.objects.get().requested_cents == 15_050


@pytest.mark.parametrize(
    ("language", "low", "high"),
    [("en", "$5.00", "$100,000.00"), ("es", "5,00\xa0US$", "100.000,00\xa0US$")],
)
def test_a_money_form_names_its_limits_as_the_reader_writes_money(db, language, low, high):
    with translation.override(language):
        assert low in TopUpForm({"amount_usd": "-5"}).errors["amount_usd"][0]
        assert high in TopUpForm({"amount_usd": "100000.01"}).errors["amount_usd"][0]
