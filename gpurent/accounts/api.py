"""`/api/v1/auth/...`: registration and personal API tokens (DESIGN §11.1).

Both operations take no authentication, so no cookie is involved and ninja applies no CSRF check: a script
can call them with plain JSON.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest, QueryDict
from ninja import Field, Router, Schema, Status

from gpurent.core.api import ErrorOut
from gpurent.core.schemas import InputSchema

from .models import TOKEN_SCHEME
from .services import api_token_issue, language_asked_for, user_register
from .throttling import registration_throttle

router = Router(tags=["auth"])

# Generous, but bounded: hashing a megabyte-long "password" would be a cheap way to burn server CPU.
MAX_PASSWORD_LENGTH = 1024
# The same minimum as the MinimumLengthValidator in settings (AUTH_PASSWORD_VALIDATORS).
MIN_PASSWORD_LENGTH = 12


# A name must have a visible character; the schema says so, so that clients (and the fuzz test) know.
NAME_PATTERN = r"\S"


class RegisterIn(InputSchema):
    first_name: str = Field(min_length=1, max_length=150, pattern=NAME_PATTERN, examples=["Ada"])
    last_name: str = Field(min_length=1, max_length=150, pattern=NAME_PATTERN, examples=["Lovelace"])
    email: str = Field(
        min_length=3, max_length=254, json_schema_extra={"format": "email"}, examples=["ada@example.com"]
    )
    password: str = Field(
        min_length=MIN_PASSWORD_LENGTH,
        max_length=MAX_PASSWORD_LENGTH,
        description=(
            "At least 12 characters; common passwords and ones close to the name or email are refused (422 "
            "`weak_password`). No composition rules: a long passphrase is best."
        ),
        examples=["correct horse battery staple"],
    )


class UserOut(Schema):
    id: int
    email: str
    first_name: str
    last_name: str


class TokenIn(InputSchema):
    email: str = Field(min_length=1, max_length=254, examples=["ada@example.com"])
    password: str = Field(min_length=1, max_length=MAX_PASSWORD_LENGTH)
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description='A label to recognise the token by. Without one: "API token" in the account\'s language (else '
        "in the request's `Accept-Language`), as the account page lists it.",
    )
    otp_code: str | None = Field(
        default=None,
        max_length=64,
        description=(
            "Only for accounts with two-factor login: the 6-digit code of the authenticator app, or an unused "
            "recovery code. Without it such an account gets 401 `otp_required`."
        ),
        examples=["123456"],
    )


class TokenOut(Schema):
    token: str = Field(description="Send as `Authorization: Bearer <token>`. Shown only in this response.")
    name: str
    prefix: str = Field(description="The token's first characters, as the account page lists it.")
    created_at: datetime


@router.post(
    "/register",
    response={201: UserOut, 400: ErrorOut, 409: ErrorOut, 422: ErrorOut, 429: ErrorOut},
    summary="Create an account",
)
def register(request: HttpRequest, payload: RegisterIn) -> Status[Any]:
    """Create a customer account. 409 `email_taken` when an account already uses the email; 422
    `weak_password` when the password is too short or too common, `invalid_request` for other invalid
    fields; 400 when the body is not JSON; 429 `rate_limited` after too many registration attempts from
    this address (`REGISTRATION_RATE_LIMITS`, whatever the email). Nothing is logged in: ask for a token
    next (`POST /api/v1/auth/tokens`). The account's language (its e-mails, its pages once logged in) is the
    site's language cookie sent with the request, else the first of `Accept-Language` that the shop speaks;
    without either, the customer's first login on the site sets it."""
    registration_throttle(request)
    # The account's language only if the script asked for one: the shop's default is no choice (QA2 #19).
    user = user_register(request=None, language=language_asked_for(request), **payload.dict())
    return Status(201, user)


@router.post(
    "/tokens",
    response={201: TokenOut, 400: ErrorOut, 401: ErrorOut, 409: ErrorOut, 422: ErrorOut},
    summary="Get a personal API token for an email and password",
)
def create_token(request: HttpRequest, payload: TokenIn) -> Status[dict[str, Any]]:
    """Check the email and password and return a new personal API token; it is never shown again (it is
    stored hashed). 401 `invalid_credentials` for a wrong password, an unknown email, or too many failed
    attempts from this address (the same answer for all three), or a wrong `otp_code`; 401 `otp_required`
    when the password is right but the account uses two-factor login and no `otp_code` was sent. Tokens
    already issued keep working without a code. 409 `too_many_api_tokens` when the account already has
    `ACCOUNTS_MAX_LIVE_API_TOKENS` (20) tokens that work. Revoke tokens on the account page."""
    # The body is JSON, already read by ninja. axes records `request.POST` with each failed attempt, and
    # Django would parse the body again as a form for it (a 400 on a multipart type without a boundary).
    request.POST = QueryDict()
    row, secret = api_token_issue(
        request=request, email=payload.email, password=payload.password, name=payload.name, otp_code=payload.otp_code
    )
    body = {"token": secret, "name": row.name, "prefix": f"{TOKEN_SCHEME}{row.prefix}", "created_at": row.created_at}
    return Status(201, body)
