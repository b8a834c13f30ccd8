"""The corrected Thms. 1, 2 and 7 (lfverify/proofs/corrected_calibration.py) attacked on generated populations.

The corrected statements say, for a population with posteriors eta and a loss with kink ratio
rho = phi'(0+)/phi'(0-): the surrogate maximiser over all f is > 0 / 0 / < 0 above / inside / below the band
[eta_lo, eta_hi]; U_phi is U-calibrated iff no atom lies between the band and delta(U-dagger) and every band atom has
eta = delta; sgn(f*) is Bayes optimal iff no atom has eta_hi < eta < delta or delta < eta <= eta_hi; the Bayes labelling
of the band attains U-dagger iff no atom lies between band and delta, which rho <= c alpha/(a gamma) guarantees when
phi >= 1{t <= 0}; and no loss is calibrated on an eta-continuous population (F_beta; Jaccard unless rho = 1 and
U* = U-dagger).

Oracles: tests/calibration_search.py (certified Dinkelbach maximiser at 40-60 digits; U-dagger, U(sgn f*) and every
completion of the kink atoms by brute force over all classifiers, exact rationals; independent of lfverify); for the
continuous population, lfverify.core._pointwise_optimum (quadrature; a separate implementation from the
statements under test).  Each property test records on which side of each condition its populations fall; the
searches below MUST find populations on both sides of every condition, so the statements are not vacuous.

At the band's ends (issue 45, item 3): atoms exactly on eta_lo, eta_hi and delta (exact Fractions) and one double
either side of dyadic ends (``np.nextafter``), against the docstring's rules evaluated by hand; a companion plants an
open band (tests/planted.py) and sees the check fail.

Private: lfverify.proofs.corrected_calibration._continuous_figures, the continuous witnesses the corrected statement is
checked on; lfverify.proofs._calibration_forms, whose finite_support_verdict the companion replaces by a planted
variant.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from corrected_statement_check import assert_corrected_statement_agrees
from hypothesis import assume, event, given
from hypothesis import strategies as st
from test_calibration_properties import METRICS, populations

from calibration_search import (
    JACCARD,
    Coefficients,
    ExactPopulation,
    Undecided,
    analyse,
    fbeta_coefficients,
    maximise_surrogate,
    random_population,
    thm1_hypotheses,
    thm2_hypotheses,
)
from lfverify.proofs.corrected_calibration import (
    bayes_threshold,
    finite_support_verdict,
    kink_band,
    weak_form_rho_bound,
)
from lfverify.testing.strategies import general_admissible_metrics

pytestmark = pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)")

F = Fraction
TAUS = st.integers(1, 1000).map(lambda k: F(k, 1000))


def _hypotheses(name, tau, u_star):
    _, _, beta2 = METRICS[name]
    return thm2_hypotheses(tau, u_star)[0] if beta2 is None else thm1_hypotheses(beta2, tau, u_star)[0]


# ------------------------------------------------------------------------------------------------ properties
@given(pop=populations(), name=st.sampled_from(sorted(METRICS)), tau=TAUS)
def test_sign_pattern_is_the_certified_maximisers(pop, name, tau):
    """The Proposition: f*(x) > 0 above eta_hi, 0 in the band, < 0 below eta_lo.  Oracle: the certified maximiser's
    signs, decided by its own one-sided derivatives at 40 digits, and the signs of its scores."""
    coef = METRICS[name][0]
    opt = maximise_surrogate(coef, pop, tau)
    low, high = kink_band(coef, tau, opt.value)
    predicted = tuple(1 if mp.mpf(e.numerator) / e.denominator > high else
                      -1 if mp.mpf(e.numerator) / e.denominator < low else 0 for e in pop.eta)
    assert predicted == opt.signs
    assert all((s > 0) == (x > 0) and (s < 0) == (x < 0) for s, x in zip(opt.signs, opt.scores))
    event(f"kink atoms: {sum(s == 0 for s in predicted)}")


@given(pop=populations(), name=st.sampled_from(sorted(METRICS)), tau=TAUS)
def test_criterion_agrees_with_brute_force(pop, name, tau):
    """The Theorem's (a), (b), (c) on F_beta (beta = 1/2, 1, 2) and Jaccard, every tau in (0, 1].  Oracle: brute force
    over all classifiers and all completions of the kink atoms (exact rationals)."""
    coef = METRICS[name][0]
    opt = maximise_surrogate(coef, pop, tau)
    v = assert_corrected_statement_agrees(coef, pop, tau, opt)
    event(f"calibrated {v.calibrated}, sgn optimal {v.sign_rule_optimal}, weak form {v.weak_form}")


def _exact(metric) -> Coefficients:
    """The generated metric's stored coefficients (multiples of 1/8, exact doubles) as Fractions."""
    return Coefficients(*(Fraction(getattr(metric, k)) for k in (
        "a0p", "a0n", "a1p", "a1n", "b0_const", "b0_prior", "b1_const", "b1_prior")))


