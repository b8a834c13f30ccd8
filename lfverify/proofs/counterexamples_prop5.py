"""Counterexamples found by the Prop. 5 property test (tests/core/test_properties.py), confirmed in exact arithmetic.

Claims checked here:

* App. A.4, the remark after Thm. 7 (thm:general-calibration) on what goes wrong without its conditions:
  "the Bayes optimal rule would be a classifier that always outputs positive values without the conditions
  (1) and (2); on the other hand, the Bayes optimal rule would be a classifier that always outputs negative
  values without the condition (3)".  Prop. 5's bracket shows the two pathologies the other way round.

The property test of Prop. 5 (brute force over all 2^J labelings of generated finite-support populations and
generated Definition 1 metrics) found Bayes rules that are always negative for metrics violating only (2);
the check below re-derives the statement symbolically and confirms both witnesses by exact enumeration with
fractions.Fraction, and with the core library.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp

from lfverify.core import FiniteSupportPopulation, LinearFractionalMetric
from lfverify.proofs._claims import Claim, Erratum, Outcome

__all__ = ["CLAIMS"]

a0p = sp.Symbol("a0p", positive=True)
a0n = sp.Symbol("a0n", nonpositive=True)
a1p, a1n = sp.symbols("a1p a1n", nonnegative=True)
u, eta = sp.symbols("U eta", nonnegative=True)

# ---- printed forms, transcribed from the LaTeX source ---------------------------------------------------------
# App. A.4, after the statement of Thm. 7 (thm:general-calibration):
PRINTED_REMARK = ("the Bayes optimal rule would be a classifier that always outputs positive values without the "
                  "conditions (1) and (2); on the other hand, the Bayes optimal rule would be a classifier that "
                  "always outputs negative values without the condition (3)")
# Thm. 7's conditions (1)-(3): (1) Da0 > 0, (2) Da1 <= 0, (3) a0n != 0 or a1n != 0.
# Prop. 5 (prop:bayes-optimal-set): f is Bayes optimal iff f(x) {(Da0 - Da1 U) eta(x) - (a1n U - a0n)} > 0.
PRINTED_BRACKET = (a0p - a0n - (a1p - a1n) * u) * eta - (a1n * u - a0n)
# ---- end of printed forms


def _brute_force(coef, weights, etas):
    """Exact U of every labeling (1 = predict +1 on that atom) of a finite-support population; Definition 1 with
    b_k = c_k + d_k pi.  ``coef`` = (a0p, a0n, a1p, a1n, c0, d0, c1, d1) as Fractions."""
    A0p, A0n, A1p, A1n, c0, d0, c1, d1 = coef
    pi = sum(w * q for w, q in zip(weights, etas))
    values = {}
    for lam in itertools.product((0, 1), repeat=len(weights)):
        tp = sum(w * q * l for w, q, l in zip(weights, etas, lam))
        fp = sum(w * (1 - q) * l for w, q, l in zip(weights, etas, lam))
        values[lam] = (A0p * tp + A0n * fp + c0 + d0 * pi) / (A1p * tp + A1n * fp + c1 + d1 * pi)
    best = max(values.values())
    return values, best, sorted(lam for lam, v in values.items() if v == best)


def _conditions(coef):
    """Thm. 7's (1)-(5) as printed, and (5) as derived (ERRATA: a0p a1n - a0n a1p > 0)."""
    A0p, A0n, A1p, A1n = coef[:4]
    return {
        "(1)": A0p - A0n > 0, "(2)": A1p - A1n <= 0, "(3)": A0n != 0 or A1n != 0, "(4)": A1n + A0n != 0,
        "(5) printed": A0p * A1n + A0n * A1p > 0, "(5) derived": A0p * A1n - A0n * A1p > 0,
    }


def _admissible(coef):
    """Definition 1 exactly, via lfverify.core's exact decision (sign and range constraints)."""

    A0p, A0n, A1p, A1n, c0, d0, c1, d1 = (float(v) for v in coef)
    metric = LinearFractionalMetric(a0p=A0p, a0n=A0n, a1p=A1p, a1n=A1n, b0_const=c0, b0_prior=d0,
                                    b1_const=c1, b1_prior=d1)
    return metric, metric.admissibility().admissible


