"""``check_surrogate_utility_estimator`` (U_hat, Eq. (6)) and ``check_gradient_direction_estimator`` (V_hat, Eq. (7)).

The implementation under test is a function ``fn(X, y, theta)`` that decides its own split of the sample into the
halves S_0 (numerator) and S_1 (denominator), as a user's implementation would.  Prior-dependent offsets
b_k = c_k + d_k pi must enter per sample as c_k + d_k 1{y = +1} (no prior is passed: their expectation is b_k, so
Lemma 3's unbiasedness is exact); an implementation that plugs in the whole sample's positive fraction instead is
biased at small n, and the unbiasedness checks find it.

What is checked:

* ``double_sum_exact`` (only with a known ``split``): the value on fixed samples (n = 4, 7, 12; dyadic features,
  three random theta) equals the literal double sum of Eq. (7) (resp. the per-sample sums of Eq. (6)) to 1e-10
  of the size of its terms.
* ``unbiased_exact`` (V_hat, Lemma 3) and ``expectation_exact`` (U_hat, Eq. (6)'s independent halves): the
  expectation over *every* ordered sample of size n from a small finite population (3 atoms in R^2 drawn from the
  seed), computed exactly by enumeration (:func:`~lfverify.testing.oracles.expectation_by_enumeration`), equals
  V_phi(theta) (resp. E[W_0] E[1 / D_hat], with D_hat the mean of n/2 i.i.d. scores W_1, itself enumerated).  No
  Monte-Carlo error: no false alarm, and any bias above rounding (1e-9 of the terms' size) is found.  A sample
  with a single class may be declined (an exception or a NaN): its value is then the oracle's, which leaves the
  expectation of a correct implementation unchanged (single-class samples are closed under permutation, so any
  data-independent split gives the same sum over them).  A function that is not deterministic makes this check
  not applicable; the Monte-Carlo check covers it.
* ``unbiased_monte_carlo`` (V_hat, on lfverify's Gaussian reference population): 1000 independent samples of
  each size n = 2 and n = 5; on each, fn's value minus the symmetrised Eq. (7) (the double sum averaged over every
  split: exactly unbiased, so the difference has mean E[V_hat] - V_phi whatever fn's split); per component a z
  test of mean 0 with the standard error from the replications, Bonferroni-corrected over the 2 d components to
  level :data:`MONTE_CARLO_LEVEL` = 1e-4 (its false-alarm probability; derivation in
  ``_paired_monte_carlo``).
* ``expectation_monte_carlo`` (U_hat, on lfverify's finite reference population): R = 1500 independent samples
  of size 8 (seeded children of ``seed``), a Hotelling T^2 test of the mean against the exact value at level
  :data:`MONTE_CARLO_LEVEL` (its false-alarm probability).  The power of both is measured by
  ``benchmarks/testing_kit_error_rates.py``.
* ``batch`` (opt-in, ``batch=True``): a batch Theta of shape (K, d) gives the rows of the single calls.
* ``input_contract``: X, y and theta are never modified; float32 / int64 / read-only / Fortran-ordered /
  non-contiguous / CSR features, int8 / float / {0, 1} / boolean labels and float32 / read-only / non-contiguous
  theta give the float64 dense value.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy import stats

import lfverify.testing.oracles as oracles
from lfverify.core import (
    FiniteSupportPopulation,
    LinearFractionalMetric,
    as_generator,
    as_seed_sequence,
    child,
    reference_scores,
    resolve_metric,
)
from lfverify.testing._framework import (
    CheckNotApplicable,
    Subject,
    TheoryCheck,
    TheoryCheckFailure,
    as_real,
    as_vector,
    call_user,
    register_kind,
    run_all,
)
from lfverify.testing._input_contract import (
    feature_variants,
    label_variants,
    run_contract,
    vector_variants,
)

__all__ = ["check_surrogate_utility_estimator", "check_gradient_direction_estimator", "estimator_checks",
           "MONTE_CARLO_LEVEL", "MONTE_CARLO_REPLICATIONS", "MONTE_CARLO_SAMPLE_SIZE", "SPLITS"]

#: The false-alarm probability of each Monte-Carlo check (V_hat: Bonferroni-corrected paired z tests; U_hat:
#: Hotelling T^2; both asymptotically exact).
MONTE_CARLO_LEVEL = 1e-4
#: Replications of the Monte-Carlo checks: (V_hat: per sample size, U_hat).
MONTE_CARLO_REPLICATIONS = {"gradient_direction": 1000, "surrogate_utility": 1500}
#: Sample sizes of the replications of the Monte-Carlo checks: (V_hat: each size in turn, U_hat).
MONTE_CARLO_SAMPLE_SIZE = {"gradient_direction": (2, 5), "surrogate_utility": 8}
#: Sample sizes enumerated exactly: (V_hat, U_hat) (U_hat's expectation needs equal halves: even n).
ENUMERATED_SIZES = {"gradient_direction": (3, 4), "surrogate_utility": (2, 4)}
#: Relative tolerance of the exact checks (the implementation's and the oracle's rounding).
EXACT_TOLERANCE = 1e-9
#: Relative tolerance against the literal double sums.
DOUBLE_SUM_TOLERANCE = 1e-10
#: ``split`` values: "first-half" (the paper's S_0 = the first floor(n/2) rows), None (the function's own split,
#: unknown to the kit: the double-sum check does not run), or a callable ``split(n) -> (first, second)``.
SPLITS = ("first-half", None, "callable split(n) -> (first, second)")

_LEMMA3 = "Lemma 3: V_hat of Eq. (7) is unbiased, E_S[V_hat(theta)] = V_phi(theta) for every n"
_EQ7 = ("Eq. (7): V_hat = 1/(m (n-m)) sum_{i in S_0} sum_{j in S_1} "
        "(W~_1(z_j) grad W~_0(z_i) - W~_0(z_i) grad W~_1(z_j))")
_EQ6 = "Eq. (6): U_hat = N_hat / D_hat, N_hat the mean of W~_0,phi over S_0 and D_hat the mean of W~_1,phi over S_1"
_HALVES = "Eq. (6) with independent halves: E_S[U_hat(theta)] = E[W~_0,phi] E[1 / D_hat], D_hat the mean of n/2 " \
          "i.i.d. scores W~_1,phi"


# ---------------------------------------------------------------------------------------------- the cases
def _split_indices(split, n):
    if split is None:
        return None
    if isinstance(split, str):
        m = n // 2
        return np.arange(m), np.arange(m, n)
    first, second = split(n)
    return np.asarray(first, dtype=np.intp), np.asarray(second, dtype=np.intp)


def _fixed_samples(seed, d=3):
    """(X, y, thetas) for the double-sum check: n = 4, 7, 12, dyadic nonzero rows, both classes in every half."""
    rng = as_generator(child(as_seed_sequence(seed, "seed"), 1), "seed")
    cases = []
    for n in (4, 7, 12):
        X = rng.integers(-12, 13, size=(n, d)) / 4.0
        X[np.all(X == 0, axis=1), 0] = 1.0
        y = np.where(rng.random(n) < 0.5, 1, -1)
        m = n // 2
        y[0], y[1], y[m], y[m + 1 if m + 1 < n else m] = 1, -1, 1, -1
        if m == 1:
            y[0], y[1] = 1, -1
        cases.append((X, y.astype(np.int64), rng.normal(size=(3, d))))
    return cases


def _enumeration_case(seed, index, d=2):
    """A 3-atom population in R^2 (dyadic distinct nonzero atoms, weights >= 0.15, eta in [0.2, 0.8]) and two theta."""
    rng = as_generator(child(as_seed_sequence(seed, "seed"), 2, index), "seed")
    while True:
        atoms = rng.integers(-8, 9, size=(3, d)) / 4.0
        if np.all(np.any(atoms != 0, axis=1)) and len({tuple(a) for a in atoms.tolist()}) == 3:
            break
    weights = 0.15 + 0.55 * rng.dirichlet(np.ones(3))
    weights = weights / weights.sum()
    eta = rng.uniform(0.2, 0.8, 3)
    return FiniteSupportPopulation(atoms, weights, eta), rng.normal(size=(2, d))


def _describe_population(population) -> dict:
    return {"atoms": population.atoms.tolist(), "weights": population.weights.tolist(),
            "eta": population.eta.tolist()}


def _scores_table(metric, loss, population, theta, side):
    """Per (atom, label) of positive probability: (probability, W~_0, W~_1, grad W~_0, grad W~_1) of Eq. (6)."""
    rows = []
    for x, w, q in zip(population.atoms, population.weights, population.eta):
        xi = float(x @ theta)
        for label, p in ((1, w * q), (-1, w * (1.0 - q))):
            if p > 0:
                w0, w1, d0, d1 = reference_scores(metric, loss, xi, label, prior=None, side=side)
                rows.append((float(p), w0, w1, d0 * x, d1 * x))
    return rows


def _term_scale(rows):
    """E|W_1| E|grad W_0| + E|W_0| E|grad W_1| (max over components): the size of V's terms."""
    e = lambda f: sum(p * f(r) for r in rows for p in (r[0],))  # noqa: E731
    return float(e(lambda r: abs(r[2])) * np.max(e(lambda r: np.abs(r[3])))
                 + e(lambda r: abs(r[1])) * np.max(e(lambda r: np.abs(r[4]))))


