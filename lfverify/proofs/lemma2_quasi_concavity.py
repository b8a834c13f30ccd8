"""Lemma 2 (lem:quasi-concavity) and its proof in App. B (sec:supp:quasi-concavity): for a convex phi the
empirical numerator N_hat is concave and U_hat = N_hat / D_hat is quasi-concave over F-bar = {N_hat >= 0}.

Checked here:

* the tau-discrepant logistic loss of Fig. 2 (fig:fisher-consistent-surrogate-loss) is convex exactly for
  tau <= 1 (second derivative of both pieces, and the one-sided derivatives at the kink), while the caption
  presents it for tau > 0;
* with Eq. (6)'s per-sample scores W~_k(xi, y) = offset + slope_k(y) phi(y xi), W~_0 is concave and W~_1
  convex in xi exactly under Definition 1's sign constraints (second derivatives and derivative jumps at the
  kink, for a generic convex phi);
* for the linear model f_theta(x) = theta^T x the Hessian of N_hat is (1/m) sum_i w_i'' x_i x_i^T with
  w_i'' <= 0 (symbolic for generic x_i, d = 2, m = 3), and is negative semidefinite at seeded random points;
* App. B's super-level-set argument, including the case alpha < 0 that App. B leaves to "f in F-bar".
"""

from __future__ import annotations

import mpmath as mp
import numpy as np
import sympy as sp

from lfverify.core import (
    DEFAULT_SEED,
    EmpiricalSurrogateUtility,
    accuracy,
    f_beta,
    jaccard,
    score_coefficients,
    tau_logistic,
)
from lfverify.proofs._claims import Claim, Erratum, Outcome
from lfverify.proofs._mpmath_tau_logistic import tau_logistic_mp

M, TAU = sp.symbols("m tau", real=True)
XI = sp.Symbol("xi", real=True)
LN2 = sp.log(2)

# ---- printed forms, transcribed from the LaTeX source
# Fig. 2 caption (fig:fisher-consistent-surrogate-loss): "An example of tau-discrepant loss with tau > 0:
# phi(t) = log2(1 + e^{-t}) for t <= 0 and phi(t) = log2(1 + e^{-tau t}) for t > 0"
PHI_LEFT = sp.log(1 + sp.exp(-M)) / LN2  # m <= 0
PHI_RIGHT = sp.log(1 + sp.exp(-TAU * M)) / LN2  # m > 0
PRINTED_TAU_RANGE = sp.Interval.open(0, sp.oo)
# Definition 2 (def:discrepant-loss): a *convex* phi is tau-discrepant if phi'(0+) >= tau phi'(0-)


# Eq. (6) (eq:empirical-utility), per-sample surrogate scores; ``phi`` is a callable
def printed_w0_tilde(xi, y, a0p, a0n, b0, phi):
    return a0p * (1 - phi(xi)) + b0 if y == 1 else a0n * phi(-xi) + b0


def printed_w1_tilde(xi, y, a1p, a1n, b1, phi):
    return a1p * (1 + phi(xi)) + b1 if y == 1 else a1n * phi(-xi) + b1


# Lemma 2: F-bar = {f | N_hat(f) >= 0}; "If phi is convex, U_hat is quasi-concave over F-bar and N_hat is
# concave over F".  App. B: "It is enough to show A_alpha is a convex set for any alpha >= 0 owing to
# f in F-bar"; "U_hat(f) >= alpha <=> N_hat - alpha D_hat >= 0" (*), "(*) is concave in f".
# ---- end of printed forms

A0P, A0N, A1P, A1N = sp.symbols("a0p a0n a1p a1n", real=True)
B0, B1 = sp.symbols("b0 b1", real=True)
SIGN_CONSTRAINTS = {A0P: A0P >= 0, A0N: A0N <= 0, A1P: A1P >= 0, A1N: A1N >= 0}


