"""Settings of the bare relay baseline: Channels and the Redis pub/sub layer, nothing else.

No database, no sessions, no apps of ours: what is left is the floor any Channels app pays.
The layer is configured exactly like yahtzee_site.settings configures it, so the comparison
isolates our own work (rules, database, JSON state) from the transport.
"""

import os

SECRET_KEY = "relay-baseline-not-secret"  # nothing is signed here
DEBUG = False
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
INSTALLED_APPS = ["channels"]
ASGI_APPLICATION = "benchmarks.load.relay_asgi.application"
DATABASES: dict = {}
USE_TZ = True

_redis_url = os.environ["REDIS_URL"]  # the baseline only makes sense over Redis
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        # Own prefix: pub/sub channels ignore the Redis db number, so keep apart from the app.
        "CONFIG": {
            "hosts": [{"address": _redis_url, "max_connections": 1000}],
            "prefix": "relaybench",
        },
    }
}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
