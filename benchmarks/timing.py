"""Timing shared by the benchmark scripts (imported as ``timing``: the scripts run from this folder)."""

from __future__ import annotations

import time


def best_time(fn, repeats: int) -> float:
    """Minimum wall time of ``repeats`` calls (the least disturbed by other load on the machine)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
