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
    #: the ledger's content check, one (key, verdict) per used hypothesis: "fails without it" (the step's check was
    #: run without the hypothesis - on an instance violating only it, or with its assumption removed - and failed),
    #: "holds without it" (it did not fail: the check does not exercise the hypothesis) or "not checkable: <why>"
    without: tuple = ()
    #: one (key, verdict) per discharged hypothesis: "checked" (the step's check evaluates that hypothesis in the
    #: present setting and it holds), "false" (evaluated and false) or "not checkable: <why>"
    proves: tuple = ()


class Steps:
    """The steps of one derivation, recorded as the check runs: ``add`` returns the step's ``holds``."""

    def __init__(self):
        self._steps: list[Step] = []

    def add(self, text: str, latex: str = "", *, check: str = "", holds: bool = True, uses=(), cites=(),
            discharges=(), without=None, proves=None) -> bool:
        """Record a step; return its ``holds``.

        ``without`` maps each hypothesis of ``uses`` to a callable that re-runs the step's check without that
        hypothesis (on an instance that violates only it, or with its assumption removed) and returns whether the
        check still holds - it must not - or to a string, the reason no such run is possible.  ``proves`` maps each
        hypothesis of ``discharges`` to a callable that evaluates it in the present setting (True: it holds) or to a
        reason string.  Both are run here, once, and recorded on the step for the ledger
        (``ledger_problems`` of ``lfverify.proofs._statements``)."""
        self._steps.append(Step(text, latex=latex, check=check, holds=bool(holds), uses=tuple(uses), cites=tuple(cites),
                                discharges=tuple(discharges),
                                without=_run_checks(without or {}, "fails without it", "holds without it"),
                                proves=_run_checks(proves or {}, "checked", "false", invert=True)))
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


def _run_checks(checks: dict, good: str, bad: str, *, invert: bool = False) -> tuple:
    """(key, verdict) for each entry of ``checks``: a string is a reason ("not checkable: ..."); a callable is run,
    and its truth value gives ``good`` or ``bad`` (``invert``: True is good)."""
    out = []
    for key, check in checks.items():
        if isinstance(check, str):
            if not check.strip():
                raise ValueError(f"the reason for {key!r} must not be empty")
            out.append((key, f"not checkable: {check}"))
        else:
            ok = bool(check())
            out.append((key, good if ok == invert else bad))
    return tuple(out)


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