@given(metric=general_admissible_metrics(), pop=populations(), tau=TAUS)
def test_general_metrics_agree_with_brute_force(metric, pop, tau):
    """Thm. 7 (corrected) on every Definition 1 metric of the 1/8 grid (lfverify.testing.strategies): the sign pattern
    and (a)-(c), and corrected (b) (rho <= H(1) c/a) implies the weak form.  Oracle: brute force, certified maximiser.
    Populations where the statements do not apply (a or c not positive, U_phi(1) <= 0 for Dinkelbach's start, or
    Da0 - Da1 U-dagger <= 0) are discarded."""
    coef = _exact(metric)
    assume(coef.a0n != 0 or coef.a1n != 0)
    try:
        opt = maximise_surrogate(coef, pop, tau)
    except (ValueError, Undecided):
        assume(False)
    v = assert_corrected_statement_agrees(coef, pop, tau, opt)
    assume(v is not None)
    h1 = (coef.a0p - coef.a1p) / (coef.a1n - coef.a0n)
    corrected_b = mp.mpf(tau.numerator) / tau.denominator <= h1 * (opt.value * coef.a1n - coef.a0n) / (
        coef.a0p + opt.value * coef.a1p)
    if corrected_b:
        assert v.weak_form
    event(f"corrected (b) {'holds' if corrected_b else 'fails'}; weak form {v.weak_form}; calibrated {v.calibrated}")


@given(pop=populations(), name=st.sampled_from(sorted(METRICS)), tau=TAUS)
def test_tau_bound_implies_the_weak_form(pop, name, tau):
    """(d) and Theorems 1-2 (corrected), 1.: rho <= c alpha/(a gamma) (tau_F for F_beta, U*/U-dagger for Jaccard)
    implies the weak form, and the printed hypotheses imply the bound.  Oracle: brute force, certified maximiser."""
    coef = METRICS[name][0]
    opt = maximise_surrogate(coef, pop, tau)
    a = analyse(coef, pop, opt)
    bound = weak_form_rho_bound(coef, opt.value, a.u_dagger)
    below = mp.mpf(tau.numerator) / tau.denominator <= bound
    if below:
        assert a.best_completion_is_optimal and a.nonkink_disagreements == ()
    if _hypotheses(name, tau, opt.value):
        assert below
    event(f"rho <= bound: {below}; weak form {a.best_completion_is_optimal}")


# ------------------------------------------------------------------------------------------------ non-vacuity
def _search_candidates(seed):
    """Random populations (calibration_search.random_population), metrics and tau; a quarter with the
    non-dominating tau-logistic loss in base 2^100 (phi(0) = 1/100), for which U* can exceed U-dagger."""
    rng = random.Random(seed)
    names = sorted(METRICS)
    while True:
        name = rng.choice(names)
        base = 2**100 if rng.random() < 0.25 else 2
        yield name, random_population(rng, extreme=rng.choice((0.0, 0.3, 0.6))), F(rng.randint(1, 1000), 1000), base


