"""Websocket routes: one consumer per room; any other path is refused at the handshake."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from .consumer import RoomConsumer


class NoSuchPath(AsyncWebsocketConsumer):
    """Refuses the handshake (HTTP 403) instead of Channels' "No route found" error, which
    Daphne answers with a 500 and a traceback in the log."""

    async def connect(self) -> None:
        await self.close(code=4404)


websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[a-z0-9]{1,16})/$", RoomConsumer.as_asgi()),
    re_path(r"", NoSuchPath.as_asgi()),
]
