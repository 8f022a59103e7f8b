"""Settings, all from the environment; the defaults run on one machine with nothing installed.

DATABASE_URL  default: SQLite in DATA_DIR          REDIS_URL  default: in-memory channel layer
SECRET_KEY    default: generated once in DATA_DIR  DEBUG      default: off
ALLOWED_HOSTS default: localhost,127.0.0.1         DATA_DIR   default: ./var
"""

import base64
import os
from email.utils import parseaddr
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.conf.locale import LANG_INFO
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR / "var")))
DATA_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)


def _owner_only_file(path: Path, content: str = "") -> None:
    """Create ``path`` readable by its owner only (no window where it is world-readable)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as f:
        f.write(content)


def _local_secret_key() -> str:
    # A key kept beside the database, so sessions survive restarts without a shared default.
    path = DATA_DIR / "secret_key"
    _owner_only_file(path, get_random_secret_key())
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
    "axes",
    "allauth",
    "allauth.account",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "yahtzee_site.static_files.StaticFilesMiddleware",
    # Pages compressed (static files come compressed already, from collectstatic). BREACH: a
    # compressed page that reflects an attacker's guess beside a secret leaks the secret through
    # its length. Our pages hold no secret but the CSRF token, which Django masks afresh in every
    # response, and GZipMiddleware pads each response with random bytes (Heal the BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the browser's choice (cookie from the switcher, else Accept-Language).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "game.web.players.PlayerCookieMiddleware",
    "game.web.languages.AccountLanguageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as its docs ask
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
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "game.web.players.player_context",
                "game.web.languages.catalog_context",
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
    # HTTP requests keep their connection this long; the database threads of the sockets
    # keep theirs until it breaks (game/realtime/db_threads.py).
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
    # SQLite creates the file (and its -wal/-shm files, which copy its mode) world-readable.
    if DATABASES["default"]["NAME"] not in ("", ":memory:"):
        _owner_only_file(Path(DATABASES["default"]["NAME"]))

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    # Pub/sub: one PUBLISH per group message, fanned out by Redis (docs/scaling.md).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # Bounded: a Redis that stops answering fails an operation within seconds
            # instead of holding it (game/services/broadcast.py); not sooner, for a failed
            # send is a lost message, and a loaded server's replies can take seconds.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 1000,
                                  "socket_connect_timeout": 2, "socket_timeout": 10}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Rate-limit counters (game/services/limits.py): shared by all processes through Redis; while
# Redis is away, each process's own (yahtzee_site/cache.py): no page fails for it.
CACHES = {
    "default": (
        {"BACKEND": "yahtzee_site.cache.RedisOrLocalCache", "LOCATION": REDIS_URL,
         "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
        if REDIS_URL else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ) | {
        # Sites sharing one Redis keep their counters (rate limits) apart with a prefix.
        "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default=""),
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Every request body is bounded before anything parses it: the site's largest form (the
# admin's, a page of ticked rows) is a few kilobytes; Django's 2.5 MB let one POST hold a
# name that costs seconds of CPU to normalise. Over it: 400, nothing parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_BYTES", default=16 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 400
DATA_UPLOAD_MAX_NUMBER_FILES = 0  # the site takes no files

SESSION_COOKIE_AGE = 60 * 60 * 24 * 30  # a guest keeps their seat for a month
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
#: A refused POST of a page's script is answered in JSON (Django's page for the others).
CSRF_FAILURE_VIEW = "game.views.push.csrf_failure"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# --- Behind a TLS proxy (README: "Production") ---------------------------------------------
#: The site is served over https: cookies only travel encrypted, http redirects to https.
HTTPS = env.bool("HTTPS", default=False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=HTTPS)
#: The header by which the proxy says the client spoke https, e.g. "X-Forwarded-Proto". Only set
#: it when the proxy always sets (or strips) that header: a client could send it otherwise.
PROXY_SSL_HEADER = env.str("PROXY_SSL_HEADER", default="")
if PROXY_SSL_HEADER:
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + PROXY_SSL_HEADER.upper().replace("-", "_"), "https")
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)

# Pages load scripts, styles and images from this site only: no inline script or style, so an
# injected one cannot run. Websockets: 'self' covers ws(s):// of the same host.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Logins, the admin's and the site's accounts' alike: after AXES_FAILURE_LIMIT failures for
# one account from one address, further attempts of that account from that address are refused
# for AXES_COOLOFF_TIME hours (`manage.py axes_reset` lifts a lockout). Counted per account
# alone, failures from rotating addresses would lock a person out from everywhere.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = env.int("ADMIN_LOGIN_FAILURES", default=5)
AXES_COOLOFF_TIME = env.float("ADMIN_LOCKOUT_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
#: A locked-out login gets a page in the site's look (HTTP 429), the admin's included.
AXES_LOCKOUT_TEMPLATE = "account/locked_out.html"
#: Behind a proxy, the header it puts the client's address in (e.g. "X-Forwarded-For"; its
#: right-most entry is used). Empty: the address of the connection itself.
CLIENT_IP_HEADER = env.str("CLIENT_IP_HEADER", default="")
AXES_CLIENT_IP_CALLABLE = "game.web.clients.client_address"
#: The account a sign-in is for, as the sign-in finds it (case-insensitively): failures as
#: "target" lock "TARGET" too.
AXES_USERNAME_CALLABLE = "game.web.accounts.lockout_username"

# --- Accounts (django-allauth): optional; a username and a password, an email only to reset
# the password. An account keeps one player on several devices (game/web/accounts.py).
ACCOUNT_ADAPTER = "game.web.accounts.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True  # one address an account, changed once the new one is confirmed
ACCOUNT_CONFIRM_EMAIL_ON_GET = True  # the mailed link confirms: no second button to press
ACCOUNT_EMAIL_CONFIRMATION_AUTHENTICATED_REDIRECT_URL = "/accounts/email/"
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_PASSWORD_INPUT_RENDER_VALUE = False
ACCOUNT_SESSION_REMEMBER = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "Yahtzee with friends: "
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = ACCOUNT_LOGOUT_REDIRECT_URL = "/"
#: allauth's rate limits, counted in the cache (Redis when REDIS_URL is set) by address
#: (game.web.clients.client_address). Failed logins per account are axes's, per account *and*
#: address: allauth's own per-account count ("5/5m/key") would let anyone lock a person out
#: from everywhere, so it is left out.
SIGNUPS_PER_HOUR = env.int("SIGNUPS_PER_HOUR", default=10)
LOGIN_FAILURES_PER_MINUTE = env.int("LOGIN_FAILURES_PER_MINUTE", default=10)
ACCOUNT_RATE_LIMITS = {
    "signup": f"{SIGNUPS_PER_HOUR}/h/ip",
    "login": "30/m/ip",
    "login_failed": f"{LOGIN_FAILURES_PER_MINUTE}/m/ip",
    # Per address, and per email address (mail bombing) for a minute only: an attacker
    # rotating addresses keeps a person from resetting their password for that minute at most.
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
}

# Email: the password-reset mails. EMAIL_HOST set: sent over SMTP; unset: printed on the
# server's console (development).
EMAIL_HOST = env.str("EMAIL_HOST", default="")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default=(
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL",
                             default="Yahtzee with friends <noreply@localhost>")

# --- Web Push (game/services/push.py): notices on people's devices ------------------------
def _local_vapid_key() -> str:
    # Like the secret key: made once, kept beside the database. The browsers' subscriptions
    # are bound to its public half, so a new key would silence every device until it
    # subscribes again.
    from cryptography.hazmat.primitives.asymmetric import ec

    path = DATA_DIR / "vapid_private_key"
    if not path.exists():
        scalar = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
        raw = base64.urlsafe_b64encode(scalar.to_bytes(32, "big")).rstrip(b"=").decode()
        # Written whole, then linked into place: a process starting beside this one reads
        # either no file or the whole key, never an empty file, and the first key stays.
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        _owner_only_file(draft, raw)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


#: The site's VAPID key (RFC 8292): the P-256 private key that signs every push, as the
#: base64url of its 32 bytes (what `npx web-push generate-vapid-keys` prints) or PEM. Read raw.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "") or _local_vapid_key()
#: Who push services may contact about this site's pushes (a mailto: or https: URL).
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:" + (
    parseaddr(DEFAULT_FROM_EMAIL)[1] or "noreply@localhost"))
#: The hosts a subscription's endpoint may name (https only): the browsers' push services.
#: "*.example.com" is any host under example.com. Nothing else, so that nobody can point the
#: server's requests at an address of its own network.
PUSH_SERVICE_HOSTS = env.list("PUSH_SERVICE_HOSTS", default=[
    "fcm.googleapis.com",            # Chrome, Edge on Android, most Chromium browsers
    "*.push.services.mozilla.com",   # Firefox
    "*.push.apple.com",              # Safari
    "*.notify.windows.com",          # Edge on Windows
])
#: Tests only: endpoints on the loopback address (http or https, any port) are allowed too.
PUSH_ALLOW_LOOPBACK = env.bool("PUSH_ALLOW_LOOPBACK", default=False)
#: Seconds one push service has to answer (connecting, then each read); a device's service
#: that is slower misses that notice. All of a person's devices are sent to at once.
PUSH_TIMEOUT = env.float("PUSH_TIMEOUT", default=5.0)
#: Devices one person may have subscribed at once: a new one past it replaces the oldest.
PUSH_SUBSCRIPTIONS_PER_PLAYER = env.int("PUSH_SUBSCRIPTIONS_PER_PLAYER", default=10)

# Every page, form, email and message people read is translated; the terminal game and the
# command line stay English. Catalogs: locale/ (make messages), compiled by setup.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("sv", "Svenska"),
    ("da", "Dansk"),
    ("nb", "Norsk bokmål"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Browsers send "no" for Norwegian: the site's Norwegian is Bokmål ("nb").
LANG_INFO["no"] = {**LANG_INFO["no"], "fallback": ["nb"]}
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start while it is missing
STATICFILES_DIRS = [BASE_DIR / "static"]
#: Serve static files straight from the source folders, no collectstatic needed: for DEBUG and
#: test servers. Off (production, `make run`): `collectstatic` first; pages then link hashed
#: names (game/room.3f2a9c.js), sent compressed (gzip, brotli) and cached for a year.
STATIC_FROM_SOURCE = env.bool("STATIC_FROM_SOURCE", default=DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": (
        "django.contrib.staticfiles.storage.StaticFilesStorage" if STATIC_FROM_SOURCE
        else "yahtzee_site.static_files.HashedStaticFilesStorage")},
}
WHITENOISE_USE_FINDERS = STATIC_FROM_SOURCE
# With DEBUG on, files edited while the server runs are picked up (else indexed once at start).
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Game settings -----------------------------------------------------------------------
#: Tests and demos only: derives every game's server seed (docs/fairness.md), so a fresh
#: database replays the same games; empty means seeds from the operating system.
DICE_SEED = env.str("DICE_SEED", default="")
#: Where built strategy tables live (never committed; built on first use).
STRATEGY_DIR = Path(env.str("STRATEGY_DIR", default=str(DATA_DIR / "strategy")))
#: Threads per server process that run the services and queries for sockets (commands,
#: presence, insight): each holds a database connection. More than a few only wait for the
#: write lock and the GIL (docs/benchmarks.md).
DB_THREADS = env.int("DB_THREADS", default=6)
#: A server process hands the objects it froze back to the garbage collector this often
#: (yahtzee_site/collector.py): the one long collection pause in that time. 0: freeze nothing.
GC_THAW_SECONDS = env.float("GC_THAW_SECONDS", default=600.0)
if GC_THAW_SECONDS < 0:
    raise ImproperlyConfigured(
        f"GC_THAW_SECONDS is a number of seconds, 0 or more (0: freeze nothing), "
        f"not {GC_THAW_SECONDS:g}.")
#: Seconds a computer player waits before each action, so people can follow (0 in tests).
BOT_DELAY = env.float("BOT_DELAY", default=0.8)
#: Per-socket rate limit: a token bucket of this size, refilled at this many messages/second.
WS_RATE_BURST = env.float("WS_RATE_BURST", default=20.0)
WS_RATE_PER_SECOND = env.float("WS_RATE_PER_SECOND", default=8.0)
#: ``sync`` (a full state) per socket: a few at once, then one per 5 s (docs/protocol.md).
WS_SYNC_BURST = env.float("WS_SYNC_BURST", default=3.0)
WS_SYNC_PER_SECOND = env.float("WS_SYNC_PER_SECOND", default=0.2)
#: ``hold`` (held dice shown to the room as they change) per socket: quick clicks pass.
WS_HOLD_BURST = env.float("WS_HOLD_BURST", default=10.0)
WS_HOLD_PER_SECOND = env.float("WS_HOLD_PER_SECOND", default=4.0)
#: Commands that change the room as a whole (``seed``, seat commands, ``room_options``,
#: ``start``, ``rematch``) per socket: each costs every socket of the room a ``state``.
WS_ROOM_BURST = env.float("WS_ROOM_BURST", default=10.0)
WS_ROOM_PER_SECOND = env.float("WS_ROOM_PER_SECOND", default=1.0)
#: Seconds a server process gathers a room's changes before it reads the room once for all
#: its sockets to it (game/realtime/room_refresh.py).
WS_ROOM_REFRESH_WINDOW = env.float("WS_ROOM_REFRESH_WINDOW", default=0.1)
#: Seconds a player may be away on their turn before the optimal bot plays it for them.
AWAY_GRACE = env.float("AWAY_GRACE", default=60.0)
#: The bot level that plays for a player away or out of time (tests use a cheap one: the
#: optimal table takes a minute to build the first time).
AUTOPLAY_LEVEL = env.str("AUTOPLAY_LEVEL", default="optimal")
#: Multiplies a room's turn time (1 in production; browser tests shrink a minute to seconds).
TURN_TIME_SCALE = env.float("TURN_TIME_SCALE", default=1.0)
#: Every server process refreshes its open sockets this often (seconds); a socket not refreshed
#: for PRESENCE_STALE_AFTER seconds counts as gone, whatever ended it (a killed server included).
PRESENCE_HEARTBEAT = env.float("PRESENCE_HEARTBEAT", default=20.0)
PRESENCE_STALE_AFTER = env.float("PRESENCE_STALE_AFTER", default=60.0)
#: Every server process holding sockets says it is alive this often (seconds, one small row);
#: one silent for SERVER_DEAD_AFTER crashed: its sockets stop counting at once, everywhere,
#: and its review claims lapse. On one host a process whose pid is gone is known dead at the
#: next look (services.presence). Taken for dead wrongly (a beat held up for seconds), a
#: process registers its sockets again at its next beat.
SERVER_BEAT = env.float("SERVER_BEAT", default=1.0)
SERVER_DEAD_AFTER = env.float("SERVER_DEAD_AFTER", default=5.0)
#: What one visitor may do, per session (an address sharing many people gets five times more).
ROOMS_PER_HOUR = env.int("ROOMS_PER_HOUR", default=20)
#: A refusal for rate is answered this late (game/web/refusals.py): a script that asks again
#: as soon as it is answered asks once a second, not as fast as the server answers.
RATE_REFUSAL_SECONDS = env.float("RATE_REFUSAL_SECONDS", default=1.0)
JOINS_PER_MINUTE = env.int("JOINS_PER_MINUTE", default=20)
NAMES_PER_HOUR = env.int("NAMES_PER_HOUR", default=20)
#: Choices a reviewer may try on finished games' pages ("Try it yourself") per minute.
TRIES_PER_MINUTE = env.int("TRIES_PER_MINUTE", default=60)
#: Web Push subscriptions one player may add or remove an hour.
PUSH_CHANGES_PER_HOUR = env.int("PUSH_CHANGES_PER_HOUR", default=30)
#: Games one room may start in an hour, its first and its rematches (over it: refused).
GAMES_PER_ROOM_PER_HOUR = env.int("GAMES_PER_ROOM_PER_HOUR", default=30)
#: Live websockets one session, and one address, may hold at once (over it: refused).
SOCKETS_PER_SESSION = env.int("SOCKETS_PER_SESSION", default=8)
SOCKETS_PER_ADDRESS = env.int("SOCKETS_PER_ADDRESS", default=100)
#: Analyse every game when it finishes (game review), in a worker process of each server.
REVIEW_ON_FINISH = env.bool("REVIEW_ON_FINISH", default=True)
#: Each server process looks for finished games without a stored review (its worker died, a
#: server was killed before the review was stored) once at start and then this often, and has
#: them analysed. 0: never (a process that is no server, like the test run's).
REVIEW_SWEEP_SECONDS = env.float("REVIEW_SWEEP_SECONDS", default=20.0)
# Over-days games: how often each server process looks for moves out of time, reminders due
# and notices to send (game/services/correspondence.py); 0: never (the test process).
CORRESPONDENCE_SCAN_SECONDS = env.float("CORRESPONDENCE_SCAN_SECONDS", default=30.0)
# The address the site is reached at, for links in what it sends with no request to answer
# (a notice's email, a push notification): scheme and host, no trailing slash.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# Tests only: a file holding seconds added to the clock of over-days games (game.domain.clock).
CLOCK_FILE = env.str("CLOCK_FILE", default="")
#: How long one process's claim on a game's review keeps the others off it (a triple review
#: takes many seconds, and reviews queue); a claim of a process known dead lapses at once
#: (SERVER_DEAD_AFTER), of one that never held a socket after this.
REVIEW_CLAIM_SECONDS = env.int("REVIEW_CLAIM_SECONDS", default=600)
