"""Changing an account's email: a signed, expiring link sent to the new address (docs/decisions/0174-...).

`email_change_request` checks the current password and queues one email to the new address: the
confirmation link, or, when another account already uses that address, a notice that says so to the owner
of that address. The requester gets the same answer either way, so the form does not tell whether an
address has an account; the current address gets the same warning either way. Nothing changes until
`email_change_confirm` is called with the link's token by the same account, logged in; the old address is
then told of the change.

The token is signed (`django.core.signing`, salted for this purpose) and carries the account, the new
address and a fingerprint of the account's current email and password hash. It expires after
`EMAIL_CHANGE_LINK_HOURS`, and becomes unusable as soon as the email or the password changes, so a link works
once. Requests are throttled per account (`EMAIL_CHANGE_RATE_LIMITS`), counted on the outbox rows.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gpurent.core.emails import email_queue
from gpurent.core.errors import ApplicationError, InvalidRequest
from gpurent.core.models import OutboundEmail

from .models import User
from .services import account_lock
from .sessions import user_sessions_end

__all__ = ["EmailChangeRateLimited", "email_change_confirm", "email_change_request", "email_change_token"]

logger = logging.getLogger(__name__)

_SALT = "gpurent.accounts.email-change"
_KEY_PREFIX = "email-change"


class EmailChangeRateLimited(ApplicationError):
    code = "rate_limited"
    status = 429
    default_message = gettext_lazy("You asked for too many email changes recently. Try again in an hour.")


class EmailChangeLinkInvalid(InvalidRequest):
    code = "email_change_link_invalid"
    default_message = gettext_lazy(
        "This link is invalid, has expired or was already used. Ask for a new one on your account page."
    )


def _fingerprint(user: User) -> str:
    """Changes whenever the account's email or password does, which retires every older link."""
    return salted_hmac(_SALT, f"{user.pk}|{user.email}|{user.password}").hexdigest()[:32]


def email_change_token(user: User, new_email: str) -> str:
    """The signed token of a link that moves `user` to `new_email` (no expiry inside: checked on use)."""
    return signing.dumps([user.pk, new_email, _fingerprint(user)], salt=_SALT, compress=True)


def _rate_limits() -> tuple[tuple[int, int], ...]:
    return tuple((int(seconds), int(count)) for seconds, count in settings.EMAIL_CHANGE_RATE_LIMITS)


def _throttle(user: User) -> None:
    now = timezone.now()
    sent = OutboundEmail.objects.filter(key__startswith=f"{_KEY_PREFIX}:{user.pk}:")
    for seconds, count in _rate_limits():
        if sent.filter(created_at__gte=now - timedelta(seconds=seconds)).count() >= count:
            raise EmailChangeRateLimited()


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _queue(*, user: User, to: str, key: str, subject: str, paragraphs: list[str], url: str, link_text: str) -> None:
    email_queue(
        key=key,
        to=to,
        template="account_event",
        context={
            "first_name": user.first_name,
            "subject": subject,
            "paragraphs": paragraphs,
            "url": url,
            "link_text": link_text,
        },
        language=user.email_language(),
    )


def _tell_current_address(user: User, new_email: str, digest: str) -> None:
    """Warn the account's current address of a change asked for (QA2 #12), whether or not the new address is free
    (the notice is the same): if the request is not the customer's, whoever made it knows the password, and the
    link sent to the new address stays valid for `EMAIL_CHANGE_LINK_HOURS`. Called with the account's language
    active. Its key is outside the throttle's prefix, which counts requests, not e-mails."""
    _queue(
        user=user,
        to=user.email,
        key=f"email-change-requested:{user.pk}:{digest}",
        subject=_("A change of your account's email was requested"),
        paragraphs=[
            _(
                "Someone asked to change the email address of your account at %(brand)s from %(old)s to %(new)s. "
                "Nothing changes until the request is confirmed from the new address."
            )
            % {"brand": settings.BRAND_NAME, "old": user.email, "new": new_email},
            _(
                "If this was you, there is nothing more to do. If it was not, change your password at once (whoever "
                "asked knew it) and write to us at %(contact)s from this address."
            )
            % {"contact": settings.SHOP_CONTACT_EMAIL},
        ],
        url=_absolute(reverse("accounts:account")),
        link_text=_("Your account"),
    )


