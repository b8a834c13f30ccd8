"""Thms. 1 and 2 (F_beta- and Jaccard-calibration) on finite-support populations, with exact surrogate maximisers.

On a population with atoms x_1..x_J (one-hot, so a function of X is one real score per atom) U-calibration
(Definition def:consistency) is decidable exactly:

* the surrogate utility U_phi has a unique maximiser f* over all functions (each atom's Dinkelbach problem is
  strictly convex and coercive for eta in (0, 1)); it is computed and certified at 40-60 digits by
  ``calibration_search.maximise_surrogate`` (Dinkelbach's method; the side of f*(x_j) relative to the kink of
  the tau-logistic loss is decided exactly by the one-sided derivatives at 0);
* every maximising sequence f_l converges to f*, so U(f_l) eventually equals U of sgn(f*) on the atoms where
  f* != 0 completed by *any* labels on the kink atoms {f* = 0} (approached from above, from below or sitting
  at 0): calibration holds iff every such completion attains U-dagger;
* U-dagger = sup_f U(f) is found by brute force over all 2^J classifiers in exact rational arithmetic.

Findings pinned here (see also ERRATA.md, the 'theorem' entries of Thms. 1, 2 and 7):

* Thms. 1 and 2 as stated are false: with tau < 1 the maximiser can sit exactly at the kink f*(x) = 0 on an
  atom; sgn(0) = -1 then mislabels a Bayes-positive atom (ERRATA's witnesses, pinned), and the reading of
  Definition 1 (TP = E[l(-f) eta], i.e. f = 0 counted positive) mislabels a Bayes-negative one
  (counterexamples where the paper's convention happens to succeed but f* + 0 fails are pinned, see
  lfverify/proofs/counterexamples.py).
* The weak form holds (checked on every generated population): under the hypotheses, every atom where
  f* != 0 has the Bayes sign, so labelling the kink atoms by the Bayes rule attains U-dagger.  It holds more
  generally under the sharper condition (derived by hand from the per-atom optimality conditions, and
  implied by the theorems' hypotheses and Lemma 1's U*_phi <= U-dagger):
  F_beta: U*(1 + beta^2 - U-dagger) >= tau U-dagger (1 + beta^2 + U*);  Jaccard: U* >= tau U-dagger.
* Outside the proven range (tau > beta^2 / (2 + beta^2), resp. U*_phi < tau) calibration can fail with a
  maximiser away from the kink, and can also still hold (both pinned).

Oracles: exact rational arithmetic (U, U-dagger by brute force over all 2^J classifiers, Prop. 5's
threshold), mpmath at 40-60 digits (the surrogate maximiser and its Dinkelbach certificate, numerical
one-sided derivatives with mpmath.diff), the theorem statements transcribed in ``calibration_search``.
lfverify (FiniteSupportPopulation, lfverify.core._calibration_conditions) is the code under test, and on every
population generated here the corrected statements (lfverify/proofs/corrected_calibration.py) must predict what the
oracle finds (tests/proofs/corrected_statement_check.py; their own tests are in test_corrected_calibration.py).  Not
repeated here: test_calibration.py (the hypotheses as predicates), test_populations.py (U, U_phi, U-dagger of
FiniteSupportPopulation against mpmath / brute force), lfverify/proofs (the symbolic case analysis).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from corrected_statement_check import assert_corrected_statement_agrees
from hypothesis import event, given, note
from hypothesis import strategies as st

from calibration_search import (
    JACCARD,
    ExactPopulation,
    analyse,
    exact_utility,
    fbeta_coefficients,
    maximise_surrogate,
    mpf,
    random_population,
    tau_logistic_mp,
    thm1_hypotheses,
    thm2_hypotheses,
)
from lfverify.core import f_beta, fbeta_calibration, jaccard, jaccard_calibration, tau_logistic

F = Fraction

# name -> (exact coefficients, library metric, beta^2 or None for Jaccard)
METRICS = {
    "F_1/2": (fbeta_coefficients(F(1, 4)), f_beta(0.5), F(1, 4)),
    "F_1": (fbeta_coefficients(1), f_beta(1.0), F(1)),
    "F_2": (fbeta_coefficients(4), f_beta(2.0), F(4)),
    "Jaccard": (JACCARD, jaccard(), None),
}


@pytest.mark.claims("Theorem 1", "Theorem 2")
def test_library_metrics_have_the_transcribed_coefficients():
    """Table 1: the exact coefficients used as the oracle here are the library's (so the two evaluate the
    same utility).  Oracle: Table 1 transcribed in calibration_search."""
    for coef, metric, _ in METRICS.values():
        assert coef.as_floats() == {k: getattr(metric, k) for k in coef.as_floats()}


# ------------------------------------------------------------------------------------------------ strategies
ETAS = st.one_of(st.integers(1, 999), st.integers(1, 60), st.integers(940, 999)).map(lambda k: F(k, 1000))


@st.composite
def populations(draw):
    """2-5 atoms, rational weights, posteriors in (0, 1) (eta in {0, 1} has no finite maximiser; the
    mixture over-samples posteriors near 0 and 1, where U*_phi is large enough for the hypotheses)."""
    J = draw(st.integers(2, 5))
    w = draw(st.lists(st.integers(1, 20), min_size=J, max_size=J))
    eta = draw(st.lists(ETAS, min_size=J, max_size=J))
    return ExactPopulation(tuple(F(v, sum(w)) for v in w), tuple(eta))


def _library_report(name, tau, u_star):
    """lfverify.core._calibration_conditions's check of Thm. 1 / Thm. 2 for the tau-logistic loss (code under test)."""
    _, _, beta2 = METRICS[name]
    loss = tau_logistic(float(tau))
    if beta2 is None:
        return jaccard_calibration(loss, surrogate_optimum=float(u_star), tau=float(tau))
    return fbeta_calibration(math.sqrt(beta2), loss, surrogate_optimum=float(u_star), tau=float(tau))


