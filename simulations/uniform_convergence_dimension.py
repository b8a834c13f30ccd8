"""Lemma 4 (corrected): the dependence of sup_theta ||V_hat - V|| on the dimension d (issue 30).

Runs :func:`lfverify.simulations.dimension_sweep` (one n, a grid of d, the uniform-convergence study's sup) and
writes ``simulations/results/uniform-convergence-dimension/summary.json`` and ``uniform_convergence_dimension.png``
(atomically).  The corrected statement bounds the error by B_E(n, d) = O(d^{3/2} sqrt(log n / n)); the verdicts
are that the fitted exponent of d stays at most 3/2 (upper 95 % limit) and that B_E(n, d) is never exceeded.

Usage::

    python simulations/uniform_convergence_dimension.py           # n = 2000, d = 1 ... 16, 30 replications
    python simulations/uniform_convergence_dimension.py --quick   # n = 400, d = 1, 2, 4, 8, 10 replications
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lfverify.io import write_text_atomically
from lfverify.simulations import D_EXPONENT, dimension_sweep
from lfverify.simulations._rate_figures import loglog_rate_figure

OUT = Path(__file__).resolve().parent / "results" / "uniform-convergence-dimension"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (seconds), not the committed run")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output folder (default {OUT})")
    args = parser.parse_args(argv)
    settings = (dict(dimensions=(1, 2, 4, 8), n=400, replications=10) if args.quick else
                dict(dimensions=(1, 2, 4, 8, 16), n=2000, replications=30))
    started = time.perf_counter()
    result = dimension_sweep(**settings)
    seconds = time.perf_counter() - started
    for row in result["table"]:
        print(f"d = {row['d']:3d}: mean sup error {row['mean_sup_error']:.4f} [{row['ci_low']:.4f}, "
              f"{row['ci_high']:.4f}], bound B_E {row['bound']:.1f} (x{row['looseness']:.0f}), "
              f"exceeded {row['exceed']}/{row['replications']}", file=sys.stderr)
    fit = result["rate_fit"]
    print(f"exponent of d: {fit['slope']:.3f} [{fit['ci_low']:.3f}, {fit['ci_high']:.3f}] (bound: "
          f"{D_EXPONENT:g}); verdicts {result['verdicts']}; {seconds:.0f} s", file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {k: v for k, v in result.items() if k not in ("d", "errors")}
    summary["seconds"] = round(seconds, 1)
    write_text_atomically(args.out / "summary.json", json.dumps(summary, indent=2) + "\n")
    s = result["settings"]
    loglog_rate_figure(
        args.out / "uniform_convergence_dimension.png",
        [{"label": f"{s['metric']} (tau = {s['tau']:g}), n = {s['n']}", "n": result["d"],
          "errors": result["errors"], "fit": fit}],
        expected=D_EXPONENT, xlabel="dimension d", variable="d",
        title=(f"Lemma 4 (corrected): sup ||V_hat - V|| against d at n = {s['n']}\n"
               f"(its bound B_E grows like d^3/2; B_E is {min(r['looseness'] for r in result['table']):.0f}-"
               f"{max(r['looseness'] for r in result['table']):.0f}x the 95 % quantile, not drawn)"),
        ylabel="geometric mean of sup_theta ||V_hat(theta) - V(theta)||")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
