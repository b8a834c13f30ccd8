"""The conclusions of App. C's corrected lemma (lem:non-smooth-rademacher) and of Lemma 4's rate as predicates on a
:class:`~lfverify.proofs._executable_instances.RademacherCase` or a
:class:`~lfverify.proofs._executable_instances.RateCase`: each checks that the displayed SymPy form of
:mod:`lfverify.proofs.corrected_rademacher` is the function the proof evaluates, and that the bound holds on the
instance (registered in :data:`lfverify.proofs._executable.CONCLUSION_PREDICATES`).
"""

from __future__ import annotations

import math

import mpmath as mp

from lfverify.proofs._exact_numbers import exact_mpf
from lfverify.proofs._executable_evaluation import Evaluation, _fails, _holds, _num, _vacuous, _verdict, compare


def _sympy_value(expr, values: dict):
    """``expr`` (SymPy) at ``values`` {symbol: number}, as an mpf at the current precision."""
    import sympy as sp

    subs = {k: v if isinstance(v, int) else sp.Float(mp.nstr(exact_mpf(v), mp.mp.dps + 5), mp.mp.dps + 5)
            for k, v in values.items()}
    value = sp.N(expr.subs(subs), mp.mp.dps + 5)
    return mp.mpf(str(value))


def _lemma_terms(case) -> dict:
    loss = case.loss
    return {"kappa": case.kappa, "gamma_plus": loss.gamma_plus, "gamma_minus": loss.gamma_minus,
            "rademacher_class": case.rademacher_class, "sign_sum": case.sign_sum,
            "slope_at_zero": loss.right_slope, "jump": loss.jump,
            "rademacher_indicators": case.rademacher_indicators}


def _rademacher_bound(case) -> Evaluation:
    """For every sample: R_S(W~'_k o F) <= the displayed right-hand side (which must be the function
    ``corrected_lemma_bound`` evaluates)."""
    from lfverify.proofs import corrected_rademacher as R

    with mp.workdps(40):
        terms = _lemma_terms(case)
        shown = _sympy_value(R.lemma_bound_expression(), {R.LEMMA_SYMBOLS[k]: v for k, v in terms.items()})
        code = exact_mpf(R.corrected_lemma_bound(**{k: exact_mpf(v) for k, v in terms.items()}))
        if abs(shown - code) > mp.mpf(10) ** -30 * max(1, abs(code)):
            return _fails(f"the displayed bound gives {mp.nstr(shown, 12)}, corrected_lemma_bound {mp.nstr(code, 12)}")
        lhs = exact_mpf(case.lhs)
        return _verdict(lhs <= shown, f"R_S = {mp.nstr(lhs, 12)} > the bound {mp.nstr(shown, 12)}",
                        f"R_S = {mp.nstr(lhs, 8)} <= {mp.nstr(shown, 8)}")


def _rademacher_rates(case) -> Evaluation:
    """E|sum sigma_i|/n <= n^{-1/2}; R_S(I_F) <= sqrt(2 log(2 N)/n) for N patterns, and for the linear class on R^d
    N <= sum_{k <= d} C(n, k) + 1 and R_S(I_F) <= the displayed sqrt(2 (log 4 + d log(n + 1))/n)."""
    from lfverify.proofs import corrected_rademacher as R

    n = case.n
    with mp.workdps(40):
        if not exact_mpf(case.sign_sum) <= 1 / mp.sqrt(n):
            return _fails(f"E|sum sigma|/n = {_num(case.sign_sum)} > n^-1/2")
        r_i = exact_mpf(case.rademacher_indicators)
        if case.patterns and not r_i <= mp.sqrt(2 * mp.log(2 * case.patterns) / n):
            return _fails(f"R_S(I_F) = {mp.nstr(r_i, 12)} above Massart's bound with N = {case.patterns}")
        if not case.d:
            return _holds("a finite class: Massart's bound")
        if case.patterns > R.sauer_bound(n, case.d):
            return _fails(f"{case.patterns} patterns > Sauer's {R.sauer_bound(n, case.d)}")
        shown = _sympy_value(R.indicator_bound_expression(mp.mpf(n), case.d), {})
        # the display's "so <=" step: Massart's bound at Sauer's count must not exceed it, at every n and d
        massart_at_sauer = mp.sqrt(2 * mp.log(2 * R.sauer_bound(n, case.d)) / n)
        ok = r_i <= shown and massart_at_sauer <= shown * (1 + mp.mpf(10) ** -30)
        return _verdict(ok, f"R_S(I_F) = {mp.nstr(r_i, 12)}, Massart at Sauer's count {mp.nstr(massart_at_sauer, 12)}, "
                            f"the displayed bound {mp.nstr(shown, 12)}")