def _own_hypotheses(name, tau, u_star):
    _, _, beta2 = METRICS[name]
    return thm2_hypotheses(tau, u_star) if beta2 is None else thm1_hypotheses(beta2, tau, u_star)


def _sharper_condition(name, tau, u_star, u_dagger) -> bool:
    """The hand-derived sufficient condition for the weak form (module docstring), in mpmath."""
    _, _, beta2 = METRICS[name]
    t, ud = mpf(tau), mpf(u_dagger)
    if beta2 is None:
        return bool(u_star >= t * ud)
    b = mpf(1 + beta2)
    return bool(u_star * (b - ud) >= t * ud * (b + u_star))


def _one_sided_derivatives(coef, eta, u, tau, x):
    """(g'(x-), g'(x+)) of g(x) = A phi(x) + B phi(-x), the atom's Dinkelbach objective, by mpmath.diff
    (numerical one-sided differentiation of the loss formula, independent of the closed forms used by the
    maximiser)."""
    phi = tau_logistic_mp(tau)
    A = (mpf(coef.a0p) + u * mpf(coef.a1p)) * mpf(eta)
    B = (u * mpf(coef.a1n) - mpf(coef.a0n)) * (1 - mpf(eta))

    def g(z):
        return A * phi(z) + B * phi(-z)

    return mp.diff(g, x, direction=-1), mp.diff(g, x, direction=1), A + B


