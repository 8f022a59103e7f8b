"""ASGI entry point: HTTP to Django, websockets to the game's consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django_asgi_app = get_asgi_application()  # before importing anything that touches models

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from game.realtime.origin import SameOriginValidator  # noqa: E402
from game.realtime.routing import websocket_urlpatterns  # noqa: E402
from game.services.correspondence import start_scanning  # noqa: E402
from game.services.review import start_sweeping  # noqa: E402
from game.web.refusals import SlowRateRefusals  # noqa: E402

from .body_limit import BoundedBody, bound_daphne_bodies  # noqa: E402
from .collector import FreezeSurvivors  # noqa: E402

application = ProtocolTypeRouter(
    {
        # A body over the site's limit is refused before it is read (yahtzee_site/body_limit.py);
        # a refusal for rate is answered late (game/web/refusals.py).
        "http": BoundedBody(SlowRateRefusals(django_asgi_app)),
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Daphne keeps no more of a request's body than the site takes (yahtzee_site/body_limit.py).
bound_daphne_bodies()

# Full collections scan only what came since the last one (yahtzee_site/collector.py);
# 0 leaves the collector as Python sets it (the test process, which imports this module).
if settings.GC_THAW_SECONDS > 0:
    FreezeSurvivors(settings.GC_THAW_SECONDS).install()

# Reviews are durable: games that finished without one are found now and then (services/review.py).
if settings.REVIEW_ON_FINISH and settings.REVIEW_SWEEP_SECONDS > 0:
    start_sweeping(settings.REVIEW_SWEEP_SECONDS)

# Over-days games: moves out of time, reminders and notices, whoever is connected or not.
if settings.CORRESPONDENCE_SCAN_SECONDS > 0:
    start_scanning(settings.CORRESPONDENCE_SCAN_SECONDS)
