"""django-allauth, fitted to the site: account names pass the nicknames' checks, rate limits
count the client's address as the rest of the site does, and signing in or out moves the
browser's player cookie (``game.web.players``) to the account's player or away from it."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal import ratelimit
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import services
from ..domain import translated
from .clients import client_address
from .players import current_player, forget_player, use_player


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        try:
            name = services.clean_account_name(username) if not shallow \
                else services.clean_nickname(username)
        except services.ServiceError as exc:
            raise forms.ValidationError(translated.message(exc), code=exc.code) from exc
        return super().clean_username(name, shallow=shallow)

    def get_client_ip(self, request: HttpRequest) -> str:
        # The address the site's other limits and the login lockout count (game.web.clients).
        return client_address(request) or super().get_client_ip(request)

    def login(self, request: HttpRequest, user: AbstractBaseUser) -> None:
        guest = current_player(request)  # before the sign-in: this browser's guest
        super().login(request, user)
        use_player(request, services.claim_player(user, guest))

    def logout(self, request: HttpRequest) -> None:
        super().logout(request)
        forget_player(request)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        context.setdefault("site_name", _("Yahtzee with friends"))
        super().send_mail(template_prefix, email, context)


def lockout_username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    """django-axes' name of a sign-in (``AXES_USERNAME_CALLABLE``): the account it signs in
    to, whatever the case it is typed in (``services.sign_in_key``), from the site's form
    (``login``) or the admin's (``username``)."""
    if credentials and "username" in credentials:
        return services.sign_in_key(credentials["username"])
    data = getattr(request, "POST", None) or {}
    return services.sign_in_key(data.get("username") or data.get("login") or "")


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's sign-in, counted against the same per-address limit of failed sign-ins as
    the site's (allauth's ``login_failed``): django-axes alone counts per account and address,
    so one address trying many names would otherwise never be slowed down."""

    error_messages = {
        **AdminAuthenticationForm.error_messages,
        "too_many": gettext_lazy("Too many failed login attempts. Try again later."),
    }

    def clean(self) -> dict[str, Any]:
        usage = None
        if self.request is not None:
            usage = ratelimit.consume(self.request, app="allauth.account", action="login_failed")
            if usage is None:
                raise forms.ValidationError(self.error_messages["too_many"], code="too_many")
        cleaned = super().clean()
        if usage is not None:  # signed in: this attempt was no failure
            usage.rollback()
        return cleaned