# ------------------------------------------------------------------------------------------------ the maximiser
@pytest.mark.claims("Theorem 1", "Theorem 2")
@given(pop=populations(), name=st.sampled_from(sorted(METRICS)), tau_k=st.integers(1, 1000))
def test_surrogate_maximiser_is_certified_and_matches_the_library(pop, name, tau_k):
    """Oracle check of the maximiser, then FiniteSupportPopulation against it.

    Dinkelbach's certificate: max_f N - u* D = 0 to 1e-28, so sup U_phi <= u* + 1e-28; each atom's
    one-sided derivatives (mpmath.diff at 40 digits) satisfy the optimality conditions g'(f*-) <= 0 <= g'(f*+).
    Library: U_phi(f*) = u* (rel 1e-12), no seeded perturbation exceeds u* + 1e-13 (moving a kink atom to
    +-1e-6 included), and U(sgn f*) equals the exact rational value (rel 1e-12)."""
    coef, metric, _ = METRICS[name]
    tau = F(tau_k, 1000)
    opt = maximise_surrogate(coef, pop, tau)
    assert abs(opt.gap) <= mp.mpf("1e-28") and opt.upper_bound - opt.value <= mp.mpf("1e-28")
    with mp.workdps(40):
        for e, x in zip(pop.eta, opt.scores):
            left, right, scale = _one_sided_derivatives(coef, e, opt.value, tau, x)
            assert left <= scale * mp.mpf("1e-20") and right >= -scale * mp.mpf("1e-20"), (left, right)
    event(f"kink atoms: {sum(opt.kink)}")
    assert_corrected_statement_agrees(coef, pop, tau, opt)  # the corrected Thms. 1-2 on this population too

    lib = pop.library()
    loss = tau_logistic(float(tau))
    f_star = opt.float_scores()
    assert lib.surrogate_utility_of_scores(metric, loss, f_star) == pytest.approx(float(opt.value), rel=1e-12, abs=0)
    rng = np.random.default_rng(tau_k)
    perturbed = f_star + np.repeat([1e-6, 1e-3, 1.0], 10)[:, None] * rng.normal(size=(30, pop.size))
    kink = np.array(opt.kink)
    moved = np.array([np.where(kink, s, f_star) for s in (1e-6, -1e-6)])
    assert (np.max(lib.surrogate_utility_of_scores(metric, loss, np.vstack([perturbed, moved])))
            <= float(opt.value) + 1e-13)
    exact = exact_utility(coef, pop, opt.sign_mask)
    assert lib.utility_of_scores(metric, f_star, zero_division=0.0) == pytest.approx(float(exact), rel=1e-12, abs=1e-15)


@pytest.mark.claims("Theorem 1", "Theorem 2")
@pytest.mark.parametrize("name, weights, eta, tau", [
    ("F_1", (F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 20)),
    ("Jaccard", (F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 10)),
    ("F_1", (F(1, 10), F(9, 10)), (F(19, 20), F(1, 5)), F(1)),
    ("Jaccard", (F(1, 5), F(4, 5)), (F(19, 20), F(1, 20)), F(1, 2)),
])
def test_maximiser_agrees_with_the_independent_implementation_in_proofs(name, weights, eta, tau):
    """The maximiser against lfverify.proofs.thm1_fbeta_calibration.tau_logistic_surrogate_maximiser, a
    separately written Dinkelbach / bisection implementation at 50 digits: same U*_phi (1e-30), same scores
    (1e-25 relative) and the same kink atoms."""
    from lfverify.proofs.thm1_fbeta_calibration import tau_logistic_surrogate_maximiser

    coef, _, _ = METRICS[name]
    pop = ExactPopulation(weights, eta)
    mine = maximise_surrogate(coef, pop, tau, dps=50)
    coefficients = (coef.a0p, coef.a0n, coef.a1p, coef.a1n, coef.c0, coef.d0, coef.c1, coef.d1)
    theirs = tau_logistic_surrogate_maximiser(coefficients, weights, eta, tau)
    assert abs(mine.value - theirs.value) <= mp.mpf("1e-30")
    for a, b in zip(mine.scores, theirs.scores):
        assert abs(a - b) <= mp.mpf("1e-25") * max(1, abs(b))
    assert tuple(j for j, k in enumerate(mine.kink) if k) == tuple(theirs.zero_atoms)


# ------------------------------------------------------------------------------------------------ the theorems
def _tau_in_proven_range(name, k):
    _, _, beta2 = METRICS[name]
    if beta2 is None:
        return F(k, 1000)  # Thm. 2: tau in (0, 1)
    return beta2 / (2 + beta2) * F(k, 1000)  # Thm. 1: tau in (0, beta^2 / (2 + beta^2)]


