"""Settings, all from the environment; the defaults run on one machine with nothing installed.

DATABASE_URL  default: SQLite in DATA_DIR          REDIS_URL  default: in-memory channel layer
SECRET_KEY    default: generated once in DATA_DIR  DEBUG      default: off
ALLOWED_HOSTS default: localhost,127.0.0.1         DATA_DIR   default: ./var
"""

import os
from pathlib import Path

import environ
from django.core.management.utils import get_random_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR / "var")))
DATA_DIR.mkdir(parents=True, exist_ok=True)


def _local_secret_key() -> str:
    # A key kept beside the database, so sessions survive restarts without a shared default.
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()


# Read raw: django-environ treats a value starting with "$" as the name of another variable,
# and generated keys start with "$" one time in fifty.
SECRET_KEY = os.environ.get("SECRET_KEY", "") or _local_secret_key()
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "yahtzee_site.urls"
ASGI_APPLICATION = "yahtzee_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A connection pool, not persistent connections: under ASGI every HTTP request runs in a
    # thread of its own, and each kept its own connection open for CONN_MAX_AGE, so a burst
    # of page loads ran PostgreSQL out of connections ("too many clients", seen in the load
    # benchmark). With CONN_HEALTH_CHECKS Django has the pool check each connection it lends.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": env.int("DB_POOL_SIZE", default=16),
        "timeout": 10,
    }
else:
    # Keep connections open between commands (Channels closes them after each call
    # otherwise): every async service call runs on a pool thread with its own connection.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers queue instead of failing with "database is locked"; WAL lets readers run beside
    # the one writer and halves a command's commit time (measured: 57 ms -> 27 ms under load).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    DATABASES["default"].setdefault("TEST", {"NAME": str(DATA_DIR / "test_db.sqlite3")})

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # Pub/sub: one PUBLISH per group message, fanned out by Redis (README: "Channel layer").
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 1000}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

SESSION_COOKIE_AGE = 60 * 60 * 24 * 30  # a guest keeps their seat for a month
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start while it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve straight from the app folders: no collectstatic step is needed to run. With DEBUG on,
# files edited while the server runs are picked up (otherwise indexed once at start).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Game settings -----------------------------------------------------------------------
#: Seed for live dice; empty means the operating system's randomness (tests set it).
DICE_SEED = env.str("DICE_SEED", default="")
#: Where built strategy tables live (never committed; built on first use).
STRATEGY_DIR = Path(env.str("STRATEGY_DIR", default=str(DATA_DIR / "strategy")))
#: Seconds a computer player waits before each action, so people can follow (0 in tests).
BOT_DELAY = env.float("BOT_DELAY", default=0.8)
#: Per-socket rate limit: a token bucket of this size, refilled at this many messages/second.
WS_RATE_BURST = env.float("WS_RATE_BURST", default=20.0)
WS_RATE_PER_SECOND = env.float("WS_RATE_PER_SECOND", default=8.0)
#: Seconds a player may be away on their turn before the optimal bot plays it for them.
AWAY_GRACE = env.float("AWAY_GRACE", default=60.0)