SIDES = (
    "calibrated", "not calibrated", "sgn optimal", "sgn not optimal", "weak form", "no weak form",
    "band mass only off delta (iii)", "between band and delta above (i)", "between band and delta below (ii)",
    "rho <= bound", "rho > bound, weak form anyway",
)


def test_each_condition_is_needed_search():
    """A seeded search over random populations, metrics, tau and the two bases MUST find every side of every
    condition of the Theorem (SIDES): calibration fails by band mass alone (iii) while the weak form holds, by an
    atom between eta_hi and delta (i), by an atom between delta and eta_lo (ii; only without phi >= 1{t <= 0}), and it
    holds; the sign rule is optimal and not; the bound on rho holds, and fails while the weak form holds anyway (the
    bound is sufficient, not necessary).  Every population visited is checked against brute force.
    Oracle: calibration_search (certified maximiser, brute force over all classifiers)."""
    seen = {}
    for name, pop, tau, base in _limited(_search_candidates(14), 400):
        coef = METRICS[name][0]
        try:
            opt = maximise_surrogate(coef, pop, tau, base=base)
        except Undecided:
            continue
        a = analyse(coef, pop, opt)
        v = assert_corrected_statement_agrees(coef, pop, tau, opt, a)
        low, high = v.band
        etas = [mp.mpf(e.numerator) / e.denominator for e in pop.eta]
        delta = mp.mpf(v.threshold.numerator) / v.threshold.denominator
        above = any(high < e < delta for e in etas)
        below = any(delta < e < low for e in etas)
        band = any(low <= e <= high and e != delta for e in etas)
        bound = weak_form_rho_bound(coef, opt.value, a.u_dagger)
        rho = mp.mpf(tau.numerator) / tau.denominator
        sides = {"calibrated": v.calibrated, "not calibrated": not v.calibrated,
                 "sgn optimal": v.sign_rule_optimal, "sgn not optimal": not v.sign_rule_optimal,
                 "weak form": v.weak_form, "no weak form": not v.weak_form,
                 "band mass only off delta (iii)": band and not above and not below,
                 "between band and delta above (i)": above, "between band and delta below (ii)": below,
                 "rho <= bound": base == 2 and rho <= bound,
                 "rho > bound, weak form anyway": base == 2 and rho > bound and v.weak_form}
        for side, hit in sides.items():
            if hit:
                seen.setdefault(side, (name, str(pop), tau, base))
        if len(seen) == len(SIDES):
            break
    assert set(seen) == set(SIDES), set(SIDES) - set(seen)
    assert seen["between band and delta below (ii)"][3] == 2**100  # (ii) needs a loss below the 0/1 loss


def _limited(iterator, n):
    for _, item in zip(range(n), iterator):
        yield item


@pytest.mark.parametrize("name, weights, eta, tau, expected", [
    # E12: band mass off delta (the eta = 3/5 atom, Bayes-positive, at the kink): weak form, no calibration
    ("F_1", (F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)), F(1, 20), (False, False, True)),
    # outside the printed range, an atom between eta_hi and delta: no weak form
    ("F_1", (F(1, 10), F(9, 10)), (F(19, 20), F(1, 5)), F(1, 2), (False, False, False)),
    # no atom near the band: calibrated although the printed hypotheses fail
    ("Jaccard", (F(1, 5), F(4, 5)), (F(19, 20), F(1, 20)), F(1, 2), (True, True, True)),
    # a band atom exactly at delta = 2/5 (U-dagger = 4/5): calibrated, and sgn(f*) optimal, despite the kink
    ("F_1", (F(1, 2), F(1, 2)), (F(14, 15), F(2, 5)), F(1, 20), (True, True, True)),
])
def test_conditions_pinned(name, weights, eta, tau, expected):
    """Each condition violated (or met) on a pinned population makes the conclusion fail (or hold): (calibrated,
    sgn optimal, weak form) as the statement predicts.  The last population has an atom exactly at the Bayes
    threshold inside the band, the 'except at delta' clause of (a).  Oracle: brute force, certified maximiser at 50
    digits."""
    coef = METRICS[name][0]
    pop = ExactPopulation(weights, eta)
    opt = maximise_surrogate(coef, pop, tau, dps=50)
    v = assert_corrected_statement_agrees(coef, pop, tau, opt)
    assert (v.calibrated, v.sign_rule_optimal, v.weak_form) == expected
    if eta[1] == F(2, 5):
        assert v.threshold == F(2, 5) and v.signs[1] == 0  # the threshold atom sits at the kink


