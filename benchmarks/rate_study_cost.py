"""The cost of a user's rate study against the built-in studies' path on the same work, and its memory (issue 41).

* **Time.**  One statistic - sup over the uniform-convergence study's net (64 directions x 4 radii + 0, 257
  parameters) of ||V_hat(theta) - V(theta)|| for F_1 with the tau-logistic loss on the finite population, computed
  per replication with the public :class:`lfverify.core.EmpiricalSurrogateUtility` - run two ways on the same
  sizes, replications and seed: (1) the user path, :func:`lfverify.simulations.rate_study` +
  :func:`~lfverify.simulations.measure_rate`; (2) the built-in path, a :class:`lfverify.simulations.Study` written
  as the built-in studies are (``block_tasks`` tasks, ``draw_replications`` blocks, rows, a summary by
  ``fit_rate``) and run by :func:`lfverify.simulations.run`.  Both serial, without figures; the best of
  interleaved repeats (``timing.interleaved_best_times``).  Target: user / built-in <= 1.2.
* **Memory.**  The peak of Python-tracked memory (``tracemalloc``, which sees NumPy's buffers) of the user path at
  n = 20 000 with ``samples_per_task`` = 40 000 (two replications per task), for 4 and for 40 replications.
  Target: bounded by one task's sample whatever the replication count - peak(40) / peak(4) <= 1.2.

Usage::

    python benchmarks/rate_study_cost.py            # a minute or two
    python benchmarks/rate_study_cost.py --repeats 2

Writes ``benchmarks/results/rate_study_cost.md`` (generated).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import tracemalloc
from pathlib import Path

import numpy as np
from timing import interleaved_best_times  # benchmarks/timing.py

from lfverify.core import FINITE_POPULATION, EmpiricalSurrogateUtility, f1, tau_logistic
from lfverify.simulations import (
    Study,
    block_tasks,
    draw_replications,
    fit_rate,
    measure_rate,
    rate_study,
    run,
)

ROOT = Path(__file__).resolve().parents[1]
METRIC, LOSS = f1(), tau_logistic(0.33)
SIZES, REPLICATIONS, SEED = (100, 316, 1000, 3162, 10000), 30, 7


def _net():
    directions = np.linspace(0.0, 2 * np.pi, 64, endpoint=False)
    unit = np.column_stack([np.cos(directions), np.sin(directions)])
    return np.vstack([np.zeros((1, 2))] + [r * unit for r in (0.75, 1.5, 2.25, 3.0)])


NET = _net()


def sup_error(X, y, V):
    return float(np.linalg.norm(EmpiricalSurrogateUtility(METRIC, LOSS, X, y).gradient_direction(NET) - V,
                                axis=1).max())


def statistic(rep, V):
    """The user's statistic."""
    return sup_error(rep.X, rep.y, V)


def _exact(population):
    return population.gradient_direction(METRIC, LOSS, NET)


# ------------------------------------------------------------------ the built-in path, written as the built-ins are
def _tasks(config):
    return block_tasks([(("population", "finite"),)], config["sample_sizes"], config["replications"],
                       config["samples_per_task"])


def _context(config):
    return {"V": _exact(FINITE_POPULATION)}


def _run_task(task, config, context, study_seed):
    p = task.params
    X, y = draw_replications(FINITE_POPULATION, "finite", p["n"], p["first"], p["count"], study_seed)
    return [{"population": "finite", "n": p["n"], "replication": p["first"] + i,
             "error": sup_error(X[i], y[i], context["V"])} for i in range(p["count"])]


def _summarize(rows, config, context):
    fit = fit_rate([r["n"] for r in rows], [r["error"] for r in rows])
    return {"fit": fit.as_dict(), "verdicts": {"finite/error": fit.holds}}


def builtin_study(sizes=SIZES, replications=REPLICATIONS, samples_per_task=1 << 16):
    config = {"sample_sizes": list(sizes), "replications": replications, "samples_per_task": samples_per_task}
    return Study(name="cost-builtin", claim="the built-in path", modes={"quick": config}, seed=SEED, tasks=_tasks,
                 context=_context, run_task=_run_task, summarize=_summarize, figures=lambda rows, s, out: [],
                 task_rows=lambda task, config: task.params["count"])


def user_study(sizes=SIZES, replications=REPLICATIONS, samples_per_task=1 << 16):
    return rate_study("cost-user", statistic=statistic, populations={"finite": FINITE_POPULATION}, target=_exact,
                      sample_sizes=sizes, replications=replications, samples_per_task=samples_per_task, seed=SEED)


def _in_fresh_folder(function):
    def call():
        with tempfile.TemporaryDirectory() as tmp:
            return function(Path(tmp) / "out")
    return call


def _peak(replications: int) -> int:
    study = user_study(sizes=(5_000, 10_000, 20_000), replications=replications, samples_per_task=40_000)
    with tempfile.TemporaryDirectory() as tmp:
        tracemalloc.start()
        measure_rate(study, out=Path(tmp) / "out", executor="serial", progress=False, figures=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print("[1/2] time: the user path and the built-in path, interleaved", flush=True)
    best = interleaved_best_times({
        "user": (_in_fresh_folder(lambda out: measure_rate(user_study(), out=out, executor="serial", progress=False,
                                                           figures=False)), args.repeats),
        "builtin": (_in_fresh_folder(lambda out: run(builtin_study(), mode="quick", out=out, executor="serial",
                                                     progress=False, figures=False)), args.repeats)})
    user, builtin = best["user"], best["builtin"]
    same = user[1].rates["finite/error"]["fit"]["slope"] == builtin[1].summary["fit"]["slope"]
    ratio = user[0] / builtin[0]
    print("[2/2] memory: peak of the user path at 4 and 40 replications", flush=True)
    small, large = _peak(4), _peak(40)
    rows = [("time: user path / built-in path (same statistic, sizes, replications, seed; serial)",
             f"{user[0]:.2f} s / {builtin[0]:.2f} s = {ratio:.3f}", "<= 1.2", ratio <= 1.2),
            ("same fitted slope both ways", str(same), "True", same),
            ("memory: peak at 40 / at 4 replications (n up to 20 000, 2 replications per task)",
             f"{large / 2**20:.1f} MiB / {small / 2**20:.1f} MiB = {large / small:.3f}", "<= 1.2",
             large / small <= 1.2)]
    lines = ["# Rate-study cost (generated)", "",
             "GENERATED by `python benchmarks/rate_study_cost.py"
             + (f" --repeats {args.repeats}" if args.repeats != 3 else "") + "`; do not edit by hand.  "
             "The method is in the script's docstring; times are the best of interleaved repeats on this machine.",
             "", "| measurement | measured | target | met |", "|---|---|---|---|"]
    lines += [f"| {name} | {value} | {target} | {'yes' if met else 'no'} |" for name, value, target, met in rows]
    out = ROOT / "benchmarks" / "results" / "rate_study_cost.md"
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(out)
    print("\n".join(lines))
    return 0 if all(met for *_, met in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