@pytest.mark.claims("Proposition 6", "Theorem 1", "Theorem 2")
@given(pop=populations(), name=st.sampled_from(sorted(METRICS)), tau_k=st.integers(1, 999))
def test_theorem_hypotheses_imply_the_weak_form(pop, name, tau_k):
    """Thms. 1 / 2, weak form: whenever the hypotheses hold (checked from the statements; the tau-logistic loss
    is convex, non-increasing, differentiable off 0 and tau-discrepant, dominates the 0/1 loss), (i) every atom
    with f*(x) != 0 has the sign of the Bayes rule {eta > delta(U-dagger)} (Prop. 5), (ii) completing the kink
    atoms by the Bayes rule attains U-dagger, (iii) U*_phi <= U-dagger (Lemma 1).
    lfverify.core._calibration_conditions's report of the hypotheses must agree with the transcription (away from the
    boundary, |slack| > 1e-12).

    Oracles: exact rational arithmetic (U-dagger by brute force over all 2^J classifiers, the threshold),
    mpmath 40 digits (U*_phi).  The strong form (every completion / sgn(f*) optimal) is false: see the
    searches and pinned counterexamples below."""
    coef, _, _ = METRICS[name]
    tau = _tau_in_proven_range(name, tau_k)
    opt = maximise_surrogate(coef, pop, tau)
    holds, slack = _own_hypotheses(name, tau, opt.value)
    if abs(slack) > 1e-12:
        assert _library_report(name, tau, opt.value).holds == holds
    assert_corrected_statement_agrees(coef, pop, tau, opt)
    if not holds:
        event("hypotheses fail")
        return
    a = analyse(coef, pop, opt)
    note(f"{pop}, tau = {tau}, U* = {opt.value}, signs {opt.signs}, {a}")
    event("hypotheses hold" + ("; sgn(f*) NOT Bayes-optimal" if a.sign_utility < a.u_dagger else "")
          + ("; f* + 0 NOT Bayes-optimal" if a.plus_utility < a.u_dagger else ""))
    assert a.nonkink_disagreements == ()
    assert a.best_completion_is_optimal
    assert opt.value <= mpf(a.u_dagger)


@pytest.mark.claims("Proposition 6", "Theorem 1", "Theorem 2")
@given(pop=populations(), name=st.sampled_from(sorted(METRICS)), tau_k=st.integers(1, 1000))
def test_weak_form_holds_under_the_sharper_condition(pop, name, tau_k):
    """The weak form for every tau in (0, 1]: if F_beta: U*(1 + beta^2 - U-dagger) >= tau U-dagger (1 + beta^2 + U*),
    resp. Jaccard: U* >= tau U-dagger (hand-derived: the maximiser is > 0 exactly where eta exceeds
    U*/(U* + tau(1 + beta^2 + U*)), resp. U*/(U* + tau), and these thresholds are >= delta(U-dagger) exactly under
    the condition; the negative side needs only U* <= U-dagger), then every atom with f* != 0 has the Bayes sign
    and the Bayes completion attains U-dagger.  Also: the theorems' hypotheses imply the condition, and
    U*_phi <= U-dagger (Lemma 1).

    Oracles: exact rational arithmetic (brute force over all 2^J classifiers), mpmath 40 digits."""
    coef, _, _ = METRICS[name]
    tau = F(tau_k, 1000)
    opt = maximise_surrogate(coef, pop, tau)
    a = analyse(coef, pop, opt)
    assert_corrected_statement_agrees(coef, pop, tau, opt, a)
    condition = _sharper_condition(name, tau, opt.value, a.u_dagger)
    holds, _ = _own_hypotheses(name, tau, opt.value)
    assert opt.value <= mpf(a.u_dagger)  # Lemma 1 (the tau-logistic loss dominates the 0/1 loss)
    assert condition or not holds  # hypotheses => condition
    event(f"condition {'holds' if condition else 'fails'}; hypotheses {'hold' if holds else 'fail'}")
    if condition:
        assert a.nonkink_disagreements == () and a.best_completion_is_optimal


def _theorem_candidates(name, seed):
    rng = random.Random(seed)
    while True:
        yield random_population(rng), _tau_in_proven_range(name, rng.randint(1, 999))


