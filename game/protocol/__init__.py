"""The wire format of docs/protocol.md, in and out: the only code that knows the JSON frames.

``inbound`` checks what a client sends and turns it into the rules' actions and the services'
arguments; ``outbound`` builds each server frame from the domain object a read or a write
returned (its builders are this package's own names: ``protocol.state(snapshot)``); ``client``
is what a client makes of those frames (the consumer's view of its room, an ``events`` frame
applied to a state).
"""

from . import client, inbound
from .outbound import *  # noqa: F403 - the builders, one per server frame
from .outbound import __all__ as _builders

__all__ = ["client", "inbound", *_builders]
