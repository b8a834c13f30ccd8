"""V_hat (Eq. (7)) for R replications x K parameter vectors at once, for every metric, from per-class loss sums.

Every empirical quantity of Eq. (6)-(7) is an affine function of a few sums over the sample (see
:mod:`lfverify.core`: W~_k = offset_k(y) + slope_k(y) phi(y xi)).  Splitting each replication's sample into
the four groups (half h in {S_0, S_1}) x (class c in {y = -1, y = +1}), the sums

    counts[r, h, c]                 number of samples in the group
    loss[r, h, c, k]                sum of phi(y theta_k^T x) over the group
    loss_gradient[r, h, c, k, :]    sum of phi'(y theta_k^T x) y x over the group

determine N_hat, D_hat, their gradients and V_hat = D_hat grad N_hat - N_hat grad D_hat for *every* linear-
fractional metric (:func:`estimates`), and also the same-sample estimator (N and D from all n samples), whose
bias Lemma 3's independent halves remove.  One pass over the samples (:meth:`ReplicatedSamples.class_sums`)
evaluates the loss once per (sample, parameter) pair and reduces with matrix products only: (y x)^T Theta^T per
chunk gives the margins, then small (4 or 4 d, chunk) weight matrices times the (chunk, K) arrays phi and phi'
give the sums.  Replications are a batch axis, so R small samples cost one vectorized pass, and a parameter
vector may differ per replication (Theta of shape (R, K, d)), which the local refinement of the
uniform-convergence study uses.

The split is the paper's (and :class:`lfverify.core.EmpiricalSurrogateUtility`'s default): S_0 = the first
floor(n/2) samples.  The tests check every estimate against ``EmpiricalSurrogateUtility`` (and the same-sample
one against it on the doubled sample (X, X)) to 1e-12.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lfverify.core import LinearFractionalMetric, SurrogateLoss, gradient_direction, score_coefficients

__all__ = ["ClassSums", "ReplicatedSamples", "class_sums", "Estimates", "estimates", "ESTIMATORS"]

#: Elements of the (replications x chunk x K) temporaries handled at once (2^16 doubles = 512 KiB, the optimum
#: measured for EmpiricalSurrogateUtility; the figure in benchmarks/bench_simulations.py).
CHUNK_ELEMENTS = 1 << 16

#: "split": Eq. (6)-(7), N from S_0 and D from S_1; "same-sample": N and D both from all n samples (biased).
ESTIMATORS = ("split", "same-sample")


class ClassSums(NamedTuple):
    """Per-(half, class) sums of one pass; axis 1 is the half (0: S_0, 1: S_1), axis 2 the class (0: y=-1, 1: y=+1)."""

    counts: np.ndarray  #: (R, 2, 2)
    loss: np.ndarray  #: (R, 2, 2, K)
    loss_gradient: np.ndarray  #: (R, 2, 2, K, d)


class Estimates(NamedTuple):
    """N_hat, D_hat (R, K), their gradients and V_hat (R, K, d) for one metric."""

    numerator: np.ndarray
    denominator: np.ndarray
    numerator_gradient: np.ndarray
    denominator_gradient: np.ndarray
    gradient_direction: np.ndarray


def _check_theta(theta, R, d):
    theta = np.asarray(theta, dtype=np.float64)
    if theta.ndim == 2 and theta.shape[1] == d:
        per_replication = False
    elif theta.ndim == 3 and theta.shape[0] == R and theta.shape[2] == d:
        per_replication = True
    else:
        raise ValueError(f"theta must have shape (K, {d}) or ({R}, K, {d}); got shape {theta.shape}")
    if theta.shape[-2] < 1:
        raise ValueError("theta must hold at least one parameter vector (K >= 1)")
    if not np.isfinite(theta).all():
        raise ValueError("theta must contain only finite values")
    return theta, per_replication


class ReplicatedSamples:
    """R samples of n points, validated once, prepared for :meth:`class_sums` at any number of parameter sets.

    Preparation: the label sign is folded into the features, x~ = y x, so that y theta^T x = theta^T x~ (the margin
    is one matrix product) and phi'(y theta^T x) y x = phi'(.) x~; and each sample's group g = 2 h + c
    (half h, class c) becomes the rows of two small weight matrices per chunk, the group indicators (4, c) and the
    indicators times each feature of x~ (4 d, c), so that every sum is a matrix product with the (c, K) arrays
    phi and phi' and no elementwise pass besides the loss itself touches a (chunk x K) array.

    Parameters
    ----------
    X : array_like of shape (R, n, d)
        R samples of n >= 2 points (finite).
    y : array_like of shape (R, n)
        Labels in {-1, +1}.
    """

    def __init__(self, X, y):
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 3:
            raise ValueError(f"X must have shape (R, n, d) (replications, samples, features); got shape {X.shape}")
        R, n, d = X.shape
        if R < 1 or n < 2 or d < 1:
            raise ValueError(f"X needs R >= 1 replications of n >= 2 samples with d >= 1 features; got shape "
                             f"{X.shape}")
        if not np.isfinite(X).all():
            raise ValueError("X must contain only finite values")
        y = np.asarray(y)
        if y.shape != (R, n):
            raise ValueError(f"y must have shape {(R, n)} like X's first two axes; got shape {y.shape}")
        positive = y == 1
        if not (positive | (y == -1)).all():
            raise ValueError(f"y must contain labels -1 and +1 only; got values {np.unique(y)[:10].tolist()}")
        self.shape = (R, n, d)
        self.signed_X = np.where(positive[:, :, None], X, -X)  # x~ = y x
        # group index 2 h + c of every sample: half h from the position (S_0 = first m), class c from the label
        self.group = (np.arange(n) >= n // 2).astype(np.intp)[None, :] * 2 + positive.astype(np.intp)
        self.counts = np.stack([np.count_nonzero(self.group == g, axis=1) for g in range(4)], axis=1).reshape(R, 2, 2)

    def class_sums(self, theta, loss: SurrogateLoss, *, side: str = "right") -> ClassSums:
        """One chunked pass: the per-(half, class) sums of phi(y theta^T x) and phi'(y theta^T x) y x.

        Parameters
        ----------
        theta : array_like of shape (K, d) or (R, K, d)
            Parameter vectors shared by all replications, or one set per replication.
        loss : SurrogateLoss
        side : {"right", "left"}, keyword-only
            One-sided derivative of phi at a kink (as in EmpiricalSurrogateUtility).

        Raises
        ------
        ValueError
            On malformed theta, or if phi or phi' overflows for some margin.
        """
        if not isinstance(loss, SurrogateLoss):
            raise TypeError(f"loss must be a SurrogateLoss (lfverify.core); got {type(loss).__name__}")
        if side not in ("right", "left"):
            raise ValueError(f"side must be 'right' or 'left'; got {side!r}")
        R, n, d = self.shape
        theta, per_replication = _check_theta(theta, R, d)
        K = theta.shape[-2]
        theta_t = np.swapaxes(theta, -1, -2)  # (d, K) or (R, d, K)
        loss_sums = np.zeros((R, 4, K))
        grad_sums = np.zeros((R, 4 * d, K))  # row 4 l + g: feature l, group g
        chunk = int(min(n, max(1, CHUNK_ELEMENTS // K)))
        block = int(max(1, CHUNK_ELEMENTS // (K * chunk)))
        labels = np.arange(4)[None, :, None]
        right = side == "right"
        # one margin buffer and one loss workspace for all chunks (fresh (chunk x K) arrays cost more than the
        # arithmetic done in them; see SurrogateLoss._value_and_derivative)
        margin_buffer = np.empty(block * chunk * K)
        workspace_buffer = np.empty(3 * block * chunk * K)
        for r0 in range(0, R, block):
            r1 = min(R, r0 + block)
            th = theta_t[r0:r1] if per_replication else theta_t
            for s0 in range(0, n, chunk):
                s1 = min(n, s0 + chunk)
                Xs = self.signed_X[r0:r1, s0:s1]  # (b, c, d)
                size = (r1 - r0) * (s1 - s0) * K
                margin = margin_buffer[:size].reshape(r1 - r0, s1 - s0, K)
                np.matmul(Xs, th, out=margin)  # y theta^T x, the one product with the parameters
                workspace = workspace_buffer[:3 * size].reshape(3, r1 - r0, s1 - s0, K)
                indicator = (self.group[r0:r1, None, s0:s1] == labels).astype(np.float64)  # (b, 4, c)
                weights = (indicator[:, None, :, :] * np.swapaxes(Xs, 1, 2)[:, :, None, :]).reshape(r1 - r0, 4 * d, -1)
                # an infinite phi (overflow) gives inf or NaN here; it is caught once, on the sums, below
                with np.errstate(invalid="ignore", over="ignore"):
                    phi, dphi = loss._value_and_derivative(margin, right, workspace)
                    loss_sums[r0:r1] += indicator @ phi
                    grad_sums[r0:r1] += weights @ dphi
        if not (np.isfinite(loss_sums).all() and np.isfinite(grad_sums).all()):
            raise ValueError("theta: the surrogate scores overflow (phi or phi' of some margin y theta^T x exceeds the "
                             "largest double); use a smaller theta")
        gradient = grad_sums.reshape(R, d, 2, 2, K).transpose(0, 2, 3, 4, 1)  # (R, h, c, K, d)
        return ClassSums(self.counts, loss_sums.reshape(R, 2, 2, K), np.ascontiguousarray(gradient))


def class_sums(X, y, theta, loss: SurrogateLoss, *, side: str = "right") -> ClassSums:
    """:meth:`ReplicatedSamples.class_sums` for one set of parameters (validates and prepares X, y each call).

    Parameters
    ----------
    X : array_like of shape (R, n, d)
    y : array_like of shape (R, n), labels in {-1, +1}
    theta : array_like of shape (K, d) or (R, K, d)
    loss : SurrogateLoss
    side : {"right", "left"}, keyword-only
    """
    if not isinstance(loss, SurrogateLoss):
        raise TypeError(f"loss must be a SurrogateLoss (lfverify.core); got {type(loss).__name__}")
    return ReplicatedSamples(X, y).class_sums(theta, loss, side=side)


def estimates(sums: ClassSums, metric: LinearFractionalMetric, *, estimator: str = "split",
              prior: float | None = None) -> Estimates:
    """N_hat, D_hat, their gradients and V_hat for one metric from :func:`class_sums`.

    Parameters
    ----------
    sums : ClassSums
    metric : LinearFractionalMetric
    estimator : {"split", "same-sample"}, keyword-only
        "split": Eq. (6)-(7) with N_hat over S_0 and D_hat over S_1 (unbiased V_hat, Lemma 3);
        "same-sample": N_hat and D_hat both averaged over all n samples (biased at order 1/n).
    prior : float or None, keyword-only
        As in EmpiricalSurrogateUtility: ``None`` uses the per-sample form of prior-dependent offsets.
    """
    if not isinstance(metric, LinearFractionalMetric):
        raise TypeError(f"metric must be a LinearFractionalMetric; got {type(metric).__name__}")
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {ESTIMATORS}; got {estimator!r}")
    coef = score_coefficients(metric, prior)
    counts = sums.counts.astype(np.float64)
    if estimator == "split":
        num_part = (counts[:, 0], sums.loss[:, 0], sums.loss_gradient[:, 0])
        den_part = (counts[:, 1], sums.loss[:, 1], sums.loss_gradient[:, 1])
    else:
        both = (counts.sum(axis=1), sums.loss.sum(axis=1), sums.loss_gradient.sum(axis=1))
        num_part = den_part = both

    def mean_score(part, offset, slope):
        cnt, loss_sum, grad_sum = part  # (R, 2), (R, 2, K), (R, 2, K, d)
        size = cnt.sum(axis=1)
        value = (cnt @ offset)[:, None] + np.einsum("c,rck->rk", slope, loss_sum)
        gradient = np.einsum("c,rckd->rkd", slope, grad_sum)
        return value / size[:, None], gradient / size[:, None, None]

    num, gnum = mean_score(num_part, coef.offset0, coef.slope0)
    den, gden = mean_score(den_part, coef.offset1, coef.slope1)
    R, K = num.shape
    direction = gradient_direction(num.reshape(-1), den.reshape(-1), gnum.reshape(R * K, -1), gden.reshape(R * K, -1))
    return Estimates(num, denominator=den, numerator_gradient=gnum, denominator_gradient=gden,
                     gradient_direction=direction.reshape(R, K, -1))
