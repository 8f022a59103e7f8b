"""Judging a phase against the targets, ratios to the baseline, and the printed table."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

FANOUT_P99_TARGET_MS = 100.0
RTT_P50_RATIO_TARGET = 3.0
MIN_RATE_SHARE = 0.95  # a load is held only if ≥ 95 % of the offered moves went through


def held(r: dict[str, Any]) -> bool:
    """Zero loss, order kept, every socket up, the offered rate met, p99 fan-out < 100 ms."""
    p99 = r["fanout_ms"]["p99"] if r["fanout_ms"]["n"] else r["round_trip_ms"]["p99"]
    return (
        r["lost"] == 0 and r["out_of_order"] == 0 and r["duplicates"] == 0
        and r["connect_failures"] == 0 and r["closed_early"] == 0 and r["timeouts"] == 0
        and r["moves_per_s"] >= MIN_RATE_SHARE * r["offered_moves_per_s"]
        and p99 is not None and p99 < FANOUT_P99_TARGET_MS
    )


def with_ratios(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add app/relay ratios to every app phase that has a relay phase of the same shape:
    ``ratio_to_baseline`` (the floor) and, when it ran, ``ratio_to_stock``."""
    for relay, key in (("baseline", "ratio_to_baseline"), ("stock", "ratio_to_stock")):
        base = {(r["servers"], r["rooms"]): r for r in results if r["target"] == relay}
        for r in results:
            b = base.get((r["servers"], r["rooms"]))
            if r["target"] == "app" and b is not None:
                r[key] = _ratios(r, b)
    for r in results:
        if "ratio_to_baseline" in r:
            rtt_ratio = r["ratio_to_baseline"].get("round_trip_p50")
            r["rtt_p50_within_3x"] = rtt_ratio is not None and rtt_ratio <= RTT_P50_RATIO_TARGET
    return results


def _ratios(r: dict[str, Any], b: dict[str, Any]) -> dict[str, float]:
    ratios = {}
    for metric in ("round_trip_ms", "fanout_ms"):
        for q in ("p50", "p95", "p99"):
            ours, theirs = r[metric][q], b[metric][q]
            if ours is not None and theirs:
                ratios[f"{metric[:-3]}_{q}"] = round(ours / theirs, 2)
    # CPU per move beside the relay's: on this shared machine the absolute figure moves
    # with the hour (2x between sessions), the ratio much less (docs/benchmarks.md).
    ours, theirs = r.get("server_cpu_ms_per_move"), b.get("server_cpu_ms_per_move")
    if ours and theirs:
        ratios["cpu_per_move"] = round(ours / theirs, 2)
    return ratios


COLUMNS = [
    ("target", 12, lambda r: label(r)),
    ("srv", 3, lambda r: f'{r["servers"]}{"p" if r.get("pinned") else ""}'),
    ("rooms", 5, lambda r: r["rooms"]),
    ("socks", 5, lambda r: r["sockets"]),
    ("moves/s", 7, lambda r: f'{r["moves_per_s"]:g}/{r["offered_moves_per_s"]:g}'),
    ("deliv/s", 7, lambda r: r["deliveries_per_s"]),
    ("rtt p50/95/99 ms", 20, lambda r: _trio(r["round_trip_ms"])),
    ("fan-out p50/95/99 ms", 20, lambda r: _trio(r["fanout_ms"])),
    ("lost", 4, lambda r: r["lost"]),
    ("ooo", 3, lambda r: r["out_of_order"] + r["duplicates"]),
    ("err", 3, lambda r: sum(r["errors"].values()) + r["timeouts"] + r["connect_failures"]),
    ("cpu", 4, lambda r: r["server_cpu_cores"]),
    ("ms/mv", 5, lambda r: r.get("server_cpu_ms_per_move", "")),
    ("loop", 4, lambda r: r.get("server_loop_cpu_ms_per_move", "")),
    ("B/ev", 4, lambda r: r.get("mean_event_bytes", "")),
    ("ms/conn", 7, lambda r: r.get("server_cpu_ms_per_connect", "")),
    ("stand", 6, lambda r: r.get("standings_received", "")),
    ("stand p50/99 ms", 15, lambda r: _standings_lag(r)),
    ("x base rtt50", 12, lambda r: r.get("ratio_to_baseline", {}).get("round_trip_p50", "")),
    ("x base cpu", 10, lambda r: r.get("ratio_to_baseline", {}).get("cpu_per_move", "")),
    ("x stock rtt50", 13, lambda r: r.get("ratio_to_stock", {}).get("round_trip_p50", "")),
    ("held", 4, lambda r: "yes" if r["held"] else "NO"),
]


