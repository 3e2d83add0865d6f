from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gpurent.core.admin import ONCE_PER_KEY_CHANGE_LIST, AuditedModelAdmin, moment_column
from gpurent.core.audit import audit_record, snapshot
from gpurent.core.idempotency.keys import Outcome
from gpurent.core.idempotency.request import form_action

from .forms import OperatorUserChangeForm, OperatorUserCreationForm
from .models import ApiToken, GuestSession, User


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
    readonly_fields = ["date_joined_shown", "last_login_shown"]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        (_("Person"), {"fields": ["first_name", "last_name"]}),
        (_("Access"), {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        (_("Dates"), {"fields": ["last_login_shown", "date_joined_shown"]}),
    ]
    add_fieldsets = [
        (None, {"classes": ["wide"], "fields": ["email", "first_name", "last_name", "password1", "password2"]}),
    ]


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
