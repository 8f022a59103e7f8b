"""The bare baselines: a websocket consumer that relays every text frame to its room's group.

Same URL shape and Origin check as the real app (``/ws/rooms/<code>/``), no parsing, no
database, no rules. Serve with ``DJANGO_SETTINGS_MODULE=benchmarks.load.relay_settings daphne
benchmarks.load.relay_asgi:application``: the floor (``--targets baseline``), which skips
Channels' per-message hop as the app's consumer does; ``stock_application`` is the same relay
on Channels' own dispatch (``--targets stock``), what the first relay runs measured as "the relay".
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.load.relay_settings")
django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402


class StockRelayConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = "relay." + self.scope["url_route"]["kwargs"]["code"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, message: dict) -> None:
        await self.send(text_data=message["text"])


class RelayConsumer(StockRelayConsumer):
    async def dispatch(self, message: dict) -> None:
        # As the app's consumer does: Channels' own dispatch first hops to its sync thread to
        # close stale database connections, for every frame and group message. The relay has
        # no database; with that hop it cost 8 thread round trips per move the app does not
        # pay, and was no longer the floor it stands for (docs/benchmarks.md).
        await getattr(self, get_handler_name(message))(message)


def _serving(consumer: type[StockRelayConsumer]) -> ProtocolTypeRouter:
    return ProtocolTypeRouter(
        {
            "websocket": AllowedHostsOriginValidator(
                URLRouter([re_path(r"^ws/rooms/(?P<code>[A-Za-z0-9_-]{1,32})/$",
                                   consumer.as_asgi())])
            ),
        }
    )


application = _serving(RelayConsumer)
stock_application = _serving(StockRelayConsumer)
