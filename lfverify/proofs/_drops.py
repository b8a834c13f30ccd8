"""Re-running a step's check without one hypothesis: the ledger's content check (``Steps.add(without=...)``).

A proof step's check is written as a function of the SymPy objects it tests; a hypothesis enters either as an
assumption on a symbol (``phi(xi)`` declared ``nonnegative`` because phi >= 0) or as a substitution (``U* =
U-dagger/(1 + z)``, ``z >= 0``, because of Lemma 1).  :func:`rerun` re-runs the same function with the symbols of one
hypothesis replaced by :func:`weaker` ones (or by a value the hypothesis excludes); the step records whether the check
still holds, and :func:`lfverify.proofs._statements.ledger_problems` requires that it does not.
"""

from __future__ import annotations

from functools import partial

import sympy as sp

__all__ = ["weaker", "weakened", "relaxed", "rerun"]


def weaker(symbol: sp.Symbol, **assumptions) -> sp.Symbol:
    """``symbol``'s name with ``assumptions`` in place of its own (none given: merely real) - the symbol as it is once
    the hypothesis that gave it its assumptions is dropped."""
    return sp.Symbol(symbol.name, **(assumptions or {"real": True}))


def weakened(*symbols, **assumptions) -> dict:
    """{symbol: weaker(symbol, **assumptions)} for each of ``symbols``: a ``replace`` argument of :func:`rerun`."""
    return {s: weaker(s, **assumptions) for s in symbols}


def relaxed(obj, replace: dict):
    """``obj`` with ``replace`` applied (``xreplace``) to every SymPy object in it, through tuples, lists and dicts
    (keys included, so that a substitution dict follows its symbols)."""
    if isinstance(obj, sp.Basic):
        return obj.xreplace(replace)
    if isinstance(obj, dict):
        return {relaxed(k, replace): relaxed(v, replace) for k, v in obj.items()}
    if isinstance(obj, (tuple, list)):
        return type(obj)(relaxed(x, replace) for x in obj)
    return obj


def _run(check, args, kwargs, replace):
    return bool(check(*relaxed(args, replace), **relaxed(kwargs, replace)))


def rerun(check, *args, replace: dict, **kwargs):
    """A zero-argument callable for ``Steps.add(without=...)``: ``check(*args, **kwargs)`` on the arguments rewritten by
    ``replace`` (see :func:`relaxed`); it returns whether the check still holds."""
    return partial(_run, check, args, kwargs, replace)