def test_weak_form_bound_is_tau_f_and_u_star_over_u_dagger():
    """Theorems 1, 2 (corrected): the general c alpha/(a gamma) is U*(1 + beta^2 - U)/(U (1 + beta^2 + U*)) for F_beta
    and U*/U for Jaccard.  Oracle: the formulas of the statements, evaluated by hand in exact rationals."""
    u_star, u = F(3, 10), F(7, 10)
    for beta2 in (F(1, 4), F(1), F(4)):
        assert weak_form_rho_bound(fbeta_coefficients(beta2), u_star, u) == \
            u_star * (1 + beta2 - u) / (u * (1 + beta2 + u_star))
    assert weak_form_rho_bound(JACCARD, u_star, u) == u_star / u
    assert bayes_threshold(fbeta_coefficients(1), u) == u / 2 and bayes_threshold(JACCARD, u) == u / (1 + u)


def test_statement_functions_reject_bad_input():
    """Errors name the argument, the expectation and the value."""
    with pytest.raises(ValueError, match=r"^rho must be phi'\(0\+\)/phi'\(0-\) in \[0, 1\].*got Fraction\(3, 2\)"):
        kink_band(JACCARD, F(3, 2), F(1, 2))
    with pytest.raises(ValueError, match=r"^u_star must be sup_f U_phi\(f\) > 0; got Fraction\(0, 1\)"):
        kink_band(JACCARD, F(1, 2), 0)
    with pytest.raises(ValueError, match=r"a = .* > 0 and c = .* > 0"):
        kink_band(Coefficients(1, 0, 0, 0), F(1, 2), F(1, 2))
    with pytest.raises(TypeError, match=r"^metric must have the coefficients a0p, a0n, a1p, a1n.*got str"):
        kink_band("F1", F(1, 2), F(1, 2))
    with pytest.raises(ValueError, match=r"Da0 - Da1 U-dagger > 0"):
        bayes_threshold(Coefficients(1, 0, 3, 0), F(1, 2))


# ------------------------------------------------------------------------------------------------ continuous eta
@pytest.fixture(scope="module")
def gaussian_rows():
    from lfverify.proofs.corrected_calibration import _continuous_figures

    return {name: _continuous_figures(name) for name in ("F_1", "Jaccard")}


def test_no_calibration_on_a_continuous_population(gaussian_rows):
    """(e) / Theorem 1 (corrected) 4.: on the calibration study's Gaussian population (eta(X) has a positive density)
    sgn(f*) is never Bayes optimal, for tau = 1/20, 33/100, 3/4 and the plain logistic tau = 1; the weak form holds
    exactly when tau <= the bound (tau_F, U*/U-dagger).  Oracle: lfverify.core._pointwise_optimum (Dinkelbach on
    the log-odds scale with panelled Gauss-Legendre quadrature, a separate implementation; gaps below 1e-9 are zero at
    its ~1e-12 accuracy).  Non-vacuity: both sides of the bound occur (F_1 at 1/20 holds, at 3/4 fails), and a
    population with a mass gap around delta is calibrated (test_conditions_pinned)."""
    bounds = {"F_1": fbeta_coefficients(1), "Jaccard": JACCARD}
    sides = set()
    for name, rows in gaussian_rows.items():
        for tau, u_s, u_d, low, high, _delta, sign_u, band_u in rows:
            assert u_d - sign_u > 1e-9
            predicted = float(tau) <= float(weak_form_rho_bound(bounds[name], u_s, u_d))
            assert predicted == (u_d - band_u < 1e-9)
            assert (low, high) == pytest.approx(kink_band(bounds[name], float(tau), u_s), rel=1e-12, abs=0)
            sides.add((name, predicted))
    assert {("F_1", True), ("F_1", False), ("Jaccard", True), ("Jaccard", False)} <= sides


