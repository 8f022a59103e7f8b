"""Run as a separate process: print the configured channel layer, then receive or send one
group message. Two such processes can only talk through the configured (Redis) layer."""

import asyncio
import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django.setup()

from channels.layers import get_channel_layer  # noqa: E402


async def main(role: str, group: str, text: str = "") -> None:
    layer = get_channel_layer()
    print(f"{type(layer).__module__}.{type(layer).__name__}", flush=True)
    if role == "receive":
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        print("ready", flush=True)
        message = await asyncio.wait_for(layer.receive(channel), 20)
        print(message["text"], flush=True)
    elif role == "send":
        await layer.group_send(group, {"type": "probe.message", "text": text})


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
