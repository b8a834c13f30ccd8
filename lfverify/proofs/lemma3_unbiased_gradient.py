"""Lemma 3 (lem:unbiased-gradient) and Sec. 3.3 (sec:gradient-direction): the gradient of the empirical
surrogate utility is grad U_hat = V_hat / D_hat^2 with V_hat of Eq. (7) (eq:gradient-estimator), and V_hat is
an unbiased estimator of the population gradient direction V_phi = E[W_1] E[grad W_0] - E[W_0] E[grad W_1].

Derivations:

* Eq. (6)'s per-sample scores average, over Y given X, to Eq. (3)'s scores (the "simple algebra");
* grad U_hat from Eq. (6) with generic per-sample score functions w0_i(theta), w1_j(theta) (sympy Functions);
* grad U_phi for a finite distribution with symbolic probabilities, and E_S[V_hat] by enumerating every
  sample of size n = 2, 3, 4 (m = floor(n / 2)) over a 4-outcome distribution (2 atoms x 2 labels) with
  symbolic probabilities p_1..p_4 (sum 1) and symbolic per-outcome scores and score gradients;
* the same-sample variant (S_0 = S_1 = S) is biased: exact bias for n = 2;
* U_hat itself is biased (Sec. 3.3's opening remark).
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy as sp

from lfverify.core import FiniteSupportPopulation, f1, surrogate_scores, tau_logistic
from lfverify.proofs._claims import Claim, Erratum, Outcome

THETA = sp.symbols("theta1 theta2", real=True)

# ---- printed forms, transcribed from the LaTeX source
# Eq. (3) (eq:surrogate-scores)
def printed_w_phi(k, a_pos, a_neg, b, phi_xi, phi_mxi, q):
    if k == 0:
        return a_pos * (1 - phi_xi) * q + a_neg * phi_mxi * (1 - q) + b
    return a_pos * (1 + phi_xi) * q + a_neg * phi_mxi * (1 - q) + b


# Eq. (6) (eq:empirical-utility), per-sample scores W~_{k,phi}(xi, y)
def printed_w_tilde(k, a_pos, a_neg, b, phi_xi, phi_mxi, y):
    if y == 1:
        return a_pos * (1 - phi_xi) + b if k == 0 else a_pos * (1 + phi_xi) + b
    return a_neg * phi_mxi + b


# Eq. (6): U_hat = (1/m sum_{i<=m} W~_0(z_i)) / (1/(n-m) sum_{i>m} W~_1(z_i))
def printed_u_hat(w0, w1):
    return (sum(w0) / len(w0)) / (sum(w1) / len(w1))


# Eq. (7) (eq:gradient-estimator): V_hat = 1/(m(n-m)) sum_{i<=m} sum_{j>m} {W~_1(z_j) grad W~_0(z_i)
#                                                                        - W~_0(z_i) grad W~_1(z_j)}
def printed_v_hat(w0, gw0, w1, gw1):
    m, r = len(w0), len(w1)
    return sum(w1[j] * gw0[i] - w0[i] * gw1[j] for i in range(m) for j in range(r)) / (m * r)


# Sec. 3.3: grad U_phi = (E[W_1])^{-2} (E[W_1] E[grad W_0] - E[W_0] E[grad W_1]),
# V_phi = E[W_1] E[grad W_0] - E[W_0] E[grad W_1]
def printed_v_phi(e_w0, e_gw0, e_w1, e_gw1):
    return e_w1 * e_gw0 - e_w0 * e_gw1


# Lemma 3: V_phi(f) = E_S[V_hat(f)] (S_0 = first m points, S_1 = the rest, m = floor(n / 2), Sec. 2)
# Sec. 3.3: "solving grad U_hat(f) = 0 is identical to solving V_hat(f) = 0" (grad U_hat = V_hat / D_hat^2)
# ---- end of printed forms

K = 4  # outcomes: (atom 1, +1), (atom 1, -1), (atom 2, +1), (atom 2, -1)
P = sp.symbols(f"p1:{K + 1}", positive=True)
A = sp.symbols(f"A1:{K + 1}", real=True)  # W~_0 of outcome k
B = sp.symbols(f"B1:{K + 1}", real=True)  # W~_1 of outcome k
GA = sp.symbols(f"GA1:{K + 1}", real=True)  # d/dtheta W~_0 of outcome k
GB = sp.symbols(f"GB1:{K + 1}", real=True)  # d/dtheta W~_1 of outcome k
SIMPLEX = {P[-1]: 1 - sum(P[:-1])}


def _expectation(values):
    return sum(p * v for p, v in zip(P, values))


def derived_v_phi():
    """D^2 * d/dtheta (N / D) for N = sum p_k A_k(theta), D = sum p_k B_k(theta) (quotient rule, by sympy)."""
    theta = sp.Symbol("theta", real=True)
    fa = [sp.Function(f"a{k}")(theta) for k in range(K)]
    fb = [sp.Function(f"b{k}")(theta) for k in range(K)]
    n, d = _expectation(fa), _expectation(fb)
    v = sp.cancel(sp.diff(n / d, theta) * d**2)
    subs = {sp.Derivative(f, theta): g for f, g in zip(fa + fb, GA + GB)}
    v = v.subs(subs).subs({f: s for f, s in zip(fa + fb, A + B)})
    return sp.expand(v)


def expected_v_hat(n, same_sample=False):
    """E_S[V_hat] by enumerating all K^n samples (probability prod p); split S_0 = first floor(n/2) points."""
    m = n // 2
    total = 0
    for sample in itertools.product(range(K), repeat=n):
        prob = sp.Mul(*(P[k] for k in sample))
        if same_sample:
            first, second = sample, sample
        else:
            first, second = sample[:m], sample[m:]
        v = printed_v_hat([A[k] for k in first], [GA[k] for k in first], [B[k] for k in second],
                          [GB[k] for k in second])
        total += prob * v
    return total


def check_per_sample_scores() -> Outcome:
    """Averages Eq. (6)'s W~_k(xi, Y) over Y ~ Bernoulli(q) and compares with Eq. (3)'s W_{k,phi}(xi, q)."""
    q = sp.Symbol("q", real=True)
    phi_xi, phi_mxi, a_pos, a_neg, b = sp.symbols("phi_xi phi_mxi a_pos a_neg b", real=True)
    diffs = [sp.expand(q * printed_w_tilde(k=k, a_pos=a_pos, a_neg=a_neg, b=b, phi_xi=phi_xi, phi_mxi=phi_mxi, y=1)
                       + (1 - q) * printed_w_tilde(k=k, a_pos=a_pos, a_neg=a_neg, b=b, phi_xi=phi_xi, phi_mxi=phi_mxi,
                                                   y=-1)
                       - printed_w_phi(k=k, a_pos=a_pos, a_neg=a_neg, b=b, phi_xi=phi_xi, phi_mxi=phi_mxi,
                                       q=q)) for k in (0, 1)]
    if diffs != [0, 0]:
        return Outcome("undecided", f"E_Y[W~_k] - W_k,phi = {diffs}")
    return Outcome("verified", "q W~_k(xi, +1) + (1 - q) W~_k(xi, -1) - W_{k,phi}(xi, q) expands to 0 for k = 0, 1 "
                               "(Eq. (6) vs Eq. (3)), so E[W~_k(f(X), Y)] = E_X[W_{k,phi}(f(X), eta(X))] and, by "
                               "linearity, the same for gradients; b_k enters as the constant b_k(pi).")


def check_empirical_gradient_identity() -> Outcome:
    """Differentiates Eq. (6)'s U_hat (generic w0_i(theta), w1_j(theta); m = 2, n - m = 3, theta in R^2) and
    compares with Eq. (7)'s V_hat divided by D_hat^2."""
    m, r = 2, 3
    w0 = [sp.Function(f"w0_{i}")(*THETA) for i in range(m)]
    w1 = [sp.Function(f"w1_{j}")(*THETA) for j in range(r)]
    u_hat = printed_u_hat(w0, w1)
    d_hat = sum(w1) / r
    ok = True
    for t in THETA:
        grad = sp.diff(u_hat, t)
        v = printed_v_hat(w0, [sp.diff(w, t) for w in w0], w1, [sp.diff(w, t) for w in w1])
        ok &= sp.cancel(grad - v / d_hat**2) == 0
    if not ok:
        return Outcome("erratum", "grad U_hat != V_hat / D_hat^2", errata=(Erratum(
            location="Sec. 3.3", printed="grad U_hat = V_hat / D_hat^2", derived="differs",
            consequence="NGA direction wrong", witness="symbolic", evidence="symbolic"),))
    return Outcome("verified", "d U_hat / d theta_l - V_hat_l / D_hat^2 cancels to 0 for both components "
                               "(m = 2, n - m = 3, generic per-sample score functions): grad U_hat = V_hat / "
                               "D_hat^2, so grad U_hat = 0 iff V_hat = 0 whenever D_hat != 0.")