@pytest.mark.claims("Theorem 1", "Theorem 2")
@pytest.mark.parametrize("name", ["F_1", "Jaccard"])
def test_search_finds_that_the_theorems_as_stated_fail(name):
    """Thms. 1 / 2 as stated (the maximiser's sign pattern, sgn(0) = -1, is Bayes optimal whenever the
    hypotheses hold) are false: a seeded search over random populations and tau in the proven range MUST find
    hypotheses-holding populations where (a) U(sgn f*) < U-dagger and (b) U(f* + 0) < U-dagger (Definition 1's
    l(-f) reading, f = 0 counted positive).  On every hypotheses-holding population visited (at least 10) the
    weak form holds.  Oracles: exact rational arithmetic (brute force over all 2^J classifiers), mpmath 40 digits."""
    coef, _, _ = METRICS[name]
    found = {"sign": None, "plus": None}
    holding = 0
    for pop, tau in _limited(_theorem_candidates(name, 2020), 80):
        opt = maximise_surrogate(coef, pop, tau)
        assert_corrected_statement_agrees(coef, pop, tau, opt)
        if not _own_hypotheses(name, tau, opt.value)[0]:
            continue
        holding += 1
        a = analyse(coef, pop, opt)
        assert a.nonkink_disagreements == () and a.best_completion_is_optimal
        if a.sign_utility < a.u_dagger and found["sign"] is None:
            found["sign"] = (pop, tau)
        if a.plus_utility < a.u_dagger and found["plus"] is None:
            found["plus"] = (pop, tau)
    assert holding >= 10
    assert found["sign"] is not None and found["plus"] is not None, found


def _limited(iterator, n):
    for _, item in zip(range(n), iterator):
        yield item


def _confirm_kink_counterexample(name, weights, eta, tau, *, expected):
    """Shared body of the pinned counterexamples: certificate at 60 digits, exact utilities, library."""
    coef, metric, _ = METRICS[name]
    pop = ExactPopulation(weights, eta)
    opt = maximise_surrogate(coef, pop, tau, dps=60)
    assert abs(opt.gap) <= mp.mpf("1e-50")
    holds, slack = _own_hypotheses(name, tau, opt.value)
    assert holds and slack > mp.mpf("1e-3")
    report = _library_report(name, tau, opt.value)
    assert report.holds  # every printed hypothesis holds according to lfverify.core._calibration_conditions
    a = analyse(coef, pop, opt)
    assert_corrected_statement_agrees(coef, pop, tau, opt, a)
    assert opt.signs == expected["signs"]
    assert (a.u_dagger, a.sign_utility, a.plus_utility) == (expected["u_dagger"], expected["sign"], expected["plus"])
    assert a.nonkink_disagreements == () and a.best_completion_is_optimal  # the weak form still holds
    assert not a.calibrated
    # the kink is exact: the one-sided derivatives of the atom's Dinkelbach objective at 0 have opposite signs
    with mp.workdps(40):
        for j in (j for j, k in enumerate(opt.kink) if k):
            left, right, scale = _one_sided_derivatives(coef, eta[j], opt.value, tau, mp.mpf(0))
            assert left < -scale * mp.mpf("1e-3") and right > scale * mp.mpf("1e-3")
    # the core library: U_phi(f*) = U*_phi, U(f*) and U-dagger
    lib, loss = pop.library(), tau_logistic(float(tau))
    f_star = opt.float_scores()
    assert lib.surrogate_utility_of_scores(metric, loss, f_star) == pytest.approx(float(opt.value), rel=1e-12, abs=0)
    assert lib.utility_of_scores(metric, f_star) == pytest.approx(float(a.sign_utility), rel=1e-12, abs=0)
    assert lib.bayes_optimal(metric).utility == pytest.approx(float(a.u_dagger), rel=1e-12, abs=0)
    return opt, a


@pytest.mark.claims("Theorem 1")
def test_theorem_1_kink_counterexample_of_errata_pinned():
    """Thm. 1 is false (ERRATA.md, thm1_fbeta_calibration.theorem): F_1, tau-logistic(1/20), weights
    (3/10, 1/5, 1/2), eta (19/20, 3/5, 1/20).  Hypotheses hold (U* = 0.18939 >= 2/19), f* = (46.0156..., 0, 0),
    U(sgn f*) = 57/73 < U-dagger = 27/31 (atom 1, eta = 3/5 > delta = 27/62, sits at the kink), and reading
    f = 0 as positive fails too: U(f* + 0) = 86/143 (atom 2, eta = 1/20, is Bayes-negative and also at the kink).
    Oracles: mpmath 60 digits (Dinkelbach certificate, one-sided derivatives), exact rational arithmetic."""
    opt, a = _confirm_kink_counterexample(
        "F_1", (F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 20),
        expected=dict(signs=(1, 0, 0), u_dagger=F(27, 31), sign=F(57, 73), plus=F(86, 143)))
    assert mp.almosteq(opt.value, mp.mpf("0.189394165664032"), rel_eps=1e-14)
    assert a.threshold == F(27, 62) and F(3, 5) > a.threshold > F(1, 20)


