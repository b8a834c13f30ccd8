"""Sampling of mutants and the kill rate's confidence interval (benchmarks/mutation_testing.py, issue 17).

Sampling.  The package has tens of thousands of mutmut mutants, too many for 2 cores, so each *stratum* (one
module's mutmut mutants; one module's mutants of one custom operator) is sampled on its own: a simple random
sample of ``n`` names without replacement, or all of them when the stratum has at most ``n``.  The generator is
numpy's, seeded by ``SeedSequence(seed, spawn_key=(crc32(stratum),))``: the same seed and the same mutants give
the same sample whatever else is run, and another seed another sample.

Rate.  In a stratum h with ``T`` mutants of which ``n`` were tried, ``k`` detected and ``e`` found equivalent,
the non-equivalent kill rate is estimated by ``k / (n - e)``; over several strata (a module's mutmut and operator
strata, or the whole package) by the weighted ratio ``sum w_h k_h / sum w_h (n_h - e_h)`` with ``w_h = T_h / n_h``
(each tried mutant stands for ``w_h`` of its stratum), which is the plain ratio of counts when every stratum was
tried in full.

Interval.  Clopper-Pearson's exact binomial interval (scipy's beta quantiles), because its coverage is at least
the nominal 95 % for every true rate and sample size, which is what a target check near 100 % needs (Wilson's and
the normal interval undercover there); sampling without replacement only makes it more conservative.  Over
several strata it is computed at Kish's effective sample size ``(sum w a)^2 / sum w^2 a`` (``a = n - e``), the
Korn-Graubard way of carrying the exact interval to weighted samples; with a single stratum that is exactly
Clopper-Pearson on ``k`` of ``a``.  A set of strata that were all tried in full has no sampling error: its rate is
exact and gets no interval.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
from scipy import stats

LEVEL = 0.95


def sample_names(names, n: int | None, *, seed: int, stratum: str) -> list[str]:
    """A seeded simple random sample of ``n`` of ``names`` (sorted), or all of them when ``n`` is None or >= their
    number.  ``stratum`` (e.g. ``"lfverify.metrics:mutmut"``) keys the generator, so strata are independent.

    Raises
    ------
    ValueError
        If ``n`` < 1 or the names repeat.
    """
    names = sorted(names)
    if len(set(names)) != len(names):
        raise ValueError("names must be distinct")
    if n is not None and n < 1:
        raise ValueError(f"n must be >= 1 or None (all); got {n!r}")
    if n is None or len(names) <= n:
        return names
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(stratum.encode()),)))
    chosen = rng.choice(len(names), size=n, replace=False)
    return sorted(names[i] for i in chosen)


def clopper_pearson(successes: float, trials: float, level: float = LEVEL) -> tuple[float, float]:
    """Exact (Clopper-Pearson) two-sided interval for a binomial proportion; the counts may be non-integer
    (effective counts).  Raises ValueError unless 0 <= successes <= trials and trials > 0."""
    if not (trials > 0 and 0 <= successes <= trials):
        raise ValueError(f"need 0 <= successes <= trials and trials > 0; got {successes!r} of {trials!r}")
    alpha = 1.0 - level
    low = 0.0 if successes == 0 else float(stats.beta.ppf(alpha / 2, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(stats.beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    return low, high


@dataclass(frozen=True)
class Stratum:
    """Counts of one stratum: ``available`` mutants, ``tried`` of them, ``detected`` and ``equivalent`` among the
    tried (the rest of the tried survived and are not equivalent)."""

    available: int
    tried: int
    detected: int
    equivalent: int

    def __post_init__(self):
        if not (0 <= self.detected + self.equivalent <= self.tried <= self.available):
            raise ValueError(f"need detected + equivalent <= tried <= available; got {self}")

    @property
    def non_equivalent(self) -> int:
        return self.tried - self.equivalent


def estimate(strata, level: float = LEVEL) -> dict:
    """Weighted non-equivalent kill rate of a set of strata and its interval (see the module docstring).

    Returns
    -------
    dict with ``rate`` (None when no non-equivalent mutant was tried), ``exact`` (every stratum tried in full),
    ``low`` / ``high`` (None when exact or no rate) and ``effective_n`` (Kish's effective sample size).
    """
    strata = [s for s in strata if s.tried > 0]
    weighted_detected = sum(s.available / s.tried * s.detected for s in strata)
    weighted_total = sum(s.available / s.tried * s.non_equivalent for s in strata)
    if weighted_total == 0:
        return {"rate": None, "exact": all(s.tried == s.available for s in strata), "low": None, "high": None,
                "effective_n": 0.0}
    rate = weighted_detected / weighted_total
    squares = sum((s.available / s.tried) ** 2 * s.non_equivalent for s in strata)
    effective_n = weighted_total ** 2 / squares
    exact = all(s.tried == s.available for s in strata)
    low = high = None
    if not exact:
        low, high = clopper_pearson(min(rate * effective_n, effective_n), effective_n, level)
    return {"rate": rate, "exact": exact, "low": low, "high": high, "effective_n": effective_n}
