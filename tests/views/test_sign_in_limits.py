"""Failed sign-ins counted as the sign-in finds the account: a lockout holds whatever case
the name is typed in, on the site's form and the admin's, and the admin's sign-in is slowed
per address like the site's."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from .test_accounts import PASSWORD, sign_in, sign_up

pytestmark = pytest.mark.django_db


def admin_sign_in(client: Client, username: str, password: str):
    return client.post("/admin/login/?next=/admin/", {"username": username,
                                                      "password": password})


def test_a_lockout_of_a_name_holds_for_the_name_in_any_case(client, settings):
    sign_up(client, "target")
    client.post("/accounts/logout/")
    attacker = Client(REMOTE_ADDR="198.51.100.9")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(attacker, "target", "wrong password")
    for typed in ("TARGET", "Target", " target "):
        response = sign_in(attacker, typed)  # the right password, the name in another case
        assert response.status_code == 429, typed
        assert "_auth_user_id" not in attacker.session
    assert sign_in(client, "TARGET").status_code == 302  # the owner, elsewhere, gets in


def test_an_admin_lockout_holds_for_the_name_in_any_case(client, settings):
    get_user_model().objects.create_superuser("staff", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        admin_sign_in(client, "staff", "wrong")
    response = admin_sign_in(client, "STAFF", PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_admin_sign_in_is_limited_per_address(client, settings):
    get_user_model().objects.create_superuser("staff", password=PASSWORD)
    guesser = Client(REMOTE_ADDR="198.51.100.20")
    for i in range(settings.LOGIN_FAILURES_PER_MINUTE):  # a new name each time: no lockout
        response = admin_sign_in(guesser, f"nobody{i}", "wrong")
        assert response.status_code == 200
        assert "Too many failed" not in response.content.decode()
    response = admin_sign_in(guesser, "staff", PASSWORD)  # past the limit: even this waits
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in guesser.session
    # Other addresses are not slowed down, and a success is no failure.
    for _ in range(settings.LOGIN_FAILURES_PER_MINUTE + 2):
        assert admin_sign_in(Client(), "staff", PASSWORD).status_code == 302