def test_finite_support_verdict_on_a_hand_example():
    """A hand-computed case: Jaccard, rho = 1/2, U* = 1/3, U-dagger = 1/2: band [1/7, 2/5], delta = 1/3; atoms at
    1/10 (below), 1/3 (at delta, in the band), 9/10 (above): calibrated, sgn optimal, weak form; an atom at 3/10
    (in the band, off delta) breaks calibration and the sign rule's optimality only if it is above delta.
    Oracle: the closed forms evaluated by hand."""
    v = finite_support_verdict(JACCARD, F(1, 2), F(1, 3), F(1, 2), (F(1, 10), F(1, 3), F(9, 10)))
    assert v.band == (F(1, 7), F(2, 5)) and v.threshold == F(1, 3) and v.signs == (-1, 0, 1)
    assert (v.calibrated, v.sign_rule_optimal, v.weak_form) == (True, True, True)
    v = finite_support_verdict(JACCARD, F(1, 2), F(1, 3), F(1, 2), (F(1, 10), F(3, 10), F(9, 10)))
    assert (v.calibrated, v.sign_rule_optimal, v.weak_form) == (False, True, True)
    v = finite_support_verdict(JACCARD, F(1, 2), F(1, 3), F(1, 2), (F(1, 10), F(7, 20), F(9, 10)))
    assert (v.calibrated, v.sign_rule_optimal, v.weak_form) == (False, False, True)
    assert v.bayes_labelling == (False, True, True)


def test_a_wrong_statement_is_caught():
    """The agreement check can fail: a statement without the kink (rho = 1, the band collapsed to a point) disagrees
    with the oracle on the pinned kink counterexample (E12), as does the printed theorems' conclusion (calibrated
    whenever the hypotheses hold).  Oracle: brute force and the certified maximiser."""
    coef = METRICS["F_1"][0]
    pop = ExactPopulation((F(3, 10), F(1, 5), F(1, 2)), (F(19, 20), F(3, 5), F(1, 20)))
    tau = F(1, 20)
    opt = maximise_surrogate(coef, pop, tau, dps=50)
    a = analyse(coef, pop, opt)
    assert thm1_hypotheses(1, tau, opt.value)[0] and not a.calibrated  # the printed conclusion is wrong here
    no_kink = finite_support_verdict(coef, F(1), opt.value, a.u_dagger, pop.eta)
    assert no_kink.signs != opt.signs
    low, high = kink_band(coef, tau, opt.value)
    wrong_low, wrong_high = kink_band(coef, F(1), opt.value)
    assert (wrong_low, wrong_high) != (low, high)
    with pytest.raises(AssertionError):
        assert_corrected_statement_agrees(coef, pop, F(1), opt, a)  # the verdict of the wrong rho is rejected


# ------------------------------------------------------------------ issue 45: the band's ends and delta, exactly
class _Jaccard:
    """Jaccard's coefficients (a0p, a0n, a1p, a1n) = (1, 0, 0, 1) as exact Fractions."""

    a0p, a0n, a1p, a1n = Fraction(1), Fraction(0), Fraction(0), Fraction(1)


