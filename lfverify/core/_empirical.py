"""Empirical surrogate utility U_hat (Eq. (6)) and gradient-direction estimator V_hat (Eq. (7)).

For the linear model f_theta(x) = theta^T x, the sample S is split into S_0 (the first m = floor(n/2) points)
and S_1 (the rest) (Sec. 2).  With N_hat = mean_{i in S_0} W~_{0,phi}(z_i) and D_hat = mean_{j in S_1}
W~_{1,phi}(z_j), the double sum of Eq. (7) factorises:

    V_hat = 1/(m (n-m)) sum_i sum_j { W~_1(z_j) grad W~_0(z_i) - W~_0(z_i) grad W~_1(z_j) }
          = D_hat * grad N_hat - N_hat * grad D_hat,

which costs O(n d) instead of O(m (n - m) d), and grad U_hat = V_hat / D_hat^2 (the quotient rule).  Every
method accepts one parameter vector theta of shape (d,) or a batch Theta of shape (K, d); a batch is
evaluated with one matrix product per chunk of samples (no n x n and, by chunking, no large n x K array).
X may be a ``scipy.sparse`` matrix (kept as CSR, as scikit-learn's linear models do; the paper's svmlight data
are sparse): the two products per chunk are then sparse-times-dense, O(nnz K) instead of O(n d K).

``reference_gradient_direction`` is the literal double sum of Eq. (7), kept as the tests' oracle.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import sparse

from lfverify.core._losses import SurrogateLoss
from lfverify.core._metrics import LinearFractionalMetric
from lfverify.core._scores import (
    gradient_direction,
    ratio_and_direction,
    score_coefficients,
)
from lfverify.core._seeding import as_generator
from lfverify.core._validation import (
    check_features,
    check_labels,
    check_parameters,
    check_real,
    check_sample_weight,
)

__all__ = ["SampleSplit", "sample_split", "EmpiricalEvaluation", "EmpiricalSurrogateUtility", "reference_scores",
           "reference_gradient_direction", "reference_surrogate_utility"]

#: Elements of the (chunk x K) temporaries handled at once.  2^16 doubles (512 KiB) keep the elementwise loss
#: evaluation in cache, which measured 2x faster than 2^20 for K = 64 (benchmarks/bench_estimators.py).
_CHUNK_ELEMENTS = 1 << 16


class SampleSplit(NamedTuple):
    """Indices of the two independent halves S_0 (numerator) and S_1 (denominator) of Eq. (6)."""

    first: np.ndarray
    second: np.ndarray


def sample_split(n_samples: int, *, shuffle: bool = False, seed=None) -> SampleSplit:
    """Split indices 0..n-1 into S_0 (m = floor(n/2) points) and S_1 (n - m points) (Sec. 2).

    Parameters
    ----------
    n_samples : int >= 2
    shuffle : bool, keyword-only
        ``False`` (the paper's split): S_0 = the first m indices.  ``True``: a random partition of the same
        sizes drawn with ``numpy.random.default_rng(seed)``.
    seed : None, int, SeedSequence or Generator
        Only used when ``shuffle``; pass a seed for reproducibility.
    """
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)):
        raise TypeError(f"n_samples must be an int; got {n_samples!r}")
    if n_samples < 2:
        raise ValueError(f"n_samples must be at least 2 so that both halves S_0 and S_1 are non-empty; got {n_samples}")
    m = n_samples // 2
    order = as_generator(seed, "seed").permutation(n_samples) if shuffle else np.arange(n_samples)
    return SampleSplit(np.sort(order[:m]), np.sort(order[m:]))


class EmpiricalEvaluation(NamedTuple):
    """Everything :meth:`EmpiricalSurrogateUtility.evaluate` computes in one pass.

    Shapes are (K,) / (K, d) for a batch and scalars / (d,) for a single parameter vector.
    """

    numerator: np.ndarray  #: N_hat, the numerator of Eq. (6) (the concave objective of Alg. 1, phase 1)
    denominator: np.ndarray  #: D_hat
    value: np.ndarray  #: U_hat = N_hat / D_hat (Eq. (6))
    gradient_direction: np.ndarray | None  #: V_hat (Eq. (7)); None if not requested
    gradient: np.ndarray  #: grad U_hat = V_hat / D_hat^2
    numerator_gradient: np.ndarray  #: grad N_hat
    denominator_gradient: np.ndarray  #: grad D_hat
    true_utility: np.ndarray | None  #: empirical U on the whole sample (sgn(0) = -1), if requested


class _PartSums(NamedTuple):
    mean_score: np.ndarray  # (K,)
    mean_gradient: np.ndarray | None  # (K, d)
    true_positive: np.ndarray | None  # (K,) counts
    predicted_positive: np.ndarray | None  # (K,) counts


class _Part:
    """One half of the sample with the per-sample coefficients of its score (offset + slope * phi(y xi)).

    With sample weights s_i the half's means are weighted means: each sample's offset and slope are scaled by
    n_half s_i / sum_half s (so the sums divided by n_half are the weighted means)."""

    def __init__(self, X, y, offset, slope, weights=None):
        self.X = X
        self.sparse = sparse.issparse(X)
        self.n = X.shape[0]
        self.positive = y == 1
        self.sign = np.where(self.positive, 1.0, -1.0)
        scale = 1.0 if weights is None else weights * (self.n / weights.sum())
        self.mean_offset = float(np.mean(offset[self.positive.astype(np.intp)] * scale))
        per_sample_slope = slope[self.positive.astype(np.intp)] * scale
        self.slope = per_sample_slope
        self.signed_slope = per_sample_slope * self.sign  # d W~ / d xi = slope * phi'(y xi) * y


class EmpiricalSurrogateUtility:
    """U_hat, its numerator and gradients, V_hat and the empirical true utility for f_theta(x) = theta^T x.

    Parameters
    ----------
    metric : LinearFractionalMetric
    loss : SurrogateLoss
    X : array_like or scipy.sparse matrix of shape (n, d), finite
        Sparse input is kept as CSR (never densified).
    y : array_like of shape (n,)
        Labels in {-1, +1} or {0, 1} (0 is the negative class); both classes must occur.
    split : SampleSplit, "first-half" or "random", keyword-only
        "first-half" (default) is the paper's S_0 = first floor(n/2) points; "random" draws a partition
        with ``seed``; a :class:`SampleSplit` is used as given.
    seed : None, int, SeedSequence or Generator, keyword-only
        Seed of the "random" split.
    prior : float in (0, 1) or None, keyword-only
        ``None`` (default) uses the per-sample unbiased form of prior-dependent offsets b_k (see
        :mod:`lfverify.core`); a float uses b_k(prior) as constants.
    side : {"right", "left"}, keyword-only
        One-sided derivative of phi at a kink.
    sample_weight : array_like of shape (n,) or None, keyword-only
        Non-negative weights: N_hat and D_hat become weighted means over S_0 and S_1 (each half must carry
        weight), so integer weights give U_hat of the sample with each row repeated that many times in its half.
        The sgn-prediction counts of :meth:`true_utility` stay unweighted.

    Notes
    -----
    Validation happens once here; the evaluation methods only check the shape and finiteness of theta.
    With the "first-half" split the two halves are views of ``X`` (no copy); a random split copies X once.
    """

    def __init__(self, metric, loss, X, y, *, split="first-half", seed=None, prior=None, side="right",
                 sample_weight=None):
        if not isinstance(metric, LinearFractionalMetric):
            raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
        if not isinstance(loss, SurrogateLoss):
            raise TypeError(f"loss must be a SurrogateLoss (lfverify.core); got {type(loss).__name__}")
        X = check_features(X, "X", min_samples=2, accept_sparse=True)
        y = check_labels(y, "y", n_samples=X.shape[0])
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X.shape[0])
        self._set_data(metric, loss, X, y, split=split, seed=seed, prior=prior, side=side, sample_weight=sample_weight)

    @classmethod
    def from_validated(cls, metric, loss, X, y, *, split="first-half", seed=None, prior=None, side="right",
                       sample_weight=None):
        """The objective for data its caller has validated, without checking X and y again.

        X must be a finite float64 ndarray or CSR matrix with at least 2 rows and y an array in {-1, +1} of the same
        length (as after scikit-learn's ``validate_data``, so that X is checked once per fit); nothing here checks
        it.  The other arguments are checked as by the constructor.
        """
        objective = cls.__new__(cls)
        objective._set_data(metric, loss, X, np.asarray(y), split=split, seed=seed, prior=prior, side=side,
                            sample_weight=sample_weight)
        return objective

    def _set_data(self, metric, loss, X, y, split, seed, prior, side, sample_weight=None):
        n, d = X.shape
        if isinstance(split, str):
            if split not in ("first-half", "random"):
                raise ValueError(f"split must be 'first-half', 'random' or a SampleSplit; got {split!r}")
            split = sample_split(n, shuffle=(split == "random"), seed=seed)
        elif isinstance(split, SampleSplit):
            both = np.concatenate([split.first, split.second])
            if (len(split.first) == 0 or len(split.second) == 0 or both.shape[0] != n
                    or not np.array_equal(np.sort(both), np.arange(n))):
                raise ValueError(f"split must partition range({n}) into two non-empty parts")
        else:
            raise TypeError(f"split must be 'first-half', 'random' or a SampleSplit; got {type(split).__name__}")
        if prior is not None:
            prior = check_real(prior, "prior", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        if side not in ("right", "left"):
            raise ValueError(f"side must be 'right' or 'left'; got {side!r}")
        self.metric = metric
        self.loss = loss
        self.prior = prior
        self.side = side
        self.split = split
        self.n_samples, self.n_features = n, d
        self.y = y
        self._positives = int(np.count_nonzero(y == 1))
        coef = score_coefficients(metric, prior)
        m = len(split.first)
        contiguous = np.array_equal(split.first, np.arange(m))
        X0 = X[:m] if contiguous else X[split.first]
        X1 = X[m:] if contiguous else X[split.second]
        halves = (None, None) if sample_weight is None else (sample_weight[split.first], sample_weight[split.second])
        for name, half in zip(("S_0", "S_1"), halves):
            if half is not None and not half.sum() > 0:
                raise ValueError(f"sample_weight must give some weight to each half of Eq. (6); every sample of "
                                 f"{name} has weight 0")
        self._parts = (
            _Part(X0, y[split.first], offset=coef.offset0, slope=coef.slope0, weights=halves[0]),
            _Part(X1, y[split.second], offset=coef.offset1, slope=coef.slope1, weights=halves[1]),
        )

    # ------------------------------------------------------------------ core pass
    def _sums(self, part: _Part, theta: np.ndarray, *, gradient: bool, counts: bool, scores: bool = True) -> _PartSums:
        """One chunked pass over a half: mean score, mean score gradient and/or sgn-prediction counts."""
        K, d = theta.shape
        total = np.zeros(K)
        grad = np.zeros((K, d)) if gradient else None
        tp = np.zeros(K) if counts else None
        pp = np.zeros(K) if counts else None
        chunk = max(1, min(part.n, max(1024, _CHUNK_ELEMENTS // K)))
        # one margin buffer and one loss workspace for all chunks (see SurrogateLoss._value_and_derivative)
        margin_buffer = np.empty(chunk * K)
        workspace_buffer = np.empty(3 * chunk * K) if (scores and gradient) else None
        for start in range(0, part.n, chunk):
            stop = min(start + chunk, part.n)
            Xc = part.X[start:stop]
            xi = margin_buffer[:(stop - start) * K].reshape(stop - start, K)
            if part.sparse:
                xi[...] = Xc @ theta.T  # CSR (c, d) @ (d, K): O(nnz K)
            else:
                np.matmul(Xc, theta.T, out=xi)  # (c, K): the one matrix product per chunk
            if counts:
                predicted = xi > 0  # sgn(0) = -1
                pp += predicted.sum(axis=0)
                tp += np.count_nonzero(predicted & part.positive[start:stop, None], axis=0)
            if not scores:
                continue
            t = np.multiply(xi, part.sign[start:stop, None], out=xi)  # margins y xi (xi is not needed any more)
            # An infinite phi meeting a zero slope gives NaN here; it is caught once, on the sums, below.
            with np.errstate(invalid="ignore", over="ignore"):
                if gradient:
                    workspace = workspace_buffer[:3 * (stop - start) * K].reshape(3, stop - start, K)
                    phi, dphi = self.loss._value_and_derivative(t, self.side == "right", workspace)
                    # grad W~ = slope * phi'(y xi) * y * x  -> sum over the chunk: (c, K)^T @ (c, d)
                    dphi *= part.signed_slope[start:stop, None]
                    grad += (Xc.T @ dphi).T if part.sparse else dphi.T @ Xc
                else:
                    phi = self.loss._value(t)
                total += part.slope[start:stop] @ phi
        if not np.isfinite(total).all() or (gradient and not np.isfinite(grad).all()):
            raise ValueError(
                "theta: the surrogate scores overflow (phi or phi' of some margin y theta^T x exceeds the "
                "largest double); use a loss with linear growth or a smaller theta"
            )
        return _PartSums(part.mean_offset + total / part.n, None if grad is None else grad / part.n, tp, pp)

    def _theta(self, theta):
        return check_parameters(theta, self.n_features, "theta")

    @staticmethod
    def _out(arr, single):
        if arr is None:
            return None
        return arr[0] if single else arr

    def _one_half(self, theta, index: int, *, gradient: bool):
        """Mean score (or its gradient) over one half: S_0 (index 0, numerator) or S_1 (index 1, denominator)."""
        th, single = self._theta(theta)
        sums = self._sums(self._parts[index], th, gradient=gradient, counts=False)
        return self._out(sums.mean_gradient if gradient else sums.mean_score, single)

    # ------------------------------------------------------------------ public API
    def numerator(self, theta):
        """N_hat(theta) = (1/m) sum_{i in S_0} W~_{0,phi}(theta^T x_i, y_i), the numerator of Eq. (6).

        Concave in theta when phi is convex (Lemma 2).  Returns a float or an array of shape (K,).
        """
        return self._one_half(theta, 0, gradient=False)

    def denominator(self, theta):
        """D_hat(theta) = (1/(n-m)) sum_{j in S_1} W~_{1,phi}(theta^T x_j, y_j), the denominator of Eq. (6)."""
        return self._one_half(theta, 1, gradient=False)

    def numerator_gradient(self, theta):
        """grad_theta N_hat (the ascent direction of Alg. 1's first phase); shape (d,) or (K, d)."""
        return self._one_half(theta, 0, gradient=True)

    def denominator_gradient(self, theta):
        """grad_theta D_hat; shape (d,) or (K, d)."""
        return self._one_half(theta, 1, gradient=True)

    def value(self, theta):
        """U_hat(theta) = N_hat / D_hat (Eq. (6)).

        Raises
        ------
        ValueError
            If D_hat <= 0 for some parameter row.
        """
        th, single = self._theta(theta)
        num = self._sums(self._parts[0], th, gradient=False, counts=False).mean_score
        den = self._sums(self._parts[1], th, gradient=False, counts=False).mean_score
        zeros = np.zeros_like(th)
        ratio = ratio_and_direction(num, den, zeros, zeros, what="U_hat")
        return self._out(ratio.value, single)

    def evaluate(self, theta, *, true_utility: bool = False, direction: bool = True) -> EmpiricalEvaluation:
        """N_hat, D_hat, U_hat, V_hat (Eq. (7)), grad U_hat and optionally the true utility, in one pass.

        ``direction=False`` skips V_hat (the field is None): grad U_hat alone is then returned even where V_hat
        does not fit in a double (scores near 1e155 and beyond; grad U_hat is computed in scaled form there).

        Raises
        ------
        ValueError
            If D_hat <= 0 for some parameter row, U_hat or grad U_hat overflow (D_hat too close to 0), or - with
            ``direction`` - V_hat overflows (the rows are named in the message); never a NaN.
        """
        th, single = self._theta(theta)
        s0 = self._sums(self._parts[0], th, gradient=True, counts=true_utility)
        s1 = self._sums(self._parts[1], th, gradient=True, counts=true_utility)
        r = ratio_and_direction(s0.mean_score, s1.mean_score, s0.mean_gradient, s1.mean_gradient, what="U_hat",
                                direction=direction)
        utility = None
        if true_utility:
            utility = self._true_utility_from_counts(s0.true_positive + s1.true_positive,
                                                     s0.predicted_positive + s1.predicted_positive)
        o = self._out
        return EmpiricalEvaluation(o(r.numerator, single), denominator=o(r.denominator, single),
                                   value=o(r.value, single), gradient_direction=o(r.gradient_direction, single),
                                   gradient=o(r.gradient, single), numerator_gradient=o(s0.mean_gradient, single),
                                   denominator_gradient=o(s1.mean_gradient, single), true_utility=o(utility, single))

    def gradient_direction(self, theta):
        """V_hat(theta) of Eq. (7) in O(n d): D_hat grad N_hat - N_hat grad D_hat.  Shape (d,) or (K, d).

        Unlike U_hat, V_hat is defined whatever the sign of D_hat, so this never raises for D_hat <= 0; it raises
        ValueError if V_hat overflows (:func:`lfverify.core.gradient_direction`).
        """
        th, single = self._theta(theta)
        s0 = self._sums(self._parts[0], th, gradient=True, counts=False)
        s1 = self._sums(self._parts[1], th, gradient=True, counts=False)
        return self._out(gradient_direction(s0.mean_score, s1.mean_score, s0.mean_gradient, s1.mean_gradient), single)

    def gradient(self, theta):
        """grad_theta U_hat = V_hat / D_hat^2 (in scaled form where V_hat or D_hat^2 overflow).  Shape (d,) or
        (K, d)."""
        return self.evaluate(theta, direction=False).gradient

    def true_utility(self, theta, *, zero_division="warn"):
        """The empirical true utility of sgn(theta^T x) on the whole sample, with sgn(0) = -1 (Sec. 2)."""
        th, single = self._theta(theta)
        counts = [self._sums(part, th, gradient=False, counts=True, scores=False) for part in self._parts]
        tp = counts[0].true_positive + counts[1].true_positive
        pp = counts[0].predicted_positive + counts[1].predicted_positive
        return self._out(self._true_utility_from_counts(tp, pp, zero_division=zero_division), single)

    def _true_utility_from_counts(self, tp_count, predicted_count, *, zero_division="warn"):
        # false positives = #{f > 0} - #{y = +1, f > 0}
        return np.atleast_1d(self.metric.value_from_counts(
            tp_count, predicted_count - tp_count, self._positives, self.n_samples, zero_division=zero_division))


# ---------------------------------------------------------------------- reference twins (test oracles)
def reference_scores(metric, loss, xi: float, y: int, prior, side):
    """W~_0, W~_1 and their xi-derivatives for one sample, case by case as printed in Eq. (6).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Eq. (6), case by case.

    Examples
    --------
    The oracle agrees with the vectorised :func:`surrogate_scores`:

    >>> import numpy as np
    >>> from lfverify.core import f1, logistic, reference_scores, surrogate_scores
    >>> slow = reference_scores(f1(), logistic(), 0.3, 1, 0.5, "right")
    >>> fast = surrogate_scores(f1(), logistic(), np.array([0.3]), np.array([1]), prior=0.5)
    >>> bool(np.allclose(slow, [v[0] for v in fast], rtol=1e-14, atol=0))
    True
    """
    if prior is None:  # per-sample form of b_k = c_k + d_k pi
        b0 = metric.b0_const + metric.b0_prior * (y == 1)
        b1 = metric.b1_const + metric.b1_prior * (y == 1)
    else:
        b0, b1 = float(metric.b0(prior)), float(metric.b1(prior))
    if y == 1:
        phi, dphi = float(loss.value(xi)), float(loss.derivative(xi, side=side))
        return (metric.a0p * (1 - phi) + b0, metric.a1p * (1 + phi) + b1, -metric.a0p * dphi, metric.a1p * dphi)
    phi, dphi = float(loss.value(-xi)), float(loss.derivative(-xi, side=side))
    return (metric.a0n * phi + b0, metric.a1n * phi + b1, -metric.a0n * dphi, -metric.a1n * dphi)


def reference_gradient_direction(metric, loss, X, y, theta, *, split=None, prior=None, side="right"):
    """The literal O(m (n - m) d) double sum of Eq. (7) for one theta (test oracle, deliberately simple).

    Every (i, j) term W~_1(z_j) grad W~_0(z_i) - W~_0(z_i) grad W~_1(z_j) is formed explicitly; the loop
    runs over i in Python and over j with numpy, so it can also serve as the slow baseline of the benchmark.

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Eq. (7), the double sum; Lemma 3 (its unbiasedness).

    Examples
    --------
    The oracle agrees with :class:`EmpiricalSurrogateUtility` (the O(n d) evaluation of Eq. (7)):

    >>> import numpy as np
    >>> from lfverify.core import EmpiricalSurrogateUtility, f1, logistic, reference_gradient_direction
    >>> rng = np.random.default_rng(0)
    >>> X, y, theta = rng.normal(size=(20, 3)), np.where(rng.random(20) < 0.4, 1, -1), np.array([0.5, -0.2, 0.1])
    >>> fast = EmpiricalSurrogateUtility(f1(), logistic(), X, y).gradient_direction(theta)
    >>> slow = reference_gradient_direction(f1(), logistic(), X, y, theta)
    >>> bool(np.allclose(fast, slow, rtol=1e-12, atol=1e-15))
    True
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.where(np.asarray(y) == 1, 1, -1)
    theta = np.asarray(theta, dtype=np.float64)
    split = split or sample_split(X.shape[0])
    xi = X @ theta
    scores = [reference_scores(metric, loss, xi[k], int(y[k]), prior=prior, side=side) for k in range(X.shape[0])]
    w0 = np.array([s[0] for s in scores])
    w1 = np.array([s[1] for s in scores])
    g0 = np.array([s[2] for s in scores])[:, None] * X  # grad W~_0(z) = dW~_0/dxi * x
    g1 = np.array([s[3] for s in scores])[:, None] * X
    i_idx, j_idx = split.first, split.second
    total = np.zeros(X.shape[1])
    for i in i_idx:
        terms = w1[j_idx, None] * g0[i][None, :] - w0[i] * g1[j_idx]  # (n - m, d): one row per j
        total += terms.sum(axis=0)
    return total / (len(i_idx) * len(j_idx))


def reference_surrogate_utility(metric, loss, X, y, theta, *, split=None, prior=None):
    """U_hat of Eq. (6) for one theta by explicit per-sample loops (test oracle).

    References
    ----------
    Bao & Sugiyama (AISTATS 2020), Eq. (6) (U_hat = N_hat / D_hat).

    Examples
    --------
    >>> import numpy as np
    >>> from lfverify.core import EmpiricalSurrogateUtility, f1, logistic, reference_surrogate_utility
    >>> rng = np.random.default_rng(0)
    >>> X, y, theta = rng.normal(size=(20, 3)), np.where(rng.random(20) < 0.4, 1, -1), np.array([0.5, -0.2, 0.1])
    >>> fast = EmpiricalSurrogateUtility(f1(), logistic(), X, y).value(theta)
    >>> bool(np.isclose(fast, reference_surrogate_utility(f1(), logistic(), X, y, theta), rtol=1e-12))
    True
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.where(np.asarray(y) == 1, 1, -1)
    split = split or sample_split(X.shape[0])
    xi = X @ np.asarray(theta, dtype=np.float64)
    num = sum(reference_scores(metric, loss, xi[i], int(y[i]), prior=prior, side="right")[0] for i in split.first)
    den = sum(reference_scores(metric, loss, xi[j], int(y[j]), prior=prior, side="right")[1] for j in split.second)
    return (num / len(split.first)) / (den / len(split.second))
