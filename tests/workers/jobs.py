"""Jobs for the worker process in tests: module-level, so the worker can import them."""

from __future__ import annotations


def record(log: str, name: str) -> str:
    with open(log, "a") as out:
        out.write(name + "\n")
    return name


def wait_for_gate(gate: str, log: str) -> None:
    """Holds the worker until the test opens the named pipe ``gate`` and writes to it."""
    with open(gate) as waiting:
        waiting.read()
    record(log, "gate")
