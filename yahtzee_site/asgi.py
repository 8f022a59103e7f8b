"""ASGI entry point: HTTP to Django, websockets to the game's consumers."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django_asgi_app = get_asgi_application()  # before importing anything that touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from game.realtime.origin import SameOriginValidator  # noqa: E402
from game.realtime.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# What startup made (Django, Channels, Twisted, the rulesets) lives as long as the process: out
# of the collector's sight, a full collection scans only what serving made, so a loaded
# server's pauses stay short (docs/benchmarks.md).
gc.freeze()