def check_tau_logistic_convexity() -> Outcome:
    """Convexity of Fig. 2's loss: phi'' >= 0 on both pieces, continuity at 0, and phi'(0-) <= phi'(0+)."""
    second = [sp.factor(sp.diff(piece, M, 2)) for piece in (PHI_LEFT, PHI_RIGHT)]
    tau_pos, m_real = sp.Symbol("tau", positive=True), sp.Symbol("m", real=True)
    positive = [sp.simplify(s.subs({TAU: tau_pos, M: m_real})).is_positive for s in second]
    continuous = sp.simplify(PHI_LEFT.subs(M, 0) - PHI_RIGHT.subs(M, 0)) == 0
    d_left = sp.simplify(sp.diff(PHI_LEFT, M).subs(M, 0))
    d_right = sp.simplify(sp.diff(PHI_RIGHT, M).subs(M, 0))
    kink = sp.solve_univariate_inequality(d_left <= d_right, TAU, relational=False,
                                          domain=sp.Interval.open(0, sp.oo))
    discrepant = sp.simplify(d_right - TAU * d_left) == 0  # phi'(0+) = tau phi'(0-): tau-discrepant
    if all(positive) and continuous and kink == sp.Interval.Lopen(0, 1) and discrepant:
        return Outcome("verified", f"phi'' = {second[0]} (m < 0) and {second[1]} (m > 0), both > 0; phi(0-) = "
                                   f"phi(0+) = 1; phi'(0-) = {d_left} <= phi'(0+) = {d_right} iff tau in {kink}; "
                                   "phi'(0+) = tau phi'(0-), so phi is convex and tau-discrepant for 0 < tau <= 1.")
    return Outcome("undecided", f"second derivatives {second} positive={positive}, kink set {kink}")


def check_fig2_tau_range() -> Outcome:
    """Compares the range of tau on which Fig. 2's loss is convex (derived) with the caption's tau > 0."""
    d_left = sp.diff(PHI_LEFT, M).subs(M, 0)
    d_right = sp.diff(PHI_RIGHT, M).subs(M, 0)
    convex_set = sp.solve_univariate_inequality(sp.simplify(d_left - d_right) <= 0, TAU, relational=False,
                                                domain=sp.Interval.open(0, sp.oo))
    if convex_set == PRINTED_TAU_RANGE:
        return Outcome("verified", f"Fig. 2's loss is convex exactly for tau in {convex_set}, the caption's range.")
    tau, h = 2, mp.mpf(1) / 10
    with mp.workdps(50):
        phi = tau_logistic_mp(tau)  # Fig. 2's loss
        midpoint_gap = phi(-h) + phi(h) - 2 * phi(0)
        slopes = (-1 / (2 * mp.log(2)), -tau / (2 * mp.log(2)))
    return Outcome(
        "erratum",
        f"Fig. 2's tau-logistic loss is convex (hence tau-discrepant in the sense of Definition 2) exactly for tau in "
        f"{convex_set} (derived; the printed range is tau > 0); the theorems only use tau < 1.",
        errata=(Erratum(
            location="Fig. 2 caption (fig:fisher-consistent-surrogate-loss), with Definition 2 (def:discrepant-loss)",
            printed="An example of tau-discrepant loss with tau > 0: phi(t) = log2(1 + e^{-t}) (t <= 0), "
                    "log2(1 + e^{-tau t}) (t > 0)",
            derived=f"phi'(0-) = {sp.simplify(d_left)}, phi'(0+) = {sp.simplify(d_right)}; phi is convex iff "
                    f"phi'(0-) <= phi'(0+) iff tau in {convex_set}; for tau > 1 the kink is concave and phi is "
                    "not a (convex) tau-discrepant loss",
            consequence="no for the theorems: Thm. 1 needs (1 + beta^2) tau / (beta^2 - tau) <= U_phi* <= 1, i.e. "
                        "tau <= beta^2 / (2 + beta^2) < 1, Thm. 2 has tau in (0, 1), and the experiments use "
                        "tau = 0.33, 0.75; only the caption's range is wrong (lfverify.core.tau_logistic "
                        "accepts tau in (0, 1]).",
            witness=f"tau = 2, h = 1/10: phi(-h) + phi(h) - 2 phi(0) = {mp.nstr(midpoint_gap, 12)} < 0 (midpoint "
                    f"convexity fails); phi'(0-) = {mp.nstr(slopes[0], 12)} > phi'(0+) = {mp.nstr(slopes[1], 12)}",
            evidence="mpmath at 50 digits of the caption's formula; the one-sided derivatives are exact "
                     "(-1/(2 ln 2) and -tau/(2 ln 2)).",
        ),),
        method="symbolic (solve_univariate_inequality), witness in mpmath 50 digits",
    )


