"""Trial summaries and the bold rule of the paper's tables (Table 2, App. C.4, Tables 4-5).

App. C.4: "For each dataset, we first picked the method with the highest test performance as an outperforming
method within that dataset, then conducted one-sided t-test with the significant level 5%, and they are also
regarded as outperforming methods if the performance differences are not significant."  The paper does not say
which t-test; here a method is **bold** iff it is the best (highest mean) or the one-sided test of
H0: mean(best) = mean(method) against H1: mean(best) > mean(method) does *not* reject at level ``alpha``
(p >= alpha).  Two tests are offered:

* ``"welch"`` (default): Welch's unequal-variance two-sample t-test (the trials of two methods treated as
  independent samples, which is what a reader of the printed means and standard errors can reproduce);
* ``"paired"``: the one-sample t-test of the per-trial differences (every method sees the same split in a
  trial, so this is the more powerful test).

The p-values are SciPy's (``scipy.stats.ttest_ind(equal_var=False, alternative="greater")`` and
``scipy.stats.ttest_rel(alternative="greater")``), the standard error ``scipy.stats.sem``.  What SciPy lacks is
kept here: degenerate cases are decided explicitly, never through a NaN (SciPy returns NaN for them): with zero
variance of the difference, equal means are "not significant" and a positive difference is "significant"; fewer
than two trials give no test (``p_value = None``) and only the best method is bold.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

__all__ = ["TrialSummary", "summarize", "one_sided_p_value", "rejects", "BoldDecision", "bold_methods",
           "within_combined_standard_errors"]


class TrialSummary(NamedTuple):
    """Mean and standard error (sample standard deviation / sqrt(n)) of one method's trial values."""

    mean: float
    standard_error: float | None  #: None for a single trial
    n_trials: int


def _values(values, name: str) -> np.ndarray:
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of trial values; got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must contain only finite values; got {float(arr[~np.isfinite(arr)][0])!r}")
    return arr


def summarize(values) -> TrialSummary:
    """Mean and standard error of the mean (ddof = 1) of the trial values, as the paper's tables print them."""
    arr = _values(values, "values")
    se = float(stats.sem(arr, ddof=1)) if arr.size >= 2 else None  # SciPy gives NaN for one trial
    return TrialSummary(float(arr.mean()), se, int(arr.size))


def one_sided_p_value(best, other, *, test: str = "welch") -> float | None:
    """p-value of H1: mean(best) > mean(other) (one-sided t-test); ``None`` when a sample has < 2 trials.

    Parameters
    ----------
    best, other : sequence of float
        Trial values of the two methods (for ``test="paired"`` of equal length, trial by trial).
    test : {"welch", "paired"}, keyword-only
        See the module docstring.

    Raises
    ------
    ValueError
        A sample that is empty, not 1-D or not finite; for ``"paired"``, samples of unequal lengths; values whose
        mean difference or variance overflows (no t-test decides them).
    """
    import warnings  # here rather than at the top: the module's imports are being reorganised elsewhere

    a = _values(best, "best")
    b = _values(other, "other")
    # What SciPy lacks: fewer than 2 trials give no test, and a zero variance (of both samples, or of the paired
    # differences) is decided by the sign of the mean difference instead of SciPy's NaN.
    if test == "welch":
        if a.size < 2 or b.size < 2:
            return None
        with np.errstate(over="ignore", invalid="ignore"):
            gap, spread = a.mean() - b.mean(), a.var(ddof=1) + b.var(ddof=1)
        constant, run = (a, b), lambda: stats.ttest_ind(a, b, equal_var=False, alternative="greater")
    elif test == "paired":
        if a.size != b.size:
            raise ValueError(f"a paired test needs as many trials of both methods; got {a.size} and {b.size}")
        if a.size < 2:
            return None
        with np.errstate(over="ignore", invalid="ignore"):
            d = a - b
            gap, spread = d.mean(), d.var(ddof=1)
        constant, run = (d,), lambda: stats.ttest_rel(a, b, alternative="greater")
    else:
        raise ValueError(f"test must be 'welch' or 'paired'; got {test!r}")
    if not (np.isfinite(gap) and np.isfinite(spread)):
        raise ValueError("best and other are too large for a t-test: their difference or variance overflows")
    if spread == 0.0:
        return 0.0 if gap > 0 else 1.0
    with warnings.catch_warnings():
        if any(np.ptp(sample) == 0 for sample in constant):
            # SciPy warns of "precision loss" for a sample of identical values (e.g. every trial at accuracy
            # 1.0); their variance is exactly 0, so the warning is a false alarm there, and only there.
            warnings.filterwarnings("ignore", message="Precision loss occurred in moment calculation",
                                    category=RuntimeWarning)
        p_value = float(run().pvalue)
    # SciPy's NaN where the variance is not 0: a spread below what SciPy's t statistic resolves (differences of
    # 2**-537, whose variance is the subnormal 5e-324 here and 0 there), decided as a zero variance is
    return (0.0 if gap > 0 else 1.0) if math.isnan(p_value) else p_value


def rejects(p_value: float | None, alpha: float) -> bool:
    """Whether a one-sided test with this p-value rejects at level ``alpha`` (``None``, fewer than two trials,
    never does)."""
    return p_value is not None and p_value < alpha


class BoldDecision(NamedTuple):
    """The bold rule applied to one row (data set) of a table."""

    best: str  #: the method with the highest mean
    bold: dict  #: method -> bool
    p_values: dict  #: method -> p-value against the best (None for the best itself or without a test)


def bold_methods(trials: dict, *, alpha: float = 0.05, test: str = "welch", contenders=None) -> BoldDecision:
    """Which methods of a row are bold (best, or not significantly worse than the best at level ``alpha``).

    Parameters
    ----------
    trials : dict
        method -> sequence of trial values.
    alpha : float in (0, 1), keyword-only
        Significance level (the paper: 5 %).
    test : {"welch", "paired"}, keyword-only
    contenders : iterable of str or None, keyword-only
        The methods among which the best is chosen (default: all).  The others (e.g. a peer that is not in
        the paper) are judged against that best by the same rule without being able to become the best.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha!r}")
    if not trials:
        raise ValueError("trials must name at least one method")
    contenders = list(trials) if contenders is None else [m for m in contenders if m in trials]
    if not contenders:
        raise ValueError(f"contenders must include at least one of the methods {sorted(trials)}")
    means = {m: float(_values(v, f"trials[{m!r}]").mean()) for m, v in trials.items()}
    best = max(contenders, key=lambda m: means[m])  # the first listed wins a tie
    bold, p_values = {}, {}
    for method, values in trials.items():
        if method == best:
            bold[method], p_values[method] = True, None
            continue
        p = one_sided_p_value(trials[best], values, test=test)
        p_values[method] = p
        bold[method] = means[method] >= means[best] if p is None else p >= alpha
    return BoldDecision(best, bold, p_values)


def within_combined_standard_errors(mean, standard_error, paper_mean, paper_standard_error, *, k: float = 3.0):
    """``|mean - paper_mean| <= k sqrt(se^2 + se_paper^2)``: the acceptance rule of a reproduced cell (k = 3).

    Returns ``None`` when our standard error is unknown (a single trial).
    """
    if standard_error is None:
        return None
    return bool(abs(mean - paper_mean) <= k * math.hypot(standard_error, paper_standard_error))
