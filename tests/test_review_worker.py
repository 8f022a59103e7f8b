"""The review worker process leaves with its server, however the server ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A server in miniature: it starts its review worker, says both pids, and waits to be killed.
SERVER = """
import os, time
if __name__ == "__main__":
    os.environ["DJANGO_SETTINGS_MODULE"] = "yahtzee_site.settings"
    import django
    django.setup()
    from game import review_worker
    try:
        review_worker.submit(0).result(timeout=120)  # no such game: the worker stays up
    except Exception:
        pass
    print(os.getpid(), *review_worker._pool._processes, flush=True)
    time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by init) counts as gone.
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return stat[0] != "Z"


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_the_review_worker_leaves_when_its_server_is_killed(tmp_path, how):
    env = {**os.environ, "DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        server_pid, worker = map(int, server.stdout.readline().split())
        assert server_pid == server.pid and alive(worker)
        server.send_signal(how)  # Python's default for either: gone, no exit handlers run
        server.wait(30)
        deadline = time.monotonic() + 30
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(worker), "the review worker outlived its server"
    finally:
        server.kill()
        server.wait(30)