def _score_curvature(k):
    """For W~_k(xi, y) of Eq. (6) with a generic phi: (coefficient of phi'' in d^2/dxi^2, coefficient of the
    derivative jump J = phi'(0+) - phi'(0-) at xi = 0), for y = +1 and y = -1.
    """
    phi = sp.Function("phi")
    d_minus, d_plus = sp.symbols("d_minus d_plus", real=True)  # phi'(0-), phi'(0+)
    printed = printed_w0_tilde if k == 0 else printed_w1_tilde
    coeffs = (A0P, A0N, B0) if k == 0 else (A1P, A1N, B1)
    out = {}
    for y in (1, -1):
        w = printed(XI, y, *coeffs, phi)
        second = sp.diff(w, XI, 2).doit()
        dd = sp.Symbol("phi2", nonnegative=True)
        second = second.subs(sp.Derivative(phi(y * XI), XI, 2), dd).doit()
        second = second.replace(lambda e: isinstance(e, sp.Subs) or isinstance(e, sp.Derivative), lambda e, dd=dd: dd)
        curv = sp.expand(second).coeff(dd)
        first = sp.diff(w, XI).doit()
        dphi = sp.Symbol("phi1", real=True)
        first = first.replace(lambda e: isinstance(e, sp.Subs) or isinstance(e, sp.Derivative),
                              lambda e, dphi=dphi: dphi)
        slope = sp.expand(first).coeff(dphi)
        # xi -> 0+ : the argument y xi -> 0 from the side sign(y); xi -> 0- from the other side
        right_limit = slope * (d_plus if y == 1 else d_minus)
        left_limit = slope * (d_minus if y == 1 else d_plus)
        jump = sp.expand(right_limit - left_limit)
        jump_coeff = sp.simplify(jump / (d_plus - d_minus))
        out[y] = (curv, jump_coeff)
    return out


def check_score_concavity() -> Outcome:
    """Derives from Eq. (6) the curvature of W~_0 (must be <= 0) and W~_1 (>= 0) in xi for a generic convex phi.

    d^2/dxi^2 W~_k(xi, y) = c * phi''(y xi) and the derivative jump at xi = 0 is c * (phi'(0+) - phi'(0-)) with
    the same c; with phi'' >= 0 and phi'(0+) >= phi'(0-) (phi convex) the sign of c decides.  The solved sign
    condition on c is compared with Definition 1's sign constraints.
    """
    lines, ok = [], True
    for k, want in ((0, "concave"), (1, "convex")):
        for y, (curv, jump) in _score_curvature(k).items():
            ok &= sp.simplify(curv - jump) == 0
            relation = curv <= 0 if k == 0 else curv >= 0
            (symbol,) = curv.free_symbols
            condition = sp.solve_univariate_inequality(relation, symbol)
            expected = SIGN_CONSTRAINTS[symbol]
            same = sp.simplify(condition.as_set().symmetric_difference(expected.as_set())) == sp.S.EmptySet
            ok &= same
            lines.append(f"W~_{k}(., {y:+d}) {want} iff {curv} {'<=' if k == 0 else '>='} 0, i.e. {expected}")
    if not ok:
        return Outcome("undecided", "; ".join(lines))
    return Outcome("verified", "from Eq. (6) with a generic convex phi (phi'' >= 0 off the kink, phi'(0+) >= "
                               "phi'(0-) at it; the jump has the same coefficient as phi''): " + "; ".join(lines)
                               + ". These are Definition 1's sign constraints, so Lemma 2 uses them besides convexity.")


