"""Tests of the exact populations (lfverify.core._populations) and their quadrature (lfverify.core._quadrature).

Every test names its oracle.  The reference values of the continuous populations are pinned literals,
computed once with mpmath at 40 digits from the definitions by :func:`_mpmath_references` below (rerun
``python3 tests/core/test_populations.py`` to print them again); the recipe shares no code with lfverify.

Private: lfverify.core._populations's _maximize_over_thresholds and _threshold_parameters, the threshold search the
public populations hide, pinned against hand-evaluated cases.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from scipy.special import expit

from lfverify.core import (
    BoundedLogisticPopulation,
    FiniteSupportPopulation,
    GaussianPopulation,
    accuracy,
    exponential,
    f1,
    gaussian_expectation,
    hinge,
    interval_expectation,
    jaccard,
    score_coefficients,
    surrogate_scores,
    tau_logistic,
)

pytestmark = pytest.mark.claims("package:numerics")

# ---------------------------------------------------------------------- the populations under test
GAUSS = dict(mean_positive=(1.0, 0.5), mean_negative=(-0.5, 0.0), covariance=((1.0, 0.3), (0.3, 0.8)), prior=0.3)
BOUNDED = dict(slope=3.0, offset=-0.5)

METRICS = {"f1": f1, "jaccard": jaccard, "accuracy": accuracy}
LOSSES = {"tau0.33": lambda: tau_logistic(0.33), "tau0.75": lambda: tau_logistic(0.75), "hinge": hinge}
# case -> (metric, loss, theta); the same thetas appear (as decimal strings) in _mpmath_references
GAUSS_CASES = {"f1-tau0.33": ("f1", "tau0.33", (0.8, -0.4, 0.2)),
               "jaccard-tau0.75": ("jaccard", "tau0.75", (1.2, 0.3, -0.6)),
               "f1-hinge": ("f1", "hinge", (0.5, 0.9, -0.1))}
BOUNDED_CASES = {"f1-tau0.33": ("f1", "tau0.33", (1.5, 0.2)),
                 "jaccard-tau0.75": ("jaccard", "tau0.75", (2.5, -0.7)),
                 "f1-hinge": ("f1", "hinge", (2.0, 0.3))}

# ---------------------------------------------------------------------- pinned references (mpmath, 40 digits)
# Oracle: mpmath 40 digits, recipe _mpmath_references() below: mp.quad of phi(y xi) N(xi; m_y, s^2) split at
# the kinks (Gaussian), of phi(y theta^T x) P(y | u) / 2 over [-1, 1] split at the kinks (bounded); the
# Gaussian gradient moment via Stein's lemma (a different identity from the code's conditioning);
# TP/FP by mp.ncdf / mp.quad; U-dagger as the root of Dinkelbach's equation U(classifier{eta > delta(U)}) = U.
REFERENCE = {
    ("gaussian", "f1-tau0.33"): dict(
        TP=0.2562239182284317236539, FP=0.277251587128564066457, U=0.6148325093697514599898,
        U_phi=0.04920177851456088472323,
        V_phi=(0.138773484252448616788, 0.1676164693239817739662, 0.2680462920314032419762)),
    ("gaussian", "jaccard-tau0.75"): dict(
        TP=0.2147537154290707672443, FP=0.1264586499841625871901, U=0.503574532811202410834,
        U_phi=0.05399078219735932714096,
        V_phi=(0.04091793960396552301835, 0.02034460306704737744725, 0.102433497600589623317)),
    ("gaussian", "f1-hinge"): dict(
        TP=0.2352636126393547388005, FP=0.2611175221323344129762, U=0.590831706998688217022,
        U_phi=0.2200250731071043437349,
        V_phi=(0.2693033491668067824725, -0.09112149157210726133604, 0.3444136838371878534485)),
    ("gaussian", "bayes-f1"): 0.6739117742326823269549,
    ("gaussian", "bayes-jaccard"): 0.5081952777634648772852,
    ("bounded", "prior"): 0.4248565526699881763582,
    ("bounded", "f1-tau0.33"): dict(
        TP=0.3729559765934103000196, FP=0.193710690073256366647, U=0.7522889415397128330042,
        U_phi=0.06681458977473233865099, V_phi=(0.06523098121468076120351, 0.419858065149836697115)),
    ("bounded", "jaccard-tau0.75"): dict(
        TP=0.2835602704729534724309, FP=0.0764397295270465275691, U=0.5656540464058338953969,
        U_phi=-0.01451724392212408538938, V_phi=(0.0311957397204079157697, 0.1820345079889581462032)),
    ("bounded", "f1-hinge"): dict(
        TP=0.3753222212402662627986, FP=0.1996777787597337372014, U=0.7507521358699237400093,
        U_phi=0.4175845818283461511895, V_phi=(0.001675434998205046184064, 0.318088737115133679176)),
    ("bounded", "bayes-f1"): 0.7586111118807573599825,
    ("bounded", "bayes-jaccard"): 0.6110986807929992845027,
}

RTOL = 1e-10

# Table 1 coefficients (a0p, a0n, c0, d0, a1p, a1n, c1, d1) with b_k = c_k + d_k pi, typed in from the paper
# (and App. A.3 for accuracy) so that the oracles do not use lfverify.core._metrics.
TABLE1 = {"f1": (2, 0, 0, 0, 1, 1, 0, 1), "jaccard": (1, 0, 0, 0, 0, 1, 0, 1), "accuracy": (1, -1, 1, -1, 0, 0, 1, 0)}


# ---------------------------------------------------------------------- mpmath definitions (oracles)
def _mp_tau_logistic(tau):
    """phi, phi', phi'' of the tau-discrepant logistic loss (Fig. 2) and its kinks with the jumps of phi'."""
    tau, ln2 = mp.mpf(tau), mp.log(2)
    slope = lambda t: 1 if t <= 0 else tau  # noqa: E731
    return dict(
        phi=lambda t: mp.log(1 + mp.exp(-slope(t) * t)) / ln2,
        dphi=lambda t: -slope(t) / (1 + mp.exp(slope(t) * t)) / ln2,
        ddphi=lambda t: slope(t) ** 2 * mp.exp(slope(t) * t) / (1 + mp.exp(slope(t) * t)) ** 2 / ln2,
        kinks=[(mp.mpf(0), (1 - tau) / (2 * ln2))],  # phi'(0+) - phi'(0-) = (-tau + 1) / (2 ln 2)
    )


def _mp_hinge():
    return dict(phi=lambda t: max(mp.mpf(0), 1 - t), dphi=lambda t: mp.mpf(-1) if t < 1 else mp.mpf(0),
                ddphi=lambda t: mp.mpf(0), kinks=[(mp.mpf(1), mp.mpf(1))])


_MP_LOSSES = {"tau0.33": lambda: _mp_tau_logistic("0.33"), "tau0.75": lambda: _mp_tau_logistic("0.75"),
              "hinge": _mp_hinge}


def _mp_scores(metric, pi, tp, fp, A, G):
    """U (Eq. (1)), U_phi (Eq. (4)) and V_phi (Sec. 3.3) from TP, FP, A_y = E[phi(y xi) 1{Y=y}] and
    G_y = E[phi'(y xi) y x 1{Y=y}] (index 0: y = -1, 1: y = +1), written from Eq. (3):
    E[W_0,phi] = a0p (pi - A_+) + a0n A_- + b0 and E[W_1,phi] = a1p (pi + A_+) + a1n A_- + b1."""
    a0p, a0n, c0, d0, a1p, a1n, c1, d1 = metric
    b0, b1 = c0 + d0 * pi, c1 + d1 * pi
    U = (a0p * tp + a0n * fp + b0) / (a1p * tp + a1n * fp + b1)
    N = a0p * (pi - A[1]) + a0n * A[0] + b0
    D = a1p * (pi + A[1]) + a1n * A[0] + b1
    gN = [-a0p * G[1][i] + a0n * G[0][i] for i in range(len(G[0]))]
    gD = [a1p * G[1][i] + a1n * G[0][i] for i in range(len(G[0]))]
    return dict(TP=tp, FP=fp, U=U, U_phi=N / D, V_phi=[D * gN[i] - N * gD[i] for i in range(len(gN))])


def _mp_bayes(metric, pi, rates_at_eta_threshold):
    """U-dagger as the root of U(classifier {eta > delta(U)}) - U, delta(U) from Prop. 5.  Dinkelbach: the
    classifier maximizes N - U D, so the root is unique and equals max U."""
    a0p, a0n, c0, d0, a1p, a1n, c1, d1 = metric
    b0, b1 = c0 + d0 * pi, c1 + d1 * pi

    def gap(u):
        delta = (a1n * u - a0n) / ((a0p - a0n) - (a1p - a1n) * u)
        tp, fp = rates_at_eta_threshold(delta)
        return (a0p * tp + a0n * fp + b0) / (a1p * tp + a1n * fp + b1) - u

    return mp.findroot(gap, (mp.mpf("0.05"), mp.mpf("0.95")), solver="anderson")


def _mpmath_references():  # pragma: no cover - the recipe of REFERENCE; about 2 s
    """Recompute REFERENCE at mp.dps = 40 from the definitions (shares no code with lfverify)."""
    out = {}
    with mp.workdps(40):
        # ---- Gaussian: given y, xi = theta^T x ~ N(m_y, s^2); margin t = y xi
        mu = {1: mp.matrix(["1.0", "0.5"]), -1: mp.matrix(["-0.5", "0.0"])}
        Sigma = mp.matrix([["1.0", "0.3"], ["0.3", "0.8"]])
        pi = mp.mpf("0.3")
        mass = {1: pi, -1: 1 - pi}
        Sinv = Sigma ** -1
        w = Sinv * (mu[1] - mu[-1])
        b = -(mu[1].T * Sinv * mu[1])[0] / 2 + (mu[-1].T * Sinv * mu[-1])[0] / 2 + mp.log(pi / (1 - pi))
        sw = mp.sqrt((w.T * Sigma * w)[0])
        thetas = {"f1-tau0.33": ["0.8", "-0.4", "0.2"], "jaccard-tau0.75": ["1.2", "0.3", "-0.6"],
                  "f1-hinge": ["0.5", "0.9", "-0.1"]}
        for name, (mname, lname, _) in GAUSS_CASES.items():
            th, th0, loss = mp.matrix(thetas[name][:2]), mp.mpf(thetas[name][2]), _MP_LOSSES[lname]()
            s = mp.sqrt((th.T * Sigma * th)[0])
            Sth = Sigma * th
            A, G, rates = {}, {}, {}
            for y in (-1, 1):
                m = (th.T * mu[y])[0] + th0
                cuts = [-mp.inf] + sorted(y * k for k, _ in loss["kinks"]) + [mp.inf]
                E = lambda g, y=y, m=m, s=s, cuts=cuts: mp.quad(  # noqa: E731
                    lambda xi: g(y * xi) * mp.npdf(xi, m, s), cuts)
                A[y] = mass[y] * E(loss["phi"])
                # Stein: E[phi'(t) y x] = y mu_y E[phi'] + Sigma theta (E[phi''] + sum_k jump_k N(k; y m, s^2))
                stein = E(loss["ddphi"]) + sum(j * mp.npdf(k, y * m, s) for k, j in loss["kinks"])
                e1 = E(loss["dphi"])
                G[y] = [mass[y] * (y * mu[y][i] * e1 + Sth[i] * stein) for i in range(2)] + [mass[y] * y * e1]
                rates[y] = mass[y] * mp.ncdf(m / s)
            out["gaussian", name] = _mp_scores(TABLE1[mname], pi, rates[1], rates[-1], [A[-1], A[1]], [G[-1], G[1]])

        def gauss_rates(delta):
            t = mp.log(delta / (1 - delta)) - b  # eta(x) > delta  <=>  w^T x > t
            return (pi * mp.ncdf(((w.T * mu[1])[0] - t) / sw), (1 - pi) * mp.ncdf(((w.T * mu[-1])[0] - t) / sw))

        for mname in ("f1", "jaccard"):
            out["gaussian", "bayes-" + mname] = _mp_bayes(TABLE1[mname], pi, gauss_rates)

        # ---- bounded: u ~ U[-1, 1], x = (u, 1), eta(u) = sigmoid(3 u - 0.5)
        a, c = mp.mpf(3), mp.mpf("-0.5")
        eta = lambda u: 1 / (1 + mp.exp(-(a * u + c)))  # noqa: E731
        cond = {1: eta, -1: lambda u: 1 - eta(u)}
        pi_b = mp.quad(eta, [-1, 1]) / 2
        out["bounded", "prior"] = pi_b
        thetas = {"f1-tau0.33": ["1.5", "0.2"], "jaccard-tau0.75": ["2.5", "-0.7"], "f1-hinge": ["2.0", "0.3"]}
        for name, (mname, lname, _) in BOUNDED_CASES.items():
            t1, t2 = (mp.mpf(v) for v in thetas[name])
            loss = _MP_LOSSES[lname]()
            A, G, rates = {}, {}, {}
            for y in (-1, 1):
                inner = {(y * k - t2) / t1 for k, _ in loss["kinks"]} | {-t2 / t1}
                cuts = sorted({mp.mpf(-1), mp.mpf(1)} | {v for v in inner if -1 < v < 1})
                I = lambda g, y=y, cuts=cuts: mp.quad(lambda u: g(u) * cond[y](u), cuts) / 2  # noqa: E731,E741
                A[y] = I(lambda u, loss=loss, y=y, t1=t1, t2=t2: loss["phi"](y * (t1 * u + t2)))
                G[y] = [I(lambda u, loss=loss, y=y, t1=t1, t2=t2: loss["dphi"](y * (t1 * u + t2)) * y * u),
                        I(lambda u, loss=loss, y=y, t1=t1, t2=t2: loss["dphi"](y * (t1 * u + t2)) * y)]
                rates[y] = mp.quad(cond[y], [max(-t2 / t1, -1), 1]) / 2  # theta^T x > 0 <=> u > -t2/t1 (t1 > 0)
            out["bounded", name] = _mp_scores(TABLE1[mname], pi_b, rates[1], rates[-1], [A[-1], A[1]], [G[-1], G[1]])

        def bounded_rates(delta):
            t = min(max((mp.log(delta / (1 - delta)) - c) / a, mp.mpf(-1)), mp.mpf(1))  # eta(u) > delta <=> u > t
            return mp.quad(eta, [t, 1]) / 2, mp.quad(lambda u: 1 - eta(u), [t, 1]) / 2

        for mname in ("f1", "jaccard"):
            out["bounded", "bayes-" + mname] = _mp_bayes(TABLE1[mname], pi_b, bounded_rates)
    return out


# ---------------------------------------------------------------------- helpers
def _gaussian(**changes):
    return GaussianPopulation(**{**GAUSS, **changes})


def _bounded():
    return BoundedLogisticPopulation(**BOUNDED)


def _random_finite_population(seed, n_atoms=6, dim=3):
    rng = np.random.default_rng(seed)
    atoms = np.column_stack([rng.normal(size=(n_atoms, dim - 1)), np.ones(n_atoms)])
    weights = rng.dirichlet(np.ones(n_atoms))
    weights /= weights.sum()
    return FiniteSupportPopulation(atoms, weights, rng.uniform(0.05, 0.95, n_atoms))


def _assert_matches_reference(pop, ref, metric, loss, theta):
    tp, fp = pop.positive_rates(np.array(theta))
    ev = pop.evaluate(metric, loss, np.array(theta))
    np.testing.assert_allclose(tp[0], ref["TP"], rtol=RTOL, atol=0)
    np.testing.assert_allclose(fp[0], ref["FP"], rtol=RTOL, atol=0)
    np.testing.assert_allclose(pop.utility(metric, np.array(theta)), ref["U"], rtol=RTOL, atol=0)
    np.testing.assert_allclose(ev.value[0], ref["U_phi"], rtol=RTOL, atol=0)
    np.testing.assert_allclose(ev.gradient_direction[0], ref["V_phi"], rtol=RTOL, atol=0)


# ---------------------------------------------------------------------- pinned references
@pytest.mark.parametrize("case", sorted(GAUSS_CASES))
def test_gaussian_matches_mpmath_reference(case):
    """TP, FP, U, U_phi and every component of V_phi of the Gaussian population.  Oracle: mpmath 40 digits
    (REFERENCE), tolerance 1e-10 relative."""
    mname, lname, theta = GAUSS_CASES[case]
    _assert_matches_reference(_gaussian(), REFERENCE["gaussian", case], METRICS[mname](), LOSSES[lname](), theta)


@pytest.mark.parametrize("case", sorted(BOUNDED_CASES))
def test_bounded_matches_mpmath_reference(case):
    """Same for the bounded population.  Oracle: mpmath 40 digits (REFERENCE)."""
    mname, lname, theta = BOUNDED_CASES[case]
    _assert_matches_reference(_bounded(), REFERENCE["bounded", case], METRICS[mname](), LOSSES[lname](), theta)


def test_bounded_prior_matches_mpmath_reference():
    """pi = (1/2) integral of eta over [-1, 1].  Oracle: mpmath 40 digits (mp.quad)."""
    np.testing.assert_allclose(_bounded().prior, REFERENCE["bounded", "prior"], rtol=1e-14, atol=0)


@pytest.mark.parametrize("population", ["gaussian", "bounded"])
@pytest.mark.parametrize("metric", ["f1", "jaccard"])
def test_bayes_optimal_utility_matches_mpmath_reference(population, metric):
    """U-dagger.  Oracle: mpmath 40 digits, root of Dinkelbach's equation (REFERENCE)."""
    pop = _gaussian() if population == "gaussian" else _bounded()
    result = pop.bayes_optimal(METRICS[metric]())
    np.testing.assert_allclose(result.utility, REFERENCE[population, "bayes-" + metric], rtol=RTOL, atol=0)
    # the returned classifier attains it (the model contains the Bayes classifier: intercept column)
    np.testing.assert_allclose(pop.utility(METRICS[metric](), result.classifier), result.utility, rtol=1e-12, atol=0)


@pytest.mark.parametrize("slope,offset", [(-3.0, 0.5), (0.0, 0.3), (1e-9, -0.2), (40.0, 1.5)])
def test_bounded_population_for_any_slope(slope, offset):
    """pi, TP/FP (closed forms in softplus) and the loss moments for decreasing, constant, nearly constant and
    steep eta, with theta_1 of both signs.  Oracle: mpmath 40 digits (mp.quad, split at the kinks and at the
    decision boundary), computed here."""
    pop = BoundedLogisticPopulation(slope, offset)
    thetas = np.array([[1.3, -0.4], [-2.0, 0.5]])
    tp, fp = pop.positive_rates(thetas)
    moments = pop.loss_moments(thetas, tau_logistic(0.33), gradient=True)
    loss = _mp_tau_logistic("0.33")
    with mp.workdps(40):
        a, c = mp.mpf(slope), mp.mpf(offset)
        eta = lambda u: 1 / (1 + mp.exp(-(a * u + c)))  # noqa: E731
        cond = {1: eta, -1: lambda u: 1 - eta(u)}
        np.testing.assert_allclose(pop.prior, float(mp.quad(eta, [-1, 1]) / 2), rtol=1e-14)
        steep = [-c / a] if slope != 0 and -1 < -c / a < 1 else []  # where eta = 1/2 (speeds up mp.quad)
        for k, (t1, t2) in enumerate(thetas):
            t1, t2 = mp.mpf(t1), mp.mpf(t2)
            u0 = -t2 / t1
            positive = [u0, 1] if t1 > 0 else [-1, u0]  # theta^T x > 0
            for c_index, y in enumerate((-1, 1)):
                rate = mp.quad(cond[y], sorted(positive + [v for v in steep if positive[0] < v < positive[1]])) / 2
                np.testing.assert_allclose((tp if y == 1 else fp)[k], float(rate), rtol=1e-13)
                cuts = sorted([-1, u0, 1] + steep)
                g = lambda h, y=y, cuts=cuts: mp.quad(lambda u: h(u) * cond[y](u), cuts) / 2  # noqa: E731
                value = g(lambda u, y=y, t1=t1, t2=t2: loss["phi"](y * (t1 * u + t2)))
                grad = [g(lambda u, y=y, t1=t1, t2=t2: loss["dphi"](y * (t1 * u + t2)) * y * u),
                        g(lambda u, y=y, t1=t1, t2=t2: loss["dphi"](y * (t1 * u + t2)) * y)]
                np.testing.assert_allclose(moments.value[k, c_index], float(value), rtol=1e-13)
                np.testing.assert_allclose(moments.gradient[k, c_index], [float(v) for v in grad], rtol=1e-12)


# ---------------------------------------------------------------------- Prop. 5
@pytest.mark.parametrize("metric", ["f1", "jaccard", "accuracy"])
def test_gaussian_bayes_classifier_sits_at_prop5_threshold(metric):
    """eta at the decision boundary of the returned classifier equals delta(U-dagger) (Prop. 5), to 1e-9.
    Oracle: eta(x) = sigmoid(w^T x + b) computed here from the parameters with numpy.linalg.solve."""
    pop = _gaussian()
    m = METRICS[metric]()
    result = pop.bayes_optimal(m)
    mu_p, mu_n, sigma, pi = (np.array(GAUSS[k]) for k in ("mean_positive", "mean_negative", "covariance", "prior"))
    w = np.linalg.solve(sigma, mu_p - mu_n)
    b = -0.5 * (mu_p @ np.linalg.solve(sigma, mu_p) - mu_n @ np.linalg.solve(sigma, mu_n)) + math.log(pi / (1 - pi))
    theta = result.classifier
    np.testing.assert_allclose(theta[:2], w, rtol=1e-12)  # direction w: {w^T x > t}, t = -theta_0
    eta_boundary = expit(-theta[2] + b)
    assert abs(eta_boundary - m.bayes_optimal_threshold(result.utility)) <= 1e-9


@pytest.mark.parametrize("metric", ["f1", "jaccard", "accuracy"])
def test_bounded_bayes_classifier_sits_at_prop5_threshold(metric):
    """Same for the bounded population: classifier (1, -t) predicts +1 on u > t, eta(t) = delta(U-dagger).
    Oracle: eta(t) = sigmoid(3 t - 0.5) from the parameters."""
    m = METRICS[metric]()
    result = _bounded().bayes_optimal(m)
    assert result.classifier[0] == 1.0
    t = -result.classifier[1]
    assert abs(expit(3.0 * t - 0.5) - m.bayes_optimal_threshold(result.utility)) <= 1e-9


# ---------------------------------------------------------------------- finite support
def _mp_finite_support(pop, theta, metric, loss):
    """U (Eq. (1)), U_phi (Eq. (3)/(4)) and V_phi by a per-atom mpmath loop over W_k and W_k,phi
    (xi = theta^T x_j, 0/1 loss with sgn(0) = -1)."""
    a0p, a0n, c0, d0, a1p, a1n, c1, d1 = TABLE1[metric]
    with mp.workdps(40):
        pi = mp.fsum(mp.mpf(w) * mp.mpf(q) for w, q in zip(pop.weights, pop.eta))
        b0, b1 = c0 + d0 * pi, c1 + d1 * pi
        EW = [mp.mpf(0)] * 2
        EWphi = [mp.mpf(0)] * 2
        grad = [[mp.mpf(0)] * len(theta) for _ in range(2)]
        for x, w, q in zip(pop.atoms, pop.weights, pop.eta):
            x = [mp.mpf(v) for v in x]
            w, q = mp.mpf(w), mp.mpf(q)
            xi = mp.fsum(mp.mpf(t) * v for t, v in zip(theta, x))
            pos = 1 if xi > 0 else 0
            EW[0] += w * (a0p * pos * q + a0n * pos * (1 - q) + b0)
            EW[1] += w * (a1p * pos * q + a1n * pos * (1 - q) + b1)
            EWphi[0] += w * (a0p * (1 - loss["phi"](xi)) * q + a0n * loss["phi"](-xi) * (1 - q) + b0)
            EWphi[1] += w * (a1p * (1 + loss["phi"](xi)) * q + a1n * loss["phi"](-xi) * (1 - q) + b1)
            for i in range(len(theta)):  # d/dtheta of W_k,phi(theta^T x, q)
                grad[0][i] += w * (-a0p * loss["dphi"](xi) * q - a0n * loss["dphi"](-xi) * (1 - q)) * x[i]
                grad[1][i] += w * (a1p * loss["dphi"](xi) * q - a1n * loss["dphi"](-xi) * (1 - q)) * x[i]
        V = [EWphi[1] * grad[0][i] - EWphi[0] * grad[1][i] for i in range(len(theta))]
        return float(EW[0] / EW[1]), float(EWphi[0] / EWphi[1]), [float(v) for v in V]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("metric,loss", [("f1", "tau0.33"), ("jaccard", "tau0.75"), ("accuracy", "hinge")])
def test_finite_support_matches_definitions(seed, metric, loss):
    """U, U_phi and V_phi of FiniteSupportPopulation.  Oracle: an independent per-atom mpmath (40 digits)
    loop over the definitions Eq. (1)/(3)/(4) in this test."""
    pop = _random_finite_population(seed)
    thetas = np.random.default_rng(100 + seed).normal(size=(3, 3))
    m, phi = METRICS[metric](), LOSSES[loss]()
    ev = pop.evaluate(m, phi, thetas)
    for k, theta in enumerate(thetas):
        u_ref, uphi_ref, v_ref = _mp_finite_support(pop, theta, metric, _MP_LOSSES[loss]())
        np.testing.assert_allclose(pop.utility(m, theta), u_ref, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(ev.value[k], uphi_ref, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ev.gradient_direction[k], v_ref, rtol=1e-11, atol=1e-13)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("metric", ["f1", "jaccard", "accuracy"])
def test_finite_support_bayes_optimal_matches_brute_force(seed, metric):
    """U-dagger of FiniteSupportPopulation.  Oracle: exact enumeration of all 2^J labelings
    (_reference_bayes_optimal); the returned mask attains the value."""
    rng = np.random.default_rng(seed)
    J = 8
    eta = rng.choice([0.1, 0.3, 0.5, 0.7, 0.9], size=J) if seed % 2 else rng.uniform(size=J)  # ties when odd
    weights = rng.dirichlet(np.ones(J))
    pop = FiniteSupportPopulation(rng.normal(size=(J, 2)), weights / weights.sum(), eta)
    m = METRICS[metric]()
    result = pop.bayes_optimal(m)
    np.testing.assert_allclose(result.utility, pop._reference_bayes_optimal(m), rtol=1e-13, atol=0)
    attained = pop.utility_of_scores(m, np.where(result.classifier, 1.0, -1.0), zero_division=0.0)
    assert attained == pytest.approx(result.utility, rel=1e-15, abs=0)  # batched vs single sum: 1 ulp


# ---------------------------------------------------------------------- gradient vs finite differences
def _fd_case(name):
    if name == "finite":
        return _random_finite_population(7), np.array([0.7, -0.3, 0.2])
    if name == "gaussian":
        return _gaussian(), np.array([0.8, -0.4, 0.2])
    return _bounded(), np.array([1.5, 0.2])


@pytest.mark.parametrize("population", ["finite", "gaussian", "bounded"])
@pytest.mark.parametrize("metric,loss", [("f1", "tau0.33"), ("jaccard", "hinge")])
def test_gradient_matches_central_differences(population, metric, loss):
    """grad U_phi (evaluate(...).gradient) against central differences of surrogate_utility.

    Oracle: central finite differences, step h = 1e-5.  Tolerance: the quadrature is accurate to ~1e-14
    relative (see the pinned tests), so rounding contributes <= 1e-14 |U_phi| / h ~ 1e-9; the truncation
    error is h^2 / 6 |d^3 U_phi| ~ 1e-10 for the O(1) third derivatives here.  atol 1e-8 leaves a margin of
    10, while a wrong gradient term would be off by O(1e-2).
    """
    pop, theta = _fd_case(population)
    m, phi = METRICS[metric](), LOSSES[loss]()
    h = 1e-5
    if population == "finite":  # the finite population is piecewise smooth: stay h away from every kink
        margins = pop.atoms @ theta
        for k in phi.kinks:
            assert np.min(np.abs(np.abs(margins) - k)) > 10 * h * np.abs(pop.atoms).sum(axis=1).max()
    steps = h * np.eye(theta.size)
    upper = pop.surrogate_utility(m, phi, theta + steps)
    lower = pop.surrogate_utility(m, phi, theta - steps)
    fd = (upper - lower) / (2 * h)
    np.testing.assert_allclose(pop.evaluate(m, phi, theta).gradient[0], fd, rtol=1e-7, atol=1e-8)


# ---------------------------------------------------------------------- Monte Carlo
N_MC = 200_000
MC_SEEDS = np.random.SeedSequence(20200826).spawn(2)
MC_SE = 5.0  # tolerance in standard errors


def _mc_check(per_sample, population_value, n_se=MC_SE):
    """True iff |mean(per_sample) - population_value| <= n_se standard errors (per column); the standard
    error is estimated from the sample."""
    per_sample = np.asarray(per_sample, dtype=np.float64)
    se = per_sample.std(axis=0, ddof=1) / math.sqrt(per_sample.shape[0])
    return bool(np.all(np.abs(per_sample.mean(axis=0) - population_value) <= n_se * se)), se


def _mc_quantities(pop, metric, loss, theta, X, y):
    """Per-sample TP/FP indicators, W~_0,phi, W~_1,phi (Eq. (6), per-sample b_k) and their theta-gradients,
    with the population values they estimate (Lemma 3: the per-sample scores are unbiased)."""
    xi = X @ theta
    w0, w1, dw0, dw1 = surrogate_scores(metric, loss, xi, y)
    per_sample = {
        "TP": ((xi > 0) & (y == 1)).astype(float)[:, None],
        "FP": ((xi > 0) & (y == -1)).astype(float)[:, None],
        "W0": w0[:, None], "W1": w1[:, None],
        "gradW0": dw0[:, None] * X, "gradW1": dw1[:, None] * X,
    }
    ev = pop.evaluate(metric, loss, theta)
    tp, fp = pop.positive_rates(theta)
    # E[grad W_0] and E[grad W_1] from the moments: grad N = sum_c slope0_c G_c, grad D = sum_c slope1_c G_c
    moments = pop.loss_moments(theta, loss, gradient=True)
    coef = score_coefficients(metric)
    grad_num = moments.gradient[0].T @ coef.slope0
    grad_den = moments.gradient[0].T @ coef.slope1
    population = {"TP": tp, "FP": fp, "W0": ev.numerator, "W1": ev.denominator, "gradW0": grad_num, "gradW1": grad_den}
    return per_sample, population


def _mc_population(name):
    if name == "gaussian":
        return _gaussian(), np.array([0.8, -0.4, 0.2]), MC_SEEDS[0]
    return _bounded(), np.array([1.5, 0.2]), MC_SEEDS[1]


@pytest.fixture(scope="module")
def mc_samples():
    return {name: _mc_population(name)[0].sample(N_MC, seed=_mc_population(name)[2])
            for name in ("gaussian", "bounded")}


@pytest.mark.parametrize("population", ["gaussian", "bounded"])
def test_population_values_match_large_sample_averages(population, mc_samples):
    """TP, FP, E[W_0,phi], E[W_1,phi] and their gradients against averages over n = 200 000 samples.
    Oracle: Monte Carlo with standard-error tolerance (5 SE, estimated from the sample)."""
    pop, theta, _ = _mc_population(population)
    X, y = mc_samples[population]
    per_sample, values = _mc_quantities(pop, f1(), tau_logistic(0.33), theta, X, y)
    for key in per_sample:
        ok, se = _mc_check(per_sample[key], values[key])
        assert ok, f"{key}: sample mean {per_sample[key].mean(axis=0)} vs population {values[key]} (SE {se})"


@pytest.mark.parametrize("population", ["gaussian", "bounded"])
def test_large_sample_check_rejects_wrong_population_values(population, mc_samples):
    """The Monte Carlo check of the previous test can fail: it rejects the population values of a different
    theta (intercept shifted by 0.3) and the true values moved by 10 SE.
    Oracle: Monte Carlo with standard-error tolerance."""
    pop, theta, _ = _mc_population(population)
    X, y = mc_samples[population]
    per_sample, values = _mc_quantities(pop, f1(), tau_logistic(0.33), theta, X, y)
    _, wrong = _mc_quantities(pop, f1(), tau_logistic(0.33), theta + np.eye(theta.size)[-1] * 0.3, X, y)
    for key in ("TP", "FP", "W0", "W1"):
        ok, se = _mc_check(per_sample[key], wrong[key])
        assert not ok, key
        ok, _ = _mc_check(per_sample[key], values[key] + 10 * se)
        assert not ok, key


# ---------------------------------------------------------------------- closed forms and degenerate cases
def test_gaussian_exponential_loss_matches_closed_form():
    """Exponential loss (tail_rate = 1): E[exp(-t)] = exp(-mu_t + s^2/2) for t ~ N(mu_t, s^2) and
    E[exp(-y theta^T x) y x | y] = y exp(-y m_y + s^2/2) (mu_y - y Sigma theta) (exponential tilting).
    Oracle: closed form."""
    pop = _gaussian()
    # the last row has s = 6.4: without the window shift by tail_rate * s the omitted mass would be ~1e-8
    theta = np.array([[1.1, -0.7, 0.3], [2.5, 1.0, -0.4], [5.0, 3.0, 0.5]])
    moments = pop.loss_moments(theta, exponential(), gradient=True)
    mu = {-1: np.array(GAUSS["mean_negative"]), 1: np.array(GAUSS["mean_positive"])}
    sigma = np.array(GAUSS["covariance"])
    for k, th in enumerate(theta):
        s2 = th[:2] @ sigma @ th[:2]
        for c, y in enumerate((-1, 1)):
            mass = GAUSS["prior"] if y == 1 else 1 - GAUSS["prior"]
            m = th[:2] @ mu[y] + th[2]
            e = math.exp(-y * m + s2 / 2)
            np.testing.assert_allclose(moments.value[k, c], mass * e, rtol=1e-13)
            # d/dtheta E[exp(-y theta^T x)] = -E[exp(-y xi) y x]; phi' = -exp, so G = -E[exp(-t) y x]
            expected = -mass * y * e * np.append(mu[y] - y * sigma @ th[:2], 1.0)
            np.testing.assert_allclose(moments.gradient[k, c], expected, rtol=1e-12)
    # std = 30: exp(-t) overflows at the window's end although the mean is e^450; refused, not NaN
    with pytest.raises(ValueError, match="not finite at some quadrature nodes"):
        pop.loss_moments(np.array([30.0, 0.0, 0.0]), exponential(), gradient=False)


def test_degenerate_parameters_are_exact():
    """theta_x = 0 (s = 0) and theta = 0: TP/FP are indicators (sgn(0) = -1) and the loss moments are
    P(Y=y) phi(y theta_0) with gradient P(Y=y) phi'(y theta_0) y (mu_y, 1).  Oracle: exact (the definitions)."""
    pop = _gaussian()
    loss = tau_logistic(0.33)
    theta = np.array([[0.0, 0.0, 0.4], [0.0, 0.0, 0.0], [0.0, 0.0, -0.4]])
    tp, fp = pop.positive_rates(theta)
    np.testing.assert_array_equal(tp, [0.3, 0.0, 0.0])
    np.testing.assert_array_equal(fp, [0.7, 0.0, 0.0])
    moments = pop.loss_moments(theta, loss, gradient=True)
    for k, t0 in enumerate(theta[:, 2]):
        for c, (y, mu) in enumerate(((-1, GAUSS["mean_negative"]), (1, GAUSS["mean_positive"]))):
            mass = GAUSS["prior"] if y == 1 else 1 - GAUSS["prior"]
            phi, dphi = loss.value_and_derivative(np.array([y * t0]))
            assert moments.value[k, c] == pytest.approx(mass * phi, rel=1e-15, abs=0)
            np.testing.assert_allclose(moments.gradient[k, c], mass * dphi * y * np.append(mu, 1.0), rtol=1e-15)
    bounded_tp, bounded_fp = _bounded().positive_rates(np.array([[0.0, 0.0], [0.0, 1.0], [1e-300, -1.0]]))
    np.testing.assert_allclose(bounded_tp, [0.0, _bounded().prior, 0.0], rtol=1e-15)
    np.testing.assert_allclose(bounded_fp, [0.0, 1 - _bounded().prior, 0.0], rtol=1e-15)


def test_quadrature_integrates_polynomials_and_degenerate_rows():
    """gaussian_expectation: E[xi^4] = m^4 + 6 m^2 s^2 + 3 s^4 with breakpoints anywhere, and std = 0 gives
    func(mean); interval_expectation: integral of u^3 + 1 over [-1, 2] / 3.  Oracle: closed forms."""
    mean, std = np.array([0.3, -2.0, 1.5]), np.array([1.7, 0.0, 40.0])
    got = gaussian_expectation(lambda xi: xi ** 4, mean, std, breakpoints=(-1.0, 0.5, 3.0))
    np.testing.assert_allclose(got, mean ** 4 + 6 * mean ** 2 * std ** 2 + 3 * std ** 4, rtol=1e-13)
    values, first = gaussian_expectation(lambda xi: np.stack([xi, xi ** 2], axis=-1), mean, std, first_moment=True)
    np.testing.assert_allclose(values[:, 0], mean, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(first[:, 0], std, rtol=1e-13, atol=1e-15)  # E[xi z] = s
    np.testing.assert_allclose(first[:, 1], 2 * mean * std, rtol=1e-13, atol=1e-13)  # E[xi^2 z] = 2 m s
    got = interval_expectation(lambda u: u ** 3 + 1, -1.0, 2.0, breakpoints=np.array([[0.1, 5.0], [-3.0, 1.9]]),
                               max_panel_width=np.array([0.25, 0.01]))
    np.testing.assert_allclose(got, (16 / 4 - 1 / 4 + 3) / 3, rtol=1e-14)


# ---------------------------------------------------------------------- bad input
@pytest.mark.parametrize("changes,match", [
    (dict(covariance=((1.0, 2.0), (2.0, 1.0))), "covariance must be positive definite"),
    (dict(covariance=((1.0, 0.3), (0.2, 1.0))), "covariance must be symmetric"),
    (dict(covariance=((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))), r"covariance must have shape \(2, 2\)"),
    (dict(prior=0.0), r"prior must lie in \(0.0, 1.0\); got 0.0"),
    (dict(prior=1.5), r"prior must lie in \(0.0, 1.0\); got 1.5"),
    (dict(mean_negative=(0.0, 0.0, 1.0)), r"mean_negative must be a 1-D array of shape \(2,\)"),
    (dict(mean_positive=(np.nan, 0.0)), "mean_positive must contain only finite values"),
])
def test_gaussian_rejects_bad_input(changes, match):
    """Invalid parameters raise ValueError naming the argument, the expectation and the value received.
    Oracle: the stated constraints."""
    with pytest.raises(ValueError, match=match):
        _gaussian(**changes)


def test_bounded_rejects_bad_input():
    """Non-finite slope/offset and a degenerate prior raise ValueError.  Oracle: the stated constraints."""
    with pytest.raises(ValueError, match="slope must be a finite"):
        BoundedLogisticPopulation(np.nan, 0.0)
    with pytest.raises(ValueError, match="both classes need positive mass"):
        BoundedLogisticPopulation(0.0, 800.0)


# ---------------------------------------------------------------------- sample()
@pytest.mark.parametrize("population", ["gaussian", "gaussian-no-intercept", "bounded"])
def test_sample_is_reproducible_and_well_formed(population):
    """Same seed -> identical arrays (int seed and Generator); shapes, dtype, intercept column; class
    frequencies within 5 SE of the prior.  Oracle: Monte Carlo with standard-error tolerance (frequencies)
    and exact comparison (reproducibility)."""
    pop = {"gaussian": _gaussian(), "gaussian-no-intercept": _gaussian(intercept=False),
           "bounded": _bounded()}[population]
    n = 50_000
    X, y = pop.sample(n, seed=11)
    X2, y2 = pop.sample(n, seed=np.random.default_rng(11))
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert not np.array_equal(pop.sample(n, seed=12)[1], y)
    assert X.shape == (n, pop.n_features) and y.shape == (n,) and y.dtype == np.int8
    assert set(np.unique(y).tolist()) == {-1, 1}
    if population != "gaussian-no-intercept":
        np.testing.assert_array_equal(X[:, -1], 1.0)
    else:
        assert pop.n_features == 2 and not np.allclose(X[:, -1], 1.0)
    ok, _ = _mc_check((y == 1).astype(float)[:, None], pop.prior)
    assert ok


# ---------------------------------------------------------------------------------------------------------
# Contracts pinned by mutation testing.  Oracles: a three-atom population evaluated by hand (comments), Bayes'
# rule from the class densities (scipy.stats), closed forms (normal CDF, softplus), mpmath quadrature, and a
# synthetic one-parameter family with a known maximiser for the threshold search of Prop. 5.
# ---------------------------------------------------------------------------------------------------------
import re  # noqa: E402
import warnings  # noqa: E402
from fractions import Fraction  # noqa: E402

from scipy.special import ndtr  # noqa: E402
from scipy.stats import multivariate_normal  # noqa: E402

import lfverify.core._populations as populations  # noqa: E402
from lfverify.core import LinearFractionalMetric, logistic  # noqa: E402


def exactly(text):
    return "^" + re.escape(text) + "$"


PRECISION = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=1.0, a1n=1.0, name="precision")  # TP / (TP + FP), b = 0
ERROR_RATE = LinearFractionalMetric(a0p=-1.0, a0n=1.0, a1p=0.0, a1n=0.0, b0_prior=1.0, b1_const=1.0,
                                    name="error")  # FN + FP = pi - TP + FP: maximised by the *lower* level sets


def _three_atoms(eta=(1.0, 0.5, 0.0)):
    """Atoms x = (2, 1), (1/2, 1), (-1, 1) with weights 1/4, 1/2, 1/4; joint masses (y=-1, y=+1) per atom:
    (0, 1/4), (1/4, 1/4), (1/4, 0) for the default eta, so pi = 1/2."""
    return FiniteSupportPopulation([[2.0, 1.0], [0.5, 1.0], [-1.0, 1.0]], [0.25, 0.5, 0.25], list(eta))


def test_finite_population_moments_of_scores_by_hand():
    """Scores s = (2, 1/2, -1), hinge phi(m) = max(0, 1 - m):
    A_- = sum_j P(x_j, -1) phi(-s_j) = 1/4 * 3/2 = 3/8 and A_+ = sum_j P(x_j, +1) phi(s_j) = 1/4 * 1/2 = 1/8;
    d/ds_j: (-P(x_j,-1) phi'(-s_j), P(x_j,+1) phi'(s_j)); at s_3 = -1 the margin -s_3 = 1 is the kink."""
    pop = _three_atoms()
    s = np.array([2.0, 0.5, -1.0])
    moments = pop.loss_moments_of_scores(s, hinge())
    assert moments.gradient is None  # only on request
    np.testing.assert_array_equal(moments.value, [[0.375, 0.125]])
    right = pop.loss_moments_of_scores(s, hinge(), gradient=True)
    np.testing.assert_array_equal(right.gradient, [[[0.0, 0.25, 0.0], [0.0, -0.25, 0.0]]])  # phi'(1+) = 0
    left = pop.loss_moments_of_scores(s, hinge(), gradient=True, side="left")
    np.testing.assert_array_equal(left.gradient, [[[0.0, 0.25, 0.25], [0.0, -0.25, 0.0]]])  # phi'(1-) = -1
    # unsigned integer scores are the reals they denote (-s must not wrap around)
    np.testing.assert_array_equal(pop.loss_moments_of_scores(np.array([2, 0, 1], dtype=np.uint8), hinge()).value,
                                  pop.loss_moments_of_scores(np.array([2.0, 0.0, 1.0]), hinge()).value)


def test_finite_population_surrogate_utility_of_scores_by_hand():
    """F_1 (a0 = (2, 0), a1 = (1, 1), b1 = pi) at s = (2, 1/2, -1), Eq. (3):
    E[W_0] = a0p (pi - A_+) = 2 (1/2 - 1/8) = 3/4, E[W_1] = (pi + A_+) + A_- + pi = 5/8 + 3/8 + 1/2 = 3/2."""
    pop = _three_atoms()
    s = np.array([2.0, 0.5, -1.0])
    num, den = pop.surrogate_score_expectations(f1(), hinge(), s)
    np.testing.assert_array_equal(num, [0.75]) and np.testing.assert_array_equal(den, [1.5])
    value = pop.surrogate_utility_of_scores(f1(), hinge(), s)
    assert type(value) is float and value == 0.5
    batch = pop.surrogate_utility_of_scores(f1(), hinge(), np.stack([s, s]))  # K = 2 rows, J = 3 atoms
    assert type(batch) is np.ndarray and batch.tolist() == [0.5, 0.5]
    negative = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=0.0, b1_const=-1.0, name="D<0")
    with pytest.raises(ValueError, match=r"^U_phi: the denominator must be positive and finite, but for parameter "
                                         r"rows \[0\] it is \[-1\.0\]"):
        pop.surrogate_utility_of_scores(negative, hinge(), s)


def test_finite_population_utility_of_scores_by_hand_with_sign_zero_negative():
    """Predicted positive iff s > 0: s = (2, 1/2, -1) gives TP = 1/2, FP = 1/4 and F_1 = 1 / 1.25 = 0.8;
    s = (2, 0, -1) predicts atom 2 negative (sgn(0) = -1): TP = 1/4, FP = 0, F_1 = 0.5 / 0.75 = 2/3."""
    pop = _three_atoms()
    assert pop.utility_of_scores(f1(), [2.0, 0.5, -1.0]) == 0.8
    assert type(pop.utility_of_scores(f1(), [2.0, 0.5, -1.0])) is float
    assert pop.utility_of_scores(f1(), [2.0, 0.0, -1.0]) == pytest.approx(2 / 3, rel=1e-15, abs=0)
    tp, fp = pop.positive_rates_of_scores([2.0, 0.0, -1.0])
    assert tp.tolist() == [0.25] and fp.tolist() == [0.0]
    batch = pop.utility_of_scores(f1(), [[2.0, 0.5, -1.0], [2.0, 0.0, -1.0]])
    assert type(batch) is np.ndarray and batch.shape == (2,)
    # precision of 'predict nothing' is 0/0: the default warns and returns 0, an explicit value is used as is
    with pytest.warns(UserWarning, match="0/0"):
        assert pop.utility_of_scores(PRECISION, [-1.0, -1.0, -1.0]) == 0.0
    assert pop.utility_of_scores(PRECISION, [-1.0, -1.0, -1.0], zero_division=0.5) == 0.5


def test_finite_population_bayes_optimum_by_hand_without_0_over_0_warnings():
    """eta = (0.8, 0.5, 0.1): the best precision is 0.8 (predict +1 on atom 1 only); 'predict nothing' is 0/0 and
    must count as 0, silently (not as 1, which would make U-dagger = 1)."""
    pop = _three_atoms((0.8, 0.5, 0.1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        best = pop.bayes_optimal(PRECISION)
        assert best.utility == pytest.approx(0.8, rel=1e-15, abs=0)
        assert best.classifier.tolist() == [True, False, False]
        assert pop._reference_bayes_optimal(PRECISION) == pytest.approx(0.8, rel=1e-15, abs=0)
    assert pop.bayes_optimal_utility(f1()) == pop.bayes_optimal(f1()).utility == pytest.approx(
        max(2 * 0.2 / (0.2 + 0.25 + 0.475), 2 * 0.45 / (0.75 + 0.475), 2 * 0.475 / (1 + 0.475)), rel=1e-15, abs=0)


def test_finite_population_bayes_optimum_with_a_single_eta_level():
    """Constant eta = 0.4: only the trivial classifiers matter; accuracy 0.6 by predicting every atom negative."""
    pop = FiniteSupportPopulation([[1.0], [2.0]], [0.5, 0.5], [0.4, 0.4])
    best = pop.bayes_optimal(accuracy())
    assert best.utility == pytest.approx(0.6, rel=1e-15, abs=0) and best.classifier.tolist() == [False, False]
    assert pop.bayes_optimal(f1()).classifier.tolist() == [True, True]  # F_1 of 'all': 0.8 / 1.4 > 0


def test_reference_bayes_optimum_handles_16_atoms_and_refuses_17():
    rng = np.random.default_rng(5)
    pop16 = FiniteSupportPopulation(np.arange(16.0)[:, None], np.full(16, 1 / 16), rng.uniform(0.1, 0.9, 16))
    assert pop16._reference_bayes_optimal(f1()) == pytest.approx(pop16.bayes_optimal(f1()).utility, rel=1e-15, abs=0)
    pop17 = FiniteSupportPopulation(np.arange(17.0)[:, None], np.full(17, 1 / 17), rng.uniform(0.1, 0.9, 17))
    with pytest.raises(ValueError, match=exactly("brute force is limited to 16 atoms; got 17")):
        pop17._reference_bayes_optimal(f1())


def test_finite_population_stores_float64_and_accepts_eta_zero_and_one():
    pop = FiniteSupportPopulation([[1, 0], [0, 1]], [Fraction(1, 2), Fraction(1, 2)], [1, 0])
    assert pop.weights.dtype == np.float64 and pop.eta.dtype == np.float64 and pop.atoms.dtype == np.float64
    assert pop.prior == 0.5 and pop.n_features == 2


@pytest.mark.parametrize("atoms, weights, eta, message", [
    ([1.0, 2.0], [0.5, 0.5], [0.5, 0.5], "atoms must be a 2-D array of shape (n, d); got an array of shape (2,)"),
    ([[1.0], [2.0]], [1.0], [0.5, 0.5], "weights and eta must have shape (2,) (one per atom); got (1,) and (2,)"),
    ([[1.0], [2.0]], [0.5, 0.5], [0.5], "weights and eta must have shape (2,) (one per atom); got (2,) and (1,)"),
    ([[1.0], [2.0]], [1.0, 0.0], [0.5, 0.5], "weights must be positive and finite"),
    ([[1.0], [2.0]], [1.5, -0.5], [0.5, 0.5], "weights must be positive and finite"),
    ([[1.0], [2.0]], [np.nan, 0.5], [0.5, 0.5], "weights must be positive and finite"),
    ([[1.0], [2.0]], [0.75, 0.75], [0.5, 0.5], "weights must sum to 1; got 1.5"),
    ([[1.0], [2.0]], [0.5, 0.5], [-0.5, 0.5], "eta must lie in [0, 1]"),
    ([[1.0], [2.0]], [0.5, 0.5], [1.5, 0.5], "eta must lie in [0, 1]"),
    ([[1.0], [2.0]], [0.5, 0.5], [np.nan, 0.5], "eta must lie in [0, 1]"),
    ([[1.0], [2.0]], [0.5, 0.5], [0.0, 0.0], "both classes need positive mass; got prior 0.0"),
    ([[1.0], [2.0]], [0.5, 0.5], [1.0, 1.0], "both classes need positive mass; got prior 1.0"),
])
def test_finite_population_rejects_bad_input_with_exact_messages(atoms, weights, eta, message):
    with pytest.raises(ValueError, match=exactly(message)):
        FiniteSupportPopulation(atoms, weights, eta)


def test_finite_population_scores_messages():
    pop = _three_atoms()
    with pytest.raises(ValueError, match=exactly("scores must have shape (3,) or (K, 3) (one score per atom); "
                                                 "got (2, 4)")):
        pop.utility_of_scores(f1(), np.zeros((2, 4)))
    with pytest.raises(ValueError, match=exactly("scores must not contain NaN")):
        pop.utility_of_scores(f1(), [0.0, np.nan, 1.0])


def test_linear_model_one_sided_derivatives_reach_the_loss():
    """theta = 0 puts every margin at the kink of the tau-logistic loss: side decides phi'(0-) = -1/(2 ln 2)
    or phi'(0+) = -tau/(2 ln 2).  The intercept component of E[phi'(y theta^T x) y x 1{Y=y}] is then
    y P(Y=y) phi'(0) (every population; x = (..., 1))."""
    tau = 0.5
    slopes = {"left": -1 / (2 * math.log(2)), "right": -tau / (2 * math.log(2))}
    for pop in (_three_atoms(), _gaussian(), _bounded()):
        theta = np.zeros(pop.n_features)
        masses = (1 - pop.prior, pop.prior)
        for side, slope in slopes.items():
            grad = pop.loss_moments(theta, tau_logistic(tau), gradient=True, side=side).gradient
            for c, y in enumerate((-1, 1)):
                assert grad[0, c, -1] == pytest.approx(y * masses[c] * slope, rel=1e-13, abs=0)
        default = pop.loss_moments(theta, tau_logistic(tau), gradient=True).gradient
        assert default[0, 1, -1] == pytest.approx(pop.prior * slopes["right"], rel=1e-13, abs=0)
        ev_left = pop.evaluate(f1(), tau_logistic(tau), theta, side="left")
        ev_right = pop.evaluate(f1(), tau_logistic(tau), theta)
        assert not np.allclose(ev_left.gradient_direction, ev_right.gradient_direction)


@pytest.mark.parametrize("pop", [_three_atoms(), _gaussian(), _bounded()], ids=["finite", "gaussian", "bounded"])
def test_loss_moments_without_gradient_and_batches(pop):
    """gradient=False gives the same values and no gradient; a batch of K = 3 rows equals three single rows."""
    rng = np.random.default_rng(3)
    thetas = rng.normal(size=(3, pop.n_features))
    for loss in (tau_logistic(0.33), hinge()):
        full = pop.loss_moments(thetas, loss, gradient=True)
        values = pop.loss_moments(thetas, loss, gradient=False)
        assert values.gradient is None
        np.testing.assert_allclose(values.value, full.value, rtol=1e-14, atol=1e-16)
        for k in range(3):
            single = pop.loss_moments(thetas[k], loss, gradient=True)
            np.testing.assert_allclose(single.value[0], full.value[k], rtol=1e-14, atol=1e-16)
            np.testing.assert_allclose(single.gradient[0], full.gradient[k], rtol=1e-13, atol=1e-16)


@pytest.mark.parametrize("pop", [_three_atoms(), _gaussian(), _bounded()], ids=["finite", "gaussian", "bounded"])
def test_population_methods_return_scalars_for_one_theta_and_arrays_for_a_batch(pop):
    rng = np.random.default_rng(4)
    theta = rng.normal(size=pop.n_features)
    metric, loss = f1(), logistic()
    ev = pop.evaluate(metric, loss, theta)
    assert type(pop.utility(metric, theta)) is float and type(pop.surrogate_utility(metric, loss, theta)) is float
    assert pop.surrogate_utility(metric, loss, theta) == ev.value[0]
    v = pop.gradient_direction(metric, loss, theta)
    assert v.shape == (pop.n_features,)
    np.testing.assert_array_equal(v, ev.gradient_direction[0])
    batch = np.stack([theta, -theta])
    assert pop.utility(metric, batch).shape == (2,) and pop.surrogate_utility(metric, loss, batch).shape == (2,)
    assert pop.gradient_direction(metric, loss, batch).shape == (2, pop.n_features)
    with pytest.raises(ValueError, match=exactly(f"theta must have shape ({pop.n_features},) or (K, "
                                                 f"{pop.n_features}) with K >= 1; got shape (7,)")):
        pop.utility(metric, np.ones(7))


def test_population_utility_passes_zero_division_through():
    """theta = (0, 0, -1) predicts everything negative: precision is 0/0."""
    pop = _gaussian()
    assert pop.utility(PRECISION, np.array([0.0, 0.0, -1.0]), zero_division=0.5) == 0.5
    with pytest.raises(ValueError, match="0/0"):
        pop.utility(PRECISION, np.array([0.0, 0.0, -1.0]), zero_division="raise")


def test_population_evaluate_names_u_phi_in_its_error():
    negative = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.0, a1n=0.0, b1_const=-1.0, name="D<0")
    with pytest.raises(ValueError, match=r"^U_phi: the denominator must be positive and finite"):
        _gaussian().evaluate(negative, hinge(), np.array([1.0, 0.0, 0.0]))


# ---------------------------------------------------------------------------------------------- sample()
def test_finite_population_sample_draws_atoms_by_weight_and_labels_by_eta():
    """Atom frequencies within 5 SE of the weights, label frequencies per atom within 5 SE of eta, and the same
    check rejects swapped eta (so it can fail).  Oracle: Monte Carlo with standard-error tolerance."""
    pop = _three_atoms((0.9, 0.5, 0.2))
    n = 40_000
    X, y = pop.sample(n, seed=21)
    X2, y2 = pop.sample(n, seed=np.random.default_rng(21))
    np.testing.assert_array_equal(X, X2) and np.testing.assert_array_equal(y, y2)
    assert X.shape == (n, 2) and y.dtype == np.int8 and set(np.unique(y).tolist()) == {-1, 1}
    which = np.argmax(np.all(X[:, None, :] == pop.atoms[None, :, :], axis=2), axis=1)
    assert np.all(np.all(X == pop.atoms[which], axis=1))  # every row is an atom

    def within(freq, p, m):
        return abs(freq - p) <= 5 * math.sqrt(p * (1 - p) / m)

    for j in range(3):
        assert within(np.mean(which == j), pop.weights[j], n)
        labels = y[which == j]
        assert within(np.mean(labels == 1), pop.eta[j], labels.size)
    assert not within(np.mean(y[which == 0] == 1), pop.eta[2], np.sum(which == 0))  # the check can fail
    assert pop.sample(1, seed=0)[0].shape == (1, 2)


@pytest.mark.parametrize("n, message", [(0, "n_samples must be a positive int; got 0"),
                                        (2.5, "n_samples must be a positive int; got 2.5"),
                                        (True, "n_samples must be a positive int; got True")])
def test_sample_size_must_be_a_positive_int(n, message):
    for pop in (_three_atoms(), _gaussian(), _bounded()):
        with pytest.raises(ValueError, match=exactly(message)):
            pop.sample(n, seed=0)


# -------------------------------------------------------------------------------------------- Gaussian
def test_gaussian_posterior_is_bayes_rule():
    """eta(x) = pi f_+(x) / (pi f_+(x) + (1 - pi) f_-(x)) with the class densities (oracle: scipy.stats)."""
    pop = _gaussian()
    rng = np.random.default_rng(6)
    x = rng.normal(size=(20, 2)) * 2
    f_pos = multivariate_normal(GAUSS["mean_positive"], GAUSS["covariance"]).pdf(x)
    f_neg = multivariate_normal(GAUSS["mean_negative"], GAUSS["covariance"]).pdf(x)
    expected = 0.3 * f_pos / (0.3 * f_pos + 0.7 * f_neg)
    np.testing.assert_allclose(pop.posterior(np.column_stack([x, np.ones(20)])), expected, rtol=1e-12)
    np.testing.assert_allclose(_gaussian(intercept=False).posterior(x), expected, rtol=1e-12)
    with pytest.raises(ValueError, match=exactly("X must have 3 columns; got 2")):
        pop.posterior(x)
    with pytest.raises(ValueError, match=exactly("X must be a 2-D array of shape (n, d); got an array of shape (3,)")):
        pop.posterior(np.ones(3))


def test_bounded_posterior_and_its_columns():
    pop = _bounded()
    u = np.linspace(-1, 1, 9)
    np.testing.assert_allclose(pop.posterior(np.column_stack([u, np.ones(9)])), expit(3.0 * u - 0.5), rtol=1e-15)
    with pytest.raises(ValueError, match=exactly("X must have 2 columns (u, 1); got 3")):
        pop.posterior(np.ones((2, 3)))
    with pytest.raises(ValueError, match=exactly("X must be a 2-D array of shape (n, d); got an array of shape (2,)")):
        pop.posterior(np.ones(2))


def test_gaussian_bayes_optimum_in_closed_form():
    """X | Y ~ N(Y == 1, 1), pi = 1/2 (sigma_w = 1 exactly): eta(x) = 1/2 at x = 1/2, so the best accuracy is
    Phi(1/2), attained by x > 1/2, i.e. theta = (1, -1/2); the worst classifier x < 1/2, theta = (-1, 1/2), has
    the largest error rate, also Phi(1/2) (Prop. 5 with Da0 - Da1 U < 0: a lower level set)."""
    pop = GaussianPopulation([1.0], [0.0], [[1.0]], 0.5)
    best = pop.bayes_optimal(accuracy())
    assert best.utility == pytest.approx(ndtr(0.5), rel=1e-14, abs=0)
    np.testing.assert_allclose(best.classifier, [1.0, -0.5], rtol=1e-12)
    worst = pop.bayes_optimal(ERROR_RATE)
    assert worst.utility == pytest.approx(ndtr(0.5), rel=1e-14, abs=0)
    np.testing.assert_allclose(worst.classifier, [-1.0, 0.5], rtol=1e-12)


def test_gaussian_bayes_optimum_with_equal_class_means_is_trivial():
    """mu_+ = mu_-: eta = pi everywhere; accuracy 0.7 by predicting all negative (theta = (0, 0, -1)), F_1
    2 pi / (1 + pi) = 0.6/1.3 by predicting all positive (theta = (0, 0, +1))."""
    pop = GaussianPopulation([1.0, 2.0], [1.0, 2.0], np.eye(2), 0.3)
    acc = pop.bayes_optimal(accuracy())
    assert acc.utility == pytest.approx(0.7, rel=1e-15, abs=0) and acc.classifier.tolist() == [0.0, 0.0, -1.0]
    f = pop.bayes_optimal(f1())
    assert f.utility == pytest.approx(0.6 / 1.3, rel=1e-15, abs=0) and f.classifier.tolist() == [0.0, 0.0, 1.0]


def test_gaussian_constructor_contracts():
    one_d = GaussianPopulation([1], [0], [[Fraction(2)]], 0.25)  # d = 1, integers and rationals stored as floats
    assert one_d.n_features == 2 and one_d.mean_positive.dtype == np.float64 and one_d.covariance.dtype == np.float64
    assert one_d.bayes_intercept == pytest.approx(-0.5 * 0.5 * 1.0 + math.log(0.25 / 0.75), rel=1e-15, abs=0)
    # asymmetry is allowed up to 1e-12 times the largest entry (here exactly at that bound)
    GaussianPopulation([0.0, 0.0], [1.0, 0.0], [[2.0, 2e-12], [0.0, 2.0]], 0.5)
    cases = [
        (dict(mean_positive=[[1.0, 0.5]]), ValueError,
         "mean_positive must be a 1-D array of shape (d,) with d >= 1; got shape (1, 2)"),
        (dict(mean_positive=[]), ValueError,
         "mean_positive must be a 1-D array of shape (d,) with d >= 1; got shape (0,)"),
        (dict(covariance=((1.0, np.inf), (np.inf, 1.0))), ValueError,
         "covariance must contain only finite values; got a non-finite entry"),
        (dict(intercept=1), TypeError, "intercept must be a bool; got 1"),
    ]
    for changes, error, message in cases:
        with pytest.raises(error, match=exactly(message)):
            _gaussian(**changes)
    with pytest.raises(ValueError, match=r"^covariance must be positive definite; got smallest eigenvalue") as info:
        _gaussian(covariance=((1.0, 2.0), (2.0, 1.0)))  # eigenvalues -1 and 3
    assert float(str(info.value).rsplit(" ", 1)[1]) == pytest.approx(-1.0, rel=1e-12, abs=0)


def test_gaussian_tiny_output_scale_gives_indicator_rates_silently():
    """theta_x = 1e-150 and theta_0 = 1e300: m / s overflows to +inf, and ndtr(+inf) = 1 exactly, without warning;
    theta_x = 1e-320 underflows s to 0 (the indicator branch)."""
    pop = _gaussian()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tp, fp = pop.positive_rates(np.array([[1e-150, 0.0, 1e300], [1e-320, 0.0, 1.0]]))
    assert tp.tolist() == [0.3, 0.3] and fp.tolist() == [0.7, 0.7]


# -------------------------------------------------------------------------------------------- bounded
def _mp_prior(slope, offset):
    """(1/2) integral_{-1}^{1} sigmoid(slope u + offset) du = (softplus(slope + offset) - softplus(offset - slope))
    / (2 slope), at 50 digits (oracle; slope != 0)."""
    with mp.workdps(50):
        a, b = mp.mpf(slope), mp.mpf(offset)
        softplus = lambda z: mp.log(1 + mp.exp(z))  # noqa: E731
        return float((softplus(a + b) - softplus(b - a)) / (2 * a))


@pytest.mark.parametrize("slope, offset", [(0.4, 0.1), (15.25, 0.3), (40.0, 40.0), (-40.0, 40.0), (3.0, -0.5),
                                           (15.5, -15.5)])
def test_bounded_prior_matches_the_closed_form_in_every_branch(slope, offset):
    """Spread |slope| * 2 = 0.8 (near form), 30.5 (just beyond the switch at 30), 80 with the smaller end at
    softplus(0), and 31 with the larger end at 0, where both terms of the far form count: pi to 1e-14 relative."""
    assert BoundedLogisticPopulation(slope, offset).prior == pytest.approx(_mp_prior(slope, offset), rel=1e-14, abs=0)
    assert BoundedLogisticPopulation(0.0, 0.7).prior == pytest.approx(expit(0.7), rel=1e-15, abs=0)


def test_bounded_constructor_messages():
    with pytest.raises(ValueError, match=exactly("offset must be a finite real number in (-inf, inf); got nan")):
        BoundedLogisticPopulation(1.0, np.nan)
    with pytest.raises(ValueError, match=exactly("both classes need positive mass; got prior 0.0 for slope=0.0, "
                                                 "offset=-800.0")):
        BoundedLogisticPopulation(0.0, -800.0)


@pytest.mark.parametrize("theta, positive", [((1.0, 5.0), True), ((-1.0, 5.0), True), ((0.0, 1.0), True),
                                             ((1.0, -5.0), False), ((-1.0, -5.0), False), ((0.0, -1.0), False),
                                             ((0.0, 0.0), False)])
def test_bounded_rates_of_classifiers_constant_on_the_support(theta, positive):
    """|b| > |a|: theta^T (u, 1) = a u + b has the sign of b on all of [-1, 1] (sgn(0) = -1 for theta = 0)."""
    pop = _bounded()
    tp, fp = pop.positive_rates(np.array([theta, theta, theta]))
    expected = (pop.prior, 1 - pop.prior) if positive else (0.0, 0.0)
    np.testing.assert_allclose(tp, expected[0], rtol=1e-15, atol=0)
    np.testing.assert_allclose(fp, expected[1], rtol=1e-15, atol=0)


def test_bounded_loss_moments_of_a_constant_margin():
    """theta = (0, 1): xi = 1 everywhere, so with the hinge (kink at 1) E[phi(-xi) 1{Y=-1}] = 2 (1 - pi),
    E[phi(xi) 1{Y=+1}] = 0, and the gradient moment E[phi'(y xi) y x 1{Y=y}] is ((1/2) int u (1 - eta) du,
    1 - pi) for y = -1 (phi'(-1) = -1) and 0 for y = +1 (phi'(1+) = 0).  Oracle: mpmath quadrature."""
    pop = _bounded()
    moments = pop.loss_moments(np.array([0.0, 1.0]), hinge(), gradient=True)
    np.testing.assert_allclose(moments.value[0], [2 * (1 - pop.prior), 0.0], rtol=1e-14, atol=0)
    with mp.workdps(30):
        first = float(mp.quad(lambda u: u * (1 - 1 / (1 + mp.exp(-(3 * u - mp.mpf("0.5"))))), [-1, 1]) / 2)
    np.testing.assert_allclose(moments.gradient[0], [[first, 1 - pop.prior], [0.0, 0.0]], rtol=1e-13, atol=1e-16)


# ----------------------------------------------------------------------------- the threshold search (Prop. 5)
def _uniform_score_family():
    """A score s ~ Uniform[0, 1] with eta(s) = s and pi = 1/2: TP(t) = (1 - t^2)/2, FP(t) = (1 - t)^2/2 for the
    classifier {s > t}; accuracy TP + (1 - pi - FP) is maximal at t = 1/2 with value 3/4."""
    def rates(t):
        t = np.asarray(t, dtype=np.float64)
        return (1 - t * t) / 2, (1 - t) ** 2 / 2

    def rate_slopes(t):
        t = np.asarray(t, dtype=np.float64)
        return -t, -(1 - t)

    return rates, rate_slopes


@pytest.mark.parametrize("grid", [[0.2, 0.52, 0.9, 1.0], [0.0, 0.1, 0.48, 0.9], [0.5, 0.9, 1.0]],
                         ids=["best-at-index-1", "best-at-second-last", "best-at-index-0"])
def test_threshold_search_refines_the_best_grid_point(grid):
    rates, rate_slopes = _uniform_score_family()
    best = populations._maximize_over_thresholds(accuracy(), 0.5, rates=rates, rate_slopes=rate_slopes,
                                                 grid=np.array(grid))
    assert best.utility == pytest.approx(0.75, rel=1e-15, abs=0)
    assert best.threshold == pytest.approx(0.5, abs=1e-12) and best.direction == 1


def test_threshold_search_fallback_is_a_precise_bounded_brent_on_u():
    """An ascent oracle that never changes sign (rate slopes 0) forces the fallback: bounded Brent on U itself,
    to xatol = 1e-13 * scale, without solver warnings.  On the uniform-score family F_1(t) = (1 - t^2) / (3/2 - t)
    (TP + FP = 1 - t), maximal where t^2 - 3 t + 1 = 0: t* = (3 - sqrt 5) / 2 with F_1 = 2 t* (Prop. 5: eta = U/2).
    Not a parabola, so Brent needs its tolerance: 1e-5 (SciPy's default) would leave U off by ~1e-11."""
    rates, _ = _uniform_score_family()
    zero = lambda t: (0.0 * np.asarray(t), 0.0 * np.asarray(t))  # noqa: E731
    t_star = (3 - math.sqrt(5)) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        best = populations._maximize_over_thresholds(f1(), 0.5, rates=rates, rate_slopes=zero,
                                                     grid=np.linspace(0.0, 1.0, 6))
    assert best.utility == pytest.approx(2 * t_star, rel=1e-15) and best.threshold == pytest.approx(t_star, abs=1e-7)


def test_threshold_search_trivial_classifiers_and_ties():
    """Without a grid only 'none' (threshold +inf, theta = (0, -1)) and 'all' (-inf, theta = (0, +1)) compete;
    a tie keeps 'none'."""
    none = populations._maximize_over_thresholds(accuracy(), 0.3)
    assert (none.utility, none.threshold) == (0.7, math.inf)
    assert populations._threshold_parameters(none, np.ones(1)).tolist() == [0.0, -1.0]
    everything = populations._maximize_over_thresholds(accuracy(), 0.8)
    assert everything.utility == pytest.approx(0.8) and everything.threshold == -math.inf
    assert populations._threshold_parameters(everything, np.ones(2)).tolist() == [0.0, 0.0, 1.0]
    tie = populations._maximize_over_thresholds(accuracy(), 0.5)
    assert tie.threshold == math.inf
    # the bounded population with a constant eta: the trivial classifiers only, as parameter vectors
    assert BoundedLogisticPopulation(0.0, 1.0).bayes_optimal(accuracy()).classifier.tolist() == [0.0, 1.0]
    assert BoundedLogisticPopulation(0.0, -1.0).bayes_optimal(accuracy()).classifier.tolist() == [0.0, -1.0]
    assert BoundedLogisticPopulation(0.0, 0.0).bayes_optimal(accuracy()).classifier.tolist() == [0.0, -1.0]


def test_bounded_bayes_optimum_of_precision_is_silent_at_the_0_over_0_end():
    """Precision of {u > t} is 0/0 at t = 1 (the last grid point): that candidate counts as 0, without a warning;
    the supremum of precision is eta(1) (approached as t -> 1, never exceeded)."""
    pop = _bounded()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        precision = pop.bayes_optimal(PRECISION).utility
    grid_best = max(pop.utility(PRECISION, np.array([1.0, -t])) for t in np.linspace(-1, 0.999, 200))
    assert grid_best <= precision <= expit(3.0 - 0.5)


def test_threshold_search_counts_0_over_0_trivial_classifiers_as_zero():
    """pi = 1/2: precision TP / (TP + FP) of 'none' and NPV TN / (TN + FN) of 'all' are 0/0 exactly; they count as
    0 (silently), so the other trivial classifier, with utility 1/2, wins."""
    npv = LinearFractionalMetric(a0p=0.0, a0n=-1.0, a1p=-1.0, a1n=-1.0, b0_const=1.0, b0_prior=-1.0, b1_const=1.0,
                                 name="NPV")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        best = populations._maximize_over_thresholds(PRECISION, 0.5)
        assert (best.utility, best.threshold) == (0.5, -math.inf)  # 'all': precision = pi
        best = populations._maximize_over_thresholds(npv, 0.5)
        assert (best.utility, best.threshold) == (0.5, math.inf)  # 'none': NPV = 1 - pi


if __name__ == "__main__":  # pragma: no cover - print the pinned literals again
    for key, value in _mpmath_references().items():
        if isinstance(value, dict):
            print(key, {k: [mp.nstr(v, 22) for v in x] if isinstance(x, list) else mp.nstr(x, 22)
                        for k, x in value.items()})
        else:
            print(key, mp.nstr(value, 22))
