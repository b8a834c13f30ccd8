"""The counterexamples to Thm. 1 (thm:f-measure-calibration) as printed, shared with Thms. 2 and 7.

The two witness populations for F_1 (:func:`_witness_populations`: a kink at 0 in case 2 of App. A.1, and a loss
without Lemma 1's phi(t) >= 1{t <= 0}), the predicates saying whether the library evaluation of their exact surrogate
maximisers (:func:`.thm1_fbeta_calibration.library_counterexample`) reproduces each counterexample, Thm. 7's printed
conditions on a witness, and the three errata records of the claim ``thm1_fbeta_calibration.theorem`` (the kink,
the missing domination, the footnote), which :func:`.thm1_fbeta_calibration.check_theorem` reports.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

from lfverify.core import general_calibration
from lfverify.proofs._claims import Erratum


def _nstr(x, digits=12):
    return mp.nstr(mp.mpf(x), digits)


def _witness_populations():
    """(kink witness, non-dominating witness) populations for F_1: (weights, eta, tau, base)."""
    kink = (
        (Fraction(3, 10), Fraction(1, 5), Fraction(1, 2)),
        (Fraction(19, 20), Fraction(3, 5), Fraction(1, 20)),
        Fraction(1, 20),
        2,
    )
    nondominating = ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 20), Fraction(1, 1000)), Fraction(1, 5), 2**100)
    return kink, nondominating


F1_COEFFICIENTS = (2, 0, 1, 1, 0, 0, 0, 1)  # Table 1, beta = 1: a0 = (2, 0), a1 = (1, 1), b1 = pi


def kink_counterexample_reproduced(kink: dict, opt) -> bool:
    """The kink counterexample holds: every hypothesis of the theorem holds, phi dominates the 0/1 loss, the
    certified maximiser sits at the kink on atom 1 (f*(x) = 0, predicted -1), the core library reproduces
    U_phi*, no perturbation improves it, U(f*) < U-dagger although atom 1 belongs to the Bayes set, and moving
    f*(x) to 0+ restores U-dagger."""
    return bool(
        kink["hypotheses"].holds
        and kink["loss"].dominates_zero_one
        and 1 in opt.zero_atoms
        and abs(kink["lib_value"] - float(opt.value)) < 1e-12
        and kink["perturbation_best"] <= float(opt.value) + 1e-13
        and kink["utility"] < kink["bayes"] - 1e-3
        and bool(kink["bayes_mask"][1])
        and abs(kink["shifted_utility"] - kink["bayes"]) < 1e-12
    )


def nondominating_counterexample_reproduced(nond: dict, opt) -> bool:
    """The counterexample without phi >= 1{t <= 0} holds: the printed hypotheses hold, phi does not dominate,
    the certified maximiser is strictly negative everywhere, the core library reproduces U_phi*, no
    perturbation improves it, and U(f*) < U-dagger although atom 0 belongs to the Bayes set."""
    return bool(
        nond["hypotheses"].holds
        and not nond["loss"].dominates_zero_one
        and not opt.zero_atoms
        and all(x < 0 for x in opt.scores)
        and abs(nond["lib_value"] - float(opt.value)) < 1e-12
        and nond["perturbation_best"] <= float(opt.value) + 1e-13
        and nond["utility"] < nond["bayes"] - 1e-3
        and bool(nond["bayes_mask"][0])
    )


def thm7_conditions(metric, figures, tau_value):
    """Thm. 7's printed hypotheses ((1)-(6), (a)-(c)) on a witness of
    :func:`.thm1_fbeta_calibration.library_counterexample`, by the core library's transcription
    (``lfverify.core.general_calibration``): the witness refutes Thm. 7 too where they hold."""
    return general_calibration(metric, figures["loss"], surrogate_optimum=float(figures["opt"].value),
                               true_utility_at_optimum=float(figures["utility"]), tau=float(tau_value))


def _kink_erratum(kink: dict) -> Erratum:
    """Thm. 1's erratum at f*(x) = 0 in case 2 of App. A.1 (eq:supp:fbeta-stationary-eta): the hypotheses force a
    kink at 0, and the kink witness (``kink``, :func:`.thm1_fbeta_calibration.library_counterexample`'s figures)
    has a unique surrogate maximiser that is not Bayes optimal."""
    k_opt = kink["opt"]
    ks = [_nstr(x, 10) for x in k_opt.scores]
    return Erratum(
        location=(
            "App. A.1, case 2 (f*(x) <= 0) at f*(x) = 0; eq:supp:fbeta-stationary-eta; Thm. 1"
            " (thm:f-measure-calibration)"
        ),
        printed=(
            "the stationary equation -(1+beta^2) phi'(f*) eta - phi'(f*) U* eta + phi'(-f*) U* (1 - eta) = 0 holds at"
            " x-bar for f*(x-bar) <= 0, giving a contradiction; hence U_phi is F_beta-calibrated"
        ),
        derived=(
            "U* >= (1+beta^2)tau/(beta^2-tau) forces tau <= beta^2/(2+beta^2) < 1, so for a loss with phi'(0-) < 0"
            " phi'(0+)/phi'(0-) =: rho <= tau < 1 (a kink at 0; U_phi is not differentiable there).  Pointwise, f* "
            "minimises A phi(xi) + B phi(-xi), A ="
            " (1+beta^2+U*) eta, B = U* (1-eta), for which xi = 0 is a minimiser exactly when rho <= A/B <= 1/rho (the"
            " unique one for a loss strictly convex on each side of 0, as the tau-logistic); this band"
            " contains posteriors eta > U(f*)/(1+beta^2) where U(f*) < 1 or rho < beta^2 U*/(1+beta^2+U*) (its upper"
            " end is 1/(1+beta^2) or more), and there f* = 0 predicts -1 (sgn(0) = -1) against Prop. 5"
        ),
        consequence=(
            "Thm. 1 is false as stated: with the paper's own tau-logistic loss the surrogate maximiser f* is unique,"
            " attains U*_phi and is not Bayes optimal, so the constant maximising sequence f_l = f* has U(f_l) <"
            " U-dagger; a sequence approaching 0 from the Bayes side at each kink atom (from above where the Bayes rule"
            " predicts +1, from below elsewhere) does reach U-dagger, so the limit depends on the sequence (approaching"
            " from above at each kink atom need not: lfverify.proofs.counterexamples). "
            " The same counterexample refutes Thm. 7 (F_1 meets its printed conditions (1)-(6), (a)-(c) there:"
            " lfverify.core.general_calibration)."
        ),
        witness=(
            "F_1, tau-logistic(tau = 1/20) (base 2, dominates the 0/1 loss), atoms with weights (3/10, 1/5, 1/2) and "
            f"eta = (19/20, 3/5, 1/20): U*_phi = {_nstr(k_opt.value)} >= 2tau/(1-tau) = 2/19, f* = ({', '.join(ks)}), "
            f"U(f*) = {kink['utility']:.12g} < U-dagger = {kink['bayes']:.12g} (the Bayes rule predicts +1 on the "
            "eta = 3/5 atom: 3/5 > U-dagger/2)"
        ),
        evidence=(
            "Dinkelbach's certificate at 50 digits (max_f E[W0 - U* W1] = 0 with each atom's convex problem solved"
            " exactly; at the eta = 3/5 atom the one-sided derivatives at 0 have opposite signs); the core library"
            f" gives U_phi(f*) = {kink['lib_value']:.12g}, no deterministic perturbation (600 draws) exceeds it,"
            " lfverify.core.fbeta_calibration reports every hypothesis of Thm. 1 as holding, and f* with the"
            f" eta = 3/5 atom's 0 replaced by 1e-9 has U_phi = {kink['shifted_value']:.12g} and U ="
            f" {kink['shifted_utility']:.12g} = U-dagger"
        ),
    )


def _dominance_erratum(nond: dict) -> Erratum:
    """Thm. 1's erratum on case 2's step U_phi <= U (App. A.1): Lemma 1's phi(t) >= 1{t <= 0} is used but not
    assumed; ``nond`` are the non-dominating witness's figures
    (:func:`.thm1_fbeta_calibration.library_counterexample`)."""
    n_opt = nond["opt"]
    ns = [_nstr(x, 10) for x in n_opt.scores]
    return Erratum(
        location="App. A.1, case 2, second inequality ('U_phi(f) <= U(f) for all f'); hypotheses of Thm. 1",
        printed=(
            "Thm. 1 assumes phi differentiable a.e., convex, non-increasing, tau-discrepant and the U* bound; the proof"
            " uses U_phi <= U, i.e. Lemma 1 (lem:utility-lower-bound), whose hypothesis phi(t) >= 1{t <= 0} is not"
            " assumed"
        ),
        derived=(
            "without phi >= 1{t <= 0} the step U*/(1+beta^2+2U*) <= U(f*)/(1+beta^2) fails (U* can exceed U(f*)), and"
            " the sub-case phi'(-f*) = 0 ('easy to see the contradiction') fails too (e.g. phi = 0: U_phi = 1 for every"
            " f); a hypothesis must be added: Lemma 1's phi(t) >= 1{t <= 0} repairs this step (U_phi* <= U(f*)); the"
            " corrected Thm. 1 assumes only the weaker U_phi* <= U-dagger, which its own proof uses"
        ),
        consequence=(
            "Thm. 1 is false without it, at a point where phi is differentiable at +-f*(x) (so the failure is not the "
            "kink): the maximiser is strictly negative on an atom that the Bayes rule labels +1."
        ),
        witness=(
            "F_1, phi = tau-logistic(tau = 1/5) in base 2^100 (= log_2(1+e^-m)/100 on m <= 0; convex, non-increasing, "
            "1/5-discrepant, phi(0) = 1/100), atoms with weights (1/2, 1/2) and eta = (1/20, 1/1000): U*_phi = "
            f"{_nstr(n_opt.value)} >= 2tau/(1-tau) = 1/2, f* = ({', '.join(ns)}) < 0, U(f*) = {nond['utility']:.12g} "
            f"< U-dagger = {nond['bayes']:.12g} (Bayes predicts +1 on the eta = 1/20 atom)"
        ),
        evidence=(
            f"Dinkelbach's certificate at 50 digits; core library: U_phi(f*) = {nond['lib_value']:.12g}, no"
            " perturbation (600 draws) improves it, fbeta_calibration reports the hypotheses as holding and"
            " loss.dominates_zero_one is False"
        ),
    )


def _footnote_erratum() -> Erratum:
    """Thm. 1's footnote ('non-negative and therefore such tau always exists'): at U* = 0 no tau meets the hypothesis
    U* >= (1 + beta^2) tau/(beta^2 - tau); the floor loss max(1, 1 - t) has U* = 0 on F_1."""
    return Erratum(
        location="Thm. 1, its footnote ('non-negative and therefore such tau always exists')",
        printed="(U_phi^{F_beta})* is non-negative and therefore such tau always exists",
        derived=(
            "the bound (1+beta^2) tau/(beta^2 - tau) is positive on all of (0, beta^2), so at U* = 0 the condition "
            "U* >= (1+beta^2) tau/(beta^2 - tau) cannot be met: the footnote needs U* > 0, which non-negativity does "
            "not give; and at U* > 0 the tau must also make phi tau-discrepant (tau >= rho where phi'(0-) < 0), while "
            "the condition allows only tau <= beta^2 U*/(1 + beta^2 + U*): a loss with a larger rho (one "
            "differentiable at 0 on F_1, rho = 1) has none"
        ),
        consequence=(
            "a loss meeting Thm. 1's other hypotheses can have U* = 0, and then the tau condition cannot be met; the "
            "corrected Thm. 1 adds U_phi* > 0 to the hypotheses"
        ),
        witness=(
            "the floor loss max(1, 1 - t) (convex, non-increasing, tau-discrepant: phi'(0+) = 0 >= tau phi'(0-)), "
            "F_1: W_0 = 2 eta (1 - phi(xi)) <= 0 with equality for xi >= 0, so U* = 0 (e.g. weights (1/2, 1/2), "
            "eta (1/10, 9/10))"
        ),
        evidence=(
            "SymPy: the numerator score of the floor loss is 0 for xi >= 0 and non-positive for xi < 0; at beta = 1 "
            "the set of tau in (0, 1) with 2 tau/(1 - tau) <= 0 is empty"
        ),
    )