# ---------------------------------------------------------------------------------------------- calling fn
def _single_class(y) -> bool:
    return bool(np.all(y == y[0]))


def _evaluate(fn, X, y, theta, *, kind, check, claim, witness, oracle):
    """fn(X, y, theta) as a float (U_hat) or a (d,) vector (V_hat); a single-class sample may be declined, and then
    ``oracle()`` is returned; returns (value, declined)."""
    expected = "a value"
    if _single_class(y):
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value = fn(X, y, theta)
            out = np.asarray(value, dtype=np.float64)
            ok = out.size == (1 if kind == "surrogate_utility" else theta.size) and np.isfinite(out).all()
        except Exception:  # noqa: BLE001 - declining a single-class sample is allowed
            ok = False
        if not ok:
            return oracle(), True
        return (float(out.reshape(())) if kind == "surrogate_utility" else out.reshape(theta.size)), False
    value = call_user(fn, (X, y, theta), check=check, claim=claim, witness=witness)
    if kind == "surrogate_utility":
        return as_real(value, check=check, claim=claim, witness=witness, expected=expected), False
    return as_vector(value, theta.size, check=check, claim=claim, witness=witness, expected=expected), False


def _oracle(kind, metric, loss, X, y, theta, split, side):
    first, second = _split_indices(split or "first-half", X.shape[0])
    if kind == "surrogate_utility":
        return oracles.surrogate_utility_double_sum(metric, loss, X, y, theta=theta, split=(first, second))
    return oracles.gradient_direction_double_sum(metric, loss, X, y, theta=theta, split=(first, second), side=side)


