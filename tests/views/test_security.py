"""What every page promises a browser, and the admin's lockout after failed logins."""

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_pages_send_a_content_security_policy_without_inline_allowances(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert "'unsafe-inline'" not in policy
    assert directives["frame-ancestors"] == "'none'"


def test_admin_login_locks_out_an_address_after_repeated_failures(client, settings):
    get_user_model().objects.create_superuser("staff", password="right-password-123")
    limit = settings.AXES_FAILURE_LIMIT
    for attempt in range(1, limit + 1):
        response = client.post("/admin/login/?next=/admin/",
                               {"username": "staff", "password": "wrong"})
        # The form again with its error, until the failure that reaches the limit.
        assert response.status_code == (429 if attempt == limit else 200)
    # Locked now: even the right password is refused from this address.
    response = client.post("/admin/login/?next=/admin/",
                           {"username": "staff", "password": "right-password-123"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_failures_from_rotating_addresses_lock_no_account_for_everyone(client, settings):
    get_user_model().objects.create_superuser("staff", password="right-password-123")
    for i in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "staff", "password": "wrong"},
                    REMOTE_ADDR=f"198.51.100.{i + 1}")
    # The account's owner, from an address of their own, gets in.
    response = client.post("/admin/login/?next=/admin/",
                           {"username": "staff", "password": "right-password-123"},
                           REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.session["_auth_user_id"]
