"""A predicate's answer on one instance, and the arithmetic that decides it (the executable statements of
:mod:`lfverify.proofs._executable`, issue 40).

:class:`Evaluation` is what every hypothesis and conclusion predicate returns (``holds``, ``fails``, ``vacuous`` or
``undecidable``); :func:`compare` orders two numbers exactly for rationals and refuses (:class:`Undecidable`) to order
two mpmath numbers closer than :data:`TIE`; :class:`_Undefined` stands for a closed form of a statement that divides by
zero on the instance, so that only the predicates reading it are undecidable there.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath as mp

from lfverify.proofs._exact_numbers import exact_mpf

STATUSES = ("holds", "fails", "vacuous", "undecidable")
#: two values of which one is an mpmath number (a search result at ~40 digits) closer than this cannot be ordered
TIE = mp.mpf(10) ** -25


@dataclass(frozen=True)
class Evaluation:
    """A predicate's answer on one instance: ``status`` in :data:`STATUSES` and what decided it."""

    status: str
    detail: str = ""

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}; got {self.status!r}")


def _holds(detail=""):
    return Evaluation("holds", detail)


def _fails(detail):
    return Evaluation("fails", detail)


def _vacuous(detail):
    return Evaluation("vacuous", detail)


def _undecidable(detail):
    return Evaluation("undecidable", detail)


def _verdict(ok, detail_if_not: str, detail_if_ok: str = "") -> Evaluation:
    return _holds(detail_if_ok) if ok else _fails(detail_if_not)


class Undecidable(Exception):
    """Raised inside a predicate when a comparison or a closed form cannot be evaluated on the instance."""


class _Undefined:
    """A closed form of a statement that is undefined on the instance (a zero denominator, e.g. the band when
    c = rho = 0, or c alpha/(a gamma) when gamma = 0): comparing it, computing with it or testing its truth raises
    :class:`Undecidable`, so only the predicates that read it are undecidable there (an instance that violates a
    hypothesis is read as the statement reads, and a conclusion that does not involve the undefined quantity still
    makes a definite claim)."""

    def __init__(self, why: str):
        self.why = why

    def _raise(self, *args):
        raise Undecidable(self.why)

    __bool__ = __float__ = __neg__ = __abs__ = _raise
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _raise
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _raise


def _defined(compute: Callable, why: str):
    """compute(), or :class:`_Undefined` (with ``why``) where it divides by zero."""
    try:
        return compute()
    except ZeroDivisionError:
        return _Undefined(why)


# ---------------------------------------------------------------------------------------------- arithmetic
def _common(*values):
    """The values in one arithmetic: mpmath if any is an mpf, float if any is a float, else exact Fractions."""
    for v in values:
        if isinstance(v, _Undefined):
            raise Undecidable(v.why)
    if any(isinstance(v, mp.mpf) for v in values):
        return [exact_mpf(v) for v in values]
    if any(isinstance(v, float) for v in values):
        return [float(v) for v in values]
    return [Fraction(v) for v in values]


def compare(x, y) -> int:
    """-1, 0 or 1 as x <, =, > y: exact for rationals; two values of which one is an mpf closer than :data:`TIE`
    raise :class:`Undecidable` (they cannot be ordered at the precision they were computed with)."""
    x, y = _common(x, y)
    if isinstance(x, Fraction) or x == y:  # rationals exactly; one number computed once (e.g. a band of width 0)
        return (x > y) - (x < y)
    if abs(x - y) < TIE * max(1, abs(x), abs(y)):
        raise Undecidable(f"{mp.nstr(x, 12)} and {mp.nstr(y, 12)} agree to the working precision")
    return 1 if x > y else -1


def _lt(x, y) -> bool:
    return compare(x, y) < 0


def _le(x, y) -> bool:
    return compare(x, y) <= 0


def _num(x) -> str:
    return str(x) if isinstance(x, (Fraction, int)) else mp.nstr(x, 10)