def _require_deterministic(fn, samples, kind):
    """CheckNotApplicable when two calls on the same two-class samples differ (a randomized implementation)."""
    for X, y, theta in samples:
        if _single_class(y):
            continue
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                a, b = np.asarray(fn(X, y, theta), dtype=np.float64), np.asarray(fn(X, y, theta), dtype=np.float64)
        except Exception:  # noqa: BLE001 - reported by the check itself with its witness
            return
        if a.shape == b.shape and not np.array_equal(a, b, equal_nan=True):
            raise CheckNotApplicable("the implementation is randomized (two calls on one sample differ); an exact "
                                     "expectation by enumeration needs a deterministic function - the Monte-Carlo "
                                     "check covers it")


# ---------------------------------------------------------------------------------------------- the checks
def _double_sum_exact(fn, *, kind, metric, loss, split, side, batch, seed):
    check = "double_sum_exact"
    if split is None:
        raise CheckNotApplicable("split=None: the implementation's split is unknown, so its value on one sample "
                                 "has no oracle (the unbiasedness checks still apply)")
    claim = _EQ6 if kind == "surrogate_utility" else _EQ7
    for X, y, thetas in _fixed_samples(seed):
        first, second = _split_indices(split, X.shape[0])
        for theta in thetas:
            witness = {"X": X, "y": y, "theta": theta, "split (S_0)": first.tolist(), "metric": metric, "loss": loss}
            if kind == "surrogate_utility":
                w = [reference_scores(metric, loss, float(x @ theta), int(t), prior=None, side=side) for x, t in zip(X,
                                                                                                                     y)]
                den = math.fsum(w[j][1] for j in second) / second.size
                if not den > 0:
                    continue  # U_hat undefined at this theta: nothing to compare
                expected = oracles.surrogate_utility_double_sum(metric, loss, X, y, theta=theta, split=(first, second))
                scale = (np.mean([abs(w[i][0]) for i in first])
                         + abs(expected) * np.mean([abs(w[j][1]) for j in second])) / den
                value = as_real(call_user(fn, (X, y, theta), check=check, claim=claim, witness=witness),
                                check=check, claim=claim, witness=witness, expected=expected)
                error = abs(value - expected)
            else:
                expected = oracles.gradient_direction_double_sum(metric, loss, X, y, theta=theta, split=(first, second),
                                                                 side=side)
                w = [reference_scores(metric, loss, float(x @ theta), int(t), prior=None, side=side) for x, t in zip(X,
                                                                                                                     y)]
                abs_x = np.abs(X)
                scale = float(np.max(np.mean([abs(w[j][1]) for j in second]) * np.mean(
                    [abs(w[i][2]) * abs_x[i] for i in first], axis=0) + np.mean([abs(w[i][0]) for i in first])
                    * np.mean([abs(w[j][3]) * abs_x[j] for j in second], axis=0)))
                value = as_vector(call_user(fn, (X, y, theta), check=check, claim=claim, witness=witness),
                                  theta.size, check=check, claim=claim, witness=witness, expected=expected)
                error = float(np.max(np.abs(value - expected)))
            tolerance = DOUBLE_SUM_TOLERANCE * (scale + 1e-300)
            if error > tolerance:
                raise TheoryCheckFailure(check, claim, witness=witness, observed=value, expected=expected,
                                         detail=f"max |difference| = {error:.3g} > {tolerance:.3g} (1e-10 of the "
                                         "size of the terms)")


