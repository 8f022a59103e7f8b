"""Latency samples, percentiles and per-socket sequence checking."""

from __future__ import annotations

from dataclasses import dataclass, field


def percentile(sorted_values: list[float], q: float) -> float | None:
    """Nearest-rank percentile of an already sorted list (None when empty)."""
    if not sorted_values:
        return None
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def summary_ms(samples: list[float]) -> dict[str, float | int | None]:
    """p50/p95/p99/max in milliseconds of samples given in seconds."""
    values = sorted(samples)
    out: dict[str, float | int | None] = {"n": len(values)}
    for name, q in (("p50", 50), ("p95", 95), ("p99", 99), ("max", 100)):
        v = percentile(values, q)
        out[name] = None if v is None else round(v * 1000, 2)
    return out


@dataclass
class SeqTracker:
    """What one socket saw of a room's numbered stream: gaps, repeats, reorderings."""

    last: int | None = None
    seen: set[int] = field(default_factory=set)
    out_of_order: int = 0
    duplicates: int = 0

    def reset(self, seq: int) -> None:
        """A full state (or a new game) says where the stream stands now."""
        self.last = seq
        self.seen = set()

    def see(self, seq: int) -> None:
        if seq in self.seen:
            self.duplicates += 1
            return
        if self.last is not None and seq <= self.last:
            self.out_of_order += 1
        self.seen.add(seq)
        self.last = seq if self.last is None else max(self.last, seq)

    def missing(self, start: int, final: int) -> int:
        """Events numbered start+1 … final that this socket never received."""
        return sum(1 for s in range(start + 1, final + 1) if s not in self.seen)