@pytest.mark.claims("Theorem 2")
def test_theorem_2_kink_counterexample_of_errata_pinned():
    """Thm. 2 is false (ERRATA.md, thm2_jaccard_calibration.theorem): Jaccard, tau-logistic(1/10), same
    population: U* = 0.16574 >= tau, f* = (+, 0, 0), U(sgn f*) = 57/89 < U-dagger = 27/35 (delta = 27/62 < 3/5)
    and U(f* + 0) = 43/100 < U-dagger.  Oracles: mpmath 60 digits, exact rational arithmetic."""
    _confirm_kink_counterexample(
        "Jaccard", (F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 10),
        expected=dict(signs=(1, 0, 0), u_dagger=F(27, 35), sign=F(57, 89), plus=F(43, 100)))


@pytest.mark.claims("Theorem 1", "Theorem 2")
@pytest.mark.parametrize("name, weights, eta, tau, expected", [
    ("F_1", (F(1, 10), F(9, 10)), (F(19, 20), F(1, 20)), F(1, 20),
     dict(signs=(1, 0), u_dagger=F(19, 24), sign=F(19, 24), plus=F(14, 57))),
    ("Jaccard", (F(1, 10), F(9, 10)), (F(19, 20), F(1, 5)), F(1, 20),
     dict(signs=(1, 0), u_dagger=F(19, 56), sign=F(19, 56), plus=F(11, 40))),
])
def test_f_plus_zero_reading_counterexamples_pinned(name, weights, eta, tau, expected):
    """Thms. 1 / 2 with Definition 1's TP = E[l(-f) eta] (f = 0 counted positive) are false as well, also where
    the paper's sgn(0) = -1 happens to succeed: the maximiser sits at the kink on a Bayes-NEGATIVE atom, so
    U(sgn f*) = U-dagger but U(f* + 0) < U-dagger, and sequences approaching f* from above do not reach
    U-dagger.  Neither reading of U at f = 0 rescues the theorems (lfverify/proofs/counterexamples.py).
    Oracles: mpmath 60 digits (Dinkelbach certificate, one-sided derivatives), exact rational arithmetic."""
    _confirm_kink_counterexample(name, weights, eta, tau, expected=expected)


# ------------------------------------------------------------------------------------------------ outside the range
def _outside_candidates(name, seed):
    """Random populations with tau outside the proven range: F_1 tau in (1/3, 1]; Jaccard tau in (0, 1]
    (whether U*_phi < tau is decided after the maximisation)."""
    rng = random.Random(seed)
    while True:
        k = rng.randint(1, 1000)
        tau = F(1, 3) + F(2, 3) * F(k, 1000) if name == "F_1" else F(k, 1000)
        yield random_population(rng, extreme=0.3), tau


def _outside(name, tau, opt):
    if name == "F_1":
        return tau > F(1, 3)
    return opt.value < mpf(tau)


@pytest.mark.claims("Theorem 1", "Theorem 2")
@pytest.mark.parametrize("name", ["F_1", "Jaccard"])
def test_outside_the_proven_range_search_finds_failures_and_successes(name):
    """Beyond Thm. 1's tau <= beta^2/(2 + beta^2) (F_1: tau > 1/3) and Thm. 2's U*_phi >= tau, a seeded search
    MUST find (a) a population where calibration fails with the maximiser away from the kink (an atom with
    f* != 0 has the wrong sign, so no completion attains U-dagger), and (b) one where calibration holds (no kink
    atom and U(sgn f*) = U-dagger).  Oracles: exact rational arithmetic, mpmath 40 digits."""
    coef, _, _ = METRICS[name]
    failure = success = None
    for pop, tau in _limited(_outside_candidates(name, 7), 200):
        opt = maximise_surrogate(coef, pop, tau)
        assert_corrected_statement_agrees(coef, pop, tau, opt)
        if not _outside(name, tau, opt):
            continue
        a = analyse(coef, pop, opt)
        if failure is None and a.nonkink_disagreements and not a.best_completion_is_optimal:
            failure = (pop, tau)
        if success is None and a.calibrated and not any(opt.kink):
            success = (pop, tau)
        if failure and success:
            break
    assert failure is not None and success is not None, (failure, success)


