"""Account actions: registration, login, profile, personal API tokens. The only module here that writes."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate, login
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.utils.translation.trans_real import parse_accept_lang_header

from gpurent.core.errors import InvalidRequest, NotFound
from gpurent.core.invisible import label_clean

from .errors import EmailTaken, InvalidCredentials, TooManyApiTokens, TooManySshKeys, WeakPassword
from .guests import guest_session_adopt, guest_session_for, register_guest_adopter
from .models import TOKEN_SCHEME, ApiToken, SshKey, User
from .passwords import password_errors
from .sshkeys import public_key_parse
from .two_factor import TwoFactorCodeRequired, two_factor_enabled, two_factor_verify

__all__ = [
    "account_lock",
    "api_token_create",
    "api_token_default_name",
    "api_token_issue",
    "api_token_mark_used",
    "api_token_revoke",
    "guest_session_adopt",
    "guest_session_for",
    "language_asked_for",
    "profile_update",
    "register_guest_adopter",
    "session_login",
    "ssh_key_add",
    "ssh_key_remove",
    "user_register",
]

logger = logging.getLogger(__name__)

# `login()` needs to know which backend vouched for a user it did not get from `authenticate()` (a user
# that has just registered); the model backend is the one that checks passwords.
_PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"  # noqa: S105 (a class path)
# Writing `last_used_at` on every API call would turn each read into a write; a minute is precise enough.
_LAST_USED_PRECISION = timedelta(minutes=1)


def _required(value: str, message: str) -> str:
    value = value.strip()
    if not value:
        raise InvalidRequest(message)
    return value


def _label(value: str, message: str) -> str:
    """A name as a single-line label (`core.invisible.label_clean`: no bidirectional or zero-width characters);
    `message` when nothing visible is left."""
    return _required(label_clean(value), message)


@transaction.atomic
def user_register(
    *,
    request: HttpRequest | None,
    first_name: str,
    last_name: str,
    email: str,
    password: str,
    language: str | None = None,
) -> User:
    """Create a customer account; with a `request`, log it in and adopt that session's guest data.

    `language` is the account's language; None: the one the visitor reads the shop in (`current_language`), ""
    for none chosen yet (the first web login then takes the one the customer reads in; `session_login`).
    The email is stored in lower case. Adoption (DESIGN §3) happens only here, for the new account and the
    session it was registered from; see `guest_session_adopt`.

    Raises:
        InvalidRequest: a name or the email is missing or malformed.
        EmailTaken: an account already uses this email (compared without regard to case).
        WeakPassword: the password fails a validator; the message joins every reason.
    """
    first_name = _label(first_name, _("Enter your first name."))[:150]
    last_name = _label(last_name, _("Enter your last name."))[:150]
    email = _required(email, _("Enter your email address.")).lower()
    try:
        validate_email(email)
    except ValidationError as error:
        raise InvalidRequest(_("Enter a valid email address.")) from error
    if User.objects.filter(email=email).exists():
        raise EmailTaken()
    errors = password_errors(password, User(email=email, first_name=first_name, last_name=last_name))
    if errors:
        raise WeakPassword(errors)
    try:
        # A savepoint, so a concurrent registration of the same email fails cleanly inside our transaction.
        with transaction.atomic():
            user = User.objects.create_user(
                email,
                password,
                first_name=first_name,
                last_name=last_name,
                language=current_language() if language is None else language,
            )
    except IntegrityError as error:
        raise EmailTaken() from error
    logger.info("user %s registered", user.pk)
    if request is not None:
        session_login(request, user)
        guest_session_adopt(request=request, user=user)
    return user


def session_login(request: HttpRequest, user: User) -> None:
    """Log `user` in to this browser session, and nothing else.

    Django's `login()` gives the session a new key (no session fixation) and keeps its data, so a checkout
    draft made as a guest survives. It adopts no guest data: only a new account registered from the session
    does (`user_register`).
    """
    login(request, user, backend=getattr(user, "backend", None) or _PASSWORD_BACKEND)
    if not user.language:
        # An account made before languages existed takes the one this visitor reads the shop in.
        user.language = current_language()
        user.save(update_fields=["language"])


def current_language() -> str:
    """The active language if the shop offers it, else the default (never a variant such as "en-us")."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def language_asked_for(request: HttpRequest) -> str:
    """The shop language a request names: the switcher's cookie, else the first one of `Accept-Language` that
    the shop speaks; "" when it names none. Unlike `current_language`, the default language the shop falls back
    to is not taken for a choice: an account registered by a script that sent no `Accept-Language` must not be
    stored as English and then outrank the language its customer picked on the site (QA2 #19)."""
    offered = dict(settings.LANGUAGES)
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie in offered:
        return cookie
    for code, _quality in parse_accept_lang_header(request.headers.get("Accept-Language", "")):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return ""


def user_language_set(*, user: User, language: str) -> None:
    """Remember the language a signed-in customer chose with the switcher; emails follow it."""
    if language in dict(settings.LANGUAGES) and user.language != language:
        user.language = language
        user.save(update_fields=["language"])


@transaction.atomic
def profile_update(*, user: User, first_name: str, last_name: str) -> User:
    """Change the name on an account.

    Raises:
        InvalidRequest: a name is empty.
    """
    user.first_name = _label(first_name, _("Enter your first name."))[:150]
    user.last_name = _label(last_name, _("Enter your last name."))[:150]
    user.save(update_fields=["first_name", "last_name"])
    return user


