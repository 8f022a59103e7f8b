"""The worker process: it leaves with its server, however the server ends, and takes urgent
jobs before waiting ones, drops the ones whose callers gave up, and bounds a kind of job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.workers import jobs

ROOT = Path(__file__).resolve().parents[2]

# A server in miniature: it starts its review worker, says both pids, and waits to be killed.
SERVER = """
import os, time
if __name__ == "__main__":
    os.environ["DJANGO_SETTINGS_MODULE"] = "yahtzee_site.settings"
    import django
    django.setup()
    from game.workers import pool
    worker = pool.submit(os.getpid).result(timeout=120)
    print(os.getpid(), worker, flush=True)
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


def test_urgent_jobs_pass_waiting_ones_and_given_up_jobs_never_run(tmp_path):
    """Tries flood the queue while one job holds the worker; a review submitted after them runs
    as soon as the worker is free, a try whose request gave up never runs, and past the bound
    a try is refused at once."""
    from game.workers import pool

    gate = tmp_path / "gate"
    os.mkfifo(gate)
    log = tmp_path / "order"
    holding = pool.submit(jobs.wait_for_gate, str(gate), str(log))
    tries = [pool.submit(jobs.record, str(log), f"try{i}", priority=pool.WHEN_IDLE, limit=4)
             for i in range(4)]
    with pytest.raises(pool.Busy):
        pool.submit(jobs.record, str(log), "try-over", priority=pool.WHEN_IDLE, limit=4)
    assert tries[1].cancel()  # its request gave up while it waited
    assert pool.waiting(pool.WHEN_IDLE) == 3
    review = pool.submit(jobs.record, str(log), "review", priority=pool.URGENT)
    with open(gate, "w") as release:  # blocks until the worker holds the other end
        release.write("go")
    review.result(timeout=60)
    for future in (tries[0], tries[2], tries[3]):
        future.result(timeout=60)
    holding.result(timeout=60)
    assert log.read_text().split() == ["gate", "review", "try0", "try2", "try3"]
    assert tries[1].cancelled()
