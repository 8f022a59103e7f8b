"""Websocket routes (the room consumer arrives with the multiplayer work)."""

websocket_urlpatterns: list = []