def account_lock(user: AbstractBaseUser) -> None:
    """Lock `user`'s row to COMMIT, so that two requests of one account that count its rows (tokens, keys, email
    changes, support requests and messages) before adding one count one after the other and the second sees the
    first's row (decisions 0122, 0291). Only this account's requests wait; callers take no money or order lock
    after it. Call it inside the transaction that counts and writes."""
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()


@transaction.atomic
def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Make a personal API token for `user`; returns the row and the token, which is never stored.

    The token is `gpr_` followed by 256 random bits (43 URL-safe characters, from `secrets`, a CSPRNG).

    Raises:
        InvalidRequest: the name is empty or longer than 100 characters.
        TooManyApiTokens: the account already has `ACCOUNTS_MAX_LIVE_API_TOKENS` tokens that are not revoked.
    """
    name = _label(name, _("Give the token a name."))
    if len(name) > 100:
        raise InvalidRequest(_("A token name has at most 100 characters."))
    account_lock(user)
    limit = settings.ACCOUNTS_MAX_LIVE_API_TOKENS
    # Counted up to the limit only, so the count's cost stays bounded whatever the limit is set to.
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True)[:limit].count() >= limit:
        raise TooManyApiTokens(limit)
    random_part = secrets.token_urlsafe(32)
    token = f"{TOKEN_SCHEME}{random_part}"
    row = ApiToken.objects.create(
        user=user, name=name, prefix=random_part[: ApiToken.PREFIX_LENGTH], digest=ApiToken.digest_of(token)
    )
    logger.info("user %s created API token %s", user.pk, row.pk)
    return row, token


def api_token_default_name(user: User) -> str:
    """The name of a token asked for without one: "API token" in the account's language (else the request's), as
    the account page that lists it is read; stored as text, like a name the customer typed (QA2 #18)."""
    with translation.override(user.language or current_language()):
        return pgettext("the name of an API token made without one", "API token")


def api_token_issue(
    *, request: HttpRequest, email: str, password: str, name: str | None, otp_code: str | None = None
) -> tuple[ApiToken, str]:
    """Check an email and password (throttled by axes like the login page) and make a token for that account,
    named `name`, or `api_token_default_name` when None.

    An account with two-factor login also needs `otp_code` (an app code or a recovery code), as the login
    page does: a password alone must not mint a token that skips the second factor.

    Raises:
        InvalidCredentials: wrong password, unknown email or a locked-out (email, IP) pair: one error for all;
            also a wrong `otp_code` (counted by axes like a wrong password).
        TwoFactorCodeRequired: the password is right, the account uses two-factor login and no code was sent.
        InvalidRequest: the name is unusable.
    """
    # `authenticate` with the request, so axes counts failures and refuses a locked-out pair.
    user = authenticate(request, username=email.strip().lower(), password=password)
    if not isinstance(user, User):
        raise InvalidCredentials()
    if two_factor_enabled(user):
        if not otp_code:
            raise TwoFactorCodeRequired()
        if two_factor_verify(user=user, code=otp_code, request=request) is None:
            raise InvalidCredentials()
    return api_token_create(user=user, name=api_token_default_name(user) if name is None else name)


@transaction.atomic
def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of `user`'s tokens; it stops working at once. Revoking a revoked token changes nothing.

    Raises:
        NotFound: no such token among `user`'s (another user's token is not found either).
    """
    token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound(_("No such token."))
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        logger.info("user %s revoked API token %s", user.pk, token.pk)
    return token


def api_token_mark_used(token: ApiToken) -> None:
    """Record that `token` authenticated a request, at most once a minute (a conditional UPDATE)."""
    now = timezone.now()
    if token.last_used_at is not None and token.last_used_at > now - _LAST_USED_PRECISION:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now


@transaction.atomic
def ssh_key_add(*, user: User, name: str, public_key: str) -> SshKey:
    """Keep an SSH public key on `user`'s account, checked by `public_key_parse`.

    Raises:
        InvalidRequest: no name, a private key (never stored), an invalid key, or a key already on the account.
        TooManySshKeys: the account already keeps `ACCOUNTS_MAX_SSH_KEYS` keys.
    """
    name = _label(name, _("Give the key a name."))
    if len(name) > 100:
        raise InvalidRequest(_("A key name has at most 100 characters."))
    parsed = public_key_parse(public_key)
    account_lock(user)
    limit = settings.ACCOUNTS_MAX_SSH_KEYS
    if SshKey.objects.filter(user=user)[:limit].count() >= limit:
        raise TooManySshKeys(limit)
    try:
        with transaction.atomic():
            row = SshKey.objects.create(user=user, name=name, public_key=parsed.line, fingerprint=parsed.fingerprint)
    except IntegrityError:
        raise InvalidRequest(_("This key is already on your account.")) from None
    logger.info("user %s added SSH key %s", user.pk, row.pk)
    return row


@transaction.atomic
def ssh_key_remove(*, user: User, key_id: int) -> SshKey:
    """Remove one of `user`'s keys. Machines already delivered keep the keys they were given.

    Raises:
        NotFound: no such key among `user`'s.
    """
    key = SshKey.objects.filter(user=user, pk=key_id).first()
    if key is None:
        raise NotFound(_("No such key."))
    key.delete()
    logger.info("user %s removed SSH key %s", user.pk, key_id)
    return key
