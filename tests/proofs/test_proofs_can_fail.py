"""The symbolic proofs can fail: a check whose printed form is planted wrong reports its documented failure.

A proof check that only ever runs on the paper's true statements never exercises its failure branch; a mistake
there (a wrong status, a garbled erratum record) would pass every test and surface only when the paper, or a
change to the derivation, makes the check fail for real.  Each test here replaces one printed form of a claim's
module by a deliberately wrong one (monkeypatch) and checks the outcome the check documents for that case: an
erratum with every field, or "undecided" with its whole summary.  Where a check verifies a claim the paper gets
wrong, the converse is planted too (a printed form right up to a factor must verify).

Oracle: the documented outcome, written out here, and the planted residual (or the true form) derived by hand in
the comment or docstring beside each case.
"""

import pytest
import sympy as sp

import lfverify.proofs.lemma1_lower_bound as lemma1
from lfverify.proofs.stationary_conditions import BETA

pytestmark = pytest.mark.claims("package:registry")


def _erratum_fields(outcome, summary):
    """Checks that ``outcome`` is an erratum with this summary and exactly one record; returns the record's fields
    (location, printed, derived, consequence, witness, evidence)."""
    assert (outcome.status, outcome.summary) == ("erratum", summary)
    (erratum,) = outcome.errata
    return (erratum.location, erratum.printed, erratum.derived, erratum.consequence, erratum.witness,
            erratum.evidence)


def _planted_w0_phi(a0p, a0n, b0, phi_xi, phi_mxi, q, r):
    """Eq. (3)'s W_{0,phi} with the a_{0,+1} term's sign of phi flipped: (1 + phi(xi)) instead of (1 - phi(xi))."""
    return a0p * (1 + phi_xi) * q + a0n * phi_mxi * r + b0


def _planted_w1_phi(a1p, a1n, b1, phi_xi, phi_mxi, q, r):
    """Eq. (3)'s W_{1,phi} with the a_{1,+1} term's sign of phi flipped: (1 - phi(xi)) instead of (1 + phi(xi))."""
    return a1p * (1 - phi_xi) * q + a1n * phi_mxi * r + b1


@pytest.mark.parametrize("which, planted, first_line", [
    # W_0 - W_{0,phi} at xi > 0 (P = l(-xi) = 1, phi(xi) = 0 + s1, phi(-xi) = 1 + s2), a0p = A, a0n = -B, r = R:
    #   A q - A (1 + s1) q - B r + B (1 + s2) r = -A q s1 + B r s2 (the symbols of Q, R are named q, r)
    (0, ("printed_w0_phi", _planted_w0_phi), "xi > 0 [l(-xi)]: -A*q*s1 + B*r*s2"),
    # W_{1,phi} - W_1 at xi > 0, a1p = C, a1n = E:
    #   C (1 - s1) q + E (1 + s2) r - C q - E r = -C q s1 + E r s2
    (1, ("printed_w1_phi", _planted_w1_phi), "xi > 0 [l(-xi)]: -C*q*s1 + E*r*s2"),
])
def test_lemma1_pointwise_checks_report_a_planted_sign_error(monkeypatch, which, planted, first_line):
    """Kills: proofs.lemma1_lower_bound.x_check_w0_pointwise__mutmut_8 (the status dropped), _29, _33 (erratum
    fields altered) and x_check_w1_pointwise__mutmut_28."""
    monkeypatch.setattr(lemma1, *planted)
    outcome = (lemma1.check_w0_pointwise, lemma1.check_w1_pointwise)[which]()
    relation = ("W_0 >= W_{0,phi}", "W_1 <= W_{1,phi}")[which]
    location, printed, derived, *rest = _erratum_fields(outcome, f"{relation} has a monomial of unknown sign")
    assert (location, printed, rest) == ("Lemma 1 proof", relation, ["Lemma 1 unproved", "see derived", "symbolic"])
    lines = derived.split("; ")
    assert lines[0] == first_line
    assert [line.split(":")[0] for line in lines] == ["xi > 0 [l(-xi)]", "xi < 0 [l(-xi)]", "xi = 0 [l(-xi)]",
                                                      "xi = 0 [1 - l(xi)]"]


def test_table1_row_check_reports_a_planted_row_and_accepts_a_rescaled_one(monkeypatch):
    """Jaccard = TP / (TP + FN + FP) with FN = pi - TP is TP / (FP + pi): (a0p, a0n, b0, a1p, a1n, b1) =
    (1, 0, 0, 0, 1, pi) (by hand).  A printed row with a1p = 1 (TP / (TP + FP + pi), another metric) is an
    erratum naming both rows; the true row times 2 is the same utility and is verified with scale factor 2.

    Kills: proofs.table1.x__check_row__mutmut_56 and _60 (the erratum's location and derived row altered)."""
    import lfverify.proofs.table1 as table1

    rows = dict(table1.PRINTED_COEFFICIENTS)
    monkeypatch.setattr(table1, "PRINTED_COEFFICIENTS", {**rows, "Jaccard": (1, 0, 0, 1, 1, table1.PI)})
    outcome = table1.check_jaccard_row()
    derived = "a0p=1, a0n=0, b0=0, a1p=0, a1n=1, b1=pi"
    assert _erratum_fields(outcome, f"Jaccard: derived ({derived}) differs from the printed row") == (
        "Tab. 1 (tab:generalized-performance-metrics), row Jaccard", "(1, 0, 0, 1, 1, pi)", "(1, 0, 0, 0, 1, pi)",
        "the printed coefficients define another metric", "symbolic", "polynomial identity in TP, FP")
    monkeypatch.setattr(table1, "PRINTED_COEFFICIENTS", {**rows, "Jaccard": (2, 0, 0, 0, 2, 2 * table1.PI)})
    outcome = table1.check_jaccard_row()
    assert (outcome.status, outcome.errata) == ("verified", ())
    assert outcome.summary == (f"Jaccard: substituting FN = pi - TP, TN = 1 - pi - FP gives ({derived}); equal to "
                               "the printed row (scale factor 2).")


def test_prop8_case3_accepts_a_printed_reduction_equal_up_to_a_factor(monkeypatch):
    """The converse direction: the check must also be able to *verify*.  By hand, accuracy's surrogate integrand
    (1 - phi(f)) eta - phi(-f)(1 - eta) + (1 - pi) (App. A.3) has f-derivative -phi'(f) eta + phi'(-f)(1 - eta),
    which at phi'(f*) = phi'(-f*) = d0 is d0 (1 - 2 eta) = -d0 (2 eta - 1).  A printed reduction
    (2 eta - 1) phi'(-f*) is that up to the factor -1, so case 3 is verified with both forms in its summary (the
    paper's printed phi'(-f*) = 0 is an erratum; see ERRATA.md).

    Kills: proofs.prop8_accuracy_calibration.x_check_case3__mutmut_20 (``reduced * printed``: never free of eta)
    and _mutmut_6 (phi'(0)'s symbol renamed)."""
    import lfverify.proofs.prop8_accuracy_calibration as prop8

    monkeypatch.setattr(prop8, "PRINTED_CASE3_REDUCED", (2 * prop8.ETA - 1) * prop8.DNEG)
    outcome = prop8.check_case3()
    assert (outcome.status, outcome.errata) == ("verified", ())
    assert outcome.summary == ("case 3 reduces to -d0*(2*eta - 1) = 0, the printed d0*(2*eta - 1) = 0 up to a "
                               "factor")


def test_lemma1_population_check_reports_a_planted_violation(monkeypatch):
    """Lemma 1's independent evidence (U_phi <= U on seeded random populations) with the core library's U_phi
    planted 1/64 above U at every case: the erratum, with the gap (exactly 1/64 in binary floating point).
    Kills mutants of check_populations' erratum branch (never reached while the library is right)."""
    from lfverify import core as populations

    def planted(self, metric, loss, scores):
        return self.utility_of_scores(metric, scores, zero_division=0.0) + 1 / 64

    monkeypatch.setattr(populations.FiniteSupportPopulation, "surrogate_utility_of_scores", planted)
    outcome = lemma1.check_populations()
    assert _erratum_fields(outcome, "U_phi > U found") == (
        "Lemma 1", "U_phi <= U", "violated", "Lemma 1 false", "max gap 0.0156", "core library")


def test_nonnegativity_h0_check_reports_a_planted_expectation(monkeypatch):
    """Jaccard's W_0,phi(xi, q) = (1 - phi(xi)) q tends to q as xi -> oo (phi -> 0), so E[H_0,phi(eta)] = E[eta]
    = pi (by hand).  With App. A's printed value planted as 2 pi, the check reports the erratum with both values.
    Kills mutants of _check_h0's erratum branch (never reached while App. A's value is right)."""
    import lfverify.proofs.nonnegativity as nonnegativity

    w0_phi, w1_phi, _ = nonnegativity.METRICS["Jaccard"]
    monkeypatch.setitem(nonnegativity.METRICS, "Jaccard", (w0_phi, w1_phi, 2 * nonnegativity.PI))
    outcome = nonnegativity.check_jaccard_h0()
    assert _erratum_fields(outcome, "Jaccard: E[H_0,phi] = pi") == (
        "App. A, sec:supp:non-negativity-of-surrogate-utilities", "2*pi", "pi", "see summary", "symbolic",
        "symbolic")


def test_table1_library_check_reports_a_planted_library_metric(monkeypatch):
    """lfverify.core.jaccard planted to return F_1 ((2, 0, 0, 1, 1, pi), not Jaccard's (1, 0, 0, 0, 1, pi)):
    the comparison of the library with the derived rows names exactly that metric."""
    import lfverify.proofs.table1 as table1

    metrics = table1.metrics  # the face (lfverify.core) the check reads
    monkeypatch.setattr(metrics, "jaccard", lambda: metrics.f_beta(1.0))
    outcome = table1.check_library_coefficients()
    assert _erratum_fields(outcome, "lfverify.core disagrees with the derived coefficients for ['jaccard()']") == (
        "lfverify.core (not the paper)", "library coefficients", "see summary",
        "the library computes another metric", "jaccard()", "exact comparison")


