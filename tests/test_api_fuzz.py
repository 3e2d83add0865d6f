"""Fuzz the JSON API from its own OpenAPI document (schemathesis, in process).

Every operation the API documents is exercised with generated input; a 5xx, an undocumented status code or
a response that breaks its schema fails the test. New endpoints are covered as soon as they are routed.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.config._checks import NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES
from schemathesis.specs.openapi.checks import positive_data_acceptance

from config.wsgi import application

# A body over Django's upload limit is refused with a documented 413 `payload_too_large` before it is validated
# (generated strings near a field's maxLength can exceed it): a rejection of invalid data as good as a 422.
config = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [*NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES, "413"]}}}
)
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application, config=config)


@pytest.fixture
def keep_test_connection():
    # The WSGI handler closes the database connection after each request, which would close the test's
    # transaction; django.test.Client disconnects the same receivers for the same reason.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


# Rules no JSON Schema can state, checked by the server with a clear 4xx: a schema-valid registration may still
# be refused for a password too close to the name or too common (Django's password validators).
# A page cursor is opaque: any string is schema-valid, and only a cursor the server made is accepted (422
# `invalid_request` otherwise, as on every paginated list; the public catalog and guide list are the ones reachable
# unauthenticated).
BUSINESS_VALIDATION = {("POST", "/api/v1/auth/register"), ("GET", "/api/v1/catalog"), ("GET", "/api/v1/guides")}


@pytest.mark.django_db
@schema.parametrize()
# derandomize: the same examples on every run, so CI answers the same for the same code (`make fuzz` explores).
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_conforms_to_its_openapi_document(case, demo_catalog, keep_test_connection):
    excluded = [positive_data_acceptance] if (case.method.upper(), case.path) in BUSINESS_VALIDATION else []
    # The in-process WSGI transport does not undo gzip as a network client does; compression has its own tests
    # (gpurent/core/tests/test_public_pages.py), so ask for the plain body here.
    case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=excluded)


@pytest.fixture
def bearer(db) -> dict[str, str]:
    from gpurent.accounts.models import User
    from gpurent.accounts.services import api_token_create

    user = User.objects.create_user(email="fuzz@example.com", password="a long fuzzing passphrase")
    _, secret = api_token_create(user=user, name="fuzz")
    return {"Authorization": f"Bearer {secret}"}


def _needs_a_customer(ctx) -> bool:
    return bool(ctx.operation.definition.raw.get("security"))


# The operations a customer's token opens, fuzzed as that customer: past the login check, every body, query and
# path parameter reaches its validation and the service behind it. A schema-valid request may still meet a
# business rule (an order for more lots than are in stock, a payout above the balance, an unknown reference: a
# documented 4xx), so only "accept every schema-valid body" is not checked here; no 5xx, only documented status
# codes and bodies that match their schemas.
@pytest.mark.django_db
@schema.include(func=_needs_a_customer).parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_conforms_to_its_openapi_document_for_a_signed_in_customer(
    case, demo_catalog, bearer, keep_test_connection
):
    case.call_and_validate(
        headers={"Accept-Encoding": "identity", **bearer}, excluded_checks=[positive_data_acceptance]
    )
