"""Benchmark of the simulation engine (lfverify/simulations/).

Every figure is measured in this run, so ratios transfer across machines:

1. Wall time of the quick uniform-convergence study (Lemma 4) with the process executor on all cores, in a fresh
   folder.  Target: < 60 s on 2 cores.  Its throughput is the number of (sample x parameter) pairs at which V_hat
   is evaluated (net + refinement, both metrics) per second of wall time.
2. The V_hat kernel (:class:`lfverify.simulations._replicated.ReplicatedSamples` + ``estimates``) on the study's largest
   shape (n = 10^4 samples of a replication, K = 257 net points, d = 2), everything on one core (BLAS limited to
   one thread: the kernel is single-threaded, and a two-thread BLAS product timed beside another job varies by
   10x), against
   - a plain BLAS product X @ Theta^T of the same shape (the issue's baseline; target: kernel rate >= 30 % of it;
     it writes the whole n x K product, so it is memory-bound), and the same product in the kernel's cache-sized
     chunks (no target: the arithmetic floor of the margins alone),
   - the bare tau-logistic loss evaluation (value and derivative) on the same n x K margins, in the kernel's
     cache-sized chunks with one reused workspace (the floor of this kernel, which evaluates the loss at every pair),
   - exp and log1p alone on the same n x K array in the same chunks (the floor of *any* exact evaluation of the
     tau-logistic loss at every pair; when this alone is slower than 30 % of the BLAS product, the target cannot
     be met by an exact kernel on this machine), and
   - EmpiricalSurrogateUtility.gradient_direction, once per metric (the core estimator the kernel replaces).
3. Peak memory allocated (tracemalloc; NumPy reports its buffers to it) while one uniform-convergence task with
   a single replication of n = 10^6 samples runs (net, refinement, both metrics).  Target: <= 2 GiB.

Usage::

    python benchmarks/bench_simulations.py            # about 1-2 minutes on 2 cores
    python benchmarks/bench_simulations.py --quick    # the smoke study and n = 5 x 10^4 (seconds; a smoke test)
    python benchmarks/bench_simulations.py --check    # exit 1 if a target is missed

Results go to ``benchmarks/results/simulations.json`` (generated; written atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits
from timing import best_time  # benchmarks/timing.py

import lfverify.simulations._engine as engine
import lfverify.simulations._study_populations as sp
import lfverify.simulations._study_uniform_convergence as uc
from lfverify.core._empirical import EmpiricalSurrogateUtility
from lfverify.core._losses import tau_logistic
from lfverify.io._atomic import write_text_atomically
from lfverify.parallel._executors import ProcessExecutor, SerialExecutor
from lfverify.simulations import STUDIES
from lfverify.simulations._replicated import ReplicatedSamples, estimates

SEED = 20200826_0007
TARGETS = {"quick_study_seconds_max": 60.0, "kernel_vs_blas_min": 0.30, "peak_memory_bytes_max": 2 * 2**30}
REPEATS = 5
OUT = Path(__file__).with_name("results") / "simulations.json"


def study_pairs(config) -> int:
    """(sample, parameter) pairs at which the uniform-convergence study evaluates V_hat: per replication and
    metric, n x (net size + refinement rounds x pattern moves)."""
    K = uc.theta_net(2, uc.C_THETA).shape[0] + config["refinement_rounds"] * uc._moves(2).shape[0]
    per_n = sum(config["sample_sizes"]) * config["replications"]
    return int(per_n * K * len(sp.METRICS) * len(sp.POPULATIONS))


def bench_study(mode, executor):
    study = STUDIES["uniform-convergence"]
    config = study.config(mode)
    folder = Path(tempfile.mkdtemp(prefix="bench_simulations_"))
    try:
        start = time.perf_counter()
        result = engine.run(study, mode=mode, out=folder, executor=executor, progress=False, figures=False)
        seconds = time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    pairs = study_pairs(config)
    return {"mode": mode, "executor": executor.describe(), "seconds": seconds, "tasks": result.computed,
            "sample_parameter_pairs": pairs, "pairs_per_second": pairs / seconds,
            "rate_holds": result.summary["verdicts"]}


def bench_kernel(rng, n, repeats):
    population = sp.POPULATIONS["bounded-logistic"]
    X, y = population.sample(n, seed=rng)
    net = uc.theta_net(2, uc.C_THETA)
    K = net.shape[0]
    loss = tau_logistic(0.33)
    metrics = [m for m, _ in sp.METRICS.values()]
    samples = ReplicatedSamples(X[None], y[None])

    def kernel():
        sums = samples.class_sums(net, loss)
        return [estimates(sums, m) for m in metrics]

    def blas():
        return X @ net.T

    rows = max(1, (1 << 16) // K)  # the kernel's chunks: the loss runs on cache-sized blocks there too

    def blas_chunked():
        for start in range(0, n, rows):
            X[start:start + rows] @ net.T

    margins = (X @ net.T) * np.where(y == 1, 1.0, -1.0)[:, None]

    workspace = np.empty((3, rows, K))

    def loss_only():
        for start in range(0, n, rows):
            block = margins[start:start + rows]
            loss._value_and_derivative(block, True, workspace[:, :block.shape[0]])

    scratch = np.empty((rows, K))
    exponents = -np.abs(margins)  # e = exp(-|z|) in (0, 1], as in the loss

    def transcendentals():
        # exp and log1p once per pair, nothing else: no exact evaluation of the tau-logistic loss does less
        for start in range(0, n, rows):
            block = exponents[start:start + rows]
            out = scratch[:block.shape[0]]
            np.exp(block, out=out)
            np.log1p(out, out=out)

    cores = [EmpiricalSurrogateUtility(m, loss, X, y) for m in metrics]

    def core():
        return [c.gradient_direction(net) for c in cores]

    kernel()
    t = {name: best_time(fn, repeats) for name, fn in
         (("kernel", kernel), ("blas", blas), ("blas_chunked", blas_chunked), ("loss_only", loss_only),
          ("transcendentals", transcendentals), ("core_estimator", core))}
    pairs = n * K
    return {"n": n, "K": K, "d": 2, "metrics": len(metrics), "seconds": t,
            "pairs_per_second": {k: pairs / v for k, v in t.items()},
            "kernel_vs_blas": t["blas"] / t["kernel"], "kernel_vs_blas_chunked": t["blas_chunked"] / t["kernel"],
            "kernel_vs_loss_only": t["loss_only"] / t["kernel"],
            "transcendentals_vs_blas": t["blas"] / t["transcendentals"],
            "kernel_speedup_over_core": t["core_estimator"] / t["kernel"]}


def bench_memory(n):
    """Peak traced allocation while one uniform-convergence task of a single n-sample replication runs."""
    config = STUDIES["uniform-convergence"].config("quick")
    task = engine.Task((("population", "bounded-logistic"), ("n", n), ("first", 0), ("count", 1)))
    context = uc._context(config)
    tracemalloc.start()
    start = time.perf_counter()
    uc._run_task(task, config, context, uc.SEED)
    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"n": n, "peak_bytes": peak, "seconds": seconds, "bytes_of_X": n * 2 * 8}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smoke study and n = 5 x 10^4 (seconds)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--out", type=Path, default=OUT, help=f"JSON output (default {OUT})")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(np.random.SeedSequence(SEED))
    mode = "smoke" if args.quick else "quick"
    executor = SerialExecutor() if args.quick else ProcessExecutor()
    print(f"[1/3] the {mode} uniform-convergence study, {executor.describe()}", flush=True)
    study = bench_study(mode, executor)
    n_kernel = 2000 if args.quick else 10_000
    print(f"[2/3] V_hat kernel vs BLAS, loss alone and the core estimator, n = {n_kernel:,}, K = 257", flush=True)
    with threadpool_limits(limits=1):  # one core for everything compared: the kernel is single-threaded
        kernel = bench_kernel(rng, n_kernel, 2 if args.quick else REPEATS)
    n_memory = 50_000 if args.quick else 1_000_000
    print(f"[3/3] peak memory of a uniform-convergence task with n = {n_memory:,}", flush=True)
    memory = bench_memory(n_memory)

    verdicts = {
        "quick_study_seconds": (not args.quick) and study["seconds"] < TARGETS["quick_study_seconds_max"],
        "kernel_vs_blas": kernel["kernel_vs_blas"] >= TARGETS["kernel_vs_blas_min"],
        "peak_memory": memory["peak_bytes"] <= TARGETS["peak_memory_bytes_max"],
    }
    payload = {
        "generated_by": "benchmarks/bench_simulations.py (GENERATED FILE: do not edit by hand)",
        "quick": args.quick, "machine": {"python": platform.python_version(), "numpy": np.__version__,
                                         "cpus": os.cpu_count(), "platform": platform.platform()},
        "targets": TARGETS, "study": study, "kernel": kernel, "memory": memory, "verdicts": verdicts,
    }
    write_text_atomically(args.out, json.dumps(payload, indent=2) + "\n")
    k = kernel
    print()
    status = "n/a" if args.quick else "PASS" if verdicts["quick_study_seconds"] else "FAIL"
    print(f"{mode} uniform-convergence study:      {study['seconds']:7.1f} s, {study['tasks']} tasks, "
          f"{study['pairs_per_second'] / 1e6:6.1f} M (sample x parameter) pairs/s  (target < 60 s for quick)  {status}")
    print(f"kernel, n = {k['n']:,} x K = {k['K']}, {k['metrics']} metrics: {k['seconds']['kernel'] * 1e3:7.2f} ms = "
          f"{k['pairs_per_second']['kernel'] / 1e6:7.1f} M pairs/s")
    print(f"  plain BLAS X @ Theta^T:             {k['seconds']['blas'] * 1e3:7.2f} ms = "
          f"{k['pairs_per_second']['blas'] / 1e6:7.1f} M pairs/s -> kernel at {100 * k['kernel_vs_blas']:.1f} % "
          f"(target >= 30 %)  {'PASS' if verdicts['kernel_vs_blas'] else 'FAIL'}")
    print(f"  the same BLAS in cache-sized chunks: {k['seconds']['blas_chunked'] * 1e3:7.2f} ms -> kernel at "
          f"{100 * k['kernel_vs_blas_chunked']:.1f} % (no target)")
    print(f"  loss value + derivative alone:      {k['seconds']['loss_only'] * 1e3:7.2f} ms -> kernel at "
          f"{100 * k['kernel_vs_loss_only']:.1f} % of the loss-only rate")
    print(f"  exp + log1p alone (any exact kernel's floor): {k['seconds']['transcendentals'] * 1e3:7.2f} ms = "
          f"{100 * k['transcendentals_vs_blas']:.1f} % of the BLAS rate")
    print(f"  EmpiricalSurrogateUtility x {k['metrics']}:       {k['seconds']['core_estimator'] * 1e3:7.2f} ms -> "
          f"kernel {k['kernel_speedup_over_core']:.2f}x faster")
    print(f"peak memory, task with n = {memory['n']:,}:   {memory['peak_bytes'] / 2**20:7.1f} MiB "
          f"(X itself {memory['bytes_of_X'] / 2**20:.0f} MiB; {memory['seconds']:.1f} s)  (target <= 2 GiB)  "
          f"{'PASS' if verdicts['peak_memory'] else 'FAIL'}")
    print(f"results: {args.out}")
    relevant = {k: v for k, v in verdicts.items() if not (args.quick and k == "quick_study_seconds")}
    return 0 if (all(relevant.values()) or not args.check) else 1


if __name__ == "__main__":
    raise SystemExit(main())