def test_table1_definition1_checks_report_a_planted_range_and_a_planted_metric(monkeypatch):
    """F_beta meets Definition 1 for every beta > 0 (the verified claim); a caption planted as 0 < beta < 1 is an
    erratum naming the derived set.  A Jaccard row planted as FP / (TP + FN + FP) has a0p = 0, against Definition
    1's a_{0,+1} > 0, and one planted as 2 TP / (TP + FN + FP) meets the signs but reaches U = 2 at TP = pi,
    FP = 0, against U <= 1 (both by hand): each an erratum."""
    import sympy as sp

    import lfverify.proofs.table1 as table1

    monkeypatch.setitem(table1.PRINTED_PARAMETER_RANGE, "F_beta", sp.Interval.open(0, 1))
    outcome = table1.check_f_beta_definition1()
    assert _erratum_fields(outcome, "F_beta satisfies Definition 1 for beta in Interval.open(0, oo)") == (
        "Tab. 1 caption", "beta > 0", "Interval.open(0, oo)", "see summary", "Interval.open(0, oo)", "symbolic")

    for planted in (table1.FP / (table1.TP + table1.FN + table1.FP),  # a0p = 0: a sign constraint fails
                    2 * table1.TP / (table1.TP + table1.FN + table1.FP)):  # signs hold, U = 2 TP / (FP + pi) > 1
        monkeypatch.setitem(table1.PRINTED_DEFINITION, "Jaccard", planted)
        outcome = table1.check_jaccard_definition1()
        assert _erratum_fields(outcome, "Jaccard violates Definition 1") == (
            "Tab. 1", "Jaccard row", "violates Definition 1", "see summary", "symbolic", "symbolic")


def _planted_w_tilde(k, a_pos, a_neg, b, phi_xi, phi_mxi, y):
    """Eq. (6)'s per-sample W~_0(xi, +1) planted with (1 + phi(xi)) (W~_1's form) instead of (1 - phi(xi))."""
    if y == 1:
        return a_pos * (1 + phi_xi) + b
    return a_neg * phi_mxi + b


def _planted_v_hat(w0, gw0, w1, gw1):
    """Eq. (7)'s V_hat planted with twice its value."""
    m, r = len(w0), len(w1)
    return 2 * sum(w1[j] * gw0[i] - w0[i] * gw1[j] for i in range(m) for j in range(r)) / (m * r)


def test_lemma3_checks_report_planted_scores_and_gradients(monkeypatch):
    """Lemma 3's checks with a printed form planted wrong.  (i) W~_0(xi, +1) with (1 + phi): E_Y[W~_0] - W_0,phi =
    q a (1 + phi) - q a (1 - phi) = 2 a phi q (by hand), W~_1 untouched: undecided with [2*a_pos*phi_xi*q, 0].
    (ii) V_hat doubled: grad U_hat = V_hat / D_hat^2 fails (an erratum) and E_S[V_hat] = 2 V_phi != V_phi for
    every n (an erratum naming n = 2, 3, 4)."""
    import lfverify.proofs.lemma3_unbiased_gradient as lemma3

    monkeypatch.setattr(lemma3, "printed_w_tilde", _planted_w_tilde)
    outcome = lemma3.check_per_sample_scores()
    assert (outcome.status, outcome.summary, outcome.errata) == (
        "undecided", "E_Y[W~_k] - W_k,phi = [2*a_pos*phi_xi*q, 0]", ())

    monkeypatch.setattr(lemma3, "printed_v_hat", _planted_v_hat)
    outcome = lemma3.check_empirical_gradient_identity()
    assert _erratum_fields(outcome, "grad U_hat != V_hat / D_hat^2") == (
        "Sec. 3.3", "grad U_hat = V_hat / D_hat^2", "differs", "NGA direction wrong", "symbolic", "symbolic")
    outcome = lemma3.check_unbiased()
    bias = str(lemma3.sp.expand(lemma3.derived_v_phi().subs(lemma3.SIMPLEX)))  # 2 V_phi - V_phi = V_phi
    assert _erratum_fields(outcome, "E_S[V_hat] != V_phi for n in [2, 3, 4]") == (
        "Lemma 3 (lem:unbiased-gradient)", "V_phi = E_S[V_hat]", bias, "V_hat biased", "symbolic",
        "exact enumeration")


def test_lemma3_population_gradient_check_reports_a_planted_sign(monkeypatch):
    """Sec. 3.3's V_phi planted with the opposite sign: the quotient-rule check is an erratum whose printed and
    derived forms add up to 0."""
    import sympy as sp

    import lfverify.proofs.lemma3_unbiased_gradient as lemma3

    monkeypatch.setattr(lemma3, "printed_v_phi", lambda e_w0, e_gw0, e_w1, e_gw1: e_w0 * e_gw1 - e_w1 * e_gw0)
    outcome = lemma3.check_population_gradient()
    location, printed, derived, *rest = _erratum_fields(
        outcome, "Sec. 3.3's gradient direction disagrees with the quotient rule")
    assert (location, rest) == ("Sec. 3.3", ["see summary", "symbolic", "symbolic"])
    printed, derived = sp.sympify(printed), sp.sympify(derived)
    assert printed != 0 and sp.expand(printed + derived) == 0


def test_lemma2_checks_compare_with_the_printed_constraints_and_range(monkeypatch):
    """(i) From Eq. (6) by hand: d^2/dxi^2 of W~_0(xi, +1) = a0p (1 - phi(xi)) + b0 is -a0p phi'', of W~_0(xi, -1)
    = a0n phi(-xi) + b0 is a0n phi'', of W~_1(xi, +1) a1p phi'', of W~_1(xi, -1) a1n phi''.  With Definition 1's
    constraint on a0n planted as a0n >= 0, the derived "concave iff a0n <= 0" no longer matches: undecided, every
    case line in the summary.  (ii) With Fig. 2's caption range planted as the derived (0, 1], the range check
    verifies instead of reporting its erratum, naming that range (it used to say "every tau > 0" whatever the
    range compared: found by this test)."""
    import sympy as sp

    import lfverify.proofs.lemma2_quasi_concavity as lemma2

    monkeypatch.setitem(lemma2.SIGN_CONSTRAINTS, lemma2.A0N, lemma2.A0N >= 0)
    outcome = lemma2.check_score_concavity()
    assert (outcome.status, outcome.errata) == ("undecided", ())
    assert outcome.summary == ("W~_0(., +1) concave iff -a0p <= 0, i.e. a0p >= 0; "
                               "W~_0(., -1) concave iff a0n <= 0, i.e. a0n >= 0; "
                               "W~_1(., +1) convex iff a1p >= 0, i.e. a1p >= 0; "
                               "W~_1(., -1) convex iff a1n >= 0, i.e. a1n >= 0")
    monkeypatch.setattr(lemma2, "PRINTED_TAU_RANGE", sp.Interval.Lopen(0, 1))
    outcome = lemma2.check_fig2_tau_range()
    assert (outcome.status, outcome.summary, outcome.errata) == (
        "verified", "Fig. 2's loss is convex exactly for tau in Interval.Lopen(0, 1), the caption's range.", ())


def test_thm7_remark_check_is_undecided_with_a_planted_bracket(monkeypatch):
    """Prop. 5's bracket planted with its intercept's sign flipped, + (a1n U - a0n): at eta = 0 it is
    a1n U - a0n >= 0 under U, a1n >= 0 >= a0n, so "intercept <= 0" can no longer be decided (SymPy's ask gives
    None: it is 0 at a1n = a0n = 0), while (1) is still implied and the bracket without (3) is still a0p eta."""
    import lfverify.proofs.counterexamples_prop5 as remark

    planted = (remark.a0p - remark.a0n - (remark.a1p - remark.a1n) * remark.u) * remark.eta + (
        remark.a1n * remark.u - remark.a0n)
    monkeypatch.setattr(remark, "PRINTED_BRACKET", planted)
    outcome = remark.check_thm7_pathology_remark()
    assert (outcome.status, outcome.errata) == ("undecided", ())
    assert outcome.summary == "(1) implied: True; bracket without (3): a0p*eta; intercept <= 0: None"


def _printed_stationary_forms():
    import lfverify.proofs.stationary_conditions as forms

    return {"fbeta_lines": forms.printed_fbeta_gateaux_lines,
            "fbeta_condition": forms.printed_fbeta_stationary_condition,
            "scores_a4": forms.printed_scores_a4, "general_lines": forms.printed_general_gateaux_lines}


#: the printed forms as transcribed, for planted variants of them (captured before any monkeypatch)
_PRINTED = _printed_stationary_forms()


@pytest.mark.parametrize("check, printed_name, planted, label", [
    # eq:supp:jaccard-stationary-eta with phi'(f*) and phi'(-f*) swapped
    ("check_jaccard_eta", "printed_jaccard_stationary_eta",
     lambda dpos, dneg, ustar: dpos * ustar / (dneg + dpos * ustar), "eq:supp:jaccard-stationary-eta"),
    # eq:supp:fbeta-stationary-eta with phi'(f*) and phi'(-f*) swapped
    ("check_fbeta_eta", "printed_fbeta_stationary_eta",
     lambda dpos, dneg, ustar, beta=None: dpos * ustar / ((1 + BETA**2) * dneg + (dpos + dneg) * ustar),
     "eq:supp:fbeta-stationary-eta"),
    # accuracy: by hand the derivative of (1 - phi(f)) eta - phi(-f)(1 - eta) is -phi'(f) eta + phi'(-f)(1 - eta)
    # = -[(phi'(f) + phi'(-f)) eta - phi'(-f)], the printed form up to -1; planted with phi'(f) as the constant
    ("check_accuracy_condition", "printed_accuracy_stationary_condition",
     lambda eta, dpos, dneg: (dpos + dneg) * eta - dpos, "eq:supp:accuracy-stationary-condition"),
    # App. A.1's third line of G'(0) doubled
    ("check_fbeta_condition", "printed_fbeta_gateaux_lines",
     lambda *args, **kwargs: (*_PRINTED["fbeta_lines"](*args, **kwargs)[:2],
                              2 * _PRINTED["fbeta_lines"](*args, **kwargs)[2]), "F_beta G'(0)"),
    # eq:supp:fbeta-stationary-condition's second line with the sign of its constant phi'(-f*) U* flipped
    ("check_fbeta_condition", "printed_fbeta_stationary_condition",
     lambda eta, dpos, dneg, ustar, **kwargs: (
         _PRINTED["fbeta_condition"](eta, dpos, dneg, ustar, **kwargs)[0],
         _PRINTED["fbeta_condition"](eta, dpos, dneg, ustar, **kwargs)[1] - 2 * dneg * ustar),
     "eq:supp:fbeta-stationary-condition"),
    # App. A.4's W_{1,phi} doubled: neither Eq. (3) nor its mirror image
    ("check_general_scores", "printed_scores_a4",
     lambda xi, q, c: (_PRINTED["scores_a4"](xi, q, c)[0], 2 * _PRINTED["scores_a4"](xi, q, c)[1]),
     "App. A.4's W_{k,phi}"),
    # App. A.4's first line of G'(0) doubled
    ("check_general_gateaux", "printed_general_gateaux_lines",
     lambda *args, **kwargs: (2 * _PRINTED["general_lines"](*args, **kwargs)[0],
                              *_PRINTED["general_lines"](*args, **kwargs)[1:]),
     "App. A.4 G'(0), first two lines"),
])
def test_stationary_condition_checks_are_undecided_with_a_planted_form(monkeypatch, check, printed_name, planted,
                                                                        label):
    """App. A's stationary conditions, each with its printed form planted wrong: the check is undecided, naming
    the equation (the documented fallback for a disagreement it does not classify)."""
    import lfverify.proofs.stationary_conditions as stationary_conditions

    monkeypatch.setattr(stationary_conditions, printed_name, planted)
    outcome = getattr(stationary_conditions, check)()
    assert (outcome.status, outcome.errata) == ("undecided", ())
    assert outcome.summary == f"{label}: the derivation disagrees with the printed form; not classified"


