"""Redis away (killed): every page and form that uses the cache works from each process's own
memory instead: signing in, up and out, a password reset, the admin's sign-in, the scripts'
catalog, "Try it yourself", a day's results. None answers 500; limits count per process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.load.browser import BrowserSession
from benchmarks.load.services import REPO

from .processes import Site, site_env

pytestmark = pytest.mark.timeout(240)

PASSWORD = "correct horse battery"

# An account, a staff account and yesterday's daily challenges.
SEED = f"""
import json, datetime, django
django.setup()
from django.contrib.auth import get_user_model
from game.services.daily import ensure_challenges, utc_today
get_user_model().objects.create_user("zoe", "zoe@example.com", "{PASSWORD}")
get_user_model().objects.create_superuser("staff", "staff@example.com", "{PASSWORD}")
yesterday = utc_today() - datetime.timedelta(days=1)
ensure_challenges(yesterday)
print(json.dumps({{"day": yesterday.isoformat()}}))
"""


def seeded(site: Site) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-c", SEED], cwd=REPO, text=True,
                          env=site_env(site.data_dir, site.redis_url), capture_output=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_pages_and_forms_work_without_redis(template_dir: Path, tmp_path: Path) -> None:
    site = Site.create(template_dir, tmp_path / "site")
    try:
        day = seeded(site)["day"]
        base = site.http_url()
        site.kill_redis()

        browser = BrowserSession(base)
        assert browser.get("/i18n/catalog.js").status == 200
        assert browser.get(f"/daily/yahtzee/{day}/").status == 200

        # A wrong password is refused as usual; the right one signs in.
        page = browser.get("/accounts/login/")
        assert page.status == 200
        wrong = browser.submit(page, "/accounts/login/", {"login": "zoe", "password": "nope"})
        assert wrong.status == 200 and "not correct" in wrong.text, wrong.text[:300]
        page = browser.get("/accounts/login/")
        right = browser.submit(page, "/accounts/login/", {"login": "zoe", "password": PASSWORD})
        assert right.status == 200 and "/accounts/login" not in right.url, right.url
        assert "zoe" in browser.get("/").text

        # A sign-up makes the account; a password reset is sent.
        newcomer = BrowserSession(base)
        page = newcomer.get("/accounts/signup/")
        made = newcomer.submit(page, "/accounts/signup/", {
            "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD})
        assert made.status == 200 and "/accounts/signup" not in made.url, made.text[:500]
        with site.db() as conn:
            assert conn.execute("SELECT COUNT(*) FROM auth_user WHERE username = 'newcomer'")\
                .fetchone()[0] == 1
        forgetful = BrowserSession(base)
        page = forgetful.get("/accounts/password/reset/")
        sent = forgetful.submit(page, "/accounts/password/reset/", {"email": "zoe@example.com"})
        assert sent.status == 200 and sent.url.endswith("/accounts/password/reset/done/")

        # The admin's sign-in, counted per address here now.
        staff = BrowserSession(base)
        page = staff.get("/admin/login/?next=/admin/")
        signed_in = staff.submit(page, "/admin/login/", {"username": "staff",
                                                          "password": PASSWORD})
        assert signed_in.status == 200 and signed_in.url.endswith("/admin/"), signed_in.url

        # "Try it yourself" of a game that does not exist: refused as usual, not a 500.
        tried = browser.get("/games/999999/try/1")
        assert tried.status == 404 and json.loads(tried.text)["error"] == "no_game"

        site.assert_alive()
        assert "The shared cache (Redis) is away" in site.log()
        assert " 500 " not in site.log() and "Internal Server Error" not in site.log()
    finally:
        site.stop()


def test_limits_count_in_each_process_while_redis_is_away(template_dir: Path,
                                                        tmp_path: Path) -> None:
    site = Site.create(template_dir, tmp_path / "site", env={"SIGNUPS_PER_HOUR": "2"})
    try:
        site.kill_redis()
        answers = []
        for i in range(3):
            browser = BrowserSession(site.http_url())
            page = browser.get("/accounts/signup/")
            answers.append(browser.submit(page, "/accounts/signup/", {
                "username": f"player{i}", "password1": PASSWORD, "password2": PASSWORD}).status)
        assert answers == [200, 200, 429], answers
        site.assert_alive()
    finally:
        site.stop()


