"""Settings read from the environment exactly as given."""

import os
import subprocess
import sys
from pathlib import Path

from tests.support.readme import readme_production_env

ROOT = Path(__file__).resolve().parents[2]


def settings_value(name: str, tmp_path: Path, **env: str) -> str:
    code = f"from django.conf import settings; print(settings.{name})"
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**{k: v for k, v in os.environ.items() if k != "SECRET_KEY"},
             "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings",
             "DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT), **env},
        capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip()


def test_a_secret_key_starting_with_a_dollar_is_taken_verbatim(tmp_path):
    # django-environ would read "$abc…" as a reference to a variable named "abc…".
    key = "$j7(secret-from-the-environment"
    assert settings_value("SECRET_KEY", tmp_path, SECRET_KEY=key) == key


def test_without_secret_key_one_is_generated_once_and_kept(tmp_path):
    first = settings_value("SECRET_KEY", tmp_path)
    assert len(first) >= 50
    assert settings_value("SECRET_KEY", tmp_path) == first
    assert (tmp_path / "secret_key").read_text().strip() == first


def test_postgres_connections_come_from_a_bounded_pool(tmp_path):
    # Persistent connections under ASGI: one per request thread, until PostgreSQL refused more.
    url = "postgresql://user@127.0.0.1:5432/db"
    db = "DATABASES['default']"
    assert settings_value(f"{db}['CONN_MAX_AGE']", tmp_path, DATABASE_URL=url) == "0"
    assert settings_value(f"{db}['OPTIONS']['pool']['max_size']", tmp_path, DATABASE_URL=url,
                          DB_POOL_SIZE="12") == "12"
    assert settings_value(f"{db}['CONN_MAX_AGE']", tmp_path) == "60"  # SQLite: per thread


def check_deploy(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={**{k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")},
             "DATA_DIR": str(tmp_path), **env},
        cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_readme_production_environment_passes_the_deploy_checks(tmp_path):
    env = readme_production_env()
    assert {"HTTPS", "SECURE_HSTS_SECONDS", "ALLOWED_HOSTS"} <= env.keys()
    result = check_deploy(tmp_path, env)
    assert result.returncode == 0, result.stderr
    # Without TLS the same checks fail: they do look at these settings.
    env.pop("HTTPS")
    result = check_deploy(tmp_path, env)
    assert result.returncode != 0
    assert "SESSION_COOKIE_SECURE" in result.stderr


def test_the_database_and_secret_key_are_readable_by_their_owner_only(tmp_path):
    data = tmp_path / "new-data-dir"
    settings_value("SECRET_KEY", data)
    for name in ("secret_key", "db.sqlite3"):
        assert (data / name).stat().st_mode & 0o777 == 0o600, name
    assert data.stat().st_mode & 0o077 == 0


def test_a_negative_gc_thaw_is_refused_with_a_clear_message(tmp_path):
    assert settings_value("GC_THAW_SECONDS", tmp_path, GC_THAW_SECONDS="0") == "0.0"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        env={**os.environ, "DATA_DIR": str(tmp_path), "GC_THAW_SECONDS": "-5"},
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "GC_THAW_SECONDS is a number of seconds, 0 or more" in result.stderr
    assert "not -5" in result.stderr