def check_population_gradient() -> Outcome:
    """Derives D^2 d(N/D)/dtheta (quotient rule) for a finite distribution and compares with Sec. 3.3's V_phi."""
    derived = derived_v_phi()
    printed = printed_v_phi(_expectation(A), _expectation(GA), _expectation(B), _expectation(GB))
    if sp.expand(derived - printed) != 0:
        return Outcome("erratum", "Sec. 3.3's gradient direction disagrees with the quotient rule", errata=(Erratum(
            location="Sec. 3.3", printed=str(printed), derived=str(derived), consequence="see summary",
            witness="symbolic", evidence="symbolic"),))
    return Outcome("verified", "for E[W_k] = sum_k p_k W~_k(theta) over 4 outcomes, (E[W_1])^2 d/dtheta (E[W_0] / "
                               "E[W_1]) expands to E[W_1] E[grad W_0] - E[W_0] E[grad W_1]: Sec. 3.3's display, "
                               "with the positive factor (E[W_1])^{-2}.")


def check_unbiased() -> Outcome:
    """E_S[V_hat] by exact enumeration of all samples (n = 2, 3, 4; m = floor(n/2)) vs the derived V_phi."""
    v_phi = derived_v_phi()
    results = []
    for n in (2, 3, 4):
        bias = sp.expand((expected_v_hat(n) - v_phi).subs(SIMPLEX))
        results.append((n, bias))
    bad = [(n, b) for n, b in results if b != 0]
    if bad:
        return Outcome("erratum", f"E_S[V_hat] != V_phi for n in {[n for n, _ in bad]}", errata=(Erratum(
            location="Lemma 3 (lem:unbiased-gradient)", printed="V_phi = E_S[V_hat]", derived=str(bad[0][1]),
            consequence="V_hat biased", witness="symbolic", evidence="exact enumeration"),))
    return Outcome("verified", "E_S[V_hat] - V_phi expands to 0 (with p_4 = 1 - p_1 - p_2 - p_3) for n = 2, 3, 4 "
                               "(m = 1, 1, 2), enumerating all 4^n samples of a 4-outcome distribution with symbolic "
                               "probabilities, scores and score gradients.",
                   method="symbolic, exact enumeration of 4^n samples for n = 2, 3, 4")


