"""Types shared by the symbolic proofs: a claim of the paper, the outcome of checking it, and an erratum.

A proof module (one per claim of the paper, see :mod:`lfverify.proofs`) defines ``CLAIMS``, a tuple of
:class:`Claim`.  Each claim's ``check`` derives the paper's closed form from its definitions with SymPy and
compares it with the printed form, transcribed once at the top of the module with its LaTeX label.  The
result is an :class:`Outcome`:

* ``verified``: the derivation agrees with the printed statement;
* ``erratum``: it disagrees; the outcome carries an :class:`Erratum` with a numeric witness and
  independent evidence of which side is right;
* ``undecided``: neither symbolic simplification nor the high-precision fallback could decide.

``Claim.expected`` is the recorded status; ``lfverify proofs`` exits non-zero when a claim regresses from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

__all__ = ["STATUSES", "Erratum", "Outcome", "Claim"]

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
class Outcome:
    """What checking one claim found."""

    status: str
    summary: str  #: one line: what was derived / compared, and the key figure
    errata: tuple[Erratum, ...] = field(default=())
    method: str = "symbolic"  #: "symbolic", or "exact rational at N points", "mpmath 50 digits at N points"

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}; got {self.status!r}")
        if (self.status == "erratum") != bool(self.errata):
            raise ValueError("an 'erratum' outcome carries errata, and only it does")


@dataclass(frozen=True)
class Claim:
    """One checkable claim of the paper."""

    key: str  #: unique id, "<module>.<name>"
    title: str  #: e.g. "Prop. 5: the Frechet derivative of U-bar and the threshold on eta"
    label: str  #: the LaTeX label of the paper object, e.g. "prop:bayes-optimal-set"
    expected: str  #: the recorded status
    check: Callable[[], Outcome]
