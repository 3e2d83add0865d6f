"""The JSON API's shared parts: the error schema and the mapping of every exception to it.

Every error the API returns has the shape `{"error": {"code": ..., "message": ...}}` (DESIGN §11.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from django.core.exceptions import RequestDataTooBig
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Field, NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.renderers import JSONRenderer
from ninja.responses import NinjaJSONEncoder
from pydantic import field_validator
from pydantic_core import PydanticCustomError

from .errors import ApplicationError, error_body
from .idempotency.request import HEADER, KEY_REQUIRED_MESSAGE
from .notices import notify_operators
from .pagination import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, NEWEST_FIRST, keyset_page

__all__ = ["ErrorOut", "PageIn", "ShopAPI", "ShopJSONEncoder", "api_page", "install_error_handlers"]

M = TypeVar("M", bound=Model)

_CODES_BY_STATUS = {
    400: "invalid_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    422: "invalid_request",
    429: "rate_limited",
}


class ErrorDetail(Schema):
    code: str
    message: str


class ErrorOut(Schema):
    """The API's error body."""

    error: ErrorDetail


_DIGITS = re.compile(r"[0-9]{1,9}")


class PageIn(Schema):
    """Query parameters of every paginated list (see `gpurent.core.pagination`)."""

    cursor: str | None = Field(
        None, max_length=512, description="The `next` value of the previous page; omit for the first page"
    )
    limit: int = Field(DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="Rows per page")

    @field_validator("limit", mode="before")
    @classmethod
    def _plain_digits(cls, value: Any) -> Any:
        # Numbers are parsed strictly, as in bodies (`InputSchema`): a query string is text, and only ASCII
        # digits are a number here, not " 5", "+5", "5_0", "5.0" or another script's digits (pydantic takes them).
        if isinstance(value, str) and not _DIGITS.fullmatch(value):
            raise PydanticCustomError(
                "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
            )
        return value


def api_page(
    queryset: QuerySet[M], page: PageIn, out: Callable[[M], Any], *, key: tuple[str, ...] = NEWEST_FIRST
) -> dict[str, Any]:
    """A list response: `{"items": [...], "next": cursor-or-null}`; a bad cursor is 422 `invalid_request`."""
    found = keyset_page(queryset, page.cursor, size=page.limit, key=key)
    return {"items": [out(row) for row in found.items], "next": found.next}


def _describe_validation_errors(errors: list[dict[str, Any]]) -> str:
    parts = []
    for error in errors[:5]:
        loc = tuple(error.get("loc", ()))
        if loc[:1] == ("header",) and loc[-1:] == (HEADER,):
            parts.append(f"{HEADER}: {KEY_REQUIRED_MESSAGE}")
            continue
        location = ".".join(str(item) for item in loc if item not in ("body", "query", "path", "header", "payload"))
        message = str(error.get("msg", _("invalid value")))
        parts.append(f"{location}: {message}" if location else message)
    return "; ".join(parts) or _("Some fields are missing or invalid.")


def install_error_handlers(api: NinjaAPI) -> None:
    """Make every error of `api` answer in the shop's JSON error format."""

    def respond(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
        return api.create_response(request, error_body(code, message), status=status)

    @api.exception_handler(ApplicationError)
    def application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
        notify_operators(exc)
        return respond(request, exc.status, exc.code, exc.message)

    @api.exception_handler(ValidationError)
    def validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        return respond(request, 422, "invalid_request", _describe_validation_errors(list(exc.errors)))

    @api.exception_handler(AuthenticationError)
    def authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return respond(request, 401, "not_authenticated", _("Authentication required."))

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        return respond(request, exc.status_code, _CODES_BY_STATUS.get(exc.status_code, "error"), str(exc))

    @api.exception_handler(RequestDataTooBig)
    def payload_too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        # Django refuses to read a body over DATA_UPLOAD_MAX_MEMORY_SIZE; without this it would be a 400 page.
        return respond(request, 413, "payload_too_large", _("The request body is too large."))

    @api.exception_handler(Http404)
    def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return respond(request, 404, "not_found", _("Not found."))


class ShopJSONEncoder(NinjaJSONEncoder):
    """Every time with its milliseconds, "2026-12-05T23:27:51.000Z" on a whole second too. Django's encoder drops
    the fraction of a whole second, and an idempotent request's replay answers the stored JSON read back (to the
    millisecond): a first answer made under a millisecond past a second ("…51.000Z") was replayed as "…51Z"."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            text = o.isoformat(timespec="milliseconds")
            return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
        return super().default(o)


class _Renderer(JSONRenderer):
    encoder_class = ShopJSONEncoder


class ShopAPI(NinjaAPI):
    """The API root: its answers' times always carry milliseconds (`ShopJSONEncoder`), and its OpenAPI document
    also declares the 413 that any request body over Django's upload limit gets (`payload_too_large`, answered by
    `install_error_handlers`), on every operation that takes a body."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(renderer=_Renderer(), **kwargs)

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None) -> Any:
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        too_large = {
            "description": "Content Too Large",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                if isinstance(operation, dict) and "requestBody" in operation:
                    operation.setdefault("responses", {}).setdefault(413, too_large)
        return schema