def _library_witness():
    """E_S[V_hat] (split) and E_S[V_hat] (same sample) for n = 2 with the core library's scores, vs V_phi."""

    atoms = np.array([[1.0, 0.5], [1.0, -1.5]])
    weights, eta = np.array([0.3, 0.7]), np.array([0.8, 0.25])
    pop = FiniteSupportPopulation(atoms, weights, eta)
    theta = np.array([0.2, 0.7])
    metric, loss = f1(), tau_logistic(0.33)
    outcomes, probs = [], []
    for x, w, e in zip(atoms, weights, eta):
        for y, p in ((1, w * e), (-1, w * (1 - e))):
            w0, w1, dw0, dw1 = surrogate_scores(metric, loss, np.array([x @ theta]), np.array([y]))
            outcomes.append((float(w0[0]), dw0[0] * x, float(w1[0]), dw1[0] * x))
            probs.append(p)
    split = sum(pi * pj * (oj[2] * oi[1] - oi[0] * oj[3])
                for pi, oi in zip(probs, outcomes) for pj, oj in zip(probs, outcomes))
    same = sum(pi * pj * sum(b[2] * a[1] - a[0] * b[3] for a in (oi, oj) for b in (oi, oj)) / 4
               for pi, oi in zip(probs, outcomes) for pj, oj in zip(probs, outcomes))
    return split, same, pop.gradient_direction(metric, loss, theta)


