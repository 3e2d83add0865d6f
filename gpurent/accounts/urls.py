from django.urls import path

from . import email_views, two_factor_views, views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("register/", views.register, name="register"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("login/code/", two_factor_views.login_code, name="login_code"),
    path("logout/", views.logout_view, name="logout"),
    path("two-factor/", two_factor_views.two_factor_setup, name="two_factor_setup"),
    path("two-factor/confirm/", two_factor_views.two_factor_confirm, name="two_factor_confirm"),
    path("two-factor/off/", two_factor_views.two_factor_disable_view, name="two_factor_disable"),
    path("two-factor/recovery-codes/", two_factor_views.recovery_codes_renew_view, name="recovery_codes_renew"),
    path("profile/", views.profile_edit, name="profile"),
    path("email/", email_views.email_change, name="email_change"),
    path("email/confirm/<str:token>/", email_views.email_confirm, name="email_confirm"),
    path("tokens/", views.token_create, name="token_create"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("ssh-keys/", views.ssh_key_create, name="ssh_key_create"),
    path("ssh-keys/<int:key_id>/remove/", views.ssh_key_delete, name="ssh_key_remove"),
    path("password/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
