"""The derivations' results, each claim checked at most once per test process (``claim_results`` in conftest.py;
every time it is read in mutmut's main process, below).

Shared by tests/proofs/test_proofs.py (each claim's recorded status, ERRATA.md and proofs/ in sync) and
tests/app/test_report.py (the report of a real verification run) and tests/proofs/test_statements.py (the steps the
corrected proofs record): in one process the derivations run once, and under ``-n`` those files run on one worker
(tests/conftest.py, ``pytest_xdist_make_scheduler``).
"""

from __future__ import annotations

import functools

from lfverify.proofs import all_claims, run_claims
from mutmut_runs import in_mutmut_main_process


class ClaimsCheckedOnDemand(dict):
    """Claim key -> ClaimResult, each claim checked on first access and kept for the rest of the session.

    Checking on demand (not all claims up front) makes the test of claim X the first caller of X's derivation, so a
    per-test coverage record (mutation testing's narrowed runs) credits X's derivation to X's test, not to whichever
    test happened to set the fixture up.
    """

    @functools.cached_property
    def claims(self) -> list:
        """Every claim, built on first use: all_claims imports every proof module (SymPy among them, 1.7 s), which
        a test process that checks no derivation - a pytest started by a test, a worker without proofs tests -
        need not pay at start-up."""
        return all_claims()

    def __missing__(self, key):
        (claim,) = [c for c in self.claims if c.key == key]
        (result,) = run_claims([claim])
        if _kept_here():
            self[key] = result
        return result

    def run_claims(self, claims, progress=None, done=None):
        """A stand-in for :func:`lfverify.proofs.run_claims` that reads (or checks on demand) each claim's result."""
        results = []
        for claim in claims:
            results.append(self[claim.key])
            if done is not None:
                done(results[-1])
        return results


def _kept_here() -> bool:
    """Whether this process keeps a derivation's result: always, except in mutmut's main process
    (tools/mutation/README.md), which names its phase in ``MUTANT_UNDER_TEST`` ("stats", "" for its clean run,
    "fail", ...) and forks every mutant's run from itself.  Kept in its stats run, a result would credit the
    derivation to its first reader only (tests/app/test_report.py, which sorts first), so a mutant that only the
    ERRATA.md or proofs/ comparison sees would never meet that test; kept in its clean run, every forked mutant's
    run would read the clean derivation instead of computing it under the mutant.  A mutant's own run (its name in
    the variable) and a plain pytest run (no variable) keep it."""
    return not in_mutmut_main_process()


#: This process's cache, shared by the ``claim_results`` fixture (tests/conftest.py) and the tests that read a
#: proof's recorded steps (tests/proofs/test_statements.py): each derivation runs once per process.
CLAIM_RESULTS = ClaimsCheckedOnDemand()