def _enumerated(fn, *, kind, metric, loss, split, side, population, theta, n, check, claim):
    """(expectation of fn over every ordered sample of size n, probability of the declined samples)."""
    values, probabilities, declined = [], [], 0.0
    for probability, X, y in oracles.ordered_samples(population, n):
        witness = {"X": X, "y": y, "theta": theta, "population": _describe_population(population)}
        value, was_declined = _evaluate(
            fn, X, y, theta, kind=kind, check=check, claim=claim, witness=witness,
            oracle=lambda X=X, y=y: _oracle(kind, metric, loss, X=X, y=y, theta=theta, split=split, side=side))
        declined += probability if was_declined else 0.0
        values.append(np.atleast_1d(np.asarray(value, dtype=np.float64)))
        probabilities.append(probability)
    stacked = np.stack(values)
    expectation = np.array([math.fsum(p * v for p, v in zip(probabilities, stacked[:, c]))
                            for c in range(stacked.shape[1])])
    return expectation, declined


def _half_expectation_of_inverse(rows, size):
    """E[1 / D_hat] with D_hat the mean of ``size`` i.i.d. scores W~_1 (rows of _scores_table), by enumeration."""
    probs = np.array([r[0] for r in rows])
    w1 = np.array([r[2] for r in rows])
    grids = np.meshgrid(*([np.arange(len(rows))] * size), indexing="ij")
    index = np.stack([g.ravel() for g in grids], axis=1)
    means = w1[index].mean(axis=1)
    if not np.all(means > 0):
        return None
    return math.fsum((np.prod(probs[index], axis=1) / means).tolist())


