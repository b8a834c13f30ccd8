"""The corrected results of :mod:`lfverify.proofs` as structured statements (:class:`~._statements.Statement`).

Every sentence about a corrected result - its statement in ``proofs/``, its line in ERRATA.md's table, its
paragraph in FINDINGS.md and README's findings - is generated from these objects.  Hypotheses are shared objects,
keyed, so that a proof citing an earlier result can be checked to state (or discharge) that result's hypotheses
(:func:`~._statements.ledger_problems`).  The four changes of the review of issue 30 are marked "(review)".
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from pathlib import Path

from lfverify.paper import PAPER_CLAIMS, VERDICTS
from lfverify.proofs._errata import numbers_affecting, references
from lfverify.proofs._statements import Conclusion, Hypothesis, Named, Necessity, Statement

__all__ = ["SIGN_PATTERN", "CRITERION", "FBETA", "JACCARD", "GENERAL", "RADEMACHER", "RATE", "STATEMENTS",
           "HYPOTHESES", "statement_of", "summary_block", "with_statement_texts"]

# ---------------------------------------------------------------------------------------------- hypotheses
DEF1 = Hypothesis("definition1", "$U$ satisfies Definition 1 ($a_{0,+1} > 0 \\ge a_{0,-1}$, $a_{1,\\pm1} \\ge 0$, "
                                 "$0 \\le U \\le 1$ and a positive denominator on the feasible region)",
                  plain="U satisfies Definition 1")
B1 = Hypothesis("b1_positive", "$b_1 > 0$", plain="b1 > 0")
COND1 = Hypothesis("condition1", "$\\Delta a_0 = a_{0,+1} - a_{0,-1} > 0$ (Thm. 7's condition (1))",
                   plain="condition (1)")
COND2 = Hypothesis("condition2", "$\\Delta a_1 = a_{1,+1} - a_{1,-1} \\le 0$ (Thm. 7's condition (2))",
                   plain="condition (2)")
COND3 = Hypothesis("condition3", "$a_{0,-1} \\ne 0$ or $a_{1,-1} \\ne 0$ (Thm. 7's condition (3))",
                   plain="condition (3)")
PHI_NONNEG = Hypothesis("phi_nonnegative", "$\\phi \\ge 0$", plain="phi >= 0")
PHI_CONVEX = Hypothesis("phi_convex", "$\\phi$ is convex", plain="phi convex")
PHI_NONINC = Hypothesis("phi_nonincreasing", "$\\phi$ is non-increasing", plain="phi non-increasing")
PHI_SLOPE = Hypothesis("phi_left_slope", "$\\phi'(0^-) < 0$", plain="phi'(0-) < 0")
PHI_DOM = Hypothesis("phi_dominates", "$\\phi(t) \\ge 1\\{t \\le 0\\}$",
                     "Lemma 1's hypothesis, which the printed proof uses but the printed theorem omits",
                     plain="phi >= 1{t <= 0}")
#: the weaker hypothesis the corrected theorems use in its place (review 1 of issue 40): the proofs use
#: phi >= 1{t <= 0} only through Lemma 1's conclusion U_phi* <= U-dagger
LEMMA1_BOUND = Hypothesis("u_star_at_most_u_dagger", "$U_\\phi^* \\le U^\\dagger$",
                          "implied by $\\phi \\ge 1\\{t \\le 0\\}$, a condition on the loss alone (Lemma 1); the "
                          "proofs use nothing else of it",
                          plain="U_phi* <= U-dagger (implied by phi >= 1{t <= 0})")
ETA_INT = Hypothesis("eta_interior", "$P(0 < \\eta(X) < 1) = 1$", plain="0 < eta < 1 a.s.")
USTAR_POS = Hypothesis("u_star_positive", "$U_\\phi^* > 0$ (the supremum of $U_\\phi$ over the $f$ with "
                       "$D_\\phi(f) > 0$)",
                       "review: used through the Proposition, missing from the earlier statement; without it "
                       "$\\phi = \\max(1, 1 - t)$ gives $U_\\phi^* = 0$, every $f \\ge 0$ is a maximiser and 1. fails",
                       plain="U_phi* > 0")
UDAG_ATT = Hypothesis("u_dagger_attained", "$U^\\dagger = \\sup_f U(f)$ is attained and $\\Delta a_0 - \\Delta a_1 "
                                           "U^\\dagger > 0$",
                     plain="U-dagger attained with Da0 - Da1 U-dagger > 0")
PIECES = Hypothesis("phi_pieces", "$\\phi = \\phi_{-1}$ on $(-\\infty, 0]$ and $\\phi = \\phi_{+1}$ on $(0, \\infty)$, "
                                  "each $\\phi_s$ differentiable with a $\\gamma_s$-Lipschitz derivative",
                   plain="phi in two smooth pieces")
LEMMA4 = Hypothesis("lemma4_setting", "Lemma 4's setting: $\\|x\\| \\le c_\\mathcal{X}$, the linear class "
                                      "$\\{x \\mapsto \\theta^\\top x : \\|\\theta\\| \\le c_\\Theta\\}$ on "
                                      "$\\mathbb{R}^d$, V_hat from two halves of $m = n/2$ i.i.d. points",
                    plain="Lemma 4's setting")
CONSTANTS = Hypothesis("bounded_scores", "$c_k = \\sup |\\tilde W_{k,\\phi}|$ and the Lipschitz constants $\\rho_k$ of "
                                         "$\\tilde W_{k,\\phi}$ read on $|\\xi| \\le c_\\mathcal{X} c_\\Theta$ (the "
                                         "sup over all $\\xi$ is infinite for a convex non-constant $\\phi$ "
                                         "wherever $\\tilde W_{k,\\phi}$ depends on $\\phi$)",
                       plain="the constants read on |xi| <= c_X c_Theta")

HYPOTHESES = {h.key: h for h in (DEF1, B1, COND1, COND2, COND3, PHI_NONNEG, PHI_CONVEX, PHI_NONINC, PHI_SLOPE,
                                 PHI_DOM, LEMMA1_BOUND, ETA_INT, USTAR_POS, UDAG_ATT, PIECES, LEMMA4, CONSTANTS)}

# ---------------------------------------------------------------------------------------------- named objects
F_STAR = Named("f^*", "a maximiser of $U_\\phi$ over all measurable $f$ (one exists: the criterion's step 3)",
               unique=False,
               which="where a pointwise minimiser of $g_{\\eta(x)}$ (see the Proposition) is an interval (a loss "
                     "linear near it: the hinge loss, any piecewise-linear $\\phi$) $f^*(x)$ may be any point of it; "
                     "statements about $\\mathrm{sgn} f^*$ mean $f^*_0$, a maximiser equal to $0$ wherever $0$ is a "
                     "pointwise minimiser (on the closed band $[\\eta_{lo}, \\eta_{hi}]$; every such choice has the "
                     "same sign $P$-almost everywhere); a maximiser changed on a $P$-null set is still one, so "
                     "maximisers are unique at most $P$-almost everywhere, and they are exactly when $P$ puts no mass "
                     "on the $\\eta$ at which a pointwise minimiser set is an interval (no such $\\eta$ when $\\phi$ "
                     "is strictly convex on each side of $0$, finitely many for a piecewise-linear $\\phi$: "
                     "$\\eta = 1/2$ for the hinge loss on accuracy)")
RHO = Named("\\rho", "$= \\phi'(0^+)/\\phi'(0^-) \\in [0, 1]$ ($= \\tau$ for the tau-logistic loss)", unique=True)
U_STAR = Named("U^*", "$= U_\\phi^* = \\sup_f U_\\phi(f)$ over the $f$ with $D_\\phi(f) > 0$, where "
                       "$U_\\phi = N_\\phi/D_\\phi$ is defined", unique=True)
U_DAG = Named("U^\\dagger", "$= \\sup_f U(f)$", unique=True)

_CALIBRATION_SETTING = ("$\\alpha = <<ALPHA>>$, $\\gamma = <<GAMMA>>$, $\\delta = \\frac{\\gamma}{\\alpha + \\gamma}$ "
                        "(Prop. 5: the Bayes-optimal classifiers are exactly those predicting $+1$ a.e. on "
                        "$\\{\\eta > \\delta\\}$ and $-1$ a.e. on $\\{\\eta < \\delta\\}$).")

# ---------------------------------------------------------------------------------------------- the Proposition
SIGN_PATTERN = Statement(
    key="corrected_calibration.sign_pattern",
    title="Proposition (the sign pattern of the surrogate maximiser)",
    hypotheses=(DEF1, B1, COND3, PHI_NONNEG, PHI_CONVEX, PHI_NONINC, PHI_SLOPE, ETA_INT, USTAR_POS),
    objects=(RHO, U_STAR),
    setting="With $$a = <<A>>, \\qquad c = <<C>>,$$ $$\\eta_{lo} = <<LO>>, \\qquad \\eta_{hi} = <<HI>>:$$",
    conclusions=(
        Conclusion("separable", "Pointwise problem",
                   "$f$ maximises $U_\\phi$ if and only if $f(x)$ minimises "
                   "$g_{\\eta(x)}(\\xi) = a\\,\\eta(x)\\,\\phi(\\xi) + c\\,(1 - \\eta(x))\\,\\phi(-\\xi)$ for "
                   "$P$-almost every $x$; so the maximisers are not unique where $g_{\\eta(x)}$ has several "
                   "minimisers.",
                   "f maximises U_phi iff f(x) minimises a eta phi(xi) + c (1 - eta) phi(-xi) for P-almost every "
                   "x"),
        Conclusion("signs", "Signs",
                   "Every maximiser $f^*$ has, for $P$-almost every $x$: $f^*(x) > 0$ if $\\eta(x) > \\eta_{hi}$, "
                   "$f^*(x) < 0$ if $\\eta(x) < \\eta_{lo}$, and $f^*(x) = 0$ if $\\eta_{lo} < \\eta(x) < "
                   "\\eta_{hi}$; $0$ is a pointwise minimiser at the end points.  (Not for every $x$: a maximiser "
                   "changed on a $P$-null set is still a maximiser.)",
                   "every maximiser is, at P-almost every x, > 0 above eta_hi = c/(c + rho a), < 0 below eta_lo = "
                   "rho c/(rho c + a) and 0 strictly between (a = a0p + U* a1p, c = U* a1n - a0n)"),
        Conclusion("interior", "The band's interior",
                   "$\\eta_{lo} < \\eta_{hi}$ exactly when $\\rho < 1$ (a kink at 0).  For the tau-logistic loss "
                   "$\\rho = \\tau$; for Table 1's metrics:\n\n"
                   "| metric | $\\eta_{lo}$ | $\\eta_{hi}$ |\n|---|---|---|\n<<ROWS>>",
                   "the band [eta_lo, eta_hi] has an interior exactly when rho < 1"),
    ),
)

CRITERION = Statement(
    key="corrected_calibration.criterion",
    title="Theorem (U-calibration of the surrogate utility, exactly)",
    hypotheses=SIGN_PATTERN.hypotheses + (UDAG_ATT,),
    hypotheses_from="the Proposition, and one more",
    objects=(RHO, U_STAR, U_DAG, F_STAR),
    setting=_CALIBRATION_SETTING,
    conclusions=(
        Conclusion("calibration", "(a) calibration",
                   "$U_\\phi$ is $U$-calibrated on $P$ (every sequence with $U_\\phi(f_l) \\to U_\\phi^*$ has "
                   "$U(f_l) \\to U^\\dagger$) if and only if $P(\\eta_{hi} < \\eta < \\delta) = "
                   "P(\\delta < \\eta < \\eta_{lo}) = P(\\eta_{lo} \\le \\eta \\le \\eta_{hi},\\ \\eta \\ne \\delta) = "
                   "0$.",
                   "U_phi is U-calibrated on P iff P puts no mass in (eta_hi, delta) or (delta, eta_lo) and none in "
                   "the band [eta_lo, eta_hi] except at delta"),
        Conclusion("sign_rule", "(b) the sign rule",
                   "For a maximiser $f^*_0$ that vanishes on the closed band, $\\mathrm{sgn}\\, f^*_0$ (with "
                   "$\\mathrm{sgn}(0) = -1$) is Bayes optimal if and only if $P(\\eta_{hi} < \\eta < \\delta) = "
                   "P(\\delta < \\eta \\le \\eta_{hi}) = 0$.",
                   "for a maximiser f*_0 that vanishes on the closed band, sgn f*_0 is Bayes optimal iff no mass in "
                   "(eta_hi, delta) or (delta, eta_hi]",
                   condition="for a maximiser f*_0 that vanishes on the closed band",
                   condition_tex="For a maximiser $f^*_0$ that vanishes on the closed band"),
        Conclusion("kink_set", "(c) the kink set",
                   "The limits of $U(f_l)$ along maximising sequences are the utilities of the labellings that agree "
                   "with $\\mathrm{sgn}\\, f^*$ off the closed band $[\\eta_{lo}, \\eta_{hi}]$ and are arbitrary on "
                   "it. "
                   " $U^\\dagger$ is among them if and only if $P(\\eta_{hi} < \\eta < \\delta) = P(\\delta < \\eta < "
                   "\\eta_{lo}) = 0$, and then exactly the labellings that follow the Bayes rule $\\{\\eta > "
                   "\\delta\\}$ on the band (a.e. off $\\{\\eta = \\delta\\}$) attain it.",
                   "the Bayes labelling of the band attains U-dagger iff no mass between the band and delta"),
        Conclusion("loss_condition", "(d) a condition on the loss",
                   "The conditions of (c) hold for every distribution of $\\eta$ (given $U_\\phi^*$ and $U^\\dagger$) "
                   "if $\\eta_{lo} \\le \\delta \\le \\eta_{hi}$, that is <<UPPER>> and <<LOWER>>.  If "
                   "$U_\\phi^* \\le U^\\dagger$ (implied by $\\phi \\geq 1\\{t \\le 0\\}$: Lemma 1) the second always "
                   "holds, so the condition is $\\rho \\le \\dfrac{c\\,\\alpha}{a\\,\\gamma}$.",
                   "if U* <= U-dagger (implied by phi >= 1{t <= 0}), rho <= c alpha/(a gamma) makes the Bayes "
                   "labelling "
                   "of the band attain U-dagger for every distribution of eta with these U* and U-dagger",
                   condition="if U* <= U-dagger",
                   condition_tex="If $U_\\phi^* \\le U^\\dagger$"),
        Conclusion("continuous", "(e) mass on both sides of delta",
                   "If every neighbourhood of $\\delta$ has positive probability on both sides of $\\delta$ (e.g. "
                   "$\\eta(X)$ has a density that is continuous and positive at $\\delta$; the paper's "
                   "$\\eta$-continuity, "
                   "$P(\\eta(X) = t) = 0$ for every $t$, does not imply it), $U_\\phi$ is $U$-calibrated on $P$ only "
                   "if "
                   "$\\eta_{lo} = \\eta_{hi} = \\delta$; with $U_\\phi^* \\le U^\\dagger$ this holds if and only if "
                   "$\\rho = 1$, $a_{1,+1} = 0$ and "
                   "($a_{1,-1} = 0$ or $U_\\phi^* = U^\\dagger$): never for $F_\\beta$, for Jaccard only if $\\phi$ is "
                   "differentiable at 0 and $U_\\phi^* = U^\\dagger$, for accuracy exactly when $\\phi$ is "
                   "differentiable at 0 (Bartlett et al.'s condition, Prop. 8).",
                   "with mass on both sides of delta in every neighbourhood (e.g. a density of eta(X) continuous and "
                   "positive at delta) and "
                   "U* <= U-dagger, only rho = 1, a1p = 0 and (a1n = 0 or U* = U-dagger) can be calibrated",
                   condition="with mass on both sides of delta in every neighbourhood",
                   condition_tex="If every neighbourhood of $\\delta$ has positive probability on both sides of "
                                 "$\\delta$"),
    ),
)

# ---------------------------------------------------------------------------------------------- Thms. 1, 2, 7
_LOSS_AND_P = (PHI_NONNEG, PHI_CONVEX, PHI_NONINC, PHI_SLOPE, LEMMA1_BOUND, ETA_INT, USTAR_POS)

#: The setting and the summary's lead shared by Theorems 1 and 2 (corrected).
_BAND_SETTING = "Let $\\delta = <<DELTA>>$ and $$\\eta_{lo} = <<LO>>, \\qquad \\eta_{hi} = <<HI>>.$$"
#: the hypotheses Theorems 1 and 2 print (phi: R -> R_{>= 0} convex, non-increasing, differentiable almost everywhere,
#: which convexity gives) and what the corrected statements drop; the lead lists the rest, generated
_PRINTED_LOSS = frozenset({"phi_nonnegative", "phi_convex", "phi_nonincreasing"})
_PRINTED_TAU = "1.'s condition in place of the printed tau condition"


def _metric_objects(metric: str) -> tuple:
    """rho, U*, U-dagger (of the metric whose LaTeX superscript is ``metric``) and f*: the objects Theorems 1 and 2
    (corrected) name."""
    return (RHO, Named("U^*", f"$= (U^{{{metric}}}_\\phi)^* = \\sup_f U^{{{metric}}}_\\phi(f)$ over the $f$ with "
                              "$D_\\phi(f) > 0$, where $U_\\phi = N_\\phi/D_\\phi$ is defined", unique=True),
            Named("U^\\dagger", f"$= \\sup_f U^{{{metric}}}(f)$", unique=True), F_STAR)


FBETA = Statement(
    key="corrected_calibration.fbeta",
    title="Theorem 1 (corrected)",
    hypotheses=_LOSS_AND_P,
    objects=_metric_objects("F_\\beta"),
    setting=_BAND_SETTING,
    printed_hypotheses=_PRINTED_LOSS,
    printed_replaced=_PRINTED_TAU,
    conclusions=(
        Conclusion("weak_form", "Weak form",
                   "If $\\rho \\le \\tau_F := <<TAUF>>$, every maximiser $f^*$ gives $P$-almost every $x$ with "
                   "$f^*(x) \\ne 0$ the Bayes sign, and the classifier equal to $\\mathrm{sgn} f^*$ off "
                   "$\\{f^* = 0\\}$ "
                   "and to the Bayes rule $\\{\\eta > \\delta\\}$ on it attains $U^\\dagger$.  The printed hypothesis "
                   "($\\phi$ $\\tau$-discrepant with $U^* \\ge (1 + \\beta^2)\\tau/(\\beta^2 - \\tau)$) implies "
                   "$\\rho \\le \\tau \\le <<TAUP>> \\le \\tau_F$.",
                   "if rho <= tau_F = U*(1 + beta^2 - U-dagger)/(U-dagger (1 + beta^2 + U*)) (implied by the printed "
                   "hypothesis), every maximiser has the Bayes sign at P-almost every x where it is not 0 and "
                   "labelling its zero set by the Bayes rule attains U-dagger", condition="if rho <= tau_F",
                   condition_tex="If $\\rho \\le \\tau_F"),
        Conclusion("calibration", "Calibration",
                   "$U^{F_\\beta}_\\phi$ is $F_\\beta$-calibrated on $P$ if and only if $P(\\eta_{hi} < \\eta < "
                   "\\delta) = P(\\delta < \\eta < \\eta_{lo}) = P(\\eta_{lo} \\le \\eta \\le \\eta_{hi},\\ \\eta \\ne "
                   "\\delta) = 0$; if $\\rho \\le \\tau_F$, if and only if the band carries no mass except at "
                   "$\\delta$.",
                   "F_beta-calibration holds iff P puts no mass in (eta_hi, delta) or (delta, eta_lo) and none in the "
                   "band [eta_lo, eta_hi] except at delta - if rho <= tau_F, iff the band carries no mass except at "
                   "delta", condition="if rho <= tau_F", condition_tex="if $\\rho \\le \\tau_F$"),
        Conclusion("sign_rule", "Sign rule",
                   "$\\mathrm{sgn} f^*_0$ (with $\\mathrm{sgn}(0) = -1$, Sec. 2; for a maximiser $f^*_0$ that is $0$ "
                   "on the closed band) is Bayes optimal if "
                   "and only if $P(\\eta_{hi} < \\eta < \\delta) = P(\\delta < \\eta \\le \\eta_{hi}) = 0$; another "
                   "maximiser's sign can differ on the band's end points when $\\phi$ is linear there.",
                   "sgn f*_0 (sgn(0) = -1; for a maximiser f*_0 that is 0 on the closed band) is Bayes optimal iff "
                   "P(eta_hi < eta < "
                   "delta) = P(delta < eta <= eta_hi) = 0",
                   condition="for a maximiser f*_0 that is 0 on the closed band",
                   condition_tex="for a maximiser $f^*_0$ that is $0$ on the closed band"),
        Conclusion("continuous", "Mass on both sides of delta: no calibration",
                   "If $\\eta$ has mass on both sides of $\\delta$ in every neighbourhood of $\\delta$ (e.g. a density "
                   "of $\\eta(X)$ continuous and positive at $\\delta$), $U^{F_\\beta}_\\phi$ is not "
                   "$F_\\beta$-calibrated on $P$, for every loss "
                   "meeting the hypotheses, whatever its $\\rho$.",
                   "with mass on both sides of delta in every neighbourhood (e.g. a density of eta(X) continuous and "
                   "positive at delta), no "
                   "loss meeting the hypotheses is F_beta-calibrated, whatever its rho",
                   condition="with mass on both sides of delta in every neighbourhood",
                   condition_tex="If $\\eta$ has mass on both sides of $\\delta$ in every neighbourhood of $\\delta$"),
        Conclusion("tau_range", "The tau range",
                   "The printed $\\tau \\in (0, \\beta^2/(2 + \\beta^2)]$ is what the printed hypothesis allows over "
                   "$U^* \\le 1$.  The weak form holds for $\\rho \\le \\tau_F \\le <<TAUMAX>>$, a bound equal to "
                   "$\\beta^2/(2 + \\beta^2)$ at $U^\\dagger = 1$, larger when $U^\\dagger < 1$, always $< 1$; "
                   "$\\rho = 1$ (a loss differentiable at 0, such as the logistic) never satisfies it.",
                   "tau_F <= (1 + beta^2 - U-dagger)/(1 + beta^2 + U-dagger) < 1, so no loss differentiable at 0 "
                   "satisfies the weak form's condition"),
    ),
)

JACCARD = Statement(
    key="corrected_calibration.jaccard",
    title="Theorem 2 (corrected)",
    hypotheses=_LOSS_AND_P,
    hypotheses_from="Theorem 1 (corrected)",
    objects=_metric_objects("Jac"),
    setting=_BAND_SETTING,
    printed_hypotheses=_PRINTED_LOSS,
    printed_replaced=_PRINTED_TAU,
    conclusions=(
        Conclusion("weak_form", "Weak form",
                   "If $\\rho \\le \\tau_J := <<TAUJ>>$, every maximiser $f^*$ gives $P$-almost every $x$ with "
                   "$f^*(x) \\ne 0$ the Bayes sign, and the Bayes labelling of $\\{f^* = 0\\}$ attains $U^\\dagger$.  "
                   "The printed hypothesis ($\\tau$-discrepant with $U^* \\ge \\tau$) implies $\\rho \\le \\tau \\le "
                   "U^* \\le \\tau_J$.",
                   "if rho <= U*/U-dagger (implied by the printed tau <= U*), every maximiser has the Bayes sign at "
                   "P-almost every x where it is not 0 and the Bayes labelling of its zero set attains U-dagger",
                   condition="if rho <= U*/U-dagger", condition_tex="If $\\rho \\le \\tau_J"),
        Conclusion("calibration", "Calibration and the sign rule",
                   "Jaccard-calibration on $P$ holds if and only if $P(\\eta_{hi} < \\eta < \\delta) = P(\\delta < "
                   "\\eta < \\eta_{lo}) = 0$ and $P(\\eta_{lo} \\le \\eta \\le \\eta_{hi},\\ \\eta \\ne \\delta) = "
                   "0$; if $\\rho \\le \\tau_J$, if and only if the band carries no mass except at $\\delta$.  "
                   "$\\mathrm{sgn} f^*_0$ (with $\\mathrm{sgn}(0) = -1$, Sec. 2) is Bayes optimal iff "
                   "$P(\\eta_{hi} < \\eta < \\delta) = P(\\delta < "
                   "\\eta \\le \\eta_{hi}) = 0$.",
                   "Jaccard-calibration holds iff no mass in (eta_hi, delta) or (delta, eta_lo) and none in the band "
                   "except at delta - if rho <= U*/U-dagger, iff the band carries no mass except at delta",
                   condition="if rho <= U*/U-dagger", condition_tex="if $\\rho \\le \\tau_J$"),
        Conclusion("continuous", "Mass on both sides of delta",
                   "If $\\eta$ has mass on both sides of $\\delta$ in every neighbourhood (e.g. a density of "
                   "$\\eta(X)$ continuous and positive at $\\delta$), calibration needs $\\rho = "
                   "1$ and $U^* = U^\\dagger$: no loss with a kink at 0 ($\\rho < 1$) is Jaccard-calibrated there.",
                   "with mass on both sides of delta in every neighbourhood (e.g. a density of eta(X) continuous and "
                   "positive at delta), calibration needs rho = 1 and U* = U-dagger",
                   condition="with mass on both sides of delta in every neighbourhood",
                   condition_tex="If $\\eta$ has mass on both sides of $\\delta$ in every neighbourhood"),
        Conclusion("tau_range", "The tau range",
                   "The printed $\\tau \\in (0, 1)$ with $U^* \\ge \\tau$; the weak form holds for $\\rho \\le "
                   "U^*/U^\\dagger$, which is $\\le 1$ with equality if and only if $U^* = U^\\dagger$.",
                   "U*/U-dagger <= 1 with equality iff U* = U-dagger"),
    ),
)

GENERAL = Statement(
    key="corrected_calibration.general",
    title="Theorem 7 (corrected)",
    hypotheses=(DEF1, COND1, COND2, COND3, B1) + _LOSS_AND_P,
    objects=(RHO, U_STAR, U_DAG, F_STAR),
    setting="Conditions (4)-(6) are not needed (ERRATA: they come from the misprinted partial fraction and $H(1)$).  "
            "Let $H(t) = <<H>>$ and $$a = <<A>>,\\quad c = <<C>>,\\quad \\alpha = <<ALPHA>>,\\quad \\gamma = "
            "<<GAMMA>>,\\quad \\delta = \\frac{\\gamma}{\\alpha + \\gamma}.$$",
    printed_hypotheses=frozenset({"definition1", "condition1", "condition2", "condition3"}) | _PRINTED_LOSS,
    printed_replaced="1.'s condition in place of the printed (4)-(6) and (a)-(c)",
    conclusions=(
        Conclusion("condition_b", "Condition (b), corrected",
                   "If $\\rho \\le H(1)\\,\\dfrac{c}{a} = <<B>>$, then $\\rho \\le H(U^\\dagger)\\,c/a = c\\alpha/"
                   "(a\\gamma)$, hence the weak form: every maximiser gives $P$-almost every $x$ with $f^*(x) \\ne 0$ "
                   "the Bayes sign, and the Bayes labelling of $\\{f^* = 0\\}$ attains $U^\\dagger$.  Condition (c), "
                   "read with $U^\\dagger$ for $U(f^*)$, is $\\rho \\le a\\gamma/(c\\alpha)$: where $\\alpha > 0$ "
                   "the hypothesis $U^* \\le U^\\dagger$ implies it ($a\\gamma \\ge c\\alpha$), where $\\alpha < 0$ "
                   "its bound is negative and no $\\rho \\ge 0$ meets it, and at $\\alpha = 0$ it is undefined "
                   "(division "
                   "by zero); the weak form does not use it.  The printed "
                   "(c), with $U(f^*)$, is not implied where a score of $0$ counts as negative (the paper's "
                   "$\\mathrm{sgn}(0) = -1$): $U(f^*)$ can then be $0$ under these hypotheses (Lemma 1's "
                   "$U_\\phi \\le U$ needs $\\phi \\ge 1\\{t \\le 0\\}$), and then, where $a_{0,-1} = 0$ ($F_\\beta$, "
                   "Jaccard), it reads $\\tau \\le 0$; where a score of $0$ counts as positive (Definition 1's "
                   "$l(-0) = 1$) it held on every instance review 30 tried (FINDINGS.md).",
                   "if rho <= H(1) c/a with H(1) = (a0p - a1p)/(a1n - a0n) (condition (b) corrected), every maximiser "
                   "has the Bayes sign at P-almost every x where it is not 0 and the Bayes labelling of its zero set "
                   "attains U-dagger; (4)-(6) and (c) are not needed (the printed (c) can fail here where a score "
                   "of 0 counts as negative; read with "
                   "U-dagger for U(f*) it is implied by U* <= U-dagger if alpha > 0, unsatisfiable if alpha < 0, "
                   "undefined if alpha = 0)",
                   condition="if rho <= H(1) c/a", condition_tex="If $\\rho \\le H(1)\\,\\dfrac{c}{a}"),
        Conclusion("criterion", "Calibration, sign rule, kink set",
                   "Exactly as in the Theorem \"U-calibration of the surrogate utility, exactly\" "
                   "(`corrected_calibration.criterion`): conditions on the mass between $[\\eta_{lo}, \\eta_{hi}]$ "
                   "and $\\delta$.",
                   "calibration holds exactly under the criterion's mass conditions"),
        Conclusion("continuous", "Mass on both sides of delta",
                   "If every neighbourhood of $\\delta$ has positive probability on both sides of $\\delta$ "
                   "(e.g. a density of $\\eta(X)$ continuous and positive at $\\delta$), calibration needs "
                   "$\\rho = 1$, $a_{1,+1} = 0$ and "
                   "($a_{1,-1} = 0$ or "
                   "$U^* = U^\\dagger$).  For "
                   "accuracy ($a = c = \\alpha = \\gamma = 1$) the corrected (b) reads $\\rho \\le 1$, the band is "
                   "$[\\rho/(1+\\rho), 1/(1+\\rho)] \\ni 1/2 = \\delta$, and calibration on every $P$ holds exactly "
                   "when $\\rho = 1$ ($\\phi$ differentiable at 0): Prop. 8 and Bartlett et al.'s condition.",
                   "with mass on both sides of delta in every neighbourhood (e.g. a density of eta(X) continuous and "
                   "positive at delta), only "
                   "rho = 1, a1p = 0 and (a1n = 0 or U* = U-dagger) can be calibrated - accuracy with phi "
                   "differentiable at 0 (Prop. 8)",
                   condition="with mass on both sides of delta in every neighbourhood",
                   condition_tex="If every neighbourhood of $\\delta$ has positive probability on both sides of "
                                 "$\\delta$"),
    ),
)

# ---------------------------------------------------------------------------------------------- App. C, Lemma 4
RADEMACHER = Statement(
    key="corrected_rademacher.lemma",
    title="Lemma (App. C, corrected)",
    hypotheses=(PHI_CONVEX, PIECES),
    objects=(Named("J", "$= \\phi'(0^+) - \\phi'(0^-) \\ge 0$, the jump of $\\phi'$ at 0", unique=True),
             Named("\\kappa_k", "$= \\max(|a_{k,+1}|, |a_{k,-1}|)$", unique=True),
             Named("I_\\mathcal{F}", "$= \\{(x, y) \\mapsto 1\\{y f(x) \\le 0\\} : f \\in \\mathcal{F}\\}$",
                   unique=True)),
    setting="Let $\\hat{\\mathfrak{R}}_S$ be the empirical Rademacher complexity of "
            "App. C's definition.  At a score of exactly 0, $\\tilde W'_{k,\\phi}$ takes the left derivative "
            "$\\phi'(0^-)$ (the reading the proof's Step 3 uses, and the owned instances); with the right "
            "derivative $\\phi'(0^+)$, which lfverify's scores use by default, conclusion 1 is not proved here and "
            "fails on review 32's witness (FINDINGS.md).",
    conclusions=(
        Conclusion("bound", "Contraction with a kink",
                   "For every sample $S$ of size $n$ (hence also after taking $E_S$) $$<<BOUND>>.$$",
                   "the Rademacher complexity of the derivative class W'_k o F (phi'(0) read as phi'(0-)) is at "
                   "most kappa_k [2 (gamma_+ + gamma_-) R_S(F) + |phi'(0+)| E|sum sigma_i|/n + J R_S(I_F)]"),
        Conclusion("rates", "Its terms for the linear class",
                   "$E|\\sum_i \\sigma_i|/n \\le n^{-1/2}$, and for the linear class $\\mathcal{F} = \\{x \\mapsto "
                   "\\theta^\\top x\\}$ on $\\mathbb{R}^d$, $\\hat{\\mathfrak{R}}_S(I_\\mathcal{F}) \\le \\sqrt{2 "
                   "\\log(2 N_n)/n}$ with $N_n \\le \\sum_{k \\le d} \\binom{n}{k} + 1$ (so $\\le <<INDICATOR>> = "
                   "O(\\sqrt{d \\log n / n})$, as $2 N_n \\le 4 (n + 1)^d$; $\\le C_{VC}\\sqrt{d/n}$ by the VC entropy "
                   "bound).",
                   "for the linear class on R^d, R_S(I_F) <= sqrt(2 (log 4 + d log(n + 1))/n) = O(sqrt(d log n / n)) "
                   "(C_VC sqrt(d/n) with the VC entropy bound)"),
        Conclusion("printed", "The printed lemma",
                   "The printed $\\mathfrak{R}_n(\\tilde W'_{k,\\phi} \\circ \\mathcal{F}) \\le 2(\\gamma_{+1} + "
                   "\\gamma_{-1}) \\mathfrak{R}_n(\\mathcal{F})$ is the special case $\\kappa_k = 1$, $\\phi'(0^+) = "
                   "0$, $J = 0$, which excludes every $\\tau$-discrepant loss with $\\tau < 1$ and $\\phi'(0^-) < 0$ "
                   "($J = (\\rho - 1)\\,\\phi'(0^-) > 0$ for $\\rho \\le \\tau < 1$; for the tau-logistic loss "
                   "$\\phi'(0^+) = -\\tau/(2\\ln 2)$ and $J = (1 - \\tau)/(2 \\ln 2)$; a loss with $\\phi'(0^-) = 0$, "
                   "such as $\\max(0, -t)^2$, is $\\tau$-discrepant for every $\\tau$ and has $J = 0$).",
                   "the printed lemma is the case kappa_k = 1, phi'(0+) = 0, J = 0, which excludes every "
                   "tau-discrepant loss with tau < 1 and phi'(0-) < 0"),
    ),
)

#: Lemma 4 (corrected)'s conclusions hold with phi'(0) read as phi'(0-) at a score of 0 in both V_hat and V (reviews
#: 32, 37 and 40: the setting said it, the conclusions' texts and summaries now carry it).
_READ_LEFT = "with phi'(0) read as phi'(0-) at a score of 0 in V_hat and V"
_READ_LEFT_TEX = ("with $\\phi'(0)$ read as $\\phi'(0^-)$ at a score of $0$ in $\\hat{\\mathcal V}_\\phi$ "
                  "and $\\mathcal V_\\phi$")

RATE = Statement(
    key="corrected_rademacher.rate",
    title="Lemma 4 (its rate, proved without lem:non-smooth-rademacher)",
    hypotheses=(LEMMA4, CONSTANTS, PHI_CONVEX, PIECES),
    objects=(Named("\\gamma", "$= \\gamma_{+1} + \\gamma_{-1}$", unique=True),
             Named("J, \\kappa_k", "as in the corrected lemma", unique=True),
             Named("N_m", "Sauer's count $\\sum_{k \\le d} \\binom{m}{k} + 1$, an upper bound of the number of "
                          "labellings $\\{1\\{y\\,\\theta^\\top x \\le 0\\}\\}$ of the $m$ points of a half",
                   unique=True),
             Named("K", "$= \\kappa_0 c_1 + \\kappa_1 c_0$", unique=True),
             Named("L", "$= \\rho_0 c_1 + \\rho_1 c_0 + 4\\rho_0\\rho_1 c_\\Theta c_\\mathcal{X}$", unique=True)),
    setting="$\\hat V$'s scores take $\\phi'(0^-)$ at a score of exactly 0, as the corrected App. C lemma its "
            "proof's Step 2 cites does; for lfverify's estimator, which takes $\\phi'(0^+)$ there (e.g. at "
            "$\\theta = 0$), this proof does not apply (review 32, FINDINGS.md).  $\\mathcal V_\\phi$ reads "
            "$\\phi'(0)$ the same way ($\\mathcal V_\\phi = E_S \\hat{\\mathcal V}_\\phi$, Lemma 3): with "
            "$\\phi'(0^+)$ in $\\mathcal V_\\phi$ alone the explicit bound fails (review 37: accuracy, $X = 1$, "
            "$Y = +1$, the $\\tau$-logistic loss at $\\tau = 1/2$; at $\\theta = 0$, "
            "$\\|\\hat{\\mathcal V}_\\phi - \\mathcal V_\\phi\\| = J = 1/(4 \\ln 2)$ for every sample, "
            "above $B_E(n)$ for large $n$, as $B_E(n) \\to 0$).",
    conclusions=(
        Conclusion("expectation", "The explicit bound",
                   "$$E_S \\sup_\\theta \\|\\hat{\\mathcal{V}}_\\phi(\\theta) - \\mathcal{V}_\\phi(\\theta)\\| \\le "
                   "B_E(n) = <<BE>>,$$ " + _READ_LEFT_TEX + ".",
                   "E sup_theta ||V_hat - V|| <= B_E(n) " + _READ_LEFT + ", an explicit bound in n, d, c_X, "
                   "c_Theta, c_k, "
                   "rho_k, kappa_k, gamma, J and |phi'(0+)|", condition=_READ_LEFT, condition_tex=_READ_LEFT_TEX),
        Conclusion("deviation", "With high probability",
                   "With probability at least $1 - \\delta$, $\\sup_\\theta \\|\\hat{\\mathcal{V}}_\\phi - "
                   "\\mathcal{V}_\\phi\\| \\le B_E(n) + \\sqrt{8 c_\\mathcal{X}^2 (\\rho_1 c_0 + \\rho_0 c_1)^2 "
                   "\\log(2/\\delta)/n}$ (`lemma4_uniform_convergence.corrected_uniform_convergence_bound`), "
                   + _READ_LEFT_TEX + ".",
                   "with probability 1 - delta the deviation adds sqrt(8 c_X^2 (rho_1 c_0 + rho_0 c_1)^2 "
                   "log(2/delta)/n), " + _READ_LEFT, condition=_READ_LEFT, condition_tex=_READ_LEFT_TEX),
        Conclusion("order", "The order, with every parameter",
                   "With $\\log(2 N_m) \\le \\log 4 + d \\log(m + 1)$ (Sauer: $2 N_m \\le 4 (m + 1)^d$): "
                   "$$B_E(n) \\le <<ORDER>> = O\\Big(c_\\mathcal{X} K J\\, "
                   "d^{3/2} \\sqrt{\\tfrac{\\log n}{n}} + c_\\mathcal{X} K d\\,\\tfrac{\\gamma c_\\Theta "
                   "c_\\mathcal{X} + |\\phi'(0^+)|}{\\sqrt n} + \\tfrac{c_\\mathcal{X} L}{\\sqrt n}\\Big),$$ so "
                   "$\\sup_\\theta \\|\\hat{\\mathcal{V}}_\\phi - \\mathcal{V}_\\phi\\| = O_p(d^{3/2}\\sqrt{\\log n / "
                   "n})$ for a kinked loss ($J > 0$; the factor $d$ of $\\|\\cdot\\|_2 \\le \\|\\cdot\\|_1$ times "
                   "$\\sqrt{d \\log n/n}$ of Massart's lemma) and $O_p(d\\, n^{-1/2})$ for $J = 0$; with the VC "
                   "entropy bound $\\hat{\\mathfrak{R}}_S(I_\\mathcal{F}) \\le C_{VC}\\sqrt{d/m}$ in place of "
                   "Massart's, $O_p(d^{3/2} n^{-1/2})$ - Lemma 4's rate in $n$ (review: the earlier statement said "
                   "$O_p(\\sqrt{d \\log n / n})$, which is the order of "
                   "$\\hat{\\mathfrak{R}}_S(I_\\mathcal{F})$ alone, "
                   "not of the assembled bound); all " + _READ_LEFT_TEX + ".",
                   "sup ||V_hat - V|| = O_p(d^{3/2} sqrt(log n / n)) with explicit constants (O_p(d n^-1/2) when "
                   "phi is differentiable at 0), and O_p(d^{3/2} n^-1/2) with the VC entropy bound, " + _READ_LEFT
                   + ": Lemma 4's n^-1/2 rate", condition=_READ_LEFT, condition_tex=_READ_LEFT_TEX),
    ),
)

# ---------------------------------------------------------------------------------------------- necessity
#: statement key -> hypothesis key -> why it is there (issue 40): a witness instance of
#: tests/proofs/statement_instances.py
#: that satisfies every other hypothesis, violates this one and breaks the named conclusion (checked by
#: tests/proofs/test_executable_statements.py), or SUFFICIENT with the reason.
_CONCAVE_F1 = "necessity: F_1, concave kink 1 - t, then max(0, 1 - 2t), weights (1/4, 3/4), eta (1/10, 1/4)"
_CONCAVE_JAC = "necessity: Jaccard, concave kink 1 - t, then max(0, 1 - 2t), weights (1/4, 3/4), eta (1/10, 1/4)"
_V_LOSS = ("necessity: smoothed F_1 (2TP + 1)/(TP + FP + pi + 1), V max(1 - t, 1 + 2t), weights (1/4, 3/4), "
           "eta (1/10, 1/4)")
_BELOW_F1 = "necessity: F_1, kinked-linear(1/2)/10, weights (1/4, 3/4), eta (1/10, 1/4)"
_BELOW_JAC = "necessity: Jaccard, kinked-linear(1/2)/10, weights (1/4, 3/4), eta (1/10, 1/4)"
_V_HALF_F1 = "necessity: F_1, V max(1/2 - t, 1/2 + t), weights (1/4, 3/4), eta (1/10, 1/4)"
_V_HALF_JAC = "necessity: Jaccard, V max(1/2 - t, 1/2 + t), weights (1/4, 3/4), eta (1/10, 1/4)"
_UNATTAINED = "necessity: F_1, max(1 - t, 1 - t/4) (unbounded below), one atom, eta 1/4"
_UNATTAINED_JAC = "necessity: Jaccard, max(1 - t, 1 - t/4) (unbounded below), one atom, eta 1/2"
#: why convexity is needed in App. C's lemma: the sign of the jump J (referee rounds 6 and 21)
_J_SIGN = ("for the bound as displayed, with the signed jump $J$: convexity is what makes $J \\ge 0$, and the proof "
            "uses it for nothing else (referee round 6); the indicator term of the decomposition of $\\phi'$ has the "
            "coefficient $\\phi'(0^-) - \\phi'(0^+)$, which enters the bound through its absolute value, so the bound "
            "with $|J|$ in place of $J$ needs no convexity (referee round 21; it held on 6,000 exact trials of "
            "non-convex two-piece losses at $n \\le 4$, round 6) - not stated here")
_NEGATIVE_U_STAR = "necessity: (2TP - 2FP + 2 - 2pi)/(TP + FP/2 + 12), 8 + hinge, one atom, eta 11/20"
_LIFTED = "necessity: F_1, lifted 1 + kinked-linear(1/2), weights (1/4, 3/4), eta (1/10, 1/4)"
_RECALL = "necessity: recall, kinked-linear(1/3), weights (1/4, 3/4), eta (1/10, 1/4)"
_A0N_POSITIVE = ("necessity: (TP + FP/2 - pi/2)/(FP + pi), kinked-linear(1/3), weights (1/4, 3/4), "
                 "eta (1/10, 1/4)")
_TWICE_F1 = "necessity: 2 F_1, kinked-linear(3/10), weights (1/2, 1/2), eta (2/5, 19/20)"
_DA1_POSITIVE = ("necessity: (TP - FP/4 + 3/4 + pi/2)/(2TP + FP/2 + 1), kinked-linear(1/3), weights (1/2, 1/2), "
                 "eta (1/10, 3/4)")

_B1_IMPLIED = Necessity(reason=(
    "implied by Definition 1: its positive denominator at the classifier that predicts $-1$ everywhere "
    "($TP = FP = 0$) is $b_1 > 0$; stated apart because the Proposition's Step 2 uses it "
    "($D_\\phi \\ge b_1 + a_{1,+1}\\pi > 0$)"))
_SLOPE_RHO = (
    "needed so that $\\rho = \\phi'(0^+)/\\phi'(0^-)$, hence the band $[\\eta_{lo}, \\eta_{hi}]$, is "
    "defined: a convex, non-increasing $\\phi$ with $\\phi'(0^-) = 0$ is constant on $[0, \\infty)$ and "
    "$\\rho = 0/0$ (e.g. $\\max(1, -t)$)<<EXTRA>>")
#: phi'(0-) < 0 in Thms. 1 and 2
_SLOPE_THEOREMS = Necessity(reason=_SLOPE_RHO.replace("<<EXTRA>>", "; the conclusions are stated through the band"))
_ETA = Necessity(reason=(
    "used in the Proposition's Step 5 (and through it for the pointwise minimum $g^*$ of the criterion's Step 3): "
    "for $0 < \\eta < 1$ both terms of $g_\\eta$ carry weight, so $g_\\eta$ is coercive and has a minimiser; "
    "at $\\eta \\in \\{0, 1\\}$ one term vanishes and a strictly decreasing $\\phi$ (the tau-logistic "
    "loss) has no minimiser, so $U_\\phi$ has no maximiser.  What the proof uses is that every $g_{\\eta(x)}$ "
    "has a minimiser; with a loss that attains its infimum the conclusions held on every searched population "
    "with atoms at 0 or 1 (F_1, F_2, Jaccard, accuracy, M1 and recall; eight piecewise-linear losses; 2-3 atoms)"))
#: Review 38: on the V-half witnesses rho = -1, so the conditional clause of the calibration conclusion is what fails.
_V_HALF_CLAUSE = ("$\\rho = -1$ there, so the premise of conclusion 2's clause 'if $\\rho \\le \\tau_<<T>>$, iff the "
                  "band carries no mass except at $\\delta$' holds trivially, and that clause is what fails; its main "
                  "'if and only if' and the sign rule held on this witness")
#: Review 26: these witnesses make c = 0, so the band is the point 0 although rho < 1; the sign claims hold on them.
_INTERIOR_ONLY = ("$c = 0$ there, so $\\eta_{lo} = \\eta_{hi} = 0$ with $\\rho < 1$; conclusion 2's sign claims held "
                  "on this witness, and no witness against them without this hypothesis is known")

NECESSITY: dict = {
    SIGN_PATTERN.key: {
        "definition1": Necessity(_A0N_POSITIVE, "interior", _INTERIOR_ONLY),
        "b1_positive": _B1_IMPLIED,
        "condition3": Necessity(_RECALL, "interior", _INTERIOR_ONLY),
        "phi_nonnegative": Necessity(_UNATTAINED, "separable"),
        "phi_convex": Necessity(_CONCAVE_F1, "signs"),
        "phi_nonincreasing": Necessity(_V_LOSS, "signs"),
        "phi_left_slope": Necessity(reason=_SLOPE_RHO.replace("<<EXTRA>>", (
            "; conclusion 1 does not involve $\\rho$ and held on the searched instances ($\\max(1, -t)$, "
            "$\\max(2, 1 - t)$, $\\max(1/2, -t)$)"))),
        "eta_interior": _ETA,
        "u_star_positive": Necessity(_LIFTED, "interior", _INTERIOR_ONLY),
    },
    CRITERION.key: {
        "definition1": Necessity(reason=(
            "used for $D_\\phi > 0$ ($a_{1,\\pm1} \\ge 0$ with $b_1 > 0$: the Proposition's Step 2), for "
            "$a > 0$ and $c > 0$ (its Step 3) and, in (d) and (e), through $G = a_{1,-1}(U^\\dagger - U^*) \\ge 0$ "
            "and $H = a_{1,+1}(U^\\dagger + U^*) \\ge 0$ (Steps 8-9: $a_{1,\\pm1} \\ge 0$, with $U^* > 0$ for $H$; the "
            "two are conditioned on $U_\\phi^* \\le U^\\dagger$, not given it by Lemma 1); $0 \\le U \\le 1$ is "
            "not used.  A metric with $a_{1,\\pm1} < 0$ "
            "can make $D_\\phi$ change sign ($\\phi$ is unbounded), and then $U_\\phi^*$ can be $+\\infty$ "
            "(round 6: 5,558 of some 18,400 one-atom instances) or finite and attained (e.g. $(2TP - FP + 3/2)/(TP "
            "- (2/3)FP + 5)$ with the hinge loss on one atom at $\\eta = 3/5$: $U^* = 3/8$, and (a)-(c) hold); "
            "a metric with $a_{0,-1} > 0$ can make $c = 0$, and then $\\eta_{hi} = 0/0$ at $\\rho = 0$ and "
            "(a)-(d) are undefined, not false (round 7: $(2TP + (3/2)FP + 5/2)/(3TP + 3FP + 7/2)$ with "
            "$\\max(1, 1 - t/2, 3/4 - t)$, weights $(1/2, 1/2)$, $\\eta$ $(1/10, 2/5)$: $U^* = 1/2$); "
            "wherever "
            "$U_\\phi^*$ is finite and attained $a \\ge 0$ and $c \\ge 0$ hold at it; no conclusion of this "
            "theorem failed on the searched instances (some 4,000 small-coefficient metrics, most of them violating "
            "Definition 1; piecewise-linear losses; 2-3 atoms), while the Proposition's conclusion 3 (the band's "
            "interior) fails when $c = 0$ (its witness)")),
        "b1_positive": _B1_IMPLIED,
        "condition3": Necessity(reason=(
            "needed for a maximiser $f^*$ to exist and for the band to be defined: without it ($a_{0,-1} = a_{1,-1} = "
            "0$, e.g. recall) and a loss that never reaches its infimum (the logistic or the paper's tau-logistic "
            "loss) $U_\\phi < U_\\phi^* = 1$ at every $f$, so no maximiser exists and (b), (c) speak of none "
            "(review 5); with a loss that attains it, $c = \\gamma = 0$: for $\\rho > 0$ $\\eta_{lo} = \\eta_{hi} "
            "= \\delta = 0$, every maximiser and the Bayes rule are positive everywhere and (a)-(c) held on every "
            "searched instance (recall, $(TP + \\pi)/(TP + 2\\pi)$, $(2TP + 1/2)/(TP + 1)$ and the random metrics "
            "with $a_{0,-1} = a_{1,-1} = 0$; piecewise-linear losses), at $\\rho = 0$ $\\eta_{hi} = 0/0$ and "
            "(a)-(c) are undefined, and $c\\alpha/(a\\gamma) = 0/0$ leaves (d) undefined; only the Proposition's "
            "conclusion 3 (the band's interior) fails (its witness)")),
        "phi_nonnegative": Necessity(_UNATTAINED, "calibration"),
        "phi_convex": Necessity(_CONCAVE_F1, "calibration"),
        "phi_nonincreasing": Necessity(_V_LOSS, "kink_set"),
        "phi_left_slope": Necessity(reason=_SLOPE_RHO.replace("<<EXTRA>>", (
            "; (a)-(e) are stated through the band"))),
        "eta_interior": _ETA,
        "u_star_positive": Necessity(_NEGATIVE_U_STAR, "loss_condition"),
        "u_dagger_attained": Necessity(_DA1_POSITIVE, "kink_set"),
    },
    FBETA.key: {
        "phi_nonnegative": Necessity(_UNATTAINED, "calibration"),
        "phi_convex": Necessity(_CONCAVE_F1, "calibration"),
        "phi_nonincreasing": Necessity(_V_HALF_F1, "calibration", _V_HALF_CLAUSE.replace("<<T>>", "F")),
        "phi_left_slope": _SLOPE_THEOREMS,
        "u_star_at_most_u_dagger": Necessity(_BELOW_F1, "tau_range"),
        "eta_interior": _ETA,
        "u_star_positive": Necessity("floor loss, F_1", "weak_form"),
    },
    JACCARD.key: {
        "phi_nonnegative": Necessity(_UNATTAINED_JAC, "calibration"),
        "phi_convex": Necessity(_CONCAVE_JAC, "calibration"),
        "phi_nonincreasing": Necessity(_V_HALF_JAC, "calibration", _V_HALF_CLAUSE.replace("<<T>>", "J")),
        "phi_left_slope": _SLOPE_THEOREMS,
        "u_star_at_most_u_dagger": Necessity(_BELOW_JAC, "weak_form"),
        "eta_interior": _ETA,
        "u_star_positive": Necessity("floor loss, Jaccard", "weak_form"),
    },
    GENERAL.key: {
        "definition1": Necessity(_TWICE_F1, "condition_b"),
        "condition1": Necessity(reason="implied by Definition 1: $a_{0,+1} > 0 \\ge a_{0,-1}$ gives "
                                       "$\\Delta a_0 > 0$"),
        "condition2": Necessity(_DA1_POSITIVE, "criterion"),
        "condition3": Necessity(reason=(
            "needed for condition (b) and for a maximiser to exist: without it ($a_{0,-1} = a_{1,-1} = 0$) $H(t) = "
            "(-a_{0,+1} + a_{1,+1} t)/0$, so (b) is undefined; with a loss that never reaches its infimum (the "
            "logistic loss, recall) no maximiser exists (review 5), and with one that attains it the criterion's "
            "conclusions held on every searched instance (every maximiser and the Bayes rule are positive "
            "everywhere; piecewise-linear losses with rho > 0)")),
        "b1_positive": _B1_IMPLIED,
        "phi_nonnegative": Necessity(_UNATTAINED, "criterion"),
        "phi_convex": Necessity(_CONCAVE_F1, "criterion"),
        "phi_nonincreasing": Necessity(_V_LOSS, "criterion"),
        "phi_left_slope": Necessity(reason=_SLOPE_RHO.replace("<<EXTRA>>", (
            "; conditions (b) and the criterion are stated through $\\rho$ and the band"))),
        "u_star_at_most_u_dagger": Necessity(_BELOW_JAC, "condition_b"),
        "eta_interior": _ETA,
        "u_star_positive": Necessity("floor loss, F_1", "condition_b"),
    },
    RADEMACHER.key: {
        "phi_convex": Necessity("necessity: concave kink 1 - t, then 1 - 2t, n = 1, y = +1, F = {-1, +1}", "bound",
                                reason=_J_SIGN),
        "phi_pieces": Necessity(reason=(
            "needed so that the bound's constants $\\gamma_{\\pm1}$ exist: a derivative that is not Lipschitz on "
            "one side of 0 (the hinge loss's jump at $t = 1$) has no finite $\\gamma$ and the bound says nothing; "
            "a jump at 0 is what $J$ accounts for")),
    },
    RATE.key: {
        "lemma4_setting": Necessity(reason=(
            "the setting the bound is about, not a condition an instance can drop: $c_\\mathcal{X}$, "
            "$c_\\Theta$, $d$ and $m = n/2$ are its parameters; the proof uses the linear class for "
            "$\\hat{\\mathfrak{R}}_m(\\mathcal{F}) \\le c_\\mathcal{X} c_\\Theta/\\sqrt m$ and Sauer's "
            "count $N_m$; the two halves enter only through the sample size $m$ of each mean (Step 1's "
            "decomposition of $\\hat V - V$ is an algebraic identity, true for the same-sample estimator too, so "
            "Lemma 3's unbiasedness is not used; review 27)")),
        "bounded_scores": Necessity(reason=(
            "needed so that $c_k$ and $\\rho_k$ are finite: read over all $\\xi$, $c_k$ is infinite for a convex "
            "non-constant $\\phi$ wherever $\\tilde W_{k,\\phi}$ depends on $\\phi$ ($c_0$ always, as "
            "$a_{0,+1} > 0$; $c_1$ unless $a_{1,\\pm1} = 0$, as for accuracy, where $\\tilde W_{1,\\phi} = 1$), "
            "$\\rho_k$ too where $\\phi'$ is unbounded, and the bound says nothing; in Lemma 4's "
            "setting every score has "
            "$|\\theta^\\top x| \\le c_\\mathcal{X} c_\\Theta$, the range the proof reads them on")),
        "phi_convex": Necessity("necessity: Lemma 4's bound with the signed J = -99 (5001 - t, then 5001 - 100 t + "
                                "t^2/2, flat from t = 100), accuracy, X = 1, n = 2, d = 1", "expectation", reason=(
            "for the bound as displayed, with the signed jump $J$, which convexity makes $\\ge 0$: on the witness "
            "(non-negative, non-increasing, two smooth pieces) $J = -99$ makes $B_E(2)$ smaller than the left side "
            "(referee round 21); step 7 of the App. C lemma's correction (the decomposition of $\\phi'$) bounds "
            "the jump term by $|\\phi'(0^-) - \\phi'(0^+)|$ "
            "without using convexity, so the bound with $|J|$ in place of $J$ needs no convexity (not stated "
            "here)")),
        "phi_pieces": Necessity(reason=(
            "needed so that $\\gamma = \\gamma_{+1} + \\gamma_{-1}$ exists: a derivative that is not Lipschitz on "
            "one side of 0 within the scores' range $|\\xi| \\le c_\\mathcal{X} c_\\Theta$ (the hinge loss's jump at "
            "$t = 1$, when $c_\\mathcal{X} c_\\Theta \\ge 1$) has no finite $\\gamma$ and $B_E(n)$ is infinite; the "
            "proof reads the pieces only on that range, so the hypothesis could be weakened to it")),
    },
}


def _with_necessity(statement: Statement) -> Statement:
    return replace(statement, necessity=tuple(NECESSITY.get(statement.key, {}).items()))


SIGN_PATTERN, CRITERION, FBETA, JACCARD, GENERAL, RADEMACHER, RATE = (
    _with_necessity(s) for s in (SIGN_PATTERN, CRITERION, FBETA, JACCARD, GENERAL, RADEMACHER, RATE))
STATEMENTS = {s.key: s for s in (SIGN_PATTERN, CRITERION, FBETA, JACCARD, GENERAL, RADEMACHER, RATE)}


def with_statement_texts(claim):
    """``claim`` (a registry entry) with its statement line and summary rendered from its structured statements
    (``claim.statement_key``, several joined by "+"); other claims are returned unchanged."""
    keys = getattr(claim, "statement_key", "")
    if not keys:
        return claim
    statements = [statement_of(k) for k in keys.split("+")]
    return replace(claim, statement="; ".join(s.headline() for s in statements),
                   summary=" ".join(s.summary() for s in statements))


def statement_of(key: str) -> Statement:
    """The statement proved by the claim ``key``."""
    try:
        return STATEMENTS[key]
    except KeyError:
        raise KeyError(f"no corrected statement {key!r}; known: {sorted(STATEMENTS)}") from None


def _wrap(text: str, first: str, rest: str, width: int = 116) -> str:
    return "\n".join(textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                                   break_long_words=False, break_on_hyphens=False)) + "\n"


def _and(names) -> str:
    names = list(names)
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + (names[-1] if names else "")


def verdicts_sentence(verdict: str) -> str:
    """The paper's claims with the registry verdict ``verdict`` (e.g. "fails as stated"), named in registry order,
    and - for "fails as stated" - why, in the words of the corrected statements' conclusions (quoted, not typed)."""
    names = [c.number for c in PAPER_CLAIMS if c.expected == verdict]
    if not names:
        raise ValueError(f"no registry claim has the verdict {verdict!r}")
    text = f"{_and(names)} {'fail' if len(names) > 1 else 'fails'} as stated" if verdict == "fails as stated" \
        else f"{_and(names)}: {verdict}"
    if verdict == "fails as stated (see its errata)":
        claims = [c for c in PAPER_CLAIMS if c.expected == verdict]
        errata = "; ".join(f"{c.number}: ERRATA {references(numbers_affecting(c.label))}"
                           for c in claims)
        return (f"{_and(names)} {'fail' if len(names) > 1 else 'fails'} as stated, without a corrected claim of "
                f"{'their' if len(names) > 1 else 'its'} own in the registry; the errata that change "
                f"{'their' if len(names) > 1 else 'its'} stated conclusions, each with a witness: {errata}.")
    if verdict == "fails as stated":
        return text + (" (each with a witness in ERRATA.md).  The corrections, proved in [`proofs/`](proofs/README.md) "
                       "(rho = phi'(0+)/phi'(0-); U* = sup U_phi over the f with D_phi(f) > 0; delta = Prop. 5's "
                       "threshold):")
    return text + "."


