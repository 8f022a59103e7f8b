"""The password-reset mail is written in the language of the page that asked for it (allauth's
subject from its own catalogs, the site's words from ours), sent through a real SMTP server on
loopback."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
IGNORE = "If you did not ask for it, ignore this email: your password stays as it is."


@pytest.mark.parametrize("language", ["sv", "de"])
def test_a_password_reset_is_mailed_in_the_askers_language(settings, smtp_server, language):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp_server.port
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    address = f"ingrid-{language}@example.com"
    client.post("/accounts/signup/", {"username": f"ingrid{language}", "password1": PASSWORD,
                                      "password2": PASSWORD, "email": address})
    client.post("/accounts/logout/")
    assert client.post("/accounts/password/reset/", {"email": address}).status_code == 302
    message = smtp_server.wait_for(address)
    body = smtp_server.body(message)
    with translation.override(language):
        expected = translation.gettext(IGNORE)
        greeting = translation.gettext("Hello from Yahtzee with friends!")
    assert expected != IGNORE and expected in body and greeting in body
    assert "Password Reset" not in message["Subject"]
    assert smtp_server.link(message)  # the link still works in any language
