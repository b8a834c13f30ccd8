"""Types shared by the symbolic proofs: a claim of the paper, the outcome of checking it, and an erratum.

A proof module (one per claim of the paper, see :mod:`lfverify.proofs`) defines ``CLAIMS``, a tuple of
:class:`Claim`.  Each claim's ``check`` derives the paper's closed form from its definitions with SymPy and
compares it with the printed form, transcribed once at the top of the module with its LaTeX label.  The
result is an :class:`Outcome`:

* ``verified``: the derivation agrees with the printed statement;
* ``erratum``: it disagrees; the outcome carries an :class:`Erratum` with a numeric witness and
  independent evidence of which side is right;
* ``undecided``: neither symbolic simplification nor the high-precision fallback could decide.

An outcome may also carry the derivation itself as :class:`Step` s (what is claimed, its LaTeX, how it was
checked) and, for a claim that states and proves a corrected version of a false statement of the paper, the
corrected ``statement``; ``lfverify proofs --render`` shows both in the documents of the top-level ``proofs/``.
:class:`Steps` records steps as a check goes.

``Claim.expected`` is the recorded status; ``lfverify proofs`` exits non-zero when a claim regresses from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from lfverify.proofs._statements import ledger_problems

__all__ = ["STATUSES", "Erratum", "Step", "Steps", "Outcome", "Claim"]

STATUSES = ("verified", "erratum", "undecided")


@dataclass(frozen=True)
class Erratum:
    """A disagreement between a derived form and the printed one."""

    location: str  #: section / appendix and equation label, e.g. "App. A.4, eq:supp:stationary-condition"
    printed: str  #: the printed form (plain text or LaTeX)
    derived: str  #: the derived form
    consequence: str  #: whether it changes any conclusion, and why
    witness: str  #: a concrete parameter point where the two differ, with both values
    evidence: str  #: independent evidence of which one is right (e.g. finite differences with the core library)


@dataclass(frozen=True)
class Step:
    """One step of a derivation."""

    text: str  #: what the step claims, in words (Markdown; inline LaTeX between $ signs)
    latex: str = ""  #: the step's formula as LaTeX (rendered as a display), e.g. from sympy.latex
    check: str = ""  #: how it was checked: "SymPy: ...", "exact rationals at N points", "cited: ..."
    holds: bool = True  #: whether the check succeeded
    uses: tuple = ()  #: the ledger: keys of the statement's hypotheses this step uses
    cites: tuple = ()  #: keys of earlier statements this step applies
    discharges: tuple = ()  #: hypothesis keys of a cited statement that this step proves in the present setting


class Steps:
    """The steps of one derivation, recorded as the check runs: ``add`` returns the step's ``holds``."""

    def __init__(self):
        self._steps: list[Step] = []

    def add(self, text: str, latex: str = "", *, check: str = "", holds: bool = True, uses=(), cites=(),
            discharges=()) -> bool:
        self._steps.append(Step(text, latex, check, bool(holds), tuple(uses), tuple(cites), tuple(discharges)))
        return bool(holds)

    @property
    def all_hold(self) -> bool:
        return all(s.holds for s in self._steps)

    def failed(self) -> list[str]:
        """The texts of the steps whose check failed."""
        return [s.text for s in self._steps if not s.holds]

    def as_tuple(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    def outcome(self, summary: str, *, method: str, statement: str = "", ledger=None) -> "Outcome":
        """'verified' with the steps (and the statement they prove) when every step holds and, given ``ledger`` =
        (Statement, cited statements), the steps' hypothesis ledger matches the statement
        (``ledger_problems`` of ``lfverify.proofs._statements``); else 'undecided' naming what did not."""
        if not self.all_hold:
            return Outcome("undecided", f"steps not confirmed: {self.failed()}", method=method, steps=self.as_tuple())
        if ledger is not None:
            problems = ledger_problems(ledger[0], self._steps, ledger[1])
            if problems:
                return Outcome("undecided", f"the hypothesis ledger does not match the statement: {problems}",
                               method=method, steps=self.as_tuple())
        return Outcome("verified", summary, method=method, steps=self.as_tuple(), statement=statement)


@dataclass(frozen=True)
class Outcome:
    """What checking one claim found."""

    status: str
    summary: str  #: one line: what was derived / compared, and the key figure
    errata: tuple[Erratum, ...] = field(default=())
    method: str = "symbolic"  #: "symbolic", or "exact rational at N points", "mpmath 50 digits at N points"
    steps: tuple[Step, ...] = field(default=())  #: the derivation, step by step (optional)
    statement: str = ""  #: a corrected statement proved by the steps (Markdown with LaTeX), if any

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}; got {self.status!r}")
        if (self.status == "erratum") != bool(self.errata):
            raise ValueError("an 'erratum' outcome carries errata, and only it does")
        if self.status == "verified" and not all(s.holds for s in self.steps):
            raise ValueError("a 'verified' outcome cannot contain a step whose check failed")


@dataclass(frozen=True)
class Claim:
    """One checkable claim of the paper."""

    key: str  #: unique id, "<module>.<name>"
    title: str  #: e.g. "Prop. 5: the Frechet derivative of U-bar and the threshold on eta"
    label: str  #: the LaTeX label of the paper object, e.g. "prop:bayes-optimal-set"
    expected: str  #: the recorded status
    check: Callable[[], Outcome]
