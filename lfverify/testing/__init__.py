"""The theory regression suite of lfverify, usable on anyone's implementation: metrics, surrogate losses, U_hat /
V_hat estimators and metric-maximising classifiers, checked against the paper's claims with exact oracles and
stated error rates.

Checks (each returns None when it passes and raises :class:`TheoryCheckFailure`, an ``AssertionError`` naming the
claim, the witness and both values, when it fails):

=============================================  =====================================================================
:func:`check_metric`                           ``fn(y_true, y_pred) -> float`` against its linear-fractional form
                                               (Def. 1, Eq. (1), Table 1)
:func:`check_surrogate_loss`                   a loss against the properties it declares (convexity, monotonicity,
                                               0-1 domination, tau-discrepancy, Lipschitz constant, one-sided
                                               derivatives at its kinks)
:func:`check_surrogate_utility_estimator`      ``fn(X, y, theta) -> float`` (U_hat, Eq. (6)): the per-sample sums,
                                               the exact expectation of its independent halves, input contract
:func:`check_gradient_direction_estimator`     ``fn(X, y, theta) -> (d,)`` (V_hat, Eq. (7)): the double sum, and
                                               unbiasedness (Lemma 3) by exact enumeration and by Monte Carlo
:func:`check_metric_classifier`                an unfitted scikit-learn classifier: consistency for the metric on a
                                               finite and a Gaussian population, label and order invariance, the
                                               input contract
=============================================  =====================================================================

For rates: :func:`assert_rate` asserts that a rate study of your estimator (:func:`lfverify.simulations.rate_study`)
falls like the claimed power of n, at a measured false-alarm rate and power (docs/simulations.md).

For pytest: :func:`parametrize_with_theory_checks` turns a list of :class:`Subject` into one test per (subject,
check), with readable ids and expected failures, as scikit-learn's ``parametrize_with_checks`` does; the pytest
plugin (:mod:`lfverify.testing.plugin`, entry point ``lfverify`` in ``pytest11``) provides the fixtures
``lfverify_finite_population``,
``lfverify_gaussian_population``, ``lfverify_classifier_populations`` and ``lfverify_oracles``.  The exact
references are :mod:`lfverify.testing.oracles`; the Hypothesis strategies that build Definition 1 metrics, losses,
data sets and exact populations are :mod:`lfverify.testing.strategies` (``pip install ".[testing]" in a clone``); the
named wrong implementations whose failures are measured are :mod:`lfverify.testing.implementations`.

Error rates
-----------
Deterministic checks compare with exact values up to a stated rounding tolerance: they have no false alarm, and
the exact-enumeration checks find any bias above rounding.  The Monte-Carlo checks are tests at level 1e-4
(``unbiased_monte_carlo``: Bonferroni-corrected paired z tests against the symmetrised Eq. (7);
``expectation_monte_carlo``: Hotelling T^2); the classifier checks compare regrets with
fixed tolerances.  Each statistical check's false-alarm rate and its power against the named wrong
implementations are measured over 200 to 370 independent seeds by ``benchmarks/testing_kit_error_rates.py``
(docs/testing-kit.md has the table).

The loss protocol
-----------------
A loss is any object with ``value(m)`` and ``derivative(m, side="right" | "left")`` (elementwise); it declares
what it claims through the attributes lfverify's :class:`~lfverify.core.SurrogateLoss` uses: ``is_convex``,
``is_nonincreasing``, ``dominates_zero_one`` (bools), ``kinks`` (the points of non-differentiability),
``discrepancy`` (phi'(0+) / phi'(0-)) and ``lipschitz`` (sup abs(phi')).  Each declared property is checked; an
undeclared one is not.

Estimator conventions
---------------------
``fn(X, y, theta)`` decides its own split of the sample (pass ``split=None`` when it is not the paper's first
floor(n/2) rows for S_0, or ``split=callable``), and puts the prior-dependent offsets b_k = c_k + d_k pi in per
sample as c_k + d_k 1{y = +1} (no prior is passed).  It may decline a sample with a single class (raise, or return
NaN): the kit then uses the oracle's value there.
"""

from __future__ import annotations

import importlib

#: public name -> the module that defines it; loaded on first use (PEP 562), so that the pytest plugin, which every
#: pytest run of an environment with lfverify installed loads, costs nothing until a fixture or check is used.
_PUBLIC = {
    "check_metric": "_check_metric",
    "check_surrogate_loss": "_check_loss",
    "check_surrogate_utility_estimator": "_check_estimators",
    "check_gradient_direction_estimator": "_check_estimators",
    "check_metric_classifier": "_check_classifier",
    "parametrize_with_theory_checks": "_parametrize",
    "assert_rate": "_assert_rate",
    "RateAssertionError": "_assert_rate",
    **dict.fromkeys(("Subject", "TheoryCheck", "TheoryCheckFailure", "CheckNotApplicable", "theory_checks"),
                    "_framework"),
}
#: The modules whose import registers a kind of check (a Subject of any kind needs them all loaded).
_CHECK_MODULES = ("_check_metric", "_check_loss", "_check_estimators", "_check_classifier")

__all__ = ["check_metric", "check_surrogate_loss", "check_surrogate_utility_estimator",
           "check_gradient_direction_estimator", "check_metric_classifier", "parametrize_with_theory_checks",
           "Subject", "TheoryCheck", "TheoryCheckFailure", "CheckNotApplicable", "theory_checks", "assert_rate",
           "RateAssertionError"]

#: The public submodules (documented with the wing): the exact references, the Hypothesis strategies (the
#: ``testing`` extra) and the named wrong implementations.
MODULES = ("oracles", "strategies", "implementations", "plugin")


def __getattr__(name):
    if name in _PUBLIC:
        for module in _CHECK_MODULES:
            importlib.import_module(f"lfverify.testing.{module}")
        value = getattr(importlib.import_module(f"lfverify.testing.{_PUBLIC[name]}"), name)
        globals()[name] = value
        return value
    if name in MODULES:  # strategies and plugin need the ``testing`` extra (Hypothesis, pytest)
        return importlib.import_module(f"lfverify.testing.{name}")
    raise AttributeError(f"module 'lfverify.testing' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__) | set(MODULES))
