"""Benchmark of LinearFractionalClassifier's defaults and remedies, and of sparse against dense input, on adult and
w8a, against scikit-learn's LogisticRegression and TunedThresholdClassifierCV measured in the same run.

Issue 13's targets (F_1, App. C.1's 8:2 split of each data set, dense input as a user passes it):

1. the default ``LinearFractionalClassifier()`` (cost-sensitive objective, exact threshold, zeros start) fits
   adult in <= 3x the time of one ``LogisticRegression()`` fit;
2. ``LinearFractionalClassifier(threshold_cv=5)`` fits in no more time than
   ``TunedThresholdClassifierCV(LogisticRegression(), scoring="f1")`` (5 folds as well).

Reported without a target: the paper's configuration (Alg. 1 U-BFGS from the ERM start, threshold 0) and Alg. 1 +
the exact threshold, the test F_1 of every method, and sparse (CSR) against dense input for the default fit, for
one U-BFGS fit (Alg. 1) and for one evaluation of U_hat and V_hat (Eq. (6)-(7)), on adult (12 % non-zero) and
w8a (4 %).  Every time is the best of several interleaved runs (``timing.interleaved_best_times``); BLAS runs on
one thread.

Usage::

    python benchmarks/bench_remedies.py            # adult and w8a, a few minutes on 2 cores
    python benchmarks/bench_remedies.py --quick    # 4,000 training rows of each, 1 repeat (the smoke test)
    python benchmarks/bench_remedies.py --check    # exit 1 if a target is missed

Results go to ``benchmarks/results/remedies.json`` (generated; written atomically).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import warnings
from pathlib import Path

import numpy as np
from data_splits import eight_two_split  # benchmarks/data_splits.py
from scipy import sparse
from threadpoolctl import threadpool_limits
from timing import best_time, interleaved_best_times  # benchmarks/timing.py

from lfverify.core._empirical import EmpiricalSurrogateUtility
from lfverify.core._losses import tau_logistic
from lfverify.core._metrics import f1
from lfverify.io._atomic import write_text_atomically
from lfverify.learn._estimator import LinearFractionalClassifier
from lfverify.learn._optimize import maximize_surrogate_utility

# ---------------------------------------------------------------------- constants
SEED = 20200826_0013
DATASETS = ("adult", "w8a")
REPEATS = 5
QUICK = {"n_train": 4000, "repeats": 1}
TARGETS = {"default_over_logreg_max": 3.0, "cv_over_tuned_max": 1.0}
OUT = Path(__file__).with_name("results") / "remedies.json"
PAPER = {"objective": "surrogate-utility", "threshold": "zero", "init": "erm"}


def _quiet(fit):
    def run():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # iteration caps are part of what the defaults do; reported elsewhere
            return fit()
    return run


def time_dataset(name, seed, repeats, n_train_max=None):
    """Every method's best fit time and test F_1 on one data set; ratios to LogisticRegression / the tuned peer."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import TunedThresholdClassifierCV

    X, y, X_test, y_test = eight_two_split(name, seed, n_train_max)
    X_csr = sparse.csr_matrix(X)
    print(f"{name}: n = {X.shape[0]:,}, d = {X.shape[1]}, {X_csr.nnz / X.size:.1%} non-zero; best of {repeats}",
          flush=True)
    tasks = {
        "logreg": (_quiet(lambda: LogisticRegression().fit(X, y)), repeats),
        "tuned": (_quiet(lambda: TunedThresholdClassifierCV(LogisticRegression(), scoring="f1",
                                                            random_state=0).fit(X, y)), repeats),
        "default": (_quiet(lambda: LinearFractionalClassifier(random_state=0).fit(X, y)), repeats),
        "default_csr": (_quiet(lambda: LinearFractionalClassifier(random_state=0).fit(X_csr, y)), repeats),
        "cv5": (_quiet(lambda: LinearFractionalClassifier(threshold_cv=5, random_state=0).fit(X, y)), repeats),
        "ubfgs_refit": (_quiet(lambda: LinearFractionalClassifier(objective="surrogate-utility",
                                                                  random_state=0).fit(X, y)), repeats),
        "paper": (_quiet(lambda: LinearFractionalClassifier(**PAPER, random_state=0).fit(X, y)), repeats),
    }
    timed = interleaved_best_times(tasks)
    seconds = {k: v[0] for k, v in timed.items()}
    test_f1 = {k: float(f1().score(y_test, np.where(v[1].predict(X_test) == 1, 1, -1), zero_division=0.0))
               for k, v in timed.items()}
    # the core pieces, dense against CSR: one evaluation of U_hat / V_hat, and one Alg. 1 U-BFGS fit from zeros
    Z = np.hstack([X, np.ones((X.shape[0], 1))])
    Z_csr = sparse.hstack([X_csr, np.ones((X.shape[0], 1))], format="csr")
    objectives = {kind: EmpiricalSurrogateUtility(f1(), tau_logistic(0.33), data, y, split="random", seed=1)
                  for kind, data in (("dense", Z), ("csr", Z_csr))}
    theta = np.full(Z.shape[1], 0.01)
    core = {}
    for kind, objective in objectives.items():
        core[f"evaluate_{kind}"] = best_time(lambda o=objective: o.evaluate(theta, true_utility=True), 5 * repeats)
        core[f"ubfgs_{kind}"] = best_time(
            lambda o=objective: maximize_surrogate_utility(o, np.zeros(Z.shape[1]), history=False), repeats)
    ratios = {"default_over_logreg": seconds["default"] / seconds["logreg"],
              "default_csr_over_logreg": seconds["default_csr"] / seconds["logreg"],
              "cv5_over_tuned": seconds["cv5"] / seconds["tuned"],
              "tuned_over_logreg": seconds["tuned"] / seconds["logreg"],
              "ubfgs_refit_over_logreg": seconds["ubfgs_refit"] / seconds["logreg"],
              "paper_over_logreg": seconds["paper"] / seconds["logreg"],
              "default_csr_over_dense": seconds["default_csr"] / seconds["default"],
              "evaluate_csr_over_dense": core["evaluate_csr"] / core["evaluate_dense"],
              "ubfgs_csr_over_dense": core["ubfgs_csr"] / core["ubfgs_dense"]}
    return {"n_train": int(X.shape[0]), "n_features": int(X.shape[1]), "density": X_csr.nnz / X.size,
            "seconds": seconds, "core_seconds": core, "test_f1": test_f1, "ratios": ratios}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK['n_train']:,} training rows, 1 repeat")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--out", type=Path, default=OUT, help=f"JSON output (default {OUT})")
    args = parser.parse_args(argv)
    repeats = QUICK["repeats"] if args.quick else REPEATS
    seeds = np.random.SeedSequence(SEED).generate_state(len(DATASETS))
    with threadpool_limits(limits=1):
        results = {name: time_dataset(name, int(seed), repeats, QUICK["n_train"] if args.quick else None)
                   for name, seed in zip(DATASETS, seeds)}
    adult = results["adult"]["ratios"]
    verdicts = {"default_within_3x_logreg_on_adult": adult["default_over_logreg"] <= TARGETS["default_over_logreg_max"],
                "cv5_not_slower_than_tuned": all(r["ratios"]["cv5_over_tuned"] <= TARGETS["cv_over_tuned_max"]
                                                 for r in results.values())}
    payload = {"generated_by": "benchmarks/bench_remedies.py (GENERATED FILE: do not edit by hand)",
               "quick": args.quick,
               "command": "python benchmarks/bench_remedies.py" + (" --quick" if args.quick else ""),
               "machine": {"python": platform.python_version(), "numpy": np.__version__, "cpus": os.cpu_count(),
                           "platform": platform.platform(), "load_average_1min": os.getloadavg()[0],
                           "blas_threads_limit": 1},
               "repeats": repeats, "targets": TARGETS, "datasets": results, "verdicts": verdicts}
    write_text_atomically(args.out, json.dumps(payload, indent=2) + "\n")
    print()
    for name, r in results.items():
        s, q, f = r["seconds"], r["ratios"], r["test_f1"]
        print(f"{name}: LogisticRegression {s['logreg']:.2f} s (test F1 {f['logreg']:.4f}); "
              f"TunedThresholdClassifierCV {q['tuned_over_logreg']:.1f}x ({f['tuned']:.4f})")
        print(f"  LinearFractionalClassifier() {q['default_over_logreg']:.2f}x LogisticRegression "
              f"({f['default']:.4f}); "
              f"CSR input {q['default_csr_over_logreg']:.2f}x; threshold_cv=5 {q['cv5_over_tuned']:.2f}x the tuned "
              f"peer ({f['cv5']:.4f})")
        print(f"  Alg. 1 + exact threshold {q['ubfgs_refit_over_logreg']:.2f}x ({f['ubfgs_refit']:.4f}); the paper's "
              f"configuration (ERM start, threshold 0) {q['paper_over_logreg']:.2f}x ({f['paper']:.4f})")
        print(f"  CSR / dense: default fit {q['default_csr_over_dense']:.2f}, one U_hat + V_hat evaluation "
              f"{q['evaluate_csr_over_dense']:.2f}, one U-BFGS fit {q['ubfgs_csr_over_dense']:.2f}")
    print(f"default fit on adult <= 3x LogisticRegression: "
          f"{'PASS' if verdicts['default_within_3x_logreg_on_adult'] else 'FAIL'}"
          f"; threshold_cv=5 not slower than the tuned peer: "
          f"{'PASS' if verdicts['cv5_not_slower_than_tuned'] else 'FAIL'}")
    print(f"results: {args.out}")
    return 0 if (all(verdicts.values()) or not args.check) else 1


if __name__ == "__main__":
    raise SystemExit(main())