def label(r: dict[str, Any]) -> str:
    """The target, the hostile sockets and the seed flood beside it and the hold frames, if
    any."""
    hostile = r.get("hostile_sockets") or 0
    name = f'{r["target"]}+{hostile}h' if hostile else r["target"]
    if r.get("seed_flood"):
        name += f'+seed{r["seed_flood"]}'
    if r.get("name_flood"):
        name += f'+names{r["name_flood"]}'
    return name + ("+holds" if r.get("holds") else "")


def _standings_lag(r: dict[str, Any]) -> str:
    """The standings' delay after their turn end (p50/p99 ms) and, after a plus, the most turn
    ends one of them was behind when it arrived (0: every one was current)."""
    lag = r.get("standings_after_ms") or {}
    if not lag.get("n"):
        return "-"
    most = max((int(k) for k in r.get("standings_behind") or {}), default=0)
    return f'{lag["p50"]:.0f}/{lag["p99"]:.0f}+{most}'


def _trio(s: dict[str, Any]) -> str:
    return "/".join("-" if s[q] is None else f"{s[q]:.1f}" for q in ("p50", "p95", "p99"))


def print_table(results: list[dict[str, Any]], file: TextIO = sys.stdout) -> None:
    print("  ".join(name.rjust(w) for name, w, _ in COLUMNS), file=file)
    for r in results:
        print("  ".join(str(get(r)).rjust(w) for _, w, get in COLUMNS), file=file)
    file.flush()


MARKDOWN_HEADER = (
    "| target | servers | database | rooms (sockets) | moves/s (offered) "
    "| round trip p50/p95/p99 ms | fan-out p50/p95/p99 ms | lost | out of order | errors "
    "| server CPU (cores) | ms/move | machine load | × baseline RTT p50 | × baseline CPU/move "
    "| × stock RTT p50 | standings (p50/p99 ms after the turn end + most turns behind) "
    "| held |"
)


def markdown_table(results: list[dict[str, Any]]) -> str:
    """The rows of a run as the Markdown table docs/benchmarks.md shows."""
    lines = [MARKDOWN_HEADER, "|" + "---|" * MARKDOWN_HEADER.count(" | ") + "---|"]
    for r in results:
        load = r.get("machine_load_1min") or []
        errors = sum(r["errors"].values()) + r["timeouts"] + r["connect_failures"]
        cells = [
            label(r), r["servers"], r.get("database") or "-",
            f'{r["rooms"]} ({r["sockets"]})',
            f'{r["moves_per_s"]:g} ({r["offered_moves_per_s"]:g})',
            _trio(r["round_trip_ms"]), _trio(r["fanout_ms"]), r["lost"],
            r["out_of_order"] + r["duplicates"], errors, r["server_cpu_cores"],
            r.get("server_cpu_ms_per_move", ""), "–".join(f"{x:g}" for x in load),
            r.get("ratio_to_baseline", {}).get("round_trip_p50", ""),
            r.get("ratio_to_baseline", {}).get("cpu_per_move", ""),
            r.get("ratio_to_stock", {}).get("round_trip_p50", ""),
            f'{r.get("standings_received", 0)} ({_standings_lag(r)})',
            "yes" if r["held"] else "no",
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    # python -m benchmarks.load.report var/bench/load-<stamp>.json: the run as Markdown.
    for name in sys.argv[1:]:
        print(markdown_table(with_ratios(json.loads(Path(name).read_text())["results"])))