def check_band_ends(verdict_of=finite_support_verdict):
    """Jaccard, rho = 1/2, U* = 1/2: a = 1, c = 1/2, band (rho c / (rho c + a), c / (c + rho a)) = (1/5, 1/2).
    U-dagger = 1/3: delta = U / (1 + U) = 1/4 inside the band.  The docstring's rules by hand, per atom:
    eta = 1/2 (on eta_hi, in the closed band, eta > delta): (a) no, (b) no (sgn(0) = -1), (c) yes;
    one double above 1/2: all yes; eta = 1/5 (on eta_lo, eta < delta): (a) no, (b) yes, (c) yes; one double below
    1/5 (exact as a Fraction): all yes; eta = delta = 1/4: all yes.  U-dagger = 1 puts delta = 1/2 on eta_hi, where an
    atom is on the threshold: all yes; one double below 1/2 is in the band and below delta: (a) no."""
    half, fifth = Fraction(1, 2), Fraction(1, 5)
    assert kink_band(_Jaccard, Fraction(1, 2), half) == (fifth, half)
    third = Fraction(1, 3)
    cases = [
        (third, half, (False, False, True)),
        (third, Fraction(np.nextafter(0.5, 1.0)), (True, True, True)),
        (third, fifth, (False, True, True)),
        (third, Fraction(np.nextafter(0.2, 0.0)), (True, True, True)),  # below 1/5 exactly (0.2 is above it)
        (third, Fraction(1, 4), (True, True, True)),
        (Fraction(1), half, (True, True, True)),
        (Fraction(1), Fraction(np.nextafter(0.5, 0.0)), (False, True, True)),
    ]
    for u_dagger, eta, expected in cases:
        v = verdict_of(_Jaccard, Fraction(1, 2), half, u_dagger, (eta,))
        assert (v.calibrated, v.sign_rule_optimal, v.weak_form) == expected, (u_dagger, eta)
    # floats: the dyadic end 1/2 and its neighbours compared in floating point (delta = 1/4 at U-dagger = 1/3 as
    # a Fraction, the band in floats)
    for eta, side in ((0.5, 0), (float(np.nextafter(0.5, 1.0)), 1), (float(np.nextafter(0.5, 0.0)), 0)):
        assert verdict_of(_Jaccard, 0.5, 0.5, third, (eta,)).signs == (side,), eta


def test_atoms_on_the_band_ends_and_on_delta_follow_the_documented_rules():
    """Oracle: finite_support_verdict's docstring, evaluated by hand on exact ends (see the check)."""
    check_band_ends()


def test_companion_an_open_band_fails_the_end_check(monkeypatch):
    """Companion: the band read as open at eta_hi (an atom on it counted above the kink)."""
    import lfverify.proofs._calibration_forms as forms
    from planted import planting

    variant = planting(monkeypatch, forms, "finite_support_verdict", "return 1 if below(high, e) else",
                       "return 1 if not below(e, high) else")
    with pytest.raises(AssertionError):
        check_band_ends(variant)


@pytest.mark.parametrize("rho, u_star, ok", [(0, Fraction(1, 2), True), (1, Fraction(1, 2), True),
                                             (Fraction(-1, 10 ** 30), Fraction(1, 2), False),
                                             (1 + Fraction(1, 10 ** 30), Fraction(1, 2), False),
                                             (Fraction(1, 2), Fraction(0), False),
                                             (Fraction(1, 2), Fraction(1, 10 ** 30), True)])
def test_kink_band_accepts_its_closed_ends_and_refuses_beyond(rho, u_star, ok):
    """Oracle: the documented ranges rho in [0, 1] (closed) and U* > 0 (open), exact Fractions either side."""
    if ok:
        low, high = kink_band(_Jaccard, rho, u_star)
        assert 0 <= low <= high <= 1
    else:
        with pytest.raises(ValueError):
            kink_band(_Jaccard, rho, u_star)
