"""The corrected calibration statements (lfverify/proofs/corrected_calibration.py) against the certified maximiser.

Shared by test_corrected_calibration.py, test_calibration_properties.py and test_necessity.py (not a test module), so
that every population those tests generate is also a test of the corrected statements.

Oracle: tests/calibration_search.py (Dinkelbach certified at 40-60 digits, U-dagger and every completion of the kink
atoms by brute force over all classifiers in exact rationals), which shares no code with lfverify.  Code under test:
``finite_support_verdict`` (the corrected statements as code: the band [eta_lo, eta_hi], delta(U-dagger), and the
conditions on the atoms' posteriors).
"""

from __future__ import annotations

from calibration_search import analyse, exact_utility
from lfverify.proofs.corrected_calibration import finite_support_verdict


def assert_corrected_statement_agrees(coef, pop, tau, opt, analysis=None):
    """Assert that the corrected statements predict what the oracle finds on this population; return the verdict,
    or None when the statements do not apply (Prop. 5's threshold form needs Da0 - Da1 U-dagger > 0)."""
    analysis = analysis or analyse(coef, pop, opt)
    if analysis.threshold is None:
        return None
    verdict = finite_support_verdict(coef, tau, opt.value, analysis.u_dagger, pop.eta)
    assert verdict.threshold == analysis.threshold  # both exact: delta(U-dagger) of Prop. 5
    assert verdict.signs == opt.signs, (verdict.band, opt.signs)  # the sign pattern (Proposition)
    assert verdict.calibrated == analysis.calibrated  # (a): every completion of the kink atoms attains U-dagger
    assert verdict.sign_rule_optimal == (analysis.sign_utility == analysis.u_dagger)  # (b)
    assert verdict.weak_form == analysis.best_completion_is_optimal  # (c)
    assert (exact_utility(coef, pop, verdict.bayes_labelling) == analysis.u_dagger) == verdict.weak_form  # (c)
    return verdict
