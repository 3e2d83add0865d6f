from django.urls import path

from . import email_views, views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("register/", views.register, name="register"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
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
