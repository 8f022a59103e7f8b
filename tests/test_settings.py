"""Settings read from the environment exactly as given."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