def check_same_sample_biased() -> Outcome:
    """Exact bias of the same-sample estimator (S_0 = S_1 = S, n = 2) by enumeration; witness with the library."""
    v_phi = derived_v_phi()
    bias = sp.expand((expected_v_hat(2, same_sample=True) - v_phi).subs(SIMPLEX))
    # closed form: (1/n)(E[W_1 grad W_0] - E[W_0 grad W_1] - V_phi) = (1/2)(Cov(W_1, grad W_0) - Cov(W_0, grad W_1))
    cov = (_expectation([b * ga for b, ga in zip(B, GA)]) - _expectation(B) * _expectation(GA)
           - _expectation([a * gb for a, gb in zip(A, GB)]) + _expectation(A) * _expectation(GB)) / 2
    matches = sp.expand(bias - cov.subs(SIMPLEX)) == 0
    split, same, v_pop = _library_witness()
    split_err = float(np.max(np.abs(split - v_pop)))
    same_gap = float(np.max(np.abs(same - v_pop)))
    if bias == 0 or not matches or split_err > 1e-12 or same_gap < 1e-6:
        return Outcome("undecided", f"same-sample bias {bias}; matches covariance form {matches}")
    return Outcome(
        "verified",
        "same-sample V_hat (S_0 = S_1 = S, n = 2) has exact bias (1/2)(Cov(W~_1, grad W~_0) - Cov(W~_0, grad W~_1)) "
        "(enumeration), non-zero in general: the split of Sec. 2 is needed for Lemma 3. Core library, F_1, tau = "
        f"0.33, 2 atoms, n = 2: split E_S[V_hat] = {np.array2string(split, precision=10)} equals V_phi = "
        f"{np.array2string(v_pop, precision=10)}; same-sample E_S = {np.array2string(same, precision=10)}.",
        method="symbolic enumeration (n = 2); core library finite sums",
    )


def check_ratio_biased() -> Outcome:
    """Sec. 3.3: U_hat is biased. E[U_hat] for n = 2 (m = 1) by enumeration vs U_phi = E[W_0] / E[W_1]."""
    e_u_hat = sum(P[k] * P[l] * A[k] / B[l] for k in range(K) for l in range(K))
    u_phi = _expectation(A) / _expectation(B)
    # derived: E[U_hat] - U_phi = E[W_0] (E[1/W_1] - 1/E[W_1]) >= 0 for W_1 > 0 (Jensen), = 0 iff W_1 constant
    gap = (e_u_hat - u_phi).subs(SIMPLEX)
    jensen = (_expectation(A) * (_expectation([1 / b for b in B]) - 1 / _expectation(B))).subs(SIMPLEX)
    point = {P[0]: sp.Rational(1, 4), P[1]: sp.Rational(1, 4), P[2]: sp.Rational(1, 4),
             A[0]: 1, A[1]: 0, A[2]: 2, A[3]: 1, B[0]: 1, B[1]: 2, B[2]: 3, B[3]: 4}
    value = gap.subs(point)
    if sp.cancel(sp.together(gap - jensen)) != 0 or value == 0:
        return Outcome("undecided", f"E[U_hat] - U_phi = {gap}")
    return Outcome("verified", "E[U_hat] - U_phi = E[W~_0] (E[1/W~_1] - 1/E[W~_1]) for n = 2 (enumeration); for W~_1 > "
                               "0 "
                               "the bracket is >= 0 by Jensen, = 0 only if W~_1 is constant: e.g. p = 1/4 each, W~_0 = "
                               "(1, 0, 2, 1), W~_1 = "
                               f"(1, 2, 3, 4) gives a bias of {value}; U_hat is biased as Sec. 3.3 says.")


CLAIMS = (
    Claim(key="lemma3_unbiased_gradient.per_sample_scores",
          title="Lemma 3: E_Y[W~_k(xi, Y) | q] = W_{k,phi}(xi, q) (Eq. (6) vs "
                                                        "Eq. (3))",
          label="lem:unbiased-gradient", expected="verified", check=check_per_sample_scores),
    Claim(key="lemma3_unbiased_gradient.empirical_gradient_identity", title="Sec. 3.3: grad U_hat = V_hat / D_hat^2",
          label="eq:gradient-estimator", expected="verified", check=check_empirical_gradient_identity),
    Claim(key="lemma3_unbiased_gradient.population_gradient", title="Sec. 3.3: grad U_phi = V_phi / (E[W_1,phi])^2",
          label="sec:gradient-direction", expected="verified", check=check_population_gradient),
    Claim(key="lemma3_unbiased_gradient.unbiased", title="Lemma 3: E_S[V_hat] = V_phi (sample split)",
          label="lem:unbiased-gradient", expected="verified", check=check_unbiased),
    Claim(key="lemma3_unbiased_gradient.same_sample_biased",
          title="Lemma 3: without the split (S_0 = S_1) V_hat is biased",
          label="lem:unbiased-gradient", expected="verified", check=check_same_sample_biased),
    Claim(key="lemma3_unbiased_gradient.ratio_biased", title="Sec. 3.3: the ratio estimator U_hat is biased",
          label="sec:gradient-direction", expected="verified", check=check_ratio_biased),
)
