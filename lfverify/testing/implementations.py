"""Implementations to point the kit at: lfverify's own, wrapped in the kit's interfaces, and the *named wrong* ones
whose failure the kit's error-rate table measures (``benchmarks/testing_kit_error_rates.py``).

Each factory returns a plain function (or loss) of the interface a user's implementation would have, so it shows
what the checks see and what they catch:

==========================================  ========================================================================
:func:`surrogate_utility`                   U_hat (Eq. (6)) by :class:`lfverify.core.EmpiricalSurrogateUtility`
:func:`gradient_direction`                  V_hat (Eq. (7)) by :class:`lfverify.core.EmpiricalSurrogateUtility`
:func:`same_sample_gradient_direction`      wrong: N and D averaged over the *same* n samples (biased, O(1/n))
:func:`plug_in_prior_gradient_direction`    wrong: offsets b_k(pi_hat) with pi_hat the whole sample's positive
                                            fraction, shared by both halves (biased at small n)
:func:`wrong_sign_gradient_direction`       wrong: D grad N + N grad D (one sign)
:func:`dropped_offset_surrogate_utility`    wrong: U_hat without the denominator's offset b_1
:func:`nonconvex_loss_claiming_convexity`   wrong: the sigmoid loss declaring ``is_convex = True``
:class:`BestThresholdClassifier`            a logistic regression whose threshold maximises the metric on the
                                            training sample (brute force): consistent for the metric (Prop. 5)
:func:`threshold_at_one_half_classifier`    wrong: scikit-learn's ``LogisticRegression()``, thresholded at 1/2
==========================================  ========================================================================

The wrong classifier predicts +1 where the fitted posterior exceeds 1/2, which is not F_1- or Jaccard-consistent on
an imbalanced population (the Bayes threshold of F_1 is U-dagger / 2 < 1/2, Prop. 5).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from lfverify.core import EmpiricalSurrogateUtility, SigmoidLoss, resolve_metric, surrogate_scores

__all__ = ["surrogate_utility", "gradient_direction", "same_sample_gradient_direction",
           "plug_in_prior_gradient_direction", "wrong_sign_gradient_direction", "dropped_offset_surrogate_utility",
           "nonconvex_loss_claiming_convexity", "BestThresholdClassifier", "ShiftedThresholdClassifier",
           "threshold_at_one_half_classifier", "WRONG_IMPLEMENTATIONS"]


def _named(function, name):
    function.__name__ = function.__qualname__ = name
    return function


def surrogate_utility(metric, loss):
    """``fn(X, y, theta) -> U_hat(theta)``: lfverify's :class:`~lfverify.core.EmpiricalSurrogateUtility` (the paper's
    split S_0 = the first floor(n/2) rows; per-sample offsets).  Passes every check."""
    metric = resolve_metric(metric)

    def fn(X, y, theta):
        return EmpiricalSurrogateUtility(metric, loss, X, y).value(theta)
    return _named(fn, "lfverify_surrogate_utility")


def gradient_direction(metric, loss):
    """``fn(X, y, theta) -> V_hat(theta)``: lfverify's :class:`~lfverify.core.EmpiricalSurrogateUtility`.  Passes
    every check."""
    metric = resolve_metric(metric)

    def fn(X, y, theta):
        return EmpiricalSurrogateUtility(metric, loss, X, y).gradient_direction(theta)
    return _named(fn, "lfverify_gradient_direction")


def _scores(metric, loss, X, y, theta, prior=None):
    X = np.asarray(X, dtype=np.float64)
    y = np.where(np.asarray(y) == 1, 1, -1)
    w0, w1, d0, d1 = surrogate_scores(metric, loss, X @ np.asarray(theta, dtype=np.float64), y, prior=prior)
    return X, y, w0, w1, d0[:, None] * X, d1[:, None] * X


def same_sample_gradient_direction(metric, loss):
    """Wrong: V_ss = D_bar grad N_bar - N_bar grad D_bar with N and D averaged over all n samples (no split).
    E[V_ss] - V = (Cov(W~_1, grad W~_0) - Cov(W~_0, grad W~_1)) / n (the unbiasedness study of Lemma 3)."""
    metric = resolve_metric(metric)

    def fn(X, y, theta):
        X, y, w0, w1, g0, g1 = _scores(metric, loss, X, y, theta=theta)
        return w1.mean() * g0.mean(axis=0) - w0.mean() * g1.mean(axis=0)
    return _named(fn, "same_sample_gradient_direction")


def plug_in_prior_gradient_direction(metric, loss):
    """Wrong: Eq. (7) on the paper's split, but with the prior-dependent offsets b_k(pi_hat) of the whole sample's
    positive fraction pi_hat (the paper's literal Eq. (6) with the prior estimated): pi_hat depends on the labels
    of both halves, so E[b_1(pi_hat) grad N_hat] != b_1(pi) E[grad N_hat]; the bias vanishes only as n grows."""
    metric = resolve_metric(metric)

    def fn(X, y, theta):
        y_signed = np.where(np.asarray(y) == 1, 1, -1)
        prior = float(np.mean(y_signed == 1))
        X, _, w0, w1, g0, g1 = _scores(metric, loss, X, y_signed, theta=theta, prior=prior)
        m = X.shape[0] // 2
        return w1[m:].mean() * g0[:m].mean(axis=0) - w0[:m].mean() * g1[m:].mean(axis=0)
    return _named(fn, "plug_in_prior_gradient_direction")


def wrong_sign_gradient_direction(metric, loss):
    """Wrong: D_hat grad N_hat + N_hat grad D_hat (one sign of Eq. (7) flipped), on the paper's split."""
    metric = resolve_metric(metric)

    def fn(X, y, theta):
        X, _, w0, w1, g0, g1 = _scores(metric, loss, X, y, theta=theta)
        m = X.shape[0] // 2
        return w1[m:].mean() * g0[:m].mean(axis=0) + w0[:m].mean() * g1[m:].mean(axis=0)
    return _named(fn, "wrong_sign_gradient_direction")


def dropped_offset_surrogate_utility(metric, loss):
    """Wrong: U_hat of Eq. (6) on the paper's split, with the denominator's offset b_1 dropped (F_1's beta^2 pi,
    Jaccard's pi, accuracy's 1)."""
    metric = resolve_metric(metric)
    without = metric.replace(b1_const=0.0, b1_prior=0.0)

    def fn(X, y, theta):
        X, _, w0, w1, _, _ = _scores(without, loss, X, y, theta=theta)
        m = X.shape[0] // 2
        return w0[:m].mean() / w1[m:].mean()
    return _named(fn, "dropped_offset_surrogate_utility")


class _SigmoidClaimingConvexity(SigmoidLoss):
    """The sigmoid loss scale * sigma(-m), declaring a convexity it lacks (it is concave on m < 0)."""

    is_convex = True

    @property
    def name(self) -> str:
        return "sigmoid-claiming-convexity"


def nonconvex_loss_claiming_convexity():
    """Wrong: lfverify's sigmoid loss 2 sigma(-m) (non-convex) declaring ``is_convex = True``."""
    return _SigmoidClaimingConvexity()


class BestThresholdClassifier(ClassifierMixin, BaseEstimator):
    """``LogisticRegression`` whose decision threshold maximises ``metric`` on the training sample.

    Every cut between distinct decision scores is tried (the cumulative counts of the sorted scores, O(n log n)),
    so the training predictions attain the brute-force best threshold of Eq. (1)
    (:func:`~lfverify.testing.oracles.best_threshold_by_brute_force`); with a consistent score this classifier is
    consistent for the metric (Prop. 5).  It passes :func:`~lfverify.testing.check_metric_classifier`, with
    ``claims_optimal_threshold=True`` too, in about a second: the correct classifier of the error-rate table.

    Parameters
    ----------
    metric : LinearFractionalMetric or str
        The metric whose training value the threshold maximises.
    C : float
        Inverse regularisation strength of the logistic regression.
    """

    def __init__(self, metric="f1", C=1.0):
        self.metric = metric
        self.C = C

    def fit(self, X, y):
        metric = resolve_metric(self.metric)
        self.model_ = LogisticRegression(C=self.C).fit(X, y)
        self.classes_ = self.model_.classes_
        scores = self.model_.decision_function(X)
        order = np.argsort(-scores, kind="stable")
        sorted_scores = scores[order]
        positive = (np.asarray(y) == self.classes_[1])[order]
        tp, fp = np.cumsum(positive) / positive.size, np.cumsum(~positive) / positive.size
        prior = positive.mean()
        # values[k]: the training metric when the first k sorted scores are predicted positive (k = 0: none)
        values = metric.value(np.concatenate([[0.0], tp]), np.concatenate([[0.0], fp]), prior, zero_division=0.0)
        cut = np.append(sorted_scores[1:] < sorted_scores[:-1], True)  # only between distinct scores
        values = np.where(np.concatenate([[True], cut]), np.asarray(values, dtype=np.float64), -np.inf)
        k = int(np.argmax(values))  # predict the first k sorted scores positive
        self.threshold_ = np.inf if k == 0 else float(sorted_scores[k - 1])
        return self

    def decision_function(self, X):
        return self.model_.decision_function(X)

    def predict(self, X):
        return np.where(self.decision_function(X) >= self.threshold_, self.classes_[1], self.classes_[0])


class ShiftedThresholdClassifier(BestThresholdClassifier):
    """:class:`BestThresholdClassifier` with its threshold moved up by ``shift / sqrt(n)`` on the decision scale.

    Correct but slow: the shift vanishes as n grows, so the classifier is consistent, and its regret on the kit's
    Gaussian population falls like n^-1 (a threshold error of order n^-1/2, squared) from a constant large enough
    that the regret at n = 4,000 exceeds the check's tolerance on about half the seeds.  The correct classifier of
    the error-rate table's row for ``consistency_gaussian``'s second stage (a rate study of the regret).

    Parameters
    ----------
    metric : LinearFractionalMetric or str
    C : float
    shift : float
        The threshold's shift times sqrt(n) (log-odds units).
    """

    def __init__(self, metric="f1", C=1.0, shift=40.0):
        super().__init__(metric, C)
        self.shift = shift

    def fit(self, X, y):
        super().fit(X, y)
        self.threshold_ += self.shift / np.sqrt(np.asarray(y).shape[0])
        return self


def threshold_at_one_half_classifier():
    """Wrong: scikit-learn's ``LogisticRegression()``, which predicts +1 where its posterior exceeds 1/2 - not
    F_1-consistent on an imbalanced population (prior 0.1: the Bayes threshold of F_1 is U-dagger / 2 < 1/2)."""
    return LogisticRegression()


#: name -> (the check it must fail, a factory of the wrong implementation taking (metric, loss) where it needs them).
WRONG_IMPLEMENTATIONS = {
    "same-sample V_hat": ("check_gradient_direction_estimator", same_sample_gradient_direction),
    "plug-in-prior V_hat": ("check_gradient_direction_estimator", plug_in_prior_gradient_direction),
    "wrong-sign V_hat": ("check_gradient_direction_estimator", wrong_sign_gradient_direction),
    "dropped-offset U_hat": ("check_surrogate_utility_estimator", dropped_offset_surrogate_utility),
    "non-convex loss claiming convexity": ("check_surrogate_loss", nonconvex_loss_claiming_convexity),
    "LogisticRegression thresholded at 1/2": ("check_metric_classifier", threshold_at_one_half_classifier),
}
