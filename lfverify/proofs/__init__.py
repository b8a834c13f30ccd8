"""SymPy derivations that machine-check the paper's closed forms (one module per claim).

Each module derives a closed form from the paper's definitions (the integrand of the functional, the
surrogate scores of Eq. (3), ...) and compares it with the printed formula, transcribed once at the top of
the module with its LaTeX label.  A disagreement is a finding, recorded as an :class:`Erratum` with
a numeric witness and independent evidence; ``lfverify proofs --errata`` writes them to ERRATA.md.

Modules (paper object -> module):

=====================================================  ===================================
Tab. 1 (tab:generalized-performance-metrics)           ``table1``
Lemma 1 (lem:utility-lower-bound)                      ``lemma1_lower_bound``
Lemma 2 (lem:quasi-concavity)                          ``lemma2_quasi_concavity``
Lemma 3 (lem:unbiased-gradient), grad U = V / D^2      ``lemma3_unbiased_gradient``
Prop. 5 (prop:bayes-optimal-set)                       ``prop5_bayes_optimal_set``
Stationary conditions (eq:supp:*-stationary-*)         ``stationary_conditions``
Thm. 1 (thm:f-measure-calibration)                     ``thm1_fbeta_calibration``
Thm. 2 (thm:jaccard-calibration)                       ``thm2_jaccard_calibration``
Prop. 8 (prop:accuracy-calibration)                    ``prop8_accuracy_calibration``
Thm. 7 (thm:general-calibration)                       ``thm7_general_calibration``
Non-negativity of U_phi* (sec:supp:non-negativity...)  ``nonnegativity``
Lemma 4, Lemma lem:non-smooth-rademacher               ``lemma4_uniform_convergence``
Counterexamples found by the property tests (tests/)   ``counterexamples``, ``counterexamples_prop5``
Thms. 1, 2, 7 corrected (and proved)                   ``corrected_calibration``
lem:non-smooth-rademacher corrected, Lemma 4's rate    ``corrected_rademacher``
=====================================================  ===================================

Each derivation module is public: it is the checkable text of one claim.  Besides them: :func:`render_documents`
and :func:`write_documents` (the documents of the top-level ``proofs/`` folder, ``lfverify proofs --render``) and
:func:`errata_markdown` (ERRATA.md); :func:`claim_summary` (a registry claim's one-line finding); the statements as
printed are :data:`lfverify.paper.PRINTED_STATEMENTS`.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass

from lfverify.proofs._claims import Claim, Erratum, Outcome, Step, Steps
from lfverify.proofs._corrected_statements import (
    STATEMENTS,
    statement_of,
    with_statement_texts,
)
from lfverify.proofs._errata import errata_markdown
from lfverify.proofs._render import claim_summary, render_documents, write_documents

__all__ = ["MODULES", "all_claims", "ClaimResult", "run_claims", "Claim", "Erratum", "Outcome", "Step", "Steps",
           "errata_markdown", "render_documents", "write_documents", "STATEMENTS", "statement_of",
           "with_statement_texts", "claim_summary"]

MODULES = (
    "table1",
    "lemma1_lower_bound",
    "lemma2_quasi_concavity",
    "lemma3_unbiased_gradient",
    "prop5_bayes_optimal_set",
    "stationary_conditions",
    "thm1_fbeta_calibration",
    "thm2_jaccard_calibration",
    "prop8_accuracy_calibration",
    "thm7_general_calibration",
    "nonnegativity",
    "lemma4_uniform_convergence",
    "counterexamples",
    "counterexamples_prop5",
    "corrected_calibration",
    "corrected_rademacher",
)


def all_claims(modules=MODULES) -> list[Claim]:
    """Every registered claim, in paper order; keys are unique."""
    claims = []
    for name in modules:
        module = importlib.import_module(f"{__name__}.{name}")
        claims.extend(module.CLAIMS)
    keys = [c.key for c in claims]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    if duplicates:
        raise RuntimeError(f"duplicate claim keys: {duplicates}")
    return claims


@dataclass(frozen=True)
class ClaimResult:
    claim: Claim
    outcome: Outcome
    seconds: float

    @property
    def regressed(self) -> bool:
        """The status differs from the recorded one."""
        return self.outcome.status != self.claim.expected


def run_claims(claims=None, *, progress=None, done=None) -> list[ClaimResult]:
    """Check ``claims`` (default: all).  A check that raises is reported as "undecided" with the error.

    ``progress(claim)`` is called before each check, ``done(result)`` after it (both optional)."""
    results = []
    for claim in all_claims() if claims is None else claims:
        if progress:
            progress(claim)
        start = time.perf_counter()
        try:
            outcome = claim.check()
        except Exception as exc:  # reported, never hidden: "undecided" regresses from any recorded status
            outcome = Outcome("undecided", f"the check raised {type(exc).__name__}: {exc}")
        results.append(ClaimResult(claim, outcome, time.perf_counter() - start))
        if done:
            done(results[-1])
    return results
