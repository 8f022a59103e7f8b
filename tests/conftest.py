"""Shared test fixtures (generic; each test folder adds its own in its conftest.py)."""

import multiprocessing
import os

# One BLAS thread per process: the run already keeps both cores busy (two pytest workers, the
# servers and browsers they start, which inherit this); OpenBLAS's own threads on top of that
# load slowed the table build by a quarter (236 s against 171 s beside two busy cores). Set
# before anything imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pytest  # noqa: E402

from tests.support import tables  # noqa: E402

#: The workers' groups; the websocket clients and rooms of every test that talks to the room
#: socket; the SMTP server and the Web Push receiver.
pytest_plugins = [
    "tests.support.xdist_groups", "tests.support.sockets", "tests.support.smtp",
    "tests.support.push_receiver"]

# Forked Daphne/live servers hang after async tests ran in the same process (asgiref #194).
multiprocessing.set_start_method("spawn", force=True)


def pytest_configure(config: pytest.Config) -> None:
    """This process imports the ASGI module (in-process websocket tests) but is no server: the
    servers' garbage-collection policy would freeze the test run's objects, which hides them
    from ``gc.get_referrers`` (Hypothesis then warns that a referenced PRNG has no referrers).
    The Daphnes that the browser and fault tests start keep the policy: this is the test
    process's own settings, not the environment they inherit."""
    from django.conf import settings

    settings.GC_THAW_SECONDS = 0
    settings.REVIEW_SWEEP_SECONDS = 0  # nor does it look for games to review, as servers do
    settings.CORRESPONDENCE_SCAN_SECONDS = 0  # nor for over-days moves out of time


#: Fixtures that build a strategy table (minutes of CPU on a busy machine).
TABLE_FIXTURES = set(tables.TABLE_OF_FIXTURE)
NEEDED_TABLES = pytest.StashKey[set[str]]()


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Whichever test first needs a strategy table builds it or waits for it (yatzy alone
    takes a minute of CPU, far longer at a load of 8 on 2 cores): those tests get a wider
    timeout.

    Under xdist (``--dist loadgroup``), the tests of a module that share a module-scoped
    fixture (a finished game, a migrated site) run on one worker, which makes it once."""
    config.stash[NEEDED_TABLES] = tables.needed_tables(items)
    xdist = config.pluginmanager.hasplugin("xdist")
    for item in items:
        if (item.nodeid.startswith("tests/ai/")
                or TABLE_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.timeout(1800))
        if xdist and _shares_a_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def _shares_a_module_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a module- or class-scoped fixture of this suite (not a plugin's,
    such as pytest-django's per-class hook for unittest classes)."""
    info = getattr(item, "_fixtureinfo", None)
    return info is not None and any(
        defs[-1].scope in ("module", "class") and defs[-1].baseid
        for defs in info.name2fixturedefs.values())


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session):
    """An xdist worker builds its share of the run's strategy tables before its first test
    (tests/support/tables.py), outside any test's timeout."""
    if not session.config.option.collectonly and session.config.stash.get(NEEDED_TABLES, ()):
        strategy = tables.run_strategy_dir(session.config._tmp_path_factory)
        tables.build_share(strategy, session.config.stash[NEEDED_TABLES])
    return (yield)


@pytest.fixture(autouse=True)
def _game_settings(settings):
    """Reproducible dice and no bot pauses in every test; rate-limit counters start at zero
    (every test client comes from the same address); a fast password hash, as Django advises
    for tests (the real one is 0.3 s of CPU: 168 of them were 53 s of the run; the servers the
    browser and fault tests start keep it)."""
    from django.core.cache import cache

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.DICE_SEED = "tests"
    settings.BOT_DELAY = 0
    settings.REVIEW_ON_FINISH = False  # a test that wants the review turns it on
    # Pages name static files without a collectstatic run (production's storage needs one).
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    cache.clear()
    return settings


@pytest.fixture(scope="session")
def redis_url() -> str:
    """A reachable Redis (TEST_REDIS_URL, default the local one); fails, never skips, without."""
    import os

    import redis

    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        pytest.fail(f"Redis at {url} is not reachable ({exc}); run scripts/ensure-services.")
    finally:
        client.close()
    return url


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A reachable PostgreSQL server (TEST_POSTGRES_URL, default the local one, user postgres);
    fails, never skips, without."""
    import os

    import psycopg

    url = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as exc:
        pytest.fail(f"PostgreSQL at {url} is not reachable ({exc}); run scripts/ensure-services.")
    return url


@pytest.fixture(scope="session")
def strategy_dir(tmp_path_factory: pytest.TempPathFactory):
    """Every strategy table of this test run lives here (each built once: minutes of CPU; one
    directory for all xdist workers); subprocesses and servers get it through the
    environment."""
    import os

    from game.ai import set_strategy_dir
    from game.ai.storage import forget_loaded

    path = tables.run_strategy_dir(tmp_path_factory)
    old = os.environ.get("STRATEGY_DIR")
    os.environ["STRATEGY_DIR"] = str(path)
    set_strategy_dir(path)
    forget_loaded()
    yield path
    set_strategy_dir(None)
    forget_loaded()
    if old is None:
        os.environ.pop("STRATEGY_DIR", None)
    else:
        os.environ["STRATEGY_DIR"] = old


@pytest.fixture(scope="session")
def build_output(strategy_dir):
    """The yahtzee table, built once through ``manage.py build_strategy``; its output."""
    return tables.build_yahtzee(strategy_dir)


@pytest.fixture(scope="session")
def yahtzee_table(build_output):
    from game.ai import get_solution

    return get_solution("yahtzee")


@pytest.fixture(scope="session")
def yatzy_table(strategy_dir):
    """Loaded when its xdist worker built it (or waited for while it builds)."""
    from game.ai import get_solution

    return get_solution("yatzy")


@pytest.fixture(autouse=True)
def _tables_here(strategy_dir):
    """Every test starts with game.ai pointed at the session's tables: Django's ready(), a
    settings change or another test may have pointed it elsewhere (on a fresh clone the
    settings' default directory holds no table)."""
    from game.ai import set_strategy_dir

    set_strategy_dir(strategy_dir)


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a request through the test client
    (``LocaleMiddleware``) or a test's ``activate`` leaves its language active on the thread,
    and a later test would read German where it expects English."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
