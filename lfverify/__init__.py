"""lfverify: Bao & Sugiyama, *Calibrated Surrogate Maximization of Linear-fractional Utility in Binary
Classification* (AISTATS 2020), executable and machine-checked.

The names most users need are importable from here; each lives in one subpackage ("wing"), and a wing imports only
the wings listed before it:

=============================  =========================================================================
:mod:`lfverify.paper`          the paper as data: claims registry, printed statements, printed tables
:mod:`lfverify.io`             atomic writes, sealed records, output folders, the figures' backend
:mod:`lfverify.core`           metrics, surrogate losses, U_hat / V_hat, exact populations, calibration
                               conditions, validation and the seeding rule
:mod:`lfverify.parallel`       where tasks run: in-process, local processes, Dask
:mod:`lfverify.learn`          Algorithms 1-2, thresholds, the estimator, baselines, data sets
:mod:`lfverify.proofs`         SymPy derivations of every claim, errata, corrected theorems
:mod:`lfverify.simulations`    Monte-Carlo studies against exact population values
:mod:`lfverify.testing`        the theory checks for anyone's metrics, losses, U_hat / V_hat and
                               classifiers: exact oracles, Hypothesis strategies, a pytest plugin
:mod:`lfverify.experiments`    the paper's experiments (Sec. 6, App. C) and the estimator comparison
:mod:`lfverify.app`            the ``lfverify`` command line, REPORT.md, the quick self-checks
=============================  =========================================================================

The names below are loaded on first use (PEP 562), so that ``import lfverify`` stays cheap.
"""

from __future__ import annotations

import importlib

from lfverify._version import __version__

#: public name -> the wing that defines it
_PUBLIC = {
    **dict.fromkeys(("LinearFractionalMetric", "f_beta", "f1", "jaccard", "gower_legendre", "accuracy",
                     "SurrogateLoss", "tau_logistic", "logistic", "hinge", "squared_hinge", "exponential", "sigmoid",
                     "EmpiricalSurrogateUtility", "FiniteSupportPopulation", "GaussianPopulation",
                     "BoundedLogisticPopulation", "calibration_reports"), "lfverify.core"),
    **dict.fromkeys(("LinearFractionalClassifier", "MetricOptimalClassifier", "maximize_surrogate_utility",
                     "best_threshold", "load_dataset",
                     "available_datasets"), "lfverify.learn"),
}
_WINGS = ("paper", "io", "core", "parallel", "learn", "proofs", "simulations", "testing", "experiments", "app")

__all__ = ["__version__", *_PUBLIC, *_WINGS]


def __getattr__(name):
    if name in _PUBLIC:
        return getattr(importlib.import_module(_PUBLIC[name]), name)
    if name in _WINGS:
        return importlib.import_module(f"lfverify.{name}")
    raise AttributeError(f"module 'lfverify' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
