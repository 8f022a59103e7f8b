"""The channel layer settings: in-memory by default, channels_redis across a real Redis."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

PROBE = str(Path(__file__).with_name("layer_probe.py"))
ROOT = Path(__file__).resolve().parents[2]


def probe_env(tmp_path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(DATA_DIR=str(tmp_path), PYTHONPATH=str(ROOT), **extra)
    return env


def test_without_redis_url_the_layer_is_in_memory(tmp_path):
    out = subprocess.run([sys.executable, PROBE, "none", "g"], env=probe_env(tmp_path),
                         capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["channels.layers.InMemoryChannelLayer"]


@pytest.mark.redis
def test_with_redis_url_a_group_message_crosses_redis_between_processes(tmp_path, redis_url):
    env = probe_env(tmp_path, REDIS_URL=redis_url)
    group, text = f"probe-{uuid.uuid4().hex}", f"hello-{uuid.uuid4().hex}"
    receiver = subprocess.Popen([sys.executable, PROBE, "receive", group], env=env,
                                stdout=subprocess.PIPE, text=True)
    try:
        assert receiver.stdout.readline().strip() == (
            "channels_redis.pubsub.RedisPubSubChannelLayer")
        assert receiver.stdout.readline().strip() == "ready"
        subprocess.run([sys.executable, PROBE, "send", group, text], env=env,
                       capture_output=True, timeout=60, check=True)
        assert receiver.stdout.readline().strip() == text
        assert receiver.wait(timeout=20) == 0
    finally:
        receiver.kill()