@transaction.atomic
def email_change_request(*, user: User, new_email: str, password: str) -> None:
    """Send a confirmation link for `new_email` to that address (or a notice, if it is another account's).

    Raises:
        InvalidRequest: the password is wrong, the address is malformed or is already this account's.
        EmailChangeRateLimited: too many requests from this account recently.
    """
    if not user.check_password(password):
        raise InvalidRequest(_("Your current password is not correct."))
    new_email = new_email.strip().lower()
    try:
        validate_email(new_email)
    except ValidationError as error:
        raise InvalidRequest(_("Enter a valid email address.")) from error
    if new_email == user.email:
        raise InvalidRequest(_("This is already the email of your account."))
    account_lock(user)  # two requests at once count one after the other
    _throttle(user)
    token = email_change_token(user, new_email)
    digest = hashlib.sha256(token.encode()).hexdigest()[:24]
    key = f"{_KEY_PREFIX}:{user.pk}:{digest}"
    hours = settings.EMAIL_CHANGE_LINK_HOURS
    with translation.override(user.email_language()):
        _tell_current_address(user, new_email, digest)
        if User.objects.filter(email=new_email).exclude(pk=user.pk).exists():
            _queue(
                user=user,
                to=new_email,
                key=key,
                subject=_("Someone tried to move an account to this address"),
                paragraphs=[
                    _(
                        "Someone asked to use this email address for an account at %(brand)s, but another account "
                        "already uses it, so nothing was changed."
                    )
                    % {"brand": settings.BRAND_NAME},
                    _("If that was you, log in with this address instead. Otherwise you can ignore this email."),
                ],
                url=_absolute(reverse("accounts:login")),
                link_text=_("Log in"),
            )
            logger.info("user %s asked for an email change to an address in use", user.pk)
            return
        _queue(
            user=user,
            to=new_email,
            key=key,
            subject=_("Confirm your new email address"),
            paragraphs=[
                _("You asked to use this address for your account at %(brand)s. Open the link to confirm it.")
                % {"brand": settings.BRAND_NAME},
                _(
                    "The link works once, for %(hours)d hours, while you are logged in. Until you confirm, you keep "
                    "logging in with your current address."
                )
                % {"hours": hours},
                _("If you did not ask for this, ignore this email and nothing changes."),
            ],
            url=_absolute(reverse("accounts:email_confirm", args=[token])),
            link_text=_("Confirm the new address"),
        )
    logger.info("user %s asked for an email change", user.pk)


def email_change_target(*, user: User, token: str) -> str:
    """The new address a valid token of `user`'s names.

    Raises:
        EmailChangeLinkInvalid: bad signature, expired, another account's, or the account changed since.
    """
    try:
        user_id, new_email, fingerprint = signing.loads(
            token, salt=_SALT, max_age=timedelta(hours=settings.EMAIL_CHANGE_LINK_HOURS)
        )
    except (signing.BadSignature, ValueError, TypeError) as error:
        raise EmailChangeLinkInvalid() from error
    if (
        user_id != user.pk
        or not isinstance(new_email, str)
        or not constant_time_compare(fingerprint, _fingerprint(user))
    ):
        raise EmailChangeLinkInvalid()
    return new_email


@transaction.atomic
def email_change_confirm(*, user: User, token: str) -> User:
    """Move `user` to the address of the token, sign out every session of the account (the caller keeps its own)
    and tell the old address.

    Raises:
        EmailChangeLinkInvalid: the token is not valid for `user` now, or the address was taken meanwhile.
    """
    locked = User.objects.select_for_update().get(pk=user.pk)
    new_email = email_change_target(user=locked, token=token)
    old_email = locked.email
    if User.objects.filter(email=new_email).exclude(pk=locked.pk).exists():
        raise EmailChangeLinkInvalid()
    locked.email = new_email
    try:
        with transaction.atomic():
            locked.save(update_fields=["email"])
    except IntegrityError as error:
        raise EmailChangeLinkInvalid() from error
    # Whoever was signed in elsewhere, perhaps the person who learnt the old address's password, is signed out.
    user_sessions_end(user=locked)
    with translation.override(locked.email_language()):
        _queue(
            user=locked,
            to=old_email,
            key=f"email-changed:{locked.pk}:{hashlib.sha256(token.encode()).hexdigest()[:24]}",
            subject=_("The email of your account was changed"),
            paragraphs=[
                _("The email address of your account at %(brand)s was changed from %(old)s to %(new)s.")
                % {"brand": settings.BRAND_NAME, "old": old_email, "new": new_email},
                _(
                    "If you did this, there is nothing more to do. If you did not, write to us at once at "
                    "%(contact)s from this address."
                )
                % {"contact": settings.SHOP_CONTACT_EMAIL},
            ],
            url=_absolute(reverse("pages:help")),
            link_text=_("Help and contact"),
        )
    user.email, user.session_generation = new_email, locked.session_generation
    logger.info("user %s changed their email", locked.pk)
    return locked