def _exact_expectation(fn, *, kind, metric, loss, split, side, batch, seed):
    check = "unbiased_exact" if kind == "gradient_direction" else "expectation_exact"
    claim = _LEMMA3 if kind == "gradient_direction" else _HALVES
    for index in range(2):
        population, thetas = _enumeration_case(seed, index)
        first_sample = next(iter(oracles.ordered_samples(population, 4)))
        mixed = [(population.atoms[[0, 1, 0, 1]], np.array([1, -1, -1, 1]), thetas[0])]
        _require_deterministic(fn, mixed + [(first_sample[1], first_sample[2], thetas[0])], kind)
        for theta in thetas:
            rows = _scores_table(metric, loss, population, theta=theta, side=side)
            for n in ENUMERATED_SIZES[kind]:
                if kind == "gradient_direction":
                    target = oracles.population_gradient_direction(population, metric, loss, theta, side=side)
                    scale = _term_scale(rows)
                else:
                    inverse = _half_expectation_of_inverse(rows, n // 2)
                    if inverse is None:
                        continue  # some half has D_hat <= 0: U_hat is undefined there, no expectation
                    e_w0 = math.fsum(r[0] * r[1] for r in rows)
                    target = np.array([e_w0 * inverse])
                    scale = math.fsum(r[0] * abs(r[1]) for r in rows) * abs(inverse)
                expectation, declined = _enumerated(fn, kind=kind, metric=metric, loss=loss, split=split, side=side,
                                                    population=population, theta=theta, n=n, check=check, claim=claim)
                tolerance = EXACT_TOLERANCE * (scale + float(np.max(np.abs(target))))
                error = float(np.max(np.abs(expectation - target)))
                if error > tolerance:
                    witness = {"population": _describe_population(population), "n": n, "theta": theta,
                               "ordered samples enumerated": int((2 * 3) ** n),
                               "probability of declined single-class samples": declined}
                    observed = expectation if kind == "gradient_direction" else float(expectation[0])
                    expected = target if kind == "gradient_direction" else float(target[0])
                    raise TheoryCheckFailure(check, claim, witness=witness, observed=observed, expected=expected,
                                             detail=f"exact expectation by enumeration: |bias| = {error:.3g} > "
                                             f"{tolerance:.3g} (rounding only)")


def _hotelling(deviations, level):
    """(statistic, p-value, rank) of Hotelling's T^2 test that the rows of ``deviations`` have mean 0."""
    R = deviations.shape[0]
    mean = deviations.mean(axis=0)
    centered = deviations - mean
    covariance = centered.T @ centered / (R - 1)
    scale = np.sqrt(np.maximum(np.diag(covariance), 0.0))
    if not np.any(scale > 0):
        return (0.0 if np.all(mean == 0) else math.inf), (1.0 if np.all(mean == 0) else 0.0), 0
    keep = scale > 1e-12 * np.max(scale)
    if np.any(~keep & (np.abs(mean) > 0)):  # a component with zero variance and a non-zero mean
        return math.inf, 0.0, int(keep.sum())
    z = mean[keep] / scale[keep]
    corr = covariance[np.ix_(keep, keep)] / np.outer(scale[keep], scale[keep])
    rank = int(np.linalg.matrix_rank(corr, tol=1e-10))
    t2 = float(R * z @ np.linalg.pinv(corr, rcond=1e-10, hermitian=True) @ z)
    f = (R - rank) / (rank * (R - 1)) * t2
    return t2, float(stats.f.sf(f, rank, R - rank)), rank


_MC_THETAS = {"gradient_direction": np.array([[0.6, -0.4, 0.2]]),
              "surrogate_utility": np.array([[0.6, -0.4], [-1.0, 0.5]])}


def _symmetrised_gradient_direction(metric, loss, X, y, theta, side):
    """Eq. (7)'s pair term averaged over every ordered pair i != j of each sample, for a stack of samples.

    ``X`` of shape (R, n, d), ``y`` of shape (R, n); returns (R, d).  The average of
    W~_1(z_j) grad W~_0(z_i) - W~_0(z_i) grad W~_1(z_j) over the n (n - 1) ordered pairs is the average of Eq. (7)'s
    double sum over every split of the sample, so each pair term, and hence this U-statistic, has expectation
    E[W~_1] E[grad W~_0] - E[W~_0] E[grad W~_1] = V_phi(theta) (Lemma 3: the two samples of a pair are
    independent).  Scores from the reference twin of Eq. (6) (per-sample offsets), not from lfverify's estimator.
    """
    R, n, _ = X.shape
    xi = X @ theta
    # W~_0, W~_1 and their xi-derivatives, sample by sample, from the reference twin of Eq. (6) (per-sample
    # offsets; 0.3 s for the check's 7,000 samples)
    scores = np.array([reference_scores(metric, loss, float(v), int(label), prior=None, side=side)
                       for v, label in zip(xi.ravel(), y.ravel())]).reshape(R, n, 4)
    w0, w1, dw0, dw1 = (scores[..., c] for c in range(4))
    g0, g1 = dw0[..., None] * X, dw1[..., None] * X  # (R, n, d)
    total = (w1.sum(axis=1)[:, None] * g0.sum(axis=1) - np.einsum("rk,rkd->rd", w1, g0)
             - w0.sum(axis=1)[:, None] * g1.sum(axis=1) + np.einsum("rk,rkd->rd", w0, g1))
    return total / (n * (n - 1))


def _paired_monte_carlo(fn, *, kind, metric, loss, split, side, batch, seed):
    """``unbiased_monte_carlo``: a paired, Bonferroni-corrected z test of E[fn(S)] = V_phi(theta) (Lemma 3).

    Design.  For each sample size n in :data:`MONTE_CARLO_SAMPLE_SIZE` ``["gradient_direction"]`` (2 and 5), R =
    :data:`MONTE_CARLO_REPLICATIONS` ``["gradient_direction"]`` independent samples S_r of size n are drawn from
    lfverify's Gaussian reference population (one draw of R n rows from a seeded child of ``seed``, cut into R
    samples), at theta = (0.6, -0.4, 0.2).  On each, the difference D_r = fn(S_r) - U(S_r) is formed, U the
    symmetrised Eq. (7) (``_symmetrised_gradient_direction``, the average of the double sum over every split),
    whose expectation is V_phi(theta) exactly.  So E[D_r] = E[fn(S)] - V_phi(theta) whatever the split or the
    randomness of ``fn``: the test is of the bias itself, and the kit's own unbiased estimate on the same sample
    is subtracted as a control variate (for an implementation close to Eq. (7) D_r varies only through the split,
    which makes a bias of O(1/n) - such as a prior plugged in from the whole sample - visible with few
    replications).  A sample that ``fn`` declines (single class) counts D_r = 0.

    Test and false-alarm probability.  For each of the k = (number of sizes) x d components, the studentised
    mean t = mean(D) / (sd(D) / sqrt(R)) (sd with R - 1 degrees of freedom, from the replications) is compared
    with c = Phi^{-1}(1 - alpha / (2 k)), alpha = :data:`MONTE_CARLO_LEVEL`.  Under the claim (E[D] = 0) each t is
    asymptotically N(0, 1) (i.i.d. replications with finite variance: the central limit theorem and Slutsky's
    lemma), so by Bonferroni's inequality P(some |t| > c) <= k alpha / k = alpha = 1e-4: the false-alarm
    probability of the check, up to the normal approximation at R = 1000 (measured, with the power against the
    named wrong implementations, by ``benchmarks/testing_kit_error_rates.py``).  A component fails only when,
    besides |t| > c, |mean(D)| exceeds 1e-9 of the size of the terms (rounding differences of an exact
    implementation are no bias); a component with sd(D) = 0 fails iff that floor is exceeded.
    """
    check, claim = "unbiased_monte_carlo", _LEMMA3
    population = oracles.REFERENCE_GAUSSIAN_POPULATION
    R, sizes = MONTE_CARLO_REPLICATIONS[kind], MONTE_CARLO_SAMPLE_SIZE[kind]
    (theta,) = _MC_THETAS[kind]
    target = oracles.population_gradient_direction(population, metric, loss, theta, side=side)
    root = child(as_seed_sequence(seed, "seed"), 3)
    k = len(sizes) * theta.size
    critical = float(stats.norm.isf(MONTE_CARLO_LEVEL / (2 * k)))
    for index, n in enumerate(sizes):
        X_all, y_all = population.sample(R * n, seed=child(root, index))
        X_all = X_all.reshape(R, n, -1)
        y_all = y_all.astype(np.int64).reshape(R, n)
        reference = _symmetrised_gradient_direction(metric, loss, X_all, y_all, theta=theta, side=side)
        values = np.empty_like(reference)
        declined = 0
        for r in range(R):
            X, y = X_all[r], y_all[r]
            witness = {"replication": r, "n": n, "X": X, "y": y, "theta": theta}
            value, was_declined = _evaluate(fn, X, y, theta, kind=kind, check=check, claim=claim, witness=witness,
                                            oracle=lambda r=r, reference=reference: reference[r])
            declined += was_declined
            values[r] = value
        deviations = values - reference
        mean = deviations.mean(axis=0)
        se = deviations.std(axis=0, ddof=1) / math.sqrt(R)
        floor = 1e-9 * (np.mean(np.abs(values), axis=0) + np.mean(np.abs(reference), axis=0))
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(se > 0, mean / np.where(se > 0, se, 1.0), np.where(np.abs(mean) > floor, np.inf, 0.0))
        failing = (np.abs(t) > critical) & (np.abs(mean) > floor)
        if np.any(failing):
            p_values = np.minimum(1.0, 2 * k * stats.norm.sf(np.abs(t)))
            witness = {"population": "lfverify.testing.oracles.REFERENCE_GAUSSIAN_POPULATION", "n": n,
                       "replications": R, "theta": theta, "seed": seed, "declined single-class samples": declined}
            raise TheoryCheckFailure(
                check, claim, witness=witness, observed=target + mean, expected=target,
                detail=f"Monte-Carlo estimate of E[V_hat] = V_phi + mean(fn(S) - U(S)), U the symmetrised Eq. (7) "
                f"(exactly unbiased); paired z = {np.array2string(t, precision=2)} (standard errors "
                f"{np.array2string(se, precision=3)}), Bonferroni-corrected p = "
                f"{np.array2string(p_values, precision=3)}"
                f": |z| > {critical:.3f} = the critical value of level {MONTE_CARLO_LEVEL:g} over {k} components "
                "(the false-alarm probability of this check)")


def _hotelling_monte_carlo(fn, *, kind, metric, loss, split, side, batch, seed):
    """``expectation_monte_carlo`` (U_hat): the Hotelling T^2 test of the module docstring."""
    check = "expectation_monte_carlo"
    claim = _HALVES
    R, n = MONTE_CARLO_REPLICATIONS[kind], MONTE_CARLO_SAMPLE_SIZE[kind]
    thetas = _MC_THETAS[kind]
    population = oracles.REFERENCE_FINITE_POPULATION
    pieces = []
    for theta in thetas:
        rows = _scores_table(metric, loss, population, theta=theta, side=side)
        inverse = _half_expectation_of_inverse(rows, n - n // 2)
        if inverse is None:
            raise CheckNotApplicable(f"D_hat can be <= 0 at theta = {theta.tolist()} for this metric and loss")
        pieces.append(math.fsum(r[0] * r[1] for r in rows) * inverse)
    target = np.array(pieces)
    root = child(as_seed_sequence(seed, "seed"), 3)
    deviations = np.empty((R, target.size))
    declined = 0
    for r in range(R):
        X, y = population.sample(n, seed=child(root, r))
        y = y.astype(np.int64)
        values = []
        for theta in thetas:
            witness = {"replication": r, "X": X, "y": y, "theta": theta}
            value, was_declined = _evaluate(
                fn, X, y, theta, kind=kind, check=check, claim=claim, witness=witness,
                oracle=lambda X=X, y=y,
                theta=theta: _oracle(kind, metric, loss, X=X, y=y, theta=theta, split=split, side=side))
            declined += was_declined
            values.append(np.atleast_1d(value))
        deviations[r] = np.concatenate(values) - target
    t2, p_value, rank = _hotelling(deviations, MONTE_CARLO_LEVEL)
    if p_value < MONTE_CARLO_LEVEL:
        se = deviations.std(axis=0, ddof=1) / math.sqrt(R)
        witness = {"population": "lfverify.testing.oracles.REFERENCE_FINITE_POPULATION",
                   "n": n, "replications": R, "thetas": thetas, "seed": seed,
                   "declined single-class samples": declined}
        raise TheoryCheckFailure(check, claim, witness=witness, observed=target + deviations.mean(axis=0),
                                 expected=target,
                                 detail=f"Monte-Carlo mean (standard errors {np.array2string(se, precision=3)}): "
                                 f"Hotelling T^2 = {t2:.4g} on {rank} dimensions, p = {p_value:.3g} < "
                                 f"{MONTE_CARLO_LEVEL:g} (the false-alarm probability of this check)")


def _batch(fn, *, kind, metric, loss, split, side, batch, seed):
    check = "batch"
    claim = "batch behaviour: fn(X, y, Theta) of a batch Theta of shape (K, d) gives the rows of the single calls"
    if not batch:
        raise CheckNotApplicable("batch=False")
    X, y, thetas = _fixed_samples(seed)[1]
    witness = {"X": X, "y": y, "Theta": thetas}
    rows = [np.atleast_1d(np.asarray(call_user(fn, (X, y, t), check=check, claim=claim, witness=witness),
                                     dtype=np.float64)) for t in thetas]
    expected = np.array([r[0] for r in rows]) if kind == "surrogate_utility" else np.stack(rows)
    value = np.asarray(call_user(fn, (X, y, thetas), check=check, claim=claim, witness=witness), dtype=np.float64)
    if value.shape != expected.shape or not np.allclose(value, expected, rtol=1e-12,
                                                         atol=1e-12 * np.max(np.abs(expected))):
        raise TheoryCheckFailure(check, claim, witness=witness, observed=value, expected=expected,
                                 detail="the batch disagrees with the single calls")


def _input_contract(fn, *, kind, metric, loss, split, side, batch, seed):
    check = "input_contract"
    X, y, thetas = _fixed_samples(seed)[1]
    X = np.round(X)  # integers: int64 and float32 hold them exactly
    X[np.all(X == 0, axis=1), 0] = 1.0
    theta = np.round(thetas[0] * 8) / 8  # dyadic: float32 holds it exactly

    def call(X, y, theta):
        witness = {"X": X, "y": y, "theta": theta}
        value = call_user(fn, (X, y, theta), check=check, claim="input contract", witness=witness)
        return np.atleast_1d(np.asarray(value, dtype=np.float64))

    def compare(reference, result, tolerance):
        if result.shape != reference.shape or not np.all(np.isfinite(result)):
            return f"shape/finite: got {result.shape}, expected {reference.shape}"
        error = float(np.max(np.abs(result - reference)))
        if error > tolerance * (1.0 + float(np.max(np.abs(reference)))):
            return f"max |difference| = {error:.3g} > {tolerance:g} (1 + max |float64 result|)"
        return None

    variants = [("X", label, value, kind_) for label, value, kind_ in feature_variants(X)]
    variants += [("y", label, value, kind_) for label, value, kind_ in label_variants(y)]
    variants += [("theta", label, value, kind_) for label, value, kind_ in vector_variants(theta, "theta")]
    run_contract(call, {"X": X, "y": y, "theta": theta}, variants, compare=compare, check=check,
                 witness={"metric": metric})


_CHECKS = {
    "surrogate_utility": (
        ("double_sum_exact", _EQ6, _double_sum_exact, None),
        ("expectation_exact", _HALVES, _exact_expectation, None),
        ("expectation_monte_carlo", _HALVES, _hotelling_monte_carlo, f"{MONTE_CARLO_LEVEL:g} (Hotelling T^2 level)"),
        ("batch", "batch behaviour", _batch, None),
        ("input_contract", "input contract", _input_contract, None),
    ),
    "gradient_direction": (
        ("double_sum_exact", _EQ7, _double_sum_exact, None),
        ("unbiased_exact", _LEMMA3, _exact_expectation, None),
        ("unbiased_monte_carlo", _LEMMA3, _paired_monte_carlo, f"{MONTE_CARLO_LEVEL:g} (Bonferroni-corrected paired z "
                                                               "tests)"),
        ("batch", "batch behaviour", _batch, None),
        ("input_contract", "input contract", _input_contract, None),
    ),
}


def _validated(fn, options, kind):
    if not callable(fn):
        raise TypeError(f"fn must be callable as fn(X, y, theta); got {type(fn).__name__}")
    metric = options.get("metric")
    if not isinstance(metric, (str, LinearFractionalMetric)):
        raise TypeError(f"metric must be a LinearFractionalMetric or a metric name ('f1', 'f<beta>', 'jaccard', "
                        f"'accuracy'); got {metric!r}, which is not a linear-fractional metric")
    metric = resolve_metric(metric)
    loss = options.get("loss")
    missing = [name for name in ("value", "derivative") if not callable(getattr(loss, name, None))]
    if missing:
        raise TypeError(f"loss must have methods value(m) and derivative(m, side=...); {type(loss).__name__} lacks "
                        f"{', '.join(missing)}")
    split = options.get("split", "first-half")
    if not (split is None or (isinstance(split, str) and split == "first-half") or callable(split)):
        raise ValueError(f"split must be 'first-half', None or a callable split(n) -> (first, second); got {split!r}")
    side = options.get("side", "right")
    if side not in ("right", "left"):
        raise ValueError(f"side must be 'right' or 'left'; got {side!r}")
    batch = options.get("batch", False)
    if not isinstance(batch, (bool, np.bool_)):
        raise TypeError(f"batch must be a bool; got {batch!r}")
    seed = options.get("seed", 0)
    as_seed_sequence(seed, "seed")
    return {"kind": kind, "metric": metric, "loss": loss, "split": split, "side": side, "batch": bool(batch),
            "seed": seed}


def estimator_checks(kind: str):
    """The function listing the checks of one estimator kind ("surrogate_utility" or "gradient_direction")."""
    public = "check_surrogate_utility_estimator" if kind == "surrogate_utility" else \
        "check_gradient_direction_estimator"

    def list_checks(fn, options):
        normalised = _validated(fn, options, kind)
        checks = []
        for name, claim, function, level in _CHECKS[kind]:
            if (name == "double_sum_exact" and normalised["split"] is None
                    or name == "batch" and not normalised["batch"]):
                continue
            def bound(obj, _f=function, _options=normalised, **_):
                return _f(obj, **_options)

            checks.append(TheoryCheck(name, public, claim, bound) if level is None else
                          TheoryCheck(name, public, claim, bound, false_alarm=level))
        return normalised, checks
    return list_checks


def check_surrogate_utility_estimator(fn, *, metric, loss, split="first-half", side="right", batch=False,
                                      seed=0) -> None:
    """Check an implementation ``fn(X, y, theta) -> float`` of U_hat (Eq. (6)).

    Checks: ``double_sum_exact`` (with a known ``split``), ``expectation_exact`` (exact enumeration: E[U_hat] =
    E[W_0] E[1 / D_hat]), ``expectation_monte_carlo`` (Hotelling T^2 at level 1e-4), ``batch`` (opt-in) and
    ``input_contract``; see :mod:`lfverify.testing` for what each claims.

    Parameters
    ----------
    fn : callable
        ``fn(X, y, theta) -> float``: X of shape (n, d), labels in {-1, +1} (or any encoding the input contract
        lists), theta of shape (d,).
    metric : LinearFractionalMetric or str, keyword-only
    loss : object with ``value(m)`` and ``derivative(m, side=...)``, keyword-only
    split : "first-half", None or callable, keyword-only
        How ``fn`` splits the sample: the paper's first floor(n/2) rows for S_0 (default), unknown (None: the
        double-sum check is skipped), or ``split(n) -> (first, second)`` index arrays.
    side : {"right", "left"}, keyword-only
        The one-sided derivative at a kink that ``fn`` uses.
    batch : bool, keyword-only
        Whether ``fn`` also takes a batch Theta of shape (K, d) (then checked).
    seed : int, keyword-only
        Seed of the samples, populations and replications (same seed, same verdict).

    Raises
    ------
    AssertionError
        (:class:`~lfverify.testing.TheoryCheckFailure`) when a check fails.
    TypeError, ValueError
        For a non-callable ``fn``, a metric that is not linear-fractional, a loss without ``value`` and
        ``derivative``, or an invalid option.
    """
    run_all(Subject(check_surrogate_utility_estimator, fn, metric=metric, loss=loss, split=split, side=side,
                    batch=batch, seed=seed))


def check_gradient_direction_estimator(fn, *, metric, loss, split="first-half", side="right", batch=False,
                                       seed=0) -> None:
    """Check an implementation ``fn(X, y, theta) -> ndarray of shape (d,)`` of V_hat (Eq. (7)).

    Checks: ``double_sum_exact`` (with a known ``split``), ``unbiased_exact`` (Lemma 3 by exact enumeration),
    ``unbiased_monte_carlo`` (Lemma 3, paired z tests against the symmetrised Eq. (7), Bonferroni level 1e-4 on
    a Gaussian population), ``batch``
    (opt-in) and ``input_contract``; see :mod:`lfverify.testing`.  Parameters as
    :func:`check_surrogate_utility_estimator`.

    Raises
    ------
    AssertionError
        (:class:`~lfverify.testing.TheoryCheckFailure`) when a check fails.
    TypeError, ValueError
        For a non-callable ``fn``, a metric that is not linear-fractional, a loss without ``value`` and
        ``derivative``, or an invalid option.
    """
    run_all(Subject(check_gradient_direction_estimator, fn, metric=metric, loss=loss, split=split, side=side,
                    batch=batch, seed=seed))


register_kind(check_surrogate_utility_estimator, estimator_checks("surrogate_utility"))
register_kind(check_gradient_direction_estimator, estimator_checks("gradient_direction"))
