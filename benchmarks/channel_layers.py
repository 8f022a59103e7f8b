"""Group fan-out through channels_redis: the core layer against the pub/sub layer.

Our rooms are channel-layer groups (2–6 players and a few watchers); every stored event is one
``group_send`` to the room. This script builds R groups of M member channels (as one Daphne
process would hold them), sends each group f messages per second for D seconds, and measures
for each layer: messages delivered / expected, deliveries per second, and the latency from
``group_send`` to each member's ``receive`` (p50 / p95 / p99). Sender and receivers use separate
layer instances (separate Redis connections), in one process, on one event loop.

    .venv/bin/python benchmarks/channel_layers.py                     # defaults below
    .venv/bin/python benchmarks/channel_layers.py --rooms 100 --members 7 --rates 1,2,4 --json

Needs a Redis (``--redis``, default $TEST_REDIS_URL or redis://127.0.0.1:6379/0); keys use a
random prefix and nothing is flushed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
import uuid
from dataclasses import asdict, dataclass

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

LAYERS = {"core": RedisChannelLayer, "pubsub": RedisPubSubChannelLayer}


@dataclass
class Result:
    layer: str
    rooms: int
    members: int
    rate_per_room: float
    offered_per_s: float
    delivered: int
    expected: int
    deliveries_per_s: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float


def make_layer(kind: str, url: str, prefix: str):
    hosts = [{"address": url, "max_connections": 1000}]
    return LAYERS[kind](hosts=hosts, prefix=prefix)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


async def run_one(kind: str, url: str, rooms: int, members: int, rate: float,
                  duration: float) -> Result:
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    sender, receiver = make_layer(kind, url, prefix), make_layer(kind, url, prefix)
    latencies: list[float] = []
    channels: list[str] = []
    for r in range(rooms):
        for _ in range(members):
            ch = await receiver.new_channel()
            await receiver.group_add(f"room{r}", ch)
            channels.append(ch)

    async def receive_loop(ch: str) -> None:
        while True:
            msg = await receiver.receive(ch)
            latencies.append(time.perf_counter() - msg["t"])

    receivers = [asyncio.create_task(receive_loop(ch)) for ch in channels]
    await asyncio.sleep(0.5)  # subscriptions settle

    sends = int(duration * rate)
    interval = 1.0 / rate

    async def room_sender(r: int) -> None:
        await asyncio.sleep(interval * r / rooms)  # spread the rooms over the interval
        start = time.perf_counter()
        for k in range(sends):
            delay = start + k * interval - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await sender.group_send(f"room{r}", {"type": "bench", "t": time.perf_counter()})

    began = time.perf_counter()
    await asyncio.gather(*(room_sender(r) for r in range(rooms)))
    expected = sends * rooms * members
    deadline = time.perf_counter() + 10
    while len(latencies) < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    elapsed = time.perf_counter() - began
    for t in receivers:
        t.cancel()
    await asyncio.gather(*receivers, return_exceptions=True)
    for r in range(rooms):
        for ch in channels[r * members:(r + 1) * members]:
            await receiver.group_discard(f"room{r}", ch)
    for layer in (sender, receiver):
        closer = getattr(layer, "flush", None) if kind == "pubsub" else None
        if closer is not None:
            await closer()
        elif hasattr(layer, "close_pools"):
            await layer.close_pools()

    ms = sorted(x * 1000 for x in latencies)
    return Result(
        layer=kind, rooms=rooms, members=members, rate_per_room=rate,
        offered_per_s=rooms * members * rate, delivered=len(ms), expected=expected,
        deliveries_per_s=round(len(ms) / elapsed, 1),
        p50_ms=round(percentile(ms, 0.50), 2), p95_ms=round(percentile(ms, 0.95), 2),
        p99_ms=round(percentile(ms, 0.99), 2), max_ms=round(ms[-1], 2) if ms else float("nan"),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default=os.environ.get("TEST_REDIS_URL",
                                                          "redis://127.0.0.1:6379/0"))
    parser.add_argument("--layers", default="core,pubsub")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--members", type=int, default=7, help="sockets per room (2 + 5)")
    parser.add_argument("--rates", default="1,2,4",
                        help="group messages per second per room, comma separated")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args()

    results = []
    for rate in (float(x) for x in args.rates.split(",")):
        for kind in args.layers.split(","):
            res = asyncio.run(run_one(kind, args.redis, args.rooms, args.members, rate,
                                      args.duration))
            results.append(res)
            if not args.json:
                lost = res.expected - res.delivered
                print(f"{res.layer:6} {res.rooms} rooms x {res.members} sockets, "
                      f"{rate:g}/s per room = {res.offered_per_s:g} deliveries/s offered: "
                      f"{res.deliveries_per_s:g}/s delivered, lost {lost}, "
                      f"p50 {res.p50_ms} ms, p95 {res.p95_ms} ms, p99 {res.p99_ms} ms, "
                      f"max {res.max_ms} ms", flush=True)
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=1))
    else:
        print("median of p50 per layer:", {
            k: statistics.median(r.p50_ms for r in results if r.layer == k)
            for k in args.layers.split(",")})


if __name__ == "__main__":
    main()