def test_thm2_case1_is_undecided_when_the_printed_stationary_eta_is_planted(monkeypatch):
    """eq:supp:jaccard-stationary-eta planted with p and q swapped: case 1 is undecided and names the derived eta,
    which is the true printed form q U* / (p + q U*) (the claim verified with the paper's text)."""
    import sympy as sp

    import lfverify.proofs.thm2_jaccard_calibration as thm2

    true_form = thm2.PRINTED_ETA_STATIONARY
    monkeypatch.setattr(thm2, "PRINTED_ETA_STATIONARY", thm2.p * thm2.S / (thm2.q + thm2.p * thm2.S))
    outcome = thm2.check_case1()
    assert (outcome.status, outcome.errata) == ("undecided", ())
    prefix, suffix = "derived stationary eta ", " differs from eq:supp:jaccard-stationary-eta"
    assert outcome.summary.startswith(prefix) and outcome.summary.endswith(suffix)
    named = sp.sympify(outcome.summary[len(prefix):-len(suffix)],
                       locals={str(s): s for s in true_form.free_symbols})
    assert sp.cancel(named - true_form) == 0


def _undecided_summary(outcome):
    """The summary of an undecided outcome (no erratum records, the default method)."""
    assert (outcome.status, outcome.errata) == ("undecided", ())
    return outcome.summary


def test_thm2_case1_is_undecided_with_a_planted_denominator_or_chain(monkeypatch):
    """App. A.2 case 1.  By hand eta_STA - U/(1+U) = q S/(p + q S) - U/(1+U) = (q S (1 + U) - U (p + q S)) /
    ((U + 1)(S q + p)); its denominator is negative (p, q < 0).  (i) The printed denominator planted as its
    negative, -(p + q S)(1 + U), is positive: undecided, naming the difference.  (ii) The chain's last line planted
    as q (S - 2 tau): the tau-discrepancy slack becomes p - 2 tau q = s - tau q (p = tau q + s), not s, and the
    last line q (g - tau) (S = tau + g) is of unknown sign: both steps are named."""
    import lfverify.proofs.thm2_jaccard_calibration as thm2

    p, q, S, U, tau = thm2.p, thm2.q, thm2.S, thm2.U, thm2.tau
    monkeypatch.setattr(thm2, "PRINTED_CASE1_DENOMINATOR", -(p + q * S) * (1 + U))
    assert _undecided_summary(thm2.check_case1()) == (
        "difference (S*q*(U + 1) - U*(S*q + p))/((U + 1)*(S*q + p)) vs printed; denominator negative: False")
    monkeypatch.undo()
    chain = thm2.PRINTED_CASE1_CHAIN
    monkeypatch.setattr(thm2, "PRINTED_CASE1_CHAIN", (*chain[:3], q * (S - 2 * tau)))
    assert _undecided_summary(thm2.check_case1()) == "could not confirm: tau-discrepancy step, U* >= tau step"


def test_thm2_case2_is_undecided_with_a_planted_bound(monkeypatch):
    """App. A.2 case 2 with the middle bound planted as U*/(2 + U*): eta(r) = S/(S + r) still matches and
    decreases, but at r = 1 it is S/(1 + S), not the planted bound; the monotone step (S + g)/(1 + S + g) -
    S/(2 + S) = (S + 2 g)/((S + 2)(S + g + 1)) (by hand) is named with the rest."""
    import lfverify.proofs.thm2_jaccard_calibration as thm2

    first, _, third = thm2.PRINTED_CASE2_CHAIN
    monkeypatch.setattr(thm2, "PRINTED_CASE2_CHAIN", (first, thm2.S / (2 + thm2.S), third))
    assert _undecided_summary(thm2.check_case2()) == (
        "eta(r) = S/(S + r); decreasing True; slope (x + 1)**(-2); step (S + 2*g)/((S + 2)*(S + g + 1))")


def test_thm2_closing_line_and_theorem_are_undecided_when_their_witnesses_do_not_reproduce(monkeypatch):
    """The closing-line erratum needs a maximiser with f*(x) = 0 at an atom: with the non-dominating population
    (whose f* < 0 everywhere) in place of the kink population it is undecided.  The theorem's errata need both
    counterexamples reproduced: with the kink one planted as not reproduced, it is undecided and says which."""
    import lfverify.proofs.thm2_jaccard_calibration as thm2

    monkeypatch.setattr(thm2, "_kink_population", thm2._nondominating_population)
    assert _undecided_summary(thm2.check_closing_line()) == "the comparison point did not reproduce"
    monkeypatch.undo()
    monkeypatch.setattr(thm2, "kink_counterexample_reproduced", lambda counterexample, optimum: False)
    assert _undecided_summary(thm2.check_theorem()) == (
        "the counterexamples did not reproduce (kink: False, non-dominating: True)")


def test_thm1_tau_range_is_undecided_with_a_planted_supremum_or_library_function(monkeypatch):
    """Thm. 1's hypothesis solved for tau gives tau_max = beta^2 U*/(1 + beta^2 + U*) (by hand: (beta^2 - tau) U*
    >= (1 + beta^2) tau), with d tau_max/dU* = beta^2 (1 + beta^2)/(U* + beta^2 + 1)^2 and beta^2 - tau_max =
    beta^2 (1 + beta^2)/(U* + beta^2 + 1).  (i) The printed supremum planted as beta^2/(1 + beta^2) (tau_max at
    U* = 1 is beta^2/(2 + beta^2)): undecided, naming those three.  (ii) The library's fbeta_max_tau planted
    2^-20 high: undecided, naming the largest difference 2^-20 = 9.54e-07."""
    import lfverify.proofs.thm1_fbeta_calibration as thm1
    from lfverify import core as calibration

    monkeypatch.setattr(thm1, "PRINTED_TAU_SUP", thm1.B2 / (1 + thm1.B2))
    assert _undecided_summary(thm1.check_tau_range()) == (
        "tau_max = S*beta**2/(S + beta**2 + 1): increasing=beta**2*(beta**2 + 1)/(S + beta**2 + 1)**2, beta^2 - "
        "tau_max=beta**2*(beta**2 + 1)/(S + beta**2 + 1)")
    monkeypatch.undo()
    library = calibration.fbeta_max_tau
    monkeypatch.setattr(thm1, "fbeta_max_tau", lambda beta, u_star: library(beta, u_star) + 2.0**-20)
    assert _undecided_summary(thm1.check_tau_range()) == (
        "fbeta_max_tau differs from the derived tau_max by up to 9.54e-07")


def test_thm1_case1_is_undecided_with_a_planted_stationary_eta_or_fig6_bound(monkeypatch):
    """App. A.1 case 1.  (i) eq:supp:fbeta-stationary-eta planted with p and q swapped: undecided, naming the
    derived q U*/((1 + beta^2) p + (p + q) U*) (expanded).  (ii) Fig. 6's lower bound of B planted as 2 beta^2:
    B - 2 beta^2 = (1 + beta^2)(1 - U)/U - beta^2 is not (1 + beta^2) v at U = 1/(1 + v), so only "Fig. 6 bound"
    fails.  (iii) Fig. 5's bound planted (below).  Kills proofs.thm1_fbeta_calibration.x_check_case1__mutmut_134
    (the name "Fig. 5 equivalence" altered)."""
    import lfverify.proofs.thm1_fbeta_calibration as thm1

    p, q, S, B2 = thm1.p, thm1.q, thm1.S, thm1.B2
    monkeypatch.setattr(thm1, "PRINTED_ETA_STATIONARY", p * S / ((1 + B2) * q + (p + q) * S))
    assert _undecided_summary(thm1.check_case1()) == (
        "the derived stationary eta S*q/(S*p + S*q + beta**2*p + p) differs from eq:supp:fbeta-stationary-eta")
    monkeypatch.undo()
    monkeypatch.setattr(thm1, "PRINTED_FACTOR_B_LOWER", 2 * B2)
    assert _undecided_summary(thm1.check_case1()) == "could not confirm: Fig. 6 bound"
    monkeypatch.undo()
    # (iii) Fig. 5's lower bound of A planted as tau/(2 beta^2): beta^2 (1 + beta^2 + U*)(A - tau/(2 beta^2)) is no
    # longer (beta^2 - tau)(U* - (1 + beta^2) tau/(beta^2 - tau)), so only "Fig. 5 equivalence" fails
    monkeypatch.setattr(thm1, "PRINTED_FACTOR_A_LOWER", thm1.tau / (2 * B2))
    assert _undecided_summary(thm1.check_case1()) == "could not confirm: Fig. 5 equivalence"