def check_numerator_hessian() -> Outcome:
    """Derives the Hessian of N_hat(theta) = (1/m) sum W~_0(theta^T x_i, y_i) for the linear model (d = 2,
    m = 3, generic symbolic x_i, generic phi) and compares with (1/m) sum w_i'' x_i x_i^T; then checks it is
    negative semidefinite for Fig. 2's loss at seeded random points (core library's second derivative).
    """
    phi = sp.Function("phi")
    theta = sp.symbols("theta1 theta2", real=True)
    xs = [sp.symbols(f"x{i}1 x{i}2", real=True) for i in range(3)]
    ys = (1, -1, 1)
    m = len(xs)
    margins = [sum(t * x for t, x in zip(theta, xi)) for xi in xs]
    n_hat = sum(printed_w0_tilde(xi=z, y=y, a0p=A0P, a0n=A0N, b0=B0, phi=phi) for z, y in zip(margins, ys)) / m
    hessian = sp.hessian(n_hat, theta).doit()
    # w_i''(t) = d^2/dt^2 W~_0(t, y_i), evaluated at t = theta^T x_i
    t = sp.Symbol("t", real=True)
    expected = sp.zeros(2, 2)
    for z, y, xi in zip(margins, ys, xs):
        w2 = sp.diff(printed_w0_tilde(xi=t, y=y, a0p=A0P, a0n=A0N, b0=B0, phi=phi), t, 2).subs(t, z)
        expected += w2 * sp.Matrix(xi) * sp.Matrix(xi).T / m
    diff = (hessian - expected.doit()).applyfunc(lambda e: sp.simplify(e.doit()))
    if diff != sp.zeros(2, 2):
        return Outcome("undecided", f"Hessian mismatch {diff}")
    # numeric: NSD for F_1, Jaccard, accuracy and tau in {1/3, 3/4, 1} at seeded random points

    rng = np.random.default_rng(DEFAULT_SEED)
    worst, count = -np.inf, 0
    for metric in (f_beta(1.0), jaccard(), accuracy()):
        slope0 = score_coefficients(metric).slope0  # W~_0 = offset + slope0[y] phi(y xi): w'' = slope0[y] phi''
        for tau in (1 / 3, 0.75, 1.0):
            loss = tau_logistic(tau)
            for _ in range(25):
                X = rng.normal(size=(6, 3))
                y = rng.choice([-1, 1], size=6)
                th = rng.normal(scale=2.0, size=3)
                margin = y * (X @ th)
                w2 = slope0[(y == 1).astype(int)] * loss.second_derivative(margin)
                H = (X.T * w2) @ X / len(y)
                scale = max(1.0, float(np.abs(H).max()))
                worst = max(worst, float(np.linalg.eigvalsh(H).max()) / scale)
                count += 1
    if worst > 1e-12:
        return Outcome("erratum", "positive Hessian eigenvalue of N_hat", errata=(Erratum(
            location="Lemma 2", printed="N_hat concave", derived="Hessian not NSD", consequence="Lemma 2 false",
            witness=f"relative eigenvalue {worst:.3g}", evidence="numpy eigvalsh"),))
    return Outcome("verified", "Hessian of N_hat for generic x_i (d = 2, m = 3, y = (+1, -1, +1)) equals "
                               "(1/m) sum_i w_i''(theta^T x_i) x_i x_i^T with w_i'' = -a0p phi''(t) (y = +1), "
                               "a0n phi''(-t) (y = -1), both <= 0 under a0p >= 0, a0n <= 0, phi'' >= 0, so each "
                               f"term is NSD; at {count} seeded random points (F_1, Jaccard, accuracy; tau in "
                               "{1/3, 3/4, 1}; d = 3, m = 6) the largest eigenvalue is <= 1e-12 (relative).",
                   method=f"symbolic Hessian; numpy eigvalsh at {count} seeded points (default_rng({DEFAULT_SEED}))")


