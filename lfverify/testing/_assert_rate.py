"""``assert_rate``: a rate study's verdict as a pytest assertion, with measured error rates.

The fit is the rate study's own (:func:`lfverify.simulations.fit_rate`: OLS of log(error) on log(n) over the
replications, HC3 standard errors, a Student t interval), refitted from the run's records (``records.csv``) at the
assertion's level.  The assertion is a test of the claimed exponent: it passes when, for every population and
quantity of the study, the slope's interval covers ``expected`` and is precise enough to mean something - its
half-width at most ``tolerance``.  (The study's own verdict asks more: the whole interval within ``expected +-
tolerance``, the built-in studies' rule; a precise fit then fails whenever its estimate strays a little from the
exponent, which a test of the claim at a stated false-alarm rate must not do.)

Error rates (``benchmarks/assert_rate_error_rates.py``, docs/simulations.md has the table): the false-alarm rate on
a statistic whose error falls exactly like n^-1/2 (log-normal spread), and the power against a statistic falling
like n^-1/4 and against one with a constant bias, each over 200 independent seeds with Clopper-Pearson intervals,
at the default level 0.99 and tolerance 0.1 with 5 sizes from 100 to 10^4 and 30 replications each.
"""

from __future__ import annotations

from pathlib import Path

from lfverify.simulations import RateResult, RunResult, fit_rate, read_records

__all__ = ["assert_rate", "RateAssertionError"]


class RateAssertionError(AssertionError):
    """A rate study's fitted slope disagrees with the expected exponent: the message names the population, the
    quantity, the slope with its interval and the table of geometric means."""


def assert_rate(result, *, expected: float | None = None, tolerance: float | None = None, level: float = 0.99):
    """Assert that every fitted slope of a rate study agrees with ``expected``: its interval at ``level`` covers it,
    and its half-width is at most ``tolerance``.

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
    """
    if isinstance(result, RunResult):
        result = RateResult.from_run(result)
    if not isinstance(result, RateResult):
        raise TypeError(f"result must be the RateResult of measure_rate (or the RunResult of a rate study); got "
                        f"{type(result).__name__}")
    config = result.summary["config"]
    if config.get("fit") == "means":
        raise TypeError(f"assert_rate fits the decay of errors; study {result.summary['study']!r} fits mean "
                        "deviations (fit='means'): its verdicts are result.holds and result.rates[...]['verdict']")
    expected = config["expected"] if expected is None else expected
    tolerance = config["tolerance"] if tolerance is None else tolerance
    rows = read_records(Path(result.out))
    fits, problems = {}, []
    for key, record in result.rates.items():
        pop, q = record["population"], record["quantity"]
        kept = [(r["n"], r[q]) for r in rows if r["population"] == pop and q in r and r[q] > 0]
        try:
            fit = fit_rate([n for n, _ in kept], [v for _, v in kept], expected=expected, tolerance=tolerance,
                           level=level)
        except ValueError as exc:
            problems.append(f"{key}: no fit ({exc})")
            continue
        fits[key] = fit
        slack = 1e-9 * max(1.0, abs(expected))  # rounding: an exact power of n fits to within ulps
        covers = fit.ci_low - slack <= expected <= fit.ci_high + slack
        precise = (fit.ci_high - fit.ci_low) / 2 <= tolerance
        if not (covers and precise):
            why = (f"the interval excludes {expected:g}" if not covers else
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
