"""``assert_rate``: a rate study's verdict as a pytest assertion, with measured error rates.

The fit is the rate study's own (:func:`lfverify.simulations.fit_rate`: OLS of log(error) on log(n) over the
replications, HC3 standard errors, a Student t interval), refitted from the run's records (``records.csv``) at the
assertion's level.  The assertion is a test of the claimed exponent: it passes when, for every population and
quantity of the study, the slope's interval covers ``expected`` and is precise enough to mean something - its
half-width at most ``tolerance``.  (The study's own verdict asks more: the whole interval within ``expected +-
tolerance``, the built-in studies' rule; a precise fit then fails whenever its estimate strays a little from the
exponent, which a test of the claim at a stated false-alarm rate must not do.)

With ``at_most`` instead of ``expected`` the assertion is one-sided, for a claim that an error falls *at least* as
fast as n^at_most (consistency at some rate, where the exact exponent is not claimed): it fails when the data show
a slower decay - the slope's interval lies wholly above ``at_most`` -, when they do not show a decay at all - the
interval reaches 0 -, or when the interval is too wide to tell (its half-width above ``tolerance``).  A steeper
slope passes.  The testing kit's Gaussian consistency check uses this form
(:func:`lfverify.testing.check_metric_classifier`).

Error rates (``benchmarks/assert_rate_error_rates.py``, docs/simulations.md has the table): the false-alarm rate on
a statistic whose error falls exactly like n^-1/2 (log-normal spread), and the power against a statistic falling
like n^-1/4 and against one with a constant bias, each over 400 independent seeds with Clopper-Pearson intervals,
at the default level 0.99 and tolerance 0.1 with 5 sizes from 100 to 10^4 and 30 replications each; the one-sided
form's false-alarm rate at its boundary (an error falling exactly like n^at_most) and its power against a constant
bias are in the same table.
"""

from __future__ import annotations

import math
import numbers
from pathlib import Path

import numpy as np

from lfverify.simulations import RateResult, RunResult, fit_rate, read_records

__all__ = ["assert_rate", "RateAssertionError"]


class RateAssertionError(AssertionError):
    """A rate study's fitted slope disagrees with the expected exponent: the message names the population, the
    quantity, the slope with its interval and the table of geometric means."""


def assert_rate(result, *, expected: float | None = None, tolerance: float | None = None, level: float = 0.99,
                at_most: float | None = None):
    """Assert that every fitted slope of a rate study agrees with ``expected``: its interval at ``level`` covers it,
    and its half-width is at most ``tolerance`` (or, with ``at_most``, that no slope is shown above ``at_most``).

    Parameters
    ----------
    result : RateResult or RunResult
        What :func:`lfverify.simulations.measure_rate` (or :func:`lfverify.simulations.run` on a
        :func:`~lfverify.simulations.rate_study`) returned: its records are refitted.
    expected, tolerance : float or None, keyword-only
        The claimed exponent of n and the largest half-width of the slope's interval that can confirm it
        (default: the study's).
    level : float in (0, 1), keyword-only
        The interval's level (default 0.99: a false-alarm rate near 1 % on a correct statistic; the table in
        docs/simulations.md has the measured rates).
    at_most : float or None, keyword-only
        A one-sided claim instead of ``expected`` (a negative exponent): the error falls at least as fast as
        n^at_most.  The assertion fails when the slope's interval lies wholly above ``at_most`` (a false-alarm rate
        of about (1 - level) / 2 on an error falling exactly like n^at_most, less on a faster one), reaches 0 (no
        decay shown) or has a half-width above ``tolerance``.

    Returns
    -------
    dict
        "population/quantity" -> the refitted :class:`~lfverify.simulations.RateFit`.

    Raises
    ------
    RateAssertionError
        Naming every population and quantity whose slope disagrees, with its interval and the table.
    TypeError
        If ``result`` is not the result of a rate study.
    ValueError
        If both ``expected`` and ``at_most`` are given, or ``at_most`` is not a finite number.
    """
    result = _rate_result(result, expected=expected, at_most=at_most)
    config = result.summary["config"]
    claimed = float(at_most) if at_most is not None else config["expected"] if expected is None else expected
    tolerance = config["tolerance"] if tolerance is None else tolerance
    rows = read_records(Path(result.out))
    fits, problems = {}, []
    for key, record in result.rates.items():
        pop, q = record["population"], record["quantity"]
        kept = [(r["n"], r[q]) for r in rows if r["population"] == pop and q in r and r[q] > 0]
        try:
            fit = fit_rate([n for n, _ in kept], [v for _, v in kept], expected=claimed, tolerance=tolerance,
                           level=level)
        except ValueError as exc:
            problems.append(f"{key}: no fit ({exc})")
            continue
        fits[key] = fit
        slack = 1e-9 * max(1.0, abs(claimed))  # rounding: an exact power of n fits to within ulps
        covers = fit.ci_low - slack <= claimed and (at_most is not None or claimed <= fit.ci_high + slack)
        falls = at_most is None or fit.ci_high < 0
        precise = (fit.ci_high - fit.ci_low) / 2 <= tolerance
        if not (covers and falls and precise):
            why = (f"the interval excludes {claimed:g}" if not covers and at_most is None else
                   f"the interval lies above {claimed:g}: the error falls more slowly than n^{claimed:g}"
                   if not covers else
                   "the interval reaches 0: no decay is shown (more replications or sizes may show one)"
                   if not falls else
                   f"the interval's half-width {(fit.ci_high - fit.ci_low) / 2:.3g} exceeds the tolerance "
                   f"{tolerance:g} (more replications or sizes would make it precise enough)")
            table = ", ".join(f"n = {t['n']}: {t.get('geometric_mean', float('nan')):.3g}" for t in record["table"])
            problems.append(f"{key}: slope {fit.slope:.4f}, {100 * level:g}% CI [{fit.ci_low:.4f}, "
                            f"{fit.ci_high:.4f}]: {why} (geometric means {table}; {record['dropped']} non-positive "
                            "values dropped)")
    if problems:
        raise RateAssertionError(f"rate study {result.summary['study']!r} (records in {result.out}): "
                                 + "; ".join(problems))
    return fits


def _rate_result(result, *, expected, at_most) -> RateResult:
    """:func:`assert_rate`'s ``result`` as a :class:`~lfverify.simulations.RateResult` of a study of errors, with
    ``expected`` and ``at_most`` checked (TypeError / ValueError as its docstring says)."""
    if isinstance(result, RunResult):
        result = RateResult.from_run(result)
    if not isinstance(result, RateResult):
        raise TypeError(f"result must be the RateResult of measure_rate (or the RunResult of a rate study); got "
                        f"{type(result).__name__}")
    if result.summary["config"].get("fit") == "means":
        raise TypeError(f"assert_rate fits the decay of errors; study {result.summary['study']!r} fits mean "
                        "deviations (fit='means'): its verdicts are result.holds and result.rates[...]['verdict']")
    if at_most is not None:
        if expected is not None:
            raise ValueError(f"give expected (a two-sided claim) or at_most (a one-sided one), not both; got "
                             f"expected={expected!r}, at_most={at_most!r}")
        if (isinstance(at_most, (bool, np.bool_)) or not isinstance(at_most, numbers.Real) or not math.isfinite(at_most)
                or at_most >= 0):
            raise ValueError(f"at_most must be a finite negative number (an exponent of n); got {at_most!r}")
    return result
