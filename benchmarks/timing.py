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


def _print_now(text: str) -> None:
    print(text, flush=True)


def interleaved_best_times(tasks, *, say=_print_now):
    """Round-robin timing: ``tasks`` maps name -> (function, repeats); returns name -> (best seconds, last result).

    Interleaving the methods spreads the other load of a shared machine over all of them alike, so the ratios
    are fairer than when each method is timed in its own block.
    """
    times = {name: [] for name in tasks}
    results = {}
    for round_index in range(max(repeats for _, repeats in tasks.values())):
        for name, (function, repeats) in tasks.items():
            if round_index < repeats:
                start = time.perf_counter()
                results[name] = function()
                times[name].append(time.perf_counter() - start)
        say(f"  round {round_index + 1} done")
    return {name: (min(times[name]), results[name]) for name in tasks}