def test_thm1_case1_sign_step_is_undecided_with_a_planted_loss(monkeypatch):
    """The sign step's library evidence: tau phi'(-m) - phi'(m) <= 0 for m > 0.  A planted tau-logistic whose
    derivative is -1 everywhere gives tau * (-1) - (-1) = 1 - tau > 0 for tau = 0.05, the first tau tried."""

    class ConstantSlope:
        def derivative(self, margins):
            return -1.0 + 0.0 * margins

    import lfverify.proofs.thm1_fbeta_calibration as thm1

    monkeypatch.setattr(thm1, "tau_logistic", lambda tau: ConstantSlope())

    assert _undecided_summary(thm1.check_case1()) == "tau phi'(-m) - phi'(m) > 0 for tau-logistic(0.05)"


def test_thm1_case2_is_undecided_with_planted_lines_or_evidence(monkeypatch):
    """App. A.1 case 2, each failure branch:
    (i) the printed second line planted as U*/((1 + beta^2) + (r + 1) U*) (r dropped from the first term):
        undecided, naming the derived eta(r) = U*/((1 + beta^2) r + (r + 1) U*);
    (ii) the printed first bound planted as U*/((1 + beta^2)(1 + 2U*)): printed - derived (U*/(1 + beta^2 + 2U*))
        = U* (1 + beta^2 + 2U* - (1 + beta^2)(1 + 2U*))/(...) = -2 beta^2 U*^2/((2U* + 1)(beta^2 + 1)(2U* +
        beta^2 + 1)) (by hand), not the expected gap;
    (iii) the second bound planted as U/(2 + beta^2): at U = U* + g both steps have numerators of unknown sign,
        2U*^2 + 2U* g - U* + beta^2 g + g and U*^2 beta^2 + U*^2 + U* beta^2 g + U* g - U* + beta^2 g + g (by hand);
    (iv) the finite-difference evidence planted as (eta, derived, printed) = (1/4, 1/2, 1/8): undecided with them."""
    import lfverify.proofs.thm1_fbeta_calibration as thm1

    S, B2, U, r = thm1.S, thm1.B2, thm1.U, thm1.r
    monkeypatch.setattr(thm1, "PRINTED_CASE2_LINE2", S / ((1 + B2) + (r + 1) * S))
    assert _undecided_summary(thm1.check_case2()) == (
        "eta(r) = S/(S*r + S + beta**2*r + r) differs from the printed second line")
    monkeypatch.undo()
    monkeypatch.setattr(thm1, "PRINTED_CASE2_FIRST_BOUND", S / ((1 + B2) * (1 + 2 * S)))
    assert _undecided_summary(thm1.check_case2()) == (
        "eta(r) decreasing: True; printed - derived = -2*S**2*beta**2/((2*S + 1)*(beta**2 + 1)*(2*S + beta**2 + 1))")
    monkeypatch.undo()
    monkeypatch.setattr(thm1, "PRINTED_CASE2_SECOND_BOUND", U / (2 + B2))
    assert _undecided_summary(thm1.check_case2()) == (
        "second step: (2*S**2 + 2*S*g - S + beta**2*g + g)/((beta**2 + 2)*(2*S + beta**2 + 1)), (S**2*beta**2 + "
        "S**2 + S*beta**2*g + S*g - S + beta**2*g + g)/((S + 1)*(beta**2 + 1)*(beta**2 + 2))")
    monkeypatch.undo()
    monkeypatch.setattr(thm1, "_fd_stationary_eta_evidence", lambda: (0.25, 0.5, 0.125, 0.75, 2.0))
    assert _undecided_summary(thm1.check_case2()) == "finite differences: eta = 0.25, derived 0.5, printed 0.125"


def test_thm1_theorem_is_undecided_when_a_counterexample_does_not_reproduce(monkeypatch):
    """Thm. 1's errata need both counterexamples reproduced: the kink one planted as not reproduced."""
    import lfverify.proofs.thm1_fbeta_calibration as thm1

    monkeypatch.setattr(thm1, "kink_counterexample_reproduced", lambda counterexample, optimum: False)
    assert _undecided_summary(thm1.check_theorem()) == (
        "the counterexamples did not reproduce (kink: False, non-dominating: True)")