@pytest.mark.claims("Theorem 1", "Theorem 2")
@pytest.mark.parametrize("name, tau", [("F_1", F(1, 2)), ("F_1", F(9, 10)), ("Jaccard", F(1, 2)),
                                       ("Jaccard", F(9, 10))])
def test_outside_the_proven_range_failure_pinned(name, tau):
    """Calibration fails away from the kink outside the proven range: weights (1/10, 9/10), eta (19/20, 1/5).
    f* > 0 on both atoms (no kink), but the Bayes rule labels the eta = 1/5 atom negative (1/5 < delta): F_1
    U(f*) = 22/51 < U-dagger = 38/75 (tau = 1/2, 9/10 > 1/3); Jaccard U(f*) = 11/40 < U-dagger = 19/56 with
    U*_phi < tau.  (tau = 1, the plain logistic loss, is test_necessity.py's.)  Oracles: mpmath 50 digits,
    exact rational arithmetic, core library."""
    coef, metric, _ = METRICS[name]
    pop = ExactPopulation((F(1, 10), F(9, 10)), (F(19, 20), F(1, 5)))
    opt = maximise_surrogate(coef, pop, tau, dps=50)
    assert _outside(name, tau, opt) and not _own_hypotheses(name, tau, opt.value)[0]
    assert not _library_report(name, tau, opt.value).holds
    a = analyse(coef, pop, opt)
    assert_corrected_statement_agrees(coef, pop, tau, opt, a)
    assert opt.signs == (1, 1) and a.nonkink_disagreements == (1,) and F(1, 5) < a.threshold
    expected = {"F_1": (F(38, 75), F(22, 51)), "Jaccard": (F(19, 56), F(11, 40))}[name]
    assert (a.u_dagger, a.sign_utility) == expected and not a.best_completion_is_optimal
    lib = pop.library()
    assert lib.utility_of_scores(metric, opt.float_scores()) == pytest.approx(float(expected[1]), rel=1e-12, abs=0)
    assert lib.bayes_optimal(metric).utility == pytest.approx(float(expected[0]), rel=1e-12, abs=0)


@pytest.mark.claims("Theorem 1", "Theorem 2")
@pytest.mark.parametrize("name, tau", [("F_1", F(1, 2)), ("F_1", F(9, 10)), ("Jaccard", F(1, 2))])
def test_outside_the_proven_range_success_pinned(name, tau):
    """Calibration can still hold outside the proven range (the hypotheses are not necessary): weights
    (1/5, 4/5), eta (19/20, 1/20): f* = (+, -) with no kink atom and U(sgn f*) = U-dagger (F_1: 38/43;
    Jaccard: 19/24, with U*_phi = 0.1735 < tau = 1/2).  Oracles: mpmath 50 digits, exact rational arithmetic."""
    coef, metric, _ = METRICS[name]
    pop = ExactPopulation((F(1, 5), F(4, 5)), (F(19, 20), F(1, 20)))
    opt = maximise_surrogate(coef, pop, tau, dps=50)
    assert _outside(name, tau, opt) and not _own_hypotheses(name, tau, opt.value)[0]
    a = analyse(coef, pop, opt)
    assert_corrected_statement_agrees(coef, pop, tau, opt, a)
    assert opt.signs == (1, -1) and a.calibrated
    assert a.u_dagger == {"F_1": F(38, 43), "Jaccard": F(19, 24)}[name] == a.sign_utility
    lib = pop.library()
    assert lib.utility_of_scores(metric, opt.float_scores()) == pytest.approx(float(a.u_dagger), rel=1e-12, abs=0)
