"""Websocket routes: one consumer per room."""

from django.urls import re_path

from .consumers import RoomConsumer

websocket_urlpatterns = [
    re_path(r"^ws/rooms/(?P<code>[a-z0-9]{1,16})/$", RoomConsumer.as_asgi()),
]