def evidence_sentence(kind: str, labels=None) -> str:
    """The registry's claims checked by ``kind`` evidence ("simulation" or "benchmark"; only those with the LaTeX
    ``labels`` if given), each with its recorded verdict and what that evidence measures (its evidence notes,
    quoted by claim: a note names what is measured, the measured numbers are in the records)."""
    parts = []
    for claim in PAPER_CLAIMS:
        notes = [e.note for e in claim.evidence if e.kind == kind]
        if not notes or (labels is not None and claim.label not in labels):
            continue
        said = "; ".join(n for n in notes if n)
        parts.append(f"{claim.number} ({claim.expected})" + (f": {said.rstrip('.')}" if said else ""))
    if not parts:
        raise ValueError(f"no registry claim has {kind!r} evidence")
    lead = {"simulation": "**The Monte-Carlo studies**, against exact population values (each verdict re-run by "
                          "`lfverify verify`)",
            "benchmark": "**The App. C benchmark**, against the printed tables and figures"}[kind]
    return f"{lead}: " + "; ".join(parts) + "."


def errata_count_sentence(errata_text: str) -> str:
    """The count of ERRATA.md's entries (its ``### E<n>.`` headings), in one sentence."""
    count = len(re.findall(r"^### E\d+\.", errata_text, re.M))
    return (f"**{count} errata** in the printed statements and proofs ([ERRATA.md](ERRATA.md)), each with a witness "
            "and independent evidence.")


