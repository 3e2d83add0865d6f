"""The language of a signed-in customer follows the account (docs/decisions/0160-language-without-url-prefix.md).

Django's `LocaleMiddleware` picks the language from the cookie, else from Accept-Language. For a signed-in
customer the account's language, once chosen, wins over both: a customer who chose Tiếng Việt on a laptop
sees Vietnamese on a phone after logging in, and emails (rendered in the account's language) match the pages.
The cookie is then set to it, so the next request agrees without a database read. An account with no language
chosen (`User.language` empty: registered through the API without `Accept-Language`) leaves the cookie alone, and
its first login takes the language the customer reads the site in (`services.session_login`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class AccountLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = self._account_language(request)
        if chosen is None:
            return self.get_response(request)
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen
        response = self.get_response(request)
        if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != chosen:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                chosen,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
            )
        return response

    @staticmethod
    def _account_language(request: HttpRequest) -> str | None:
        if request.path.startswith("/api/"):
            return None  # the API answers in the language its request asks for (Accept-Language)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        language = getattr(user, "language", "")
        if language and language in dict(settings.LANGUAGES) and language != request.LANGUAGE_CODE:
            return str(language)
        return None
