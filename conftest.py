"""Fixtures every test folder may use. A missing service fails the test: nothing is skipped."""

import os

import pytest
import redis


@pytest.fixture(scope="session")
def redis_url() -> str:
    """A running Redis (TEST_REDIS_URL; `make test` starts one when it is missing)."""
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.fail(f"Redis is not reachable at {url} ({exc}); run scripts/ensure-services")
    return url
