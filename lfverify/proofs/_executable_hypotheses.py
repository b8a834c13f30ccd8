"""The hypotheses of the corrected statements as predicates on an instance (:data:`HYPOTHESIS_PREDICATES`, keyed by
the hypothesis keys of :mod:`lfverify.proofs._corrected_statements`: Definition 1, conditions (1)-(3) of Thm. 7, the
loss's properties, U* <= U-dagger, Prop. 5's Da0 - Da1 U-dagger > 0, Lemma 4's setting), and
:func:`evaluate_hypotheses`, which evaluates a statement's hypotheses on one instance.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from lfverify.proofs._executable_evaluation import Undecidable, compare


def _definition1(case) -> bool:
    m = case.metric
    if not (m.a0p > 0 >= m.a0n and m.a1p >= 0 and m.a1n >= 0):
        return False
    if case.kind != "finite":
        return True  # the continuous cases use Table 1's metrics, which satisfy it
    pi = case.prior
    for tp, fp in itertools.product((Fraction(0), pi), (Fraction(0), 1 - pi)):
        den = m.a1p * tp + m.a1n * fp + m.b1(pi)
        num = m.a0p * tp + m.a0n * fp + m.b0(pi)
        if not (den > 0 and 0 <= num <= den):  # a linear-fractional U on the box: extremes at its vertices
            return False
    return True


def _b1_positive(case) -> bool:
    pi = case.prior if case.kind == "finite" else None
    return case.metric.b1(pi) > 0 if pi is not None else (case.metric.c1 > 0 or case.metric.d1 > 0)


HYPOTHESIS_PREDICATES: dict = {
    "definition1": _definition1,
    "b1_positive": _b1_positive,
    "condition1": lambda c: c.metric.a0p - c.metric.a0n > 0,
    "condition2": lambda c: c.metric.a1p - c.metric.a1n <= 0,
    "condition3": lambda c: c.metric.a0n != 0 or c.metric.a1n != 0,
    "phi_nonnegative": lambda c: c.loss.nonnegative,
    "phi_convex": lambda c: c.loss.convex,
    "phi_nonincreasing": lambda c: c.loss.nonincreasing,
    "phi_left_slope": lambda c: c.loss.left_slope < 0,
    "phi_dominates": lambda c: c.loss.dominates,
    "u_star_at_most_u_dagger": lambda c: compare(c.u_star, c.u_dagger) <= 0,
    "eta_interior": lambda c: all(0 < e < 1 for e in c.eta) if c.kind == "finite" else
    0 <= c.support[0] and c.support[1] <= 1,
    "u_star_positive": lambda c: compare(c.u_star, 0) > 0,
    "u_dagger_attained": lambda c: (compare((c.metric.a0p - c.metric.a0n) - (c.metric.a1p - c.metric.a1n)
                                            * c.u_dagger, 0) > 0),
    "phi_pieces": lambda c: c.loss.two_pieces,
    "lemma4_setting": lambda c: c.kind == "rate",
    "bounded_scores": lambda c: c.kind == "rate",
}


def evaluate_hypotheses(statement, case) -> dict:
    """{hypothesis key: True / False / None (undecidable)} for ``statement``'s hypotheses on ``case``."""
    out = {}
    for h in statement.hypotheses:
        try:
            out[h.key] = bool(HYPOTHESIS_PREDICATES[h.key](case))
        except Undecidable:
            out[h.key] = None
    return out
