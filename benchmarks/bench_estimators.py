"""Benchmark of the empirical estimators U_hat (Eq. (6)) and V_hat (Eq. (7)).

Every figure is a ratio against a baseline measured in the same run, so it transfers across machines:

1. V_hat + U_hat (one ``evaluate`` call) at n = 10^6, d = 100 against the two BLAS passes it cannot avoid,
   X @ theta and X.T @ w.  Target: ratio <= 2.
2. The O(n d) factorised V_hat against the literal O(m (n - m) d) double sum of Eq. (7) at n = 20,000.
   Target: >= 1000x faster.
3. A batch of K = 64 parameters in one call against 64 separate calls, at the same n = 10^6, d = 100.
   Target: >= 5x cheaper per parameter.  Also reported (no target) at n = 10^5, where single calls are
   cheaper per sample (their two BLAS passes stream 80 MB instead of 800 MB) while the batch's cost per
   sample-parameter, dominated by the elementwise loss evaluation, stays the same.
4. Peak memory allocated during one ``evaluate`` at n = 10^6 (tracemalloc; NumPy reports its buffers to it),
   against the size of X: no n x n (or large n x K) array is ever formed.

Usage::

    python benchmarks/bench_estimators.py            # full sizes, about a minute on 2 cores
    python benchmarks/bench_estimators.py --quick    # smaller sizes, seconds (for a smoke test)
    python benchmarks/bench_estimators.py --check    # exit 1 if a target is missed

Results go to ``benchmarks/results/estimators.json`` (generated; written atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
import tracemalloc
from pathlib import Path

import numpy as np
from timing import best_time  # benchmarks/timing.py

from lfverify.core._empirical import EmpiricalSurrogateUtility, reference_gradient_direction
from lfverify.core._losses import tau_logistic
from lfverify.core._metrics import f1
from lfverify.io._atomic import write_text_atomically

# ---------------------------------------------------------------------- constants
SEED = 20200826_0001
N_LARGE, D_LARGE = 1_000_000, 100
N_DOUBLE_SUM, D_DOUBLE_SUM = 20_000, 20
N_BATCH, D_BATCH, K_BATCH = 1_000_000, 100, 64
N_BATCH_SMALL = 100_000
REPEATS = 7
TARGETS = {"blas_ratio_max": 2.0, "double_sum_speedup_min": 1000.0, "batch_speedup_min": 5.0}
# --quick is a smoke test of the script (the test suite runs it): sizes where each stage takes about a second
QUICK = {"N_LARGE": 100_000, "N_DOUBLE_SUM": 4_000, "N_BATCH": 20_000, "N_BATCH_SMALL": 5_000, "REPEATS": 2}
OUT = Path(__file__).with_name("results") / "estimators.json"


def make_data(rng, n, d):
    X = rng.normal(size=(n, d)) / np.sqrt(d)
    y = np.where(rng.random(n) < 0.3, 1, -1)
    return X, y


def bench_blas_ratio(rng, n, d, repeats):
    X, y = make_data(rng, n, d)
    theta = rng.normal(size=d)
    w = rng.normal(size=n)
    est = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y)
    est.evaluate(theta)  # warm-up
    t_blas = best_time(lambda: (X @ theta, X.T @ w), repeats)
    t_est = best_time(lambda: est.evaluate(theta), repeats)
    tracemalloc.start()
    est.evaluate(theta)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"n": n, "d": d, "blas_seconds": t_blas, "estimator_seconds": t_est, "ratio": t_est / t_blas,
            "peak_bytes_during_evaluate": peak, "bytes_of_X": X.nbytes}


def bench_double_sum(rng, n, d):
    X, y = make_data(rng, n, d)
    theta = rng.normal(size=d)
    metric, loss = f1(), tau_logistic(0.33)
    est = EmpiricalSurrogateUtility(metric, loss, X, y)
    t_fast = best_time(lambda: est.gradient_direction(theta), 5)
    start = time.perf_counter()
    ref = reference_gradient_direction(metric, loss, X, y, theta)
    t_ref = time.perf_counter() - start
    rel = float(np.linalg.norm(est.gradient_direction(theta) - ref) / np.linalg.norm(ref))
    return {"n": n, "d": d, "fast_seconds": t_fast, "double_sum_seconds": t_ref, "speedup": t_ref / t_fast,
            "relative_difference": rel}


def bench_batch(rng, n, d, k, repeats):
    X, y = make_data(rng, n, d)
    Theta = rng.normal(size=(k, d))
    est = EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), X, y)
    est.evaluate(Theta)
    t_batch = best_time(lambda: est.evaluate(Theta), repeats)
    t_separate = best_time(lambda: [est.evaluate(t) for t in Theta], max(2, repeats // 2))
    return {"n": n, "d": d, "K": k, "batch_seconds": t_batch, "separate_seconds": t_separate,
            "speedup_per_parameter": t_separate / t_batch}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (seconds)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--out", type=Path, default=OUT, help=f"JSON output (default {OUT})")
    args = parser.parse_args(argv)
    sizes = dict(N_LARGE=N_LARGE, N_DOUBLE_SUM=N_DOUBLE_SUM, N_BATCH=N_BATCH, N_BATCH_SMALL=N_BATCH_SMALL,
                 REPEATS=REPEATS)
    if args.quick:
        sizes.update(QUICK)
    rng = np.random.default_rng(np.random.SeedSequence(SEED))

    print(f"[1/3] V_hat + U_hat vs two BLAS passes, n = {sizes['N_LARGE']:,}, d = {D_LARGE}", flush=True)
    blas = bench_blas_ratio(rng, sizes["N_LARGE"], D_LARGE, sizes["REPEATS"])
    print(f"[2/3] factorised V_hat vs the literal double sum, n = {sizes['N_DOUBLE_SUM']:,}, d = {D_DOUBLE_SUM}",
          flush=True)
    double = bench_double_sum(rng, sizes["N_DOUBLE_SUM"], D_DOUBLE_SUM)
    print(f"[3/3] batch of K = {K_BATCH} vs {K_BATCH} calls, n = {sizes['N_BATCH']:,} and "
          f"{sizes['N_BATCH_SMALL']:,}, d = {D_BATCH}", flush=True)
    batch = bench_batch(rng, sizes["N_BATCH"], D_BATCH, K_BATCH, sizes["REPEATS"])
    batch_small = bench_batch(rng, sizes["N_BATCH_SMALL"], D_BATCH, K_BATCH, sizes["REPEATS"])

    verdicts = {
        "blas_ratio": blas["ratio"] <= TARGETS["blas_ratio_max"],
        "double_sum_speedup": double["speedup"] >= TARGETS["double_sum_speedup_min"],
        "batch_speedup": batch["speedup_per_parameter"] >= TARGETS["batch_speedup_min"],
    }
    payload = {
        "generated_by": "benchmarks/bench_estimators.py (GENERATED FILE: do not edit by hand)",
        "quick": args.quick, "machine": {"python": platform.python_version(), "numpy": np.__version__,
                                         "cpus": os.cpu_count(), "platform": platform.platform()},
        "targets": TARGETS, "blas": blas, "double_sum": double, "batch": batch, "batch_small_n": batch_small,
        "verdicts": verdicts,
    }
    write_text_atomically(args.out, json.dumps(payload, indent=2) + "\n")
    print()
    print(f"V_hat+U_hat / (X@theta + X.T@w): {blas['estimator_seconds']*1e3:8.1f} ms / "
          f"{blas['blas_seconds']*1e3:8.1f} ms"
          f" = {blas['ratio']:.2f}  (target <= 2)  {'PASS' if verdicts['blas_ratio'] else 'FAIL'}")
    print(f"peak memory during evaluate:     {blas['peak_bytes_during_evaluate']/2**20:8.1f} MiB "
          f"(X itself: {blas['bytes_of_X']/2**20:.0f} MiB)")
    print(f"double sum / factorised V_hat:   {double['double_sum_seconds']:8.2f} s / "
          f"{double['fast_seconds']*1e3:8.2f} ms"
          f" = {double['speedup']:,.0f}x  (target >= 1000x)  {'PASS' if verdicts['double_sum_speedup'] else 'FAIL'}"
          f"  [agree to {double['relative_difference']:.1e}]")
    print(f"64 calls / one batch of 64:      {batch['separate_seconds']*1e3:8.1f} ms / "
          f"{batch['batch_seconds']*1e3:8.1f} ms"
          f" = {batch['speedup_per_parameter']:.1f}x  (target >= 5x)  "
          f"{'PASS' if verdicts['batch_speedup'] else 'FAIL'}")
    print(f"  same at n = {batch_small['n']:,}:         {batch_small['separate_seconds']*1e3:8.1f} ms / "
          f"{batch_small['batch_seconds']*1e3:8.1f} ms = {batch_small['speedup_per_parameter']:.1f}x  (no target)")
    print(f"results: {args.out}")
    return 0 if (all(verdicts.values()) or not args.check) else 1


if __name__ == "__main__":
    raise SystemExit(main())
