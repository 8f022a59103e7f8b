"""The real-time layer: websockets in, services called, group messages out.

* ``routing`` / ``consumer`` — one :class:`~game.realtime.consumer.RoomConsumer` per socket;
  ``frames`` checks each frame's shape, ``throttle`` limits how fast a socket may send.
* ``turn_driver`` — plays the turns of computer players and of people away too long.
* ``heartbeat`` — one presence beat per server process for all of its sockets.
* ``db_threads`` — how this async code calls the synchronous services and selectors.

Nothing outside this package imports it, except ``yahtzee_site.asgi`` (the routing).
"""
