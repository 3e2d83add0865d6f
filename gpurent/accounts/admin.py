from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin as BaseGroupAdmin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import Group
from django.db import models, transaction
from django.db.models import QuerySet
from django.forms import ModelMultipleChoiceField
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_totp.models import TOTPDevice

from gpurent.core.admin import ONCE_PER_KEY_CHANGE_LIST, AuditedModelAdmin, moment_column
from gpurent.core.audit import audit_record, snapshot
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action

from .forms import OperatorUserChangeForm, OperatorUserCreationForm
from .models import ApiToken, GuestSession, User
from .roles import ROLE_DESCRIPTIONS, role_description


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = OperatorUserChangeForm
    add_form = OperatorUserCreationForm
    ordering = ["email"]
    # Moments as the desks write them ("06 Dec 2026, 17:01 UTC"), on the list and the page.
    date_joined_shown = staticmethod(moment_column("date_joined", _("date joined")))
    last_login_shown = staticmethod(moment_column("last_login", _("last login")))
    list_display = ["email", "first_name", "last_name", "is_staff", "is_active", "date_joined_shown"]
    list_filter = ["is_staff", "is_active", "groups"]
    search_fields = ["email", "first_name", "last_name"]
    readonly_fields = ["date_joined_shown", "last_login_shown", "two_factor"]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        (_("Person"), {"fields": ["first_name", "last_name"]}),
        (
            _("Access"),
            {"fields": ["is_active", "is_staff", "is_superuser", "groups", "two_factor", "user_permissions"]},
        ),
        (_("Dates"), {"fields": ["last_login_shown", "date_joined_shown"]}),
    ]
    add_fieldsets = [
        (None, {"classes": ["wide"], "fields": ["email", "first_name", "last_name", "password1", "password2"]}),
    ]

    def formfield_for_manytomany(
        self, db_field: models.ManyToManyField[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelMultipleChoiceField | None:
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if field is not None and db_field.name == "groups":
            # What each role may do, where the roles are chosen (QA walk of the back office, defect 10).
            field.help_text = format_html(
                '{}<ul class="role-descriptions">{}</ul>',
                "An operator gets the permissions of each of their roles:",
                format_html_join("", "<li><strong>{}</strong>: {}</li>", sorted(ROLE_DESCRIPTIONS.items())),
            )
        return field

    @admin.display(description="Two-factor login")
    def two_factor(self, obj: User) -> SafeString:
        """How many authenticators the user has, and a link to add one: with STAFF_REQUIRE_2FA an operator without
        one cannot log in to the back office (QA walk of the back office, defect 10)."""
        count = TOTPDevice.objects.filter(user=obj, confirmed=True).count()
        if count:
            state = f"{count} authenticator app{'s' if count > 1 else ''}"
        elif obj.is_staff and settings.STAFF_REQUIRE_2FA:
            state = "No authenticator: cannot log in to the back office until one is added"
        else:
            state = "No authenticator"
        add = reverse("admin:otp_totp_totpdevice_add") + f"?user={obj.pk}&name=Authenticator"
        listed = reverse("admin:otp_totp_totpdevice_changelist") + f"?user__id__exact={obj.pk}"
        return format_html(
            '{} · <a href="{}">Add a TOTP device for this user</a> · <a href="{}">Their devices</a>'
            "<div>Open the new device's QR code and have them scan it with an authenticator app, or they turn on "
            "two-factor login on their own account page.</div>",
            state,
            add,
            listed,
        )


admin.site.unregister(Group)


@admin.register(Group)
class GroupAdmin(BaseGroupAdmin):
    """Django's groups, each of the shop's roles with its line of what it may do."""

    list_display = ["name", "description"]
    readonly_fields = ["description"]
    fields = ["name", "description", "permissions"]

    @admin.display(description="What it may do")
    def description(self, obj: Group) -> str:
        return role_description(obj.name) or "—"


@admin.register(GuestSession)
class GuestSessionAdmin(admin.ModelAdmin[GuestSession]):
    """Read only: guest sessions are made by visitors and adopted by registration, never by hand."""

    list_display = ["id", "created_at", "adopted_by", "adopted_at"]
    list_filter = [("adopted_by", admin.EmptyFieldListFilter)]
    search_fields = ["id", "adopted_by__email"]
    readonly_fields = ["id", "created_at", "adopted_by", "adopted_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: GuestSession | None = None) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(AuditedModelAdmin):
    """Operators see who has which token and can revoke one; nobody can see or make a token's secret here."""

    list_display = ["name", "user", "display_prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "prefix", "user__email"]
    readonly_fields = ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]
    exclude = ["digest"]
    actions = ["revoke"]
    change_list_template = ONCE_PER_KEY_CHANGE_LIST

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> HttpResponse:
        """Revoke the selected tokens, once per the list page's idempotency key (`change_list.html`)."""

        def act() -> Outcome:
            revoked = 0
            with transaction.atomic():
                for token in queryset.filter(revoked_at__isnull=True).select_for_update():
                    before = snapshot(token)
                    token.revoked_at = timezone.now()
                    token.save(update_fields=["revoked_at"])
                    audit_record(
                        actor=request.user,
                        action="admin.api_token_revoke",
                        target=token,
                        before=before,
                        after=snapshot(token),
                    )
                    revoked += 1
            return Outcome(200, {"message": str(_("%(count)d tokens revoked.")) % {"count": revoked}})

        return form_action(request, act, back=request.get_full_path())
