"""Who is connected, kept in the database so every server process sees the same picture:
open sockets and the server processes that hold them."""

from __future__ import annotations

from django.db import models

from .rooms import Room


class Connection(models.Model):
    """One open websocket to a room, refreshed by a heartbeat; rows older than the staleness
    window are ignored (a killed server never runs ``disconnect()``)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    guest_key = models.CharField(max_length=64, blank=True, default="")
    #: The client's address (``game.clients``), for the cap on sockets per address.
    address = models.CharField(max_length=64, blank=True, default="")
    last_seen = models.DateTimeField(db_index=True)
    #: The server process holding the socket (``ServerProcess.name``).
    server = models.CharField(max_length=100, blank=True, default="", db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["guest_key", "last_seen"], name="connection_guest_seen"),
            models.Index(fields=["address", "last_seen"], name="connection_address_seen"),
        ]

    def __str__(self) -> str:
        return f"{self.room.code}: {self.channel_name}"


class ServerProcess(models.Model):
    """A server process holding sockets, alive while it beats. One that stopped beating
    crashed: its ``Connection`` rows are deleted (``services.presence.sweep_dead_servers``)."""

    name = models.CharField(max_length=100, unique=True)
    beat = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name