def _rademacher_printed(case) -> Evaluation:
    """The printed lemma is the special case kappa = 1, phi'(0+) = 0, J = 0, which no tau-discrepant loss with
    tau < 1 has: evaluated on the instance's loss."""
    loss = case.loss
    rho = loss.rho
    if rho is None or compare(loss.left_slope, 0) >= 0 or compare(rho, 1) >= 0:
        return _vacuous("the loss is not tau-discrepant with tau < 1 (phi'(0+) >= tau phi'(0-), tau < 1)")
    return _verdict(compare(loss.jump, 0) != 0, "a tau-discrepant loss with tau < 1 and J = 0")


def _rate_values(case) -> dict:
    from lfverify.proofs import corrected_rademacher as R

    return {R.RATE_SYMBOLS[k]: v for k, v in case.parameters.items() if k in R.RATE_SYMBOLS}


def _rate_function(case):
    from lfverify.proofs import lemma4_uniform_convergence as L4

    p = case.parameters
    return L4.corrected_expectation_bound(p["n"], p["d"], p["c_X"], p["c_Theta"], p["c0"], p["c1"], p["rho0"],
                                          p["rho1"], p["gamma"], slope_at_zero=p["slope_at_zero"], jump=p["jump"],
                                          kappa0=p["kappa0"], kappa1=p["kappa1"])


def _rate_expectation(case) -> Evaluation:
    """E_S sup ||V_hat - V|| <= B_E(n): the displayed B_E equals the function, and exceeds the instance's exact lower
    bound of the left side where it has one."""
    from lfverify.proofs import corrected_rademacher as R

    with mp.workdps(30):
        values = _rate_values(case)
        values[R.RATE_SYMBOLS["patterns"]] = R.sauer_bound(case.parameters["n"] // 2, case.parameters["d"])
        shown = _sympy_value(R.rate_expressions()[0], values)
        code = exact_mpf(_rate_function(case))
        if abs(shown - code) > mp.mpf(10) ** -10 * abs(code):
            return _fails(f"the displayed B_E(n) = {mp.nstr(shown, 12)}, the function {mp.nstr(code, 12)}")
        lower = case.parameters.get("lower")
        if lower is None:
            return _holds(f"B_E = {mp.nstr(code, 8)} (display = function)")
        return _verdict(exact_mpf(lower) <= code, f"the exact lower bound {mp.nstr(lower, 12)} > B_E = "
                                                  f"{mp.nstr(code, 12)}", f"{mp.nstr(lower, 8)} <= {mp.nstr(code, 8)}")


def _rate_deviation(case) -> Evaluation:
    """The displayed deviation term is McDiarmid's (``mcdiarmid_deviation``) at the instance's n and delta."""
    from lfverify.proofs import lemma4_uniform_convergence as L4

    p = case.parameters
    delta = p["delta"]  # every rate instance carries its delta (RateCase.parameters)
    shown = math.sqrt(8 * p["c_X"] ** 2 * (p["rho1"] * p["c0"] + p["rho0"] * p["c1"]) ** 2 * math.log(2 / delta)
                      / p["n"])
    code = L4.mcdiarmid_deviation(p["n"], delta, p["c_X"], p["c0"], p["c1"], p["rho0"], p["rho1"])
    total = L4.corrected_uniform_convergence_bound(p["n"], p["d"], delta, p["c_X"], p["c_Theta"], p["c0"], p["c1"],
                                                   p["rho0"], p["rho1"], p["gamma"], slope_at_zero=p["slope_at_zero"],
                                                   jump=p["jump"], kappa0=p["kappa0"], kappa1=p["kappa1"])
    ok = abs(shown - code) <= 1e-12 * code and abs(total - _rate_function(case) - code) <= 1e-12 * total
    return _verdict(ok, f"displayed {shown!r}, mcdiarmid_deviation {code!r}, total {total!r}")


def _rate_order(case) -> Evaluation:
    """The displayed order form bounds B_E(n) (it is B_E with log(2 N_m) <= log 4 + d log(m + 1)), at every n, d
    including the smallest."""
    from lfverify.proofs import corrected_rademacher as R

    with mp.workdps(30):
        shown = _sympy_value(R.rate_expressions()[1], _rate_values(case))
        code = exact_mpf(_rate_function(case))
        return _verdict(code <= shown * (1 + mp.mpf(10) ** -12), f"B_E(n) = {mp.nstr(code, 12)} > the displayed "
                                                                  f"order form {mp.nstr(shown, 12)}",
                        f"{mp.nstr(code, 8)} <= {mp.nstr(shown, 8)}")