# Witness for "without (2)": U = (2 TP + pi) / (4 TP + FP + pi): a0 = (2, 0), b0 = pi, a1 = (4, 1), b1 = pi.
# Only (2) fails (Da1 = 3 > 0); U = 1 at TP = FP = 0, so "always negative" is optimal on every population.
NO_2 = tuple(Fraction(v) for v in (2, 0, 4, 1, 0, 1, 0, 1))
# Witness for "without (3)": recall U = TP / pi: a0 = (1, 0), a1 = (0, 0), b1 = pi; (1), (2) hold, (3) fails.
NO_3 = tuple(Fraction(v) for v in (1, 0, 0, 0, 0, 0, 0, 1))
WEIGHTS_2 = (Fraction(1, 2), Fraction(1, 2))
ETA_2 = (Fraction(1), Fraction(0))
WEIGHTS_3 = (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
ETA_3 = (Fraction(1, 10), Fraction(0), Fraction(3, 5))


def check_thm7_pathology_remark() -> Outcome:
    """Derive, from Prop. 5's bracket, what the Bayes rule is when (2) or (3) fails, and confirm with witnesses."""
    # (1) is implied by Definition 1: Da0 = a0p - a0n > 0 for a0p > 0 >= a0n
    one_always = sp.ask(sp.Q.positive(a0p - a0n), sp.Q.positive(a0p) & sp.Q.nonpositive(a0n))
    # without (3) (a0n = a1n = 0) but with (2) (a1p <= a1n = 0, so a1p = 0): the bracket is a0p eta
    no3_bracket = sp.simplify(PRINTED_BRACKET.subs({a0n: 0, a1n: 0, a1p: 0}))
    # without (2) the slope Da0 - Da1 U of the bracket can be <= 0; its intercept -(a1n U - a0n) is <= 0 for U >= 0,
    # so then the bracket is <= 0 for every eta in [0, 1] and lambda = 0 (always negative) maximises
    # E[W0] - U-dagger E[W1] = sum_j w_j lambda_j bracket_j + const, i.e. is Bayes optimal
    intercept_nonpositive = sp.ask(sp.Q.nonpositive(PRINTED_BRACKET.subs(eta, 0)),
                                   sp.Q.nonnegative(u) & sp.Q.nonnegative(a1n) & sp.Q.nonpositive(a0n))
    if one_always is not True or no3_bracket != a0p * eta or intercept_nonpositive is not True:
        return Outcome("undecided", f"(1) implied: {one_always}; bracket without (3): {no3_bracket}; "
                                    f"intercept <= 0: {intercept_nonpositive}")
    # witnesses, exactly
    values2, best2, optimal2 = _brute_force(NO_2, WEIGHTS_2, ETA_2)
    cond2 = _conditions(NO_2)
    slope2 = (NO_2[0] - NO_2[1]) - (NO_2[2] - NO_2[3]) * best2
    values3, best3, optimal3 = _brute_force(NO_3, WEIGHTS_3, ETA_3)
    cond3 = _conditions(NO_3)
    metric2, admissible2 = _admissible(NO_2)
    metric3, admissible3 = _admissible(NO_3)
    ok2 = (admissible2 and optimal2 == [(0, 0)] and not cond2["(2)"]
           and all(v for k, v in cond2.items() if k not in ("(2)",)))
    ok3 = (admissible3 and optimal3 == [(1, 0, 1), (1, 1, 1)] and cond3["(1)"] and cond3["(2)"]
           and not cond3["(3)"])
    if not (ok2 and ok3):
        return Outcome("undecided", f"witnesses did not reproduce: {optimal2}, {cond2}, {optimal3}, {cond3}")
    # the core library (independent of the enumeration above)

    pop2 = FiniteSupportPopulation([[1.0], [-1.0]], [float(w) for w in WEIGHTS_2], [float(q) for q in ETA_2])
    pop3 = FiniteSupportPopulation([[0.0], [1.0], [2.0]], [float(w) for w in WEIGHTS_3], [float(q) for q in ETA_3])
    lib2, lib3 = pop2.bayes_optimal(metric2), pop3.bayes_optimal(metric3)
    ref2, ref3 = pop2._reference_bayes_optimal(metric2), pop3._reference_bayes_optimal(metric3)
    if not (lib2.utility == ref2 == 1.0 and not lib2.classifier.any() and lib3.utility == ref3 == 1.0
            and bool(lib3.classifier[0]) and bool(lib3.classifier[2])):
        return Outcome("undecided", f"library: {lib2}, {ref2}, {lib3}, {ref3}")
    fmt = ", ".join(f"{''.join(map(str, lam))}: {v}" for lam, v in sorted(values2.items()))
    erratum = Erratum(
        location="App. A.4, paragraph after the statement of Thm. 7 (thm:general-calibration)",
        printed=PRINTED_REMARK,
        derived=("By Prop. 5 a classifier is Bayes optimal iff it predicts +1 where (Da0 - Da1 U-dagger) eta - "
                 "(a1n U-dagger - a0n) > 0 and -1 where it is < 0.  (1) holds for every Definition 1 metric "
                 "(a0p > 0 >= a0n).  Without (3) but with (1), (2): a0n = a1n = 0 forces a1p = 0 and the bracket "
                 f"is {no3_bracket} > 0 wherever eta > 0: the Bayes rule always outputs positive values (e.g. "
                 "recall TP/pi).  Without (2): the slope Da0 - Da1 U-dagger can be <= 0 while the intercept "
                 "-(a1n U-dagger - a0n) is <= 0, so the bracket is <= 0 on (0, 1) and the Bayes rule "
                 "outputs negative values.  Within Definition 1 the two pathologies are swapped."),
        consequence=("None for Thm. 7 itself, which assumes all of (1)-(6); the explanation of why (2) and (3) "
                     "are needed is reversed for the utilities of Definition 1, to which Thm. 7 applies.  (With "
                     "(2) violated the rule can also be the usual threshold; 'always negative' is what happens once "
                     "Da0 - Da1 U-dagger <= 0.  Only by also dropping Definition 1's signs, e.g. a0n > 0 with "
                     "Da0 < 0, can violating (1) make the rule always positive.)"),
        witness=(f"without (2): U = (2 TP + pi)/(4 TP + FP + pi) (a0 = (2, 0), b0 = pi, a1 = (4, 1), b1 = pi; "
                 f"Definition 1 holds; (1), (3), (4), (5) hold, printed and derived), atoms with weights (1/2, 1/2) "
                 f"and eta = (1, 0): exact U of the labelings (one digit per atom, 1 = predict +1) {fmt}; the unique "
                 "Bayes rule predicts -1 on both "
                 f"atoms (U-dagger = {best2}, Da0 - Da1 U-dagger = {slope2}) although the eta = 1 atom is "
                 f"certainly positive.  Without (3): recall TP/pi, weights (1/3, 1/3, 1/3), eta = (1/10, 0, 3/5): "
                 f"U-dagger = {best3}, attained exactly by the labelings "
                 f"{', '.join(''.join(map(str, l)) for l in optimal3)} "
                 "(one digit per atom, 1 = predict +1: +1 on the atoms with eta > 0)."),
        evidence=(f"exact enumeration of all labelings with fractions.Fraction (above); core library "
                  f"(FiniteSupportPopulation.bayes_optimal and its brute-force _reference_bayes_optimal): "
                  f"U-dagger = {lib2.utility:g} with classifier {lib2.classifier.tolist()} (always negative) for the "
                  f"first witness, {lib3.utility:g} with {lib3.classifier.tolist()} for recall; "
                  "LinearFractionalMetric.admissibility() confirms both metrics satisfy Definition 1."),
    )
    return Outcome(
        "erratum",
        "Without (2) the Bayes rule can be always negative (and without (3), given (1)-(2), it is always "
        "positive): the remark after Thm. 7 has the two pathologies swapped.",
        errata=(erratum,),
        method="symbolic; exact enumeration of all labelings (2 witnesses); core library",
    )


CLAIMS = (
    Claim(key="counterexamples_prop5.thm7_pathology_remark",
          title="Thm. 7, remark: without (1), (2) the Bayes rule is always positive; without (3) always negative",
          label="thm:general-calibration", expected="erratum", check=check_thm7_pathology_remark),
)