def test_prop5_checks_are_undecided_with_planted_printed_forms(monkeypatch):
    """Prop. 5 and its proof, each check with one printed form planted wrong (by hand: with symbolic
    coefficients the bracket is (Da0 - Da1 U) eta - (a1n U - a0n), Da_k = a_{k,+1} - a_{k,-1}, so its root in eta
    is (a1n U - a0n)/(Da0 - Da1 U); F_beta's bracket is (1 + beta^2) eta - U, Jaccard's (1 + U) eta - U):
    (i) the third gradient line doubled: only line 3 is named; (ii) the bracket's intercept sign flipped;
    (iii) eta_OPT with -a0n replaced by +a0n: the derived root is named; (iv) an enumeration planted with 1 of
    10 disagreements; (v) Jaccard's printed bracket planted as (1 + U) eta + U: both derived brackets named."""
    import lfverify.proofs.prop5_bayes_optimal_set as prop5

    lines = prop5.printed_gradient_lines

    def third_line_doubled(p, eta, ew0, ew1, ubar, c):
        printed = lines(p=p, eta=eta, ew0=ew0, ew1=ew1, ubar=ubar, c=c)
        return (*printed[:2], 2 * printed[2])

    monkeypatch.setattr(prop5, "printed_gradient_lines", third_line_doubled)
    assert _undecided_summary(prop5.check_frechet_derivative()) == (
        "d U-bar / d lambda_1 differs from printed line(s) [3]; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop5, "printed_bayes_bracket",
                        lambda eta, u, c: (c.da0 - c.da1 * u) * eta + (c.a1n * u - c.a0n))
    assert _undecided_summary(prop5.check_threshold()) == (
        "the derived bracket differs from Prop. 5's printed one; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop5, "printed_eta_opt", lambda u, c: (c.a1n * u + c.a0n) / (c.da0 - c.da1 * u))
    assert _undecided_summary(prop5.check_threshold()) == (
        "solving the bracket for eta gave [(U*a1n - a0n)/(U*a1n - U*a1p - a0n + a0p)]; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop5, "_brute_force_evidence", lambda bracket, threshold: (10, 9, 5, 5))
    assert _undecided_summary(prop5.check_threshold()) == (
        "enumeration disagrees with the derived characterisation in 1 of 10 and 0 of 5 cases; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop5, "PRINTED_JACCARD_BRACKET", (1 + prop5.U) * prop5.ETA + prop5.U)
    assert _undecided_summary(prop5.check_fbeta_jaccard_sets()) == (
        "derived brackets -U + beta**2*eta + eta, U*eta - U + eta differ from the printed ones; not classified")


def test_prop5_threshold_evidence_admits_only_optima_with_a_positive_slope(monkeypatch):
    """Prop. 5's optimum is {eta > delta(U-dagger)} only where the slope Da0 - Da1 U-dagger of the bracket is > 0;
    the enumeration must gate its threshold evidence on that sign.  None of the seven evidence metrics has a
    negative slope at its optimum, so the gate is exercised with a planted eighth metric whose slope is negative
    everywhere: U = (TP + 1)/(TP/2 + 0.2) (a0p = 1, a1p = 1/2, b0 = 1, b1 = 0.2, a0n = a1n = 0).  By hand: U falls
    in TP (its derivative has the sign of 0.2 - 1/2), so U-dagger = U(TP = 0) = 5, attained only by predicting
    nothing positive (every eta_j, p_j > 0); the slope is 1 - 5/2 < 0 and the bracket (1 - U/2) eta is < 0 at every
    classifier's own U (> 2 for every TP), so the characterisation still agrees with enumeration in all 30
    populations, while the threshold evidence must admit none of them.  A gate with the slope mistyped as
    Da0 - Da1/U (= 0.9 > 0 here) admits them and predicts eta > delta = 0 (everything positive): undecided."""
    import lfverify.proofs.prop5_bayes_optimal_set as prop5
    from lfverify.core import LinearFractionalMetric

    reversed_metric = LinearFractionalMetric(a0p=1.0, a0n=0.0, a1p=0.5, a1n=0.0, b0_const=1.0, b1_const=0.2,
                                             name="slope < 0 at its optimum")
    seven = prop5._evidence_metrics()
    monkeypatch.setattr(prop5, "_evidence_metrics", lambda: [*seven, reversed_metric])
    outcome = prop5.check_threshold()
    assert outcome.status == "verified", outcome.summary
    # 30 populations x 8 metrics enumerated; the threshold evidence is the 30 x 7 cases of the paper's metrics
    # (their slopes at the optimum are all > 0: the count without the planted metric is 210 as well)
    assert "metrics (240 cases)" in outcome.summary and "in all 210 cases with Da0 - Da1 U-dagger > 0" in (
        outcome.summary)


def test_prop5_accuracy_check_reports_planted_brackets_integrand_and_coefficients(monkeypatch):
    """Accuracy = TP + TN = TP - FP + (1 - pi): (a0p, a0n, b0, a1p, a1n, b1) = (1, -1, 1 - pi, 0, 0, 1) (by hand),
    bracket 2 eta - 1 from either coefficient set (it involves neither b0 nor b1).  (i) The printed bracket
    planted as 2 eta + 1: undecided, naming both derived brackets and the planted one; (ii) App. A.3's integrand
    planted with + pi for + (1 - pi): undecided; (iii) the printed coefficients planted equal to the derived ones:
    the converse, verified (no erratum)."""
    import lfverify.proofs.prop5_bayes_optimal_set as prop5

    monkeypatch.setattr(prop5, "PRINTED_ACCURACY_BRACKET", 2 * prop5.ETA + 1)
    assert _undecided_summary(prop5.check_accuracy_coefficients()) == (
        "accuracy brackets 2*eta - 1 (derived coefficients), 2*eta - 1 (printed coefficients) and the printed "
        "2*eta + 1 differ; not classified")
    monkeypatch.undo()
    lam, eta = prop5.LAMBDA, prop5.ETA
    monkeypatch.setattr(prop5, "PRINTED_U_ACC_INTEGRAND", lam * eta - lam * (1 - eta) + prop5.PI)
    assert _undecided_summary(prop5.check_accuracy_coefficients()) == (
        "accuracy's derived coefficients disagree with App. A.3's U^Acc; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop5, "PRINTED_ACCURACY_COEFFICIENTS", prop5.ACCURACY)
    outcome = prop5.check_accuracy_coefficients()
    assert (outcome.status, outcome.summary, outcome.errata) == (
        "verified", "the printed accuracy coefficients equal the derived ones", ())


def test_prop8_checks_reach_their_undecided_and_converse_branches(monkeypatch):
    """Prop. 8 (App. A.3).  The derived stationary eta is phi'(-f*)/(phi'(-f*) + phi'(f*)) = 1/(1 + phi'(f*)/
    phi'(-f*)) (by hand, from -phi'(f) eta + phi'(-f)(1 - eta) = 0):
    (i) case 1's printed eta planted as 1/(1 - ratio): undecided, naming the derived eta;
    (ii) the hinge witness planted as the logistic loss (slopes -0.5, not -1, at +-1/2): undecided;
    (iii) case 2's printed eta planted as the derived 1/(1 + ratio): the converse, verified;
    (iv) the exponential loss planted as the logistic one: the finite-difference root moves off 1/(1 + e^2);
    (v) case 3's atom planted at eta = 5/8 (not 1/2): the logistic witness is no longer stationary at 0;
    (vi) App. A.3's integrand planted with + pi for + (1 - pi): undecided, naming Eq. (3)'s scores."""
    import lfverify.proofs.prop8_accuracy_calibration as prop8
    from lfverify import core as losses

    ratio = prop8.DPOS / prop8.DNEG
    monkeypatch.setattr(prop8, "PRINTED_CASE1_ETA", 1 / (1 - ratio))
    assert _undecided_summary(prop8.check_case1()) == (
        "case 1: derived eta dphi_neg/(dphi_neg + dphi_pos) differs from the printed one; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop8, "hinge", losses.logistic)
    assert _undecided_summary(prop8.check_case1()) == (
        "case 1: the hinge witness does not behave as expected; not classified")
    monkeypatch.undo()
    monkeypatch.setattr(prop8, "PRINTED_CASE2_ETA", 1 / (1 + ratio))
    outcome = prop8.check_case2()
    assert (outcome.status, outcome.summary, outcome.errata) == ("verified", "case 2's eta is the derived one", ())
    monkeypatch.undo()
    monkeypatch.setattr(prop8, "exponential", losses.logistic)
    assert _undecided_summary(prop8.check_case2()) == (
        "case 2: the finite-difference root disagrees with the derived eta; not classified")
    monkeypatch.undo()
    population_with = prop8._population_with
    monkeypatch.setattr(prop8, "_population_with", lambda eta_first: population_with(0.625))
    assert _undecided_summary(prop8.check_case3()) == (
        "case 3: the logistic witness does not behave as expected; not classified")
    monkeypatch.undo()
    phi, xi, eta = prop8.PHI, prop8.XI, prop8.ETA
    monkeypatch.setattr(prop8, "PRINTED_SURROGATE_INTEGRAND", (1 - phi(xi)) * eta - phi(-xi) * (1 - eta) + prop8.PI)
    assert _undecided_summary(prop8.check_bartlett()) == (
        "accuracy's Eq. (3) scores eta*(1 - phi(xi)) - pi - (1 - eta)*phi(-xi) + 1, 1 differ from App. A.3's U^Acc_phi")


def test_prop8_case1_text_on_s_and_the_stationary_eta_is_checked(monkeypatch):
    """Prop. 8 case 1's erratum text (referee round 34) defines S = -phi'(f*) eta + phi'(-f*)(1 - eta), minus the
    printed (phi'(f*) + phi'(-f*)) eta - phi'(-f*) (by hand: -(a + b) eta + b = -a eta + b (1 - eta)), and says a
    stationary eta in [0, 1] exists exactly for r = phi'(f*)/phi'(-f*) in [0, 1]: with phi'(f*) = r k, phi'(-f*) = k,
    -r k eta + k (1 - eta) = 0 gives eta = 1/(1 + r) (r = -10/3: -3/7, the referee's witness; r = -1: none).
    Companions: the printed left side itself as S (the sign the text warns about) fails both gates, and case 1 then
    reports undecided instead of an erratum whose text would be false."""
    import lfverify.proofs.prop8_accuracy_calibration as prop8

    assert prop8._s_definition_holds() and prop8._stationary_eta_range_holds()
    printed = prop8.printed_accuracy_stationary_condition(prop8.ETA, prop8.DPOS, prop8.DNEG)
    assert not prop8._s_definition_holds(printed)
    halved = prop8._S.subs(prop8.DPOS, prop8.DPOS / 2)  # eta = 1/(1 + r/2): the range claim no longer matches
    assert not prop8._stationary_eta_range_holds(halved)
    assert "S = G'(0) E[W_1]/p(x-bar) = -phi'(f*) eta + phi'(-f*)(1 - eta)" in prop8._S_DEFINITION
    monkeypatch.setattr(prop8, "_s_definition_holds", lambda bracket=None: False)
    assert _undecided_summary(prop8.check_case1()) == (
        "case 1: S's definition in the errata's text does not expand to the bracket")


def test_prop8_bartlett_check_counts_maximisers_of_the_wrong_sign(monkeypatch):
    """The conclusion's library check with the maximiser's sign planted flipped: every case disagrees.  The
    number of cases is recounted here from the check's documented draw (seed 20200826, 40 eta per loss for the
    four losses, |eta - 1/2| < 0.01 skipped)."""
    import numpy as np

    import lfverify.proofs.prop8_accuracy_calibration as prop8

    rng = np.random.default_rng(20200826)
    cases = sum(int(np.sum(np.abs(rng.uniform(0.02, 0.98, 40) - 0.5) >= 0.01)) for _ in range(4))
    search = prop8.minimize_scalar

    def flipped(*args, **kwargs):
        result = search(*args, **kwargs)
        result.x = -result.x
        return result

    monkeypatch.setattr(prop8, "minimize_scalar", flipped)
    assert _undecided_summary(prop8.check_bartlett()) == (
        f"the surrogate maximiser has the wrong sign in {cases} of {cases} cases")


def test_prop8_gap_check_is_undecided_when_its_witness_does_not_reproduce(monkeypatch):
    """The erratum 'there exists an optimal function f* not in B' (referee round 27 of issue 40) needs f* in B, every
    f_eps outside B and the gap shrinking with eps.  (i) The epsilons reversed (1e-4 before 1e-2): the gap grows along
    the list.  (ii) f* planted off B (U(f*) = 0.7 < U-dagger = 3/4).  (iii) The pointwise minimiser's check failing.
    Each is undecided; the unplanted check is the erratum."""
    import mpmath as mp

    import lfverify.proofs.prop8_accuracy_calibration as prop8

    assert prop8.check_gap_not_attained().status == "erratum"
    failed = "the continuous witness (accuracy, logistic loss, eta(x) = x) did not reproduce"
    monkeypatch.setattr(prop8, "_GAP_EPSILONS", tuple(reversed(prop8._GAP_EPSILONS)))
    assert _undecided_summary(prop8.check_gap_not_attained()) == failed
    monkeypatch.undo()
    witness = prop8._gap_witness
    monkeypatch.setattr(prop8, "_gap_witness", lambda: {**witness(), "u_fstar": mp.mpf("0.7")})
    assert _undecided_summary(prop8.check_gap_not_attained()) == failed
    monkeypatch.setattr(prop8, "_logistic_pointwise_minimiser", lambda: False)
    assert _undecided_summary(prop8.check_gap_not_attained()) == (
        "the logistic loss's pointwise minimiser ln(q/(1 - q)) did not check")


def test_thm7_checks_are_undecided_or_verified_with_planted_printed_forms(monkeypatch):
    """App. A.4 (Thm. 7), each check with one printed form planted.  By hand H(t) = 1/eta_OPT - 1 =
    (a1p t - a0p)/(a0n - a1n t), its partial fraction ((a0p a1n - a0n a1p)/a1n^2)/(t - a0n/a1n) - a1p/a1n, and
    with a1n = 0, H = (a1p t - a0p)/a0n with slope a1p/a0n and H(1 - g) - H(1) = -a1p g/a0n:
    (i) H planted with + a0p: only H is named false;
    (ii) the partial fraction planted right: the converse, verified (the paper's is an erratum);
    (iii) the library evidence for it planted as disagreeing: undecided;
    (iv) condition (5) planted as the derived condition + 1: the derived - printed difference is -1 < 0;
    (v) H planted as twice the derived one (every check derives it through _derived_h): H' doubles, named;
    (vi) the text's H(1) planted with (a1n + a0n): undecided;
    (vii) a1n = 0's printed H planted with + a0p/a0n: undecided, naming H, slope and step;
    (viii) case 2's sign expression planted as a0p - a1p U: F_1's value at U = 1/2 is 3/2, not -3/2;
    (ix) condition (b) planted twice as large: F_beta's derived (b) is beta^2 U*/(U* + beta^2 + 1) (as in
    Thm. 1), Jaccard's U*, (c) -U(U* + beta^2 + 1)/(U*(U - beta^2 - 1)) and U/U*."""
    import lfverify.proofs.thm7_general_calibration as thm7

    a0p, a0n, a1p, a1n, t, U = thm7.a0p, thm7.a0n, thm7.a1p, thm7.a1n, thm7.t, thm7.U
    planted = [
        ("PRINTED_H", (a1p * t + a0p) / (a0n - a1n * t), thm7.check_equivalence_chain,
         "H False, K True, steps (True, True, True)"),
        ("_threshold_evidence", lambda *args: (0.5, 1.0, False), thm7.check_partial_fraction,
         "the witness / library evidence did not reproduce"),
        ("PRINTED_CONDITION_5", a0p * a1n - a0n * a1p + 1, thm7.check_monotonicity,
         "could not confirm the monotonicity analysis"),
        ("PRINTED_H1_TEXT", (a0p - a1p) / (a1n + a0n), thm7.check_h_at_one, "could not confirm the H(1) analysis"),
        ("PRINTED_H_A1N_ZERO", (a1p / a0n) * t + a0p / a0n, thm7.check_a1n_zero,
         "H = (-a0p + a1p*t)/a0n, slope a1p/a0n, step -a1p*g/a0n"),
        ("PRINTED_CASE2_POSITIVE", a0p - a1p * U, thm7.check_sign_claims, "could not confirm the sign analysis"),
        ("PRINTED_CONDITION_B", 2 * thm7.PRINTED_CONDITION_B, thm7.check_reduction,
         "(b): S*beta**2/(S + beta**2 + 1), S; (c): -U*(S + beta**2 + 1)/(S*(U - beta**2 - 1)), U/S"),
    ]
    for name, value, check, summary in planted:
        monkeypatch.setattr(thm7, name, value)
        assert _undecided_summary(check()) == summary, name
        monkeypatch.undo()
    derived_h = thm7._derived_h
    monkeypatch.setattr(thm7, "_derived_h", lambda: (derived_h()[0], 2 * derived_h()[1]))
    assert _undecided_summary(thm7.check_monotonicity()) == "H'(t) = 2*(a0n*a1p - a0p*a1n)/(-a0n + a1n*t)**2"
    monkeypatch.undo()
    monkeypatch.setattr(thm7, "PRINTED_H_PARTIAL",
                        ((a0p * a1n - a0n * a1p) / a1n**2) / (t - a0n / a1n) - a1p / a1n)
    outcome = thm7.check_partial_fraction()
    assert (outcome.status, outcome.summary, outcome.errata) == (
        "verified", "the printed partial fraction equals H", ())


def test_thm7_theorem_is_undecided_when_the_counterexample_does_not_reproduce(monkeypatch):
    """Thm. 7's erratum needs U(f*) < U-dagger at the exact surrogate maximiser of Thm. 1's kink witness
    (U-dagger = 27/31 = 0.870968, atoms 1 and 2 with f* = 0).  Planted with U(f*) = U-dagger: undecided, naming
    what was found (no condition failed)."""
    import lfverify.proofs.thm7_general_calibration as thm7

    counterexample = thm7.library_counterexample

    def planted(metric, coefficients, weights, eta, tau_value, base, report):
        found = counterexample(metric, coefficients=coefficients, weights=weights, eta=eta, tau_value=tau_value,
                               base=base, report=report)
        return {**found, "utility": found["bayes"]}

    monkeypatch.setattr(thm7, "library_counterexample", planted)
    assert _undecided_summary(thm7.check_theorem()) == (
        "the counterexample did not reproduce: failed conditions [], U(f*) = 0.870968, U-dagger = 0.870968, atoms "
        "with f* = 0: (1, 2)")


def test_lemma4_checks_reach_their_undecided_and_converse_branches(monkeypatch):
    """App. C (Lemma 4), each check with one printed form (or library function) planted.  By hand:
    psi(m) = phi'(m) m/|m| has psi' = m phi''/|m| + phi'/|m| - sign(m) phi'/m (d(m/|m|)/dm = 1/|m| - sign(m)/m);
    the bounded-difference constant at m = n/2 is 4 c_X (c_0 rho_1 + c_1 rho_0)/n and McDiarmid's two-sided tail
    inverts to 2 sqrt(2) c_X (c_0 rho_1 + c_1 rho_0) sqrt(log(2/delta))/sqrt(n); the proof's pieces assemble to
    the printed E_S[E(S)] constant (with (A'') = 4 rho_1, not 2 rho_1):
    (i) the last psi' line doubled: undecided, naming the derived psi';
    (ii) tau_logistic's gamma_{+1} planted 2^-20 high: the library's smoothness differs by 9.54e-07;
    (iii) (B)'s factor planted as 2 (the derived one): the witnesses no longer show the printed slip;
    (iv) the bounded-difference constant planted halved: undecided, naming the derived constants and inversion;
    (v) (A'')'s coefficient planted as 2 rho_1: undecided, naming the rebuilt constant;
    (vi) the final display planted as the sum of the two displays: the converse, verified;
    (vii) the plain printed bound function planted 2^-20 high: it disagrees with the symbolic form."""
    import lfverify.proofs.lemma4_uniform_convergence as lemma4
    from lfverify import core as losses

    lines = lemma4.PRINTED_PSI_LINES
    tau_logistic = losses.tau_logistic

    class PlantedSmoothness:
        def __init__(self, tau):
            self.smoothness = (tau_logistic(tau).smoothness[0], tau_logistic(tau).smoothness[1] + 2.0**-20)

    printed_bound = lemma4.printed_uniform_convergence_bound
    cx, rho0, rho1, c0, c1, n = lemma4.cX, lemma4.rho0, lemma4.rho1, lemma4.c0, lemma4.c1, lemma4.n
    planted = [
        (lemma4, "PRINTED_PSI_LINES", (*lines[:2], 2 * lines[2]), lemma4.check_psi_derivative,
         "psi' = m*Derivative(phi(m), (m, 2))/Abs(m) + Derivative(phi(m), m)/Abs(m) - sign(m)*Derivative(phi(m), "
         "m)/m"),
        (lemma4, "tau_logistic", PlantedSmoothness, lemma4.check_smoothness_constants,
         "library smoothness differs by 9.54e-07"),
        (lemma4, "PRINTED_B_FACTOR", 2, lemma4.check_nonsmooth_rademacher, "the witnesses did not reproduce"),
        (lemma4, "PRINTED_BD_CONSTANT", 2 * cx * (rho1 * c0 + rho0 * c1) / n, lemma4.check_bounded_difference,
         "constant 4*c_X*(c_0*rho_1 + c_1*rho_0)/n, 4*c_X*(c_0*rho_1 + c_1*rho_0)/n; tail True; inversion "
         "[2*sqrt(2)*c_X*(c_0*rho_1 + c_1*rho_0)*sqrt(log(2/delta))/sqrt(n)]"),
        (lemma4, "PRINTED_A2_COEFF", 2 * rho1, lemma4.check_expectation_bound,
         "rebuilt constant sqrt(2)*c_Theta*c_X*(4*c_0*c_X*d*gamma + 4*c_1*c_X*d*gamma + 8*c_X*rho_0*rho_1)/sqrt(n)"),
        (lemma4, "printed_uniform_convergence_bound", lambda **values: printed_bound(**values) + 2.0**-20,
         lemma4.check_final_bound, "the plain bound functions disagree with the symbolic forms"),
    ]
    for module, name, value, check, summary in planted:
        monkeypatch.setattr(module, name, value)
        assert _undecided_summary(check()) == summary, name
        monkeypatch.undo()
    monkeypatch.setattr(lemma4, "PRINTED_FINAL", lemma4.PRINTED_EXPECTATION + lemma4.PRINTED_DEVIATION)
    outcome = lemma4.check_final_bound()
    assert (outcome.status, outcome.summary, outcome.errata) == (
        "verified", "the final display is the sum of the two previous displays", ())


def test_counterexample_checks_are_undecided_when_their_witnesses_are_planted(monkeypatch):
    """The counterexample checks report "undecided" (never a false erratum) when a witness does not reproduce:
    (i) the remark after Thm. 7 with recall's third witness planted with eta = (1/10, 1/5, 3/5): every atom has
        eta > 0, so the only Bayes labeling is 111 (by hand), not {101, 111}; the conditions of both witnesses are
        named ((2) fails for the first, (3), (4), (5) for recall, whose a0n = a1n = 0);
    (ii) the (A') pull-out with the exact Rademacher average planted as minus the sum of |entries|: scaling
        the entries by |x_il| <= 1 then raises it, so the expectation inequality fails;
    (iii) the continuous-population figures with kink_band's lower end planted 2^-20 off the quadrature's;
    (iv) Gower-Legendre(1/2) with Lemma 1's random search planted as finding a gap of 1.0 (U_phi above U):
        undecided, naming every sub-result (the dip 1.52746428185 of the 50-digit witness at pi = 3/4 unchanged)."""
    from fractions import Fraction

    import lfverify.proofs.corrected_calibration as corrected_calibration
    import lfverify.proofs.corrected_rademacher as corrected_rademacher
    import lfverify.proofs.counterexamples as counterexamples
    import lfverify.proofs.counterexamples_prop5 as counterexamples_prop5

    monkeypatch.setattr(counterexamples_prop5, "ETA_3", (Fraction(1, 10), Fraction(1, 5), Fraction(3, 5)))
    conditions = "'(1)': True, '(2)': {}, '(3)': {}, '(4)': {}, '(5) printed': {}, '(5) derived': {}"
    assert _undecided_summary(counterexamples_prop5.check_thm7_pathology_remark()) == (
        "witnesses did not reproduce: [(0, 0)], {" + conditions.format(False, True, True, True, True)
        + "}, [(1, 1, 1)], {" + conditions.format(True, False, False, False, False) + "}")
    monkeypatch.undo()
    monkeypatch.setattr(corrected_rademacher, "_exact_sup_average",
                        lambda vectors, n: -sum(abs(x) for row in vectors for x in row))
    assert _undecided_summary(corrected_rademacher.check_kahane_step()) == "the witness did not reproduce"
    monkeypatch.undo()
    band = corrected_calibration.kink_band
    monkeypatch.setattr(corrected_calibration, "kink_band",
                        lambda *args: (band(*args)[0] + 2.0**-20, band(*args)[1]))
    assert _undecided_summary(corrected_calibration.check_continuous_populations()) == (
        "the continuous-population figures did not reproduce")
    monkeypatch.undo()
    monkeypatch.setattr(counterexamples, "_lemma1_random_cases", lambda count, seed: (1.0, None))
    assert _undecided_summary(counterexamples.check_gower_legendre_below_one()) == (
        "Gower-Legendre(1/2) did not reproduce: W1 term True, concave True, F-bar True, dip 1.52746428185, library "
        "True, violations ['a_{1,-1} >= 0'], Lemma 1 (True, True, True, 1.0)")


def test_stationary_condition_checks_verify_printed_forms_planted_right(monkeypatch):
    """The converse of the planted-wrong cases: App. A.4's scores printed as Eq. (3) itself verify; eq:supp:
    stationary-condition printed as the derived eta = (-a0n + a1n U*) phi'(-f*) / ((a0p + a1p U*) phi'(f*) +
    (-a0n + a1n U*) phi'(-f*)) (by hand from the stationary condition; the paper prints a0p - a1p U*) verifies,
    naming it (expanded)."""
    import lfverify.proofs.stationary_conditions as forms

    monkeypatch.setattr(forms, "printed_scores_a4", forms.scores_eq3)
    outcome = forms.check_general_scores()
    assert (outcome.status, outcome.summary, outcome.errata) == ("verified", "App. A.4's W_{k,phi} equal Eq. (3)'s",
                                                                 ())
    monkeypatch.undo()
    monkeypatch.setattr(forms, "printed_general_stationary_eta", lambda dpos, dneg, ustar, c: (
        (-c.a0n + c.a1n * ustar) * dneg / ((c.a0p + c.a1p * ustar) * dpos + (-c.a0n + c.a1n * ustar) * dneg)))
    outcome = forms.check_general_eta()
    assert (outcome.status, outcome.errata) == ("verified", ())
    assert outcome.summary == ("eta(x-bar) = dphi_neg*(U_star*a1n - a0n)/(U_star*a1n*dphi_neg + U_star*a1p*dphi_pos "
                               "- a0n*dphi_neg + a0p*dphi_pos) as printed")


@pytest.mark.parametrize("name, wrong_at", [("f_beta", 0.25), ("f_beta", 0.5), ("f_beta", 1.0), ("f_beta", 2.0),
                                            ("f_beta", 3.0), ("gower_legendre", 0.0), ("gower_legendre", 0.5),
                                            ("gower_legendre", 1.0), ("gower_legendre", 2.0),
                                            ("gower_legendre", 3.0)])
def test_table1_library_check_compares_at_every_documented_parameter(monkeypatch, name, wrong_at):
    """The library comparison's summary promises beta in {1/4, 1/2, 1, 2, 3} and alpha in {0, 1/2, 1, 2, 3}: with
    the library's metric planted wrong (its a0p doubled) at exactly one of those parameters, the check reports an
    erratum naming exactly that point.  Kills proofs.table1.x_check_library_coefficients__mutmut_36 (alpha 1/2
    replaced by 3/2, so 1/2 was never compared)."""
    import dataclasses

    import lfverify.proofs.table1 as table1

    metrics = table1.metrics  # the face (lfverify.core) the check reads
    library = getattr(metrics, name)

    def planted(parameter):
        metric = library(parameter)
        return dataclasses.replace(metric, a0p=2 * metric.a0p) if parameter == wrong_at else metric

    monkeypatch.setattr(metrics, name, planted)
    outcome = table1.check_library_coefficients()
    point = f"{name}({wrong_at:g})"
    assert _erratum_fields(outcome, f"lfverify.core disagrees with the derived coefficients for ['{point}']") == (
        "lfverify.core (not the paper)", "library coefficients", "see summary",
        "the library computes another metric", point, "exact comparison")


def test_lemma2_numerator_hessian_check_reports_a_planted_concave_loss(monkeypatch):
    """Lemma 2's numerical evidence with the tau-logistic loss planted concave (phi'' = -10^6 everywhere): every
    w_i'' = slope0[y_i] phi'' is then >= 0 (slope0 = -a0p <= 0 for y = +1, a0n <= 0 for y = -1), so each sampled
    Hessian H = X^T diag(w'') X / m is positive semidefinite with entries far above 1.  For such H, max |H_ij| <=
    max H_ii <= lambda_max <= trace H <= 3 max H_ii (d = 3), so the reported relative eigenvalue lambda_max / max(1,
    max |H_ij|) lies in [1, 3] (by hand).  Kills proofs.lemma2_quasi_concavity.x_check_numerator_hessian__mutmut_222
    (the erratum's location altered)."""
    import numpy as np

    import lfverify.proofs.lemma2_quasi_concavity as lemma2

    class Concave:
        def second_derivative(self, margins):
            return np.full_like(margins, -1e6, dtype=float)

    monkeypatch.setattr(lemma2, "tau_logistic", lambda tau: Concave())
    location, printed, derived, consequence, witness, evidence = _erratum_fields(
        lemma2.check_numerator_hessian(), "positive Hessian eigenvalue of N_hat")
    assert (location, printed, derived, consequence, evidence) == (
        "Lemma 2", "N_hat concave", "Hessian not NSD", "Lemma 2 false", "numpy eigvalsh")
    prefix = "relative eigenvalue "
    assert witness.startswith(prefix) and 1.0 <= float(witness[len(prefix):]) <= 3.0


def test_lemma2_numerator_hessian_check_names_a_planted_symbolic_mismatch(monkeypatch):
    """Lemma 2's symbolic step with SymPy's Hessian planted doubled: H - (1/m) sum w_i'' x_i x_i^T is then H itself,
    which is not zero, so the check is undecided and its summary names the mismatch and the residual matrix."""
    import lfverify.proofs.lemma2_quasi_concavity as lemma2

    hessian = lemma2.sp.hessian
    monkeypatch.setattr(lemma2.sp, "hessian", lambda *args: 2 * hessian(*args))
    outcome = lemma2.check_numerator_hessian()
    assert outcome.status == "undecided" and outcome.errata == ()
    assert outcome.summary.startswith("Hessian mismatch Matrix([[") and "phi" in outcome.summary


def test_nonnegativity_supremum_check_reaches_its_verified_and_undecided_branches(monkeypatch):
    """App. A's f_check.  (i) derive_h0 planted as finding the supremum attained (for both metrics): the printed
    f_check exists, so the claim is verified and each metric's line says "sup attained" (before, the lines said
    "not attained" under a "the supremum is attained" summary).  (ii) The core library's U_phi planted constant
    (1/2 at every c): the symbolic non-attainment stands, but the library no longer shows U_phi(f = c)
    decreasing to 0, so the check is undecided and names the values.  Kills mutants of the verified summary
    (e.g. proofs.nonnegativity.x_check_supremum_attained__mutmut_147)."""
    import lfverify.proofs.nonnegativity as nonnegativity
    from lfverify import core as populations

    derive_h0 = nonnegativity.derive_h0
    monkeypatch.setattr(nonnegativity, "derive_h0", lambda w0_phi: (*derive_h0(w0_phi)[:2], True))
    outcome = nonnegativity.check_supremum_attained()
    line = "sup attained, E[W_1,phi(f_l = l)] -> oo at eta = 1/2"
    assert (outcome.status, outcome.errata) == ("verified", ())
    assert outcome.summary == f"the supremum is attained: F_beta: {line}; Jaccard: {line}"
    monkeypatch.undo()
    monkeypatch.setattr(populations.FiniteSupportPopulation, "surrogate_utility_of_scores",
                        lambda self, metric, loss, scores: 0.5 + 0.0 * scores[:, 0])
    halves = ", ".join(["0.5"] * 4)
    assert _undecided_summary(nonnegativity.check_supremum_attained()) == (
        "not attained symbolically, but the core library's U_phi(f = c) at c = 2, 8, 32, 128 does not decrease to "
        f"below 0.05: F_1 {halves}; Jaccard {halves}")


def test_lemma1_pointwise_lines_print_a_zero_difference_as_zero(monkeypatch):
    """A case whose difference W_0 - W_{0,phi} expands to no monomial at all is still listed, as "0" (a reader of
    the verified summary must see that every case was examined).  Planted: the certificate returns no monomials.
    Kills proofs.lemma1_lower_bound.x__pointwise__mutmut_98 ('0' altered)."""
    monkeypatch.setattr(lemma1, "_certify", lambda difference: (True, []))
    outcome = lemma1.check_w0_pointwise()
    assert (outcome.status, outcome.errata) == ("verified", ())
    cases = "; ".join(f"{case}: 0" for case in ("xi > 0 [l(-xi)]", "xi < 0 [l(-xi)]", "xi = 0 [l(-xi)]",
                                                 "xi = 0 [1 - l(xi)]"))
    assert outcome.summary == ("W_0 - W_{0,phi} with a0p = A, a0n = -B, q, r = 1 - q, phi(+-xi) = l(+-xi) + s expands "
                               f"to non-negative monomials: {cases} (uses ; b_0 cancels).")


def test_thm7_reduction_is_undecided_when_the_exact_evidence_is_not_exact(monkeypatch):
    """Thm. 7's reduction checks F_beta's (c) bound >= 1 at 300 exact rational points; with SymPy's lambdify planted
    to return the float 0.5 (neither exact nor >= 1) the check is undecided, never verified.  Kills
    proofs.thm7_general_calibration.x_check_reduction__mutmut_247 (the status replaced by None)."""
    import sympy

    import lfverify.proofs.thm7_general_calibration as thm7

    monkeypatch.setattr(sympy, "lambdify", lambda *args, **kwargs: (lambda *values: 0.5))
    assert _undecided_summary(thm7.check_reduction()) == "F_beta's (c) bound fell below 1 or was not exact"


def test_thm1_case1_is_undecided_when_its_end_to_end_points_are_not_exact(monkeypatch):
    """App. A.1 case 1's end-to-end chain is evaluated at 300 rational points in Fraction arithmetic; with the
    grid draw planted to return floats (the same grid points, rounded to float64) every value is a float and the
    check is undecided, never verified.  Kills proofs.thm1_fbeta_calibration.x_check_case1__mutmut_320 (the status
    replaced by None)."""
    from fractions import Fraction

    import lfverify.proofs.thm1_fbeta_calibration as thm1

    exact_draw = thm1.random_fraction
    monkeypatch.setattr(thm1, "random_fraction",
                        lambda rng, low, high, den=997: float(exact_draw(rng, Fraction(low), Fraction(high), den)))
    assert _undecided_summary(thm1.check_case1()) == "the end-to-end check did not run in exact arithmetic"


def test_thm1_dinkelbach_gives_up_after_59_steps(monkeypatch):
    """tau_logistic_surrogate_maximiser's iteration budget: U_phi at the start, then at most 59 Dinkelbach steps,
    each evaluating U_phi once (Eq. (3): phi(f(x_j)) and phi(-f(x_j)) in the numerator and again in the denominator,
    4 J calls of phi for J atoms), then RuntimeError.  Planted: a phi that drifts by 1e-20 per call (the
    convergence test asks for 1e-45), so the iteration never converges.  Spy oracle: exactly 4 J (1 + 59) calls.
    Kills proofs.thm1_fbeta_calibration.x_tau_logistic_surrogate_maximiser__mutmut_173 (60 steps)."""
    from fractions import Fraction as F

    import mpmath as mp

    import lfverify.proofs.thm1_fbeta_calibration as thm1

    calls = []
    exact_loss = thm1.tau_logistic_mp

    def drifting_loss(tau, base=2):
        phi = exact_loss(tau, base)

        def drifting(x):
            calls.append(x)
            return phi(x) + len(calls) * mp.mpf(10) ** -20
        return drifting

    monkeypatch.setattr(thm1, "tau_logistic_mp", drifting_loss)
    f1 = (2, 0, 1, 1, 0, 0, 0, 1)  # F_1 = 2 TP / (TP + FP + pi): (a0p, a0n, a1p, a1n, b0 const, prior, b1 const, prior)
    weights, eta = (F(1, 10), F(9, 10)), (F(19, 20), F(1, 5))
    with pytest.raises(RuntimeError, match="^Dinkelbach's iteration did not converge$"):
        thm1.tau_logistic_surrogate_maximiser(f1, weights, eta, F(1))
    assert len(calls) == 4 * len(weights) * (1 + 59)


@pytest.mark.parametrize("planted, status", [
    ((1, -1, 1 - sp.Symbol("pi", positive=True), 0, 1, 1), "erratum"),  # a1n = 1 planted: not proportional
    ((2, -2, 2 - 2 * sp.Symbol("pi", positive=True), 0, 0, 2), "verified"),  # App. A.3's row times 2
])
def test_table1_accuracy_check_reports_a_planted_row_and_accepts_a_rescaled_one(monkeypatch, planted, status):
    """App. A.3's U^Acc = TP + TN = TP - FP + (1 - pi), so (a0p, a0n, b0, a1p, a1n, b1) = (1, -1, 1 - pi, 0, 0, 1)
    up to a common factor (by hand).  A planted a1n = 1 is an erratum with the whole record; the row times 2 is the
    same metric and verifies.  Kills proofs.table1.x_check_accuracy_coefficients__mutmut_12 (the record dropped)
    and _13 (the status dropped)."""
    import lfverify.proofs.table1 as table1

    monkeypatch.setattr(table1, "PRINTED_ACCURACY_APP_A3", planted)
    outcome = table1.check_accuracy_coefficients()
    if status == "verified":
        assert (outcome.status, outcome.errata) == ("verified", ())
        return
    assert _erratum_fields(outcome, "accuracy: derived coefficients disagree with App. A.3's U^Acc") == (
        "App. A.3", "(1, -1, 1 - pi, 0, 1, 1)", "(1, -1, 1 - pi, 0, 0, 1)", "see summary", "symbolic", "symbolic")


@pytest.mark.parametrize("right_piece", ["increasing", "phi(0) = 2"])
def test_nonnegativity_conclusion_needs_a_decreasing_right_piece_with_phi0_one(monkeypatch, right_piece):
    """App. A's conclusion U_phi* > 0 takes f = c > 0 and uses phi(c) < phi(0) = 1: both facts about Fig. 2's right
    piece are required.  Planted right pieces failing one of them each (1 + t: phi(0) = 1 but increasing; 2 e^-t:
    decreasing but phi(0) = 2) make the check undecided, naming decreasing False; the true loss verifies (the claim
    registry).  Truth table of the conjunction; kills proofs.nonnegativity.x__check_conclusion__mutmut_5 (and -> or)."""
    import lfverify.proofs.nonnegativity as nonnegativity

    exact_pieces = nonnegativity.phi_pieces
    planted = {"increasing": lambda t: 1 + t, "phi(0) = 2": lambda t: 2 * sp.exp(-t)}[right_piece]
    monkeypatch.setattr(nonnegativity, "phi_pieces", lambda t: (exact_pieces(t)[0], planted(t)))
    outcome = nonnegativity.check_jaccard_conclusion()
    assert (outcome.status, outcome.errata) == ("undecided", ())
    assert outcome.summary.startswith("Jaccard: decreasing False, num_ok True, den_ok True, smallest ")


def test_thm1_case1_names_the_product_step_when_its_line_is_planted(monkeypatch):
    """App. A.1 case 1's product step: the printed factorisation minus the line after the first inequality is
    U (1 + beta^2 + U*) q (A B - tau).  With that line planted as twice itself the difference is off by the line
    (non-zero), so only "product step" fails, by name.  Kills proofs.thm1_fbeta_calibration.x_check_case1__mutmut_142
    (the name "product step" altered)."""
    import lfverify.proofs.thm1_fbeta_calibration as thm1

    monkeypatch.setattr(thm1, "PRINTED_CASE1_AFTER_FIRST", 2 * thm1.PRINTED_CASE1_AFTER_FIRST)
    assert _undecided_summary(thm1.check_case1()) == "could not confirm: product step"


@pytest.mark.parametrize("planted", ["numerator sign flipped", "library loss shifted"])
def test_nonnegativity_loss_class_erratum_needs_its_witnesses(monkeypatch, planted):
    """App. A's conclusion read for Thm. 1's loss class (referee round 6): the erratum is reported only when the
    exact witnesses (phi = 2 at eta = 1/2: F_1's U_phi = -1/3; 8 + hinge at eta = 1: -7/5) and the core library
    agree.  A numerator with its sign flipped (U_phi would be +1/3) or a library loss that is not the witness's
    (shift 1 instead of 2: U_phi = 0) make the check undecided, never an erratum."""
    import lfverify.proofs.nonnegativity as nonnegativity

    assert nonnegativity.check_loss_class().status == "erratum"
    if planted == "numerator sign flipped":
        w0, w1, h = nonnegativity.METRICS["F_beta"]
        monkeypatch.setitem(nonnegativity.METRICS, "F_beta", (lambda p, q: -w0(p, q), w1, h))
    else:
        original = nonnegativity._ShiftedHinge.__init__
        monkeypatch.setattr(nonnegativity._ShiftedHinge, "__init__",
                            lambda self, shift, slope: original(self, shift - 1.0, slope))
    outcome = nonnegativity.check_loss_class()
    assert (outcome.status, outcome.errata) == ("undecided", ())
    assert outcome.summary.startswith("witnesses not confirmed")


def test_the_rademacher_lemmas_score_step_fails_with_one_score_planted_wrong(monkeypatch):
    """Step 1 of the corrected lem:non-smooth-rademacher holds only if each of the four per-sample scores
    W~'_k(xi, y) is s phi'(y xi) with s one of +-a_{k,+1}, +-a_{k,-1}: W~_1(xi, -1) planted with twice its value (the
    factor 2 a_{1,-1}, by hand, is none of them) leaves that step alone unconfirmed, though the other three scores
    still pass (a check that needs only one of the four would confirm it)."""
    import lfverify.proofs.corrected_rademacher as corrected_rademacher

    true_w_tilde = corrected_rademacher.printed_w_tilde

    def planted(*, k, y, **parts):
        return true_w_tilde(k=k, y=y, **parts) * (2 if (k, y) == (1, -1) else 1)

    monkeypatch.setattr(corrected_rademacher, "printed_w_tilde", planted)
    summary = _undecided_summary(corrected_rademacher.check_lemma())
    # one step in the list (its text holds quotes, so Python writes it in double quotes)
    assert summary.startswith('steps not confirmed: ["The per-sample scores of Eq. (6) have ') and \
        summary.endswith('"]') and summary.count('", ') == 0, summary


@pytest.mark.parametrize("check", ["check_thm1_zero_counted_positive", "check_thm2_zero_counted_positive"])
def test_zero_counted_positive_needs_the_library_to_agree_whatever_its_theorem_witness_says(monkeypatch, check):
    """The f* + 0 counterexamples need every sub-result at once: the core library's U(sgn f*) planted 1e-9 above the
    exact U(sgn f*) (a 1e-12 tolerance) makes the check undecided, although the 'theorem' witness, checked later in
    the same conjunction, still reproduces (its figures are exact rationals, untouched by the plant)."""
    import lfverify.proofs.counterexamples as counterexamples

    class Planted(counterexamples.FiniteSupportPopulation):
        def utility_of_scores(self, metric, scores, **options):
            return super().utility_of_scores(metric, scores, **options) + 1e-9

    monkeypatch.setattr(counterexamples, "FiniteSupportPopulation", Planted)
    outcome = getattr(counterexamples, check)()
    theorem = "Thm. 1" if "thm1" in check else "Thm. 2"
    assert outcome.status == "undecided"
    assert outcome.summary.startswith(f"{theorem}: the f* + 0 counterexample did not reproduce (hypotheses True, "
                                      "Thm. 7 True")


def test_nonnegativity_conclusion_needs_the_denominator_positive_at_q_zero(monkeypatch):
    """App. A's direct U_phi* > 0 argument needs E[W_1,phi] > 0 at f = c > 0 for q = 0, q = 1 and every q between.
    The F_beta denominator planted as W_1,phi = q (positive at q = 1 and at q = s / (1 + s), s > 0, zero at q = 0
    only, by hand): the check is undecided and names den_ok False; the numerator and the library are untouched."""
    import lfverify.proofs.nonnegativity as nonnegativity

    w0_phi, _, e_h0 = nonnegativity.METRICS["F_beta"]
    monkeypatch.setitem(nonnegativity.METRICS, "F_beta", (w0_phi, lambda phi_c, phi_mc, q: q, e_h0))
    outcome = nonnegativity.check_fbeta_conclusion()
    assert outcome.status == "undecided"
    assert outcome.summary.startswith("F_beta: decreasing True, num_ok True, den_ok False, smallest ")


def test_table1_representations_refuse_a_general_solution_that_is_not_a_multiple(monkeypatch):
    """Tab. 1's "every representation" step: SymPy's solution of N' D - N D' = 0 planted with 1 added to its last
    component (b1'), so it is no longer c times the derived row (b1' - c b1 = 1 for every c): the step refuses it by
    name instead of returning the common factor.  The derived row itself still gives c."""
    import lfverify.proofs.table1 as table1

    coeffs = table1.derive_coefficients(table1.PRINTED_DEFINITION["Gower-Legendre"])
    assert table1.all_representations(coeffs) == table1.sp.Symbol("c", real=True, nonzero=True)
    linsolve = table1.sp.linsolve

    def planted(equations, unknowns):
        (solution,) = linsolve(equations, unknowns)
        return table1.sp.FiniteSet(tuple(solution[:-1]) + (solution[-1] + 1,))

    monkeypatch.setattr(table1.sp, "linsolve", planted)
    with pytest.raises(ValueError, match=r"^the general representation is not a multiple of the derived one$"):
        table1.all_representations(coeffs)