def summary_block(kind: str, key: str, *, root=None) -> str:
    """The body of a generated block ``<!-- generated: KIND KEY -->``: a Markdown bullet with the summary of the
    statement ``KEY`` (``claim.key`` or ``claim.key:conclusion+conclusion`` for some of its conclusions).  KIND is
    ``summary`` (a top-level bullet) or ``summary-nested`` (indented under another bullet); ``verdicts`` (KEY a
    registry verdict with "-" for spaces) is a bullet naming the claims with that verdict (:func:`verdicts_sentence`).
    """
    if kind == "verdicts":
        named = {re.sub(r"\W+", "-", v).strip("-"): v for v in VERDICTS}  # "fails-as-stated-see-its-errata"
        if key not in named:
            raise ValueError(f"no registry verdict {key!r}; known: {sorted(named)}")
        return _wrap(verdicts_sentence(named[key]), "* ", "  ")
    if kind == "evidence":
        evidence, _, labels = key.partition(":")
        return _wrap(evidence_sentence(evidence, labels.split("+") if labels else None), "* ", "  ")
    if kind == "errata-count":
        if root is None:
            raise ValueError("an errata-count block needs the repository folder (root) to read its file")
        return _wrap(errata_count_sentence((Path(root) / key).read_text(encoding="utf-8")), "* ", "  ")
    statement_key, _, keys = key.partition(":")
    text = statement_of(statement_key).summary(tuple(keys.split("+")) if keys else None)
    if kind == "summary":
        return _wrap(text, "* ", "  ")
    if kind == "summary-nested":
        return _wrap(text, "  * ", "    ")
    raise ValueError(f"unknown generated block kind {kind!r}; expected 'summary' or 'summary-nested'")