def check_superlevel_sets() -> Outcome:
    """App. B: (*) = N_hat - alpha D_hat is concave for alpha >= 0 (curvature coefficients derived from Eq. (6));
    for alpha < 0 the super-level set of U_hat in F-bar is F-bar itself, convex because N_hat is concave; and a
    numeric quasi-concavity test of U_hat along segments in F-bar with the core library.
    """
    alpha = sp.Symbol("alpha", real=True)
    # (*) per-sample curvature: numerator samples contribute c0(y) phi'', denominator samples -alpha c1(y) phi''
    c0 = _score_curvature(0)
    c1 = _score_curvature(1)
    star = [c0[1][0], c0[-1][0], -alpha * c1[1][0], -alpha * c1[-1][0]]
    concave_set = sp.Interval(-sp.oo, sp.oo)
    for coeff in star:
        if alpha in coeff.free_symbols:
            # with a1p, a1n >= 0 the sign of -alpha * a1k is decided by alpha
            k = (coeff.free_symbols - {alpha}).pop()
            pos = sp.Symbol(str(k), positive=True)
            concave_set = concave_set.intersect(
                sp.solve_univariate_inequality(coeff.subs(k, pos) <= 0, alpha, relational=False))
    # F-bar: U_hat >= 0 there (D_hat > 0), so {U_hat >= alpha} in F-bar = F-bar for alpha <= 0; F-bar is the
    # 0-super-level set of the concave N_hat: convex.  D_hat > 0: W~_1 - b_1 = a1k * (1 + phi) or a1k * phi >= 0,
    # so D_hat >= b_1 > 0 for F_beta (b_1 = beta^2 pi) and Jaccard (b_1 = pi) in Eq. (6)'s literal form.
    phi_val = sp.Symbol("phi", nonnegative=True)
    a1p_nn, a1n_nn = sp.symbols("a1p a1n", nonnegative=True)
    excess = [sp.expand(printed_w1_tilde(xi=0, y=y, a1p=a1p_nn, a1n=a1n_nn, b1=B1,
                                         phi=lambda _: phi_val) - B1) for y in (1, -1)]
    d_hat_bound = all(expr.is_nonnegative for expr in excess)  # W~_1 - b_1 = a1p (1 + phi) or a1n phi
    # numeric quasi-concavity along segments inside F-bar

    rng = np.random.default_rng(DEFAULT_SEED)
    tested, worst = 0, -np.inf
    for metric, tau in ((f_beta(1.0), 0.33), (jaccard(), 0.75)):
        X = np.column_stack([rng.normal(size=12), np.ones(12)])
        y = np.where(X[:, 0] + 0.5 * rng.normal(size=12) > 0, 1, -1)
        y[:2] = (1, -1)
        y[6:8] = (1, -1)
        emp = EmpiricalSurrogateUtility(metric, tau_logistic(tau), X, y)
        thetas = rng.normal(scale=2.0, size=(400, 2))
        inside = thetas[emp.numerator(thetas) >= 0]
        for a, b in zip(inside[0::2], inside[1::2]):
            ts = np.linspace(0.0, 1.0, 11)[:, None]
            seg = (1 - ts) * a + ts * b
            if np.min(emp.numerator(seg)) < 0:  # F-bar is convex: never happens
                worst = np.inf
                break
            vals = emp.value(seg)
            worst = max(worst, float(min(vals[0], vals[-1]) - vals.min()))
            tested += 1
    if not (concave_set == sp.Interval(0, sp.oo) and d_hat_bound and worst <= 1e-12 and tested >= 100):
        return Outcome("undecided", f"(*) concave for alpha in {concave_set}; D_hat bound {d_hat_bound}; "
                                    f"segment test worst {worst}, {tested} segments")
    return Outcome(
        "verified",
        f"curvature of (*) per sample: {', '.join(map(str, star))} (times phi''), all <= 0 under Def. 1's signs iff "
        f"alpha in {concave_set}; for alpha < 0, A_alpha = F-bar (U_hat >= 0 on F-bar), convex as the 0-super-"
        "level set of the concave N_hat, so App. B's restriction to alpha >= 0 is complete. Implicit hypothesis: "
        "D_hat > 0 (used in U_hat >= alpha <=> (*) >= 0); it holds for F_beta and Jaccard since W~_1 >= b_1 > 0 "
        "per sample (see lemma1_lower_bound.positive_denominator for metrics with D < 0). U_hat along "
        f"{tested} segments in F-bar (F_1 tau = 0.33, Jaccard tau = 0.75, core library) never dips below the "
        "smaller end value and the segments stay in F-bar.",
        method=f"symbolic curvature; core library at {tested} seeded segments x 11 points",
    )


CLAIMS = (
    Claim(key="lemma2_quasi_concavity.tau_logistic_convexity",
          title="Lemma 2 / Fig. 2: the tau-logistic loss is convex and tau-discrepant for 0 < tau <= 1",
          label="lem:quasi-concavity", expected="verified", check=check_tau_logistic_convexity),
    Claim(key="lemma2_quasi_concavity.fig2_tau_range",
          title="Fig. 2: the tau-logistic loss is tau-discrepant for tau > 0",
          label="fig:fisher-consistent-surrogate-loss", expected="erratum", check=check_fig2_tau_range),
    Claim(key="lemma2_quasi_concavity.score_concavity",
          title="Lemma 2: W~_0 concave and W~_1 convex in xi under the sign constraints",
          label="lem:quasi-concavity", expected="verified", check=check_score_concavity),
    Claim(key="lemma2_quasi_concavity.numerator_hessian",
          title="Lemma 2: the Hessian of N_hat(theta) for the linear model is negative semidefinite",
          label="lem:quasi-concavity", expected="verified", check=check_numerator_hessian),
    Claim(key="lemma2_quasi_concavity.superlevel_sets",
          title="App. B: super-level sets of U_hat in F-bar are convex for every alpha",
          label="sec:supp:quasi-concavity", expected="verified", check=check_superlevel_sets),
)
