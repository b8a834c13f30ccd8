"""Planted one-line variants of lfverify's functions, for the companions of tests that must be able to fail (issue 45).

``planted(func, old, new)`` is ``func`` recompiled from its own source with the one occurrence of ``old`` replaced
by ``new`` (a ``<=`` swapped for ``<``, a sort left out), in the globals of ``func``'s module: the one-line bug a
boundary test is meant to catch.  ``old`` must occur exactly once, so a refactoring that moves the rule makes the
companion fail loudly instead of planting nothing.  ``planting(monkeypatch, owner, name, old, new)`` installs such
a variant as ``owner.name`` for one test (a module function or a class's method).

Oracle: none of its own; tests/test_planted.py checks that a variant differs from the original exactly where the
replaced text acts.
"""

from __future__ import annotations

import inspect
import re
import textwrap

#: The decorator mutmut 3.8 puts on every function of a module it mutates (tools/mutation): a trampoline, defined in
#: mutmut's own module, that calls the original or the active mutant.
_MUTATION_TRAMPOLINE = re.compile(r"^@_mutmut_mutated\(.*\)\n", flags=re.MULTILINE)


def planted(func, old: str, new: str):
    """``func`` with the single occurrence of ``old`` in its source replaced by ``new``.

    A function wrapped with ``functools.wraps`` is planted from the function it wraps, in that function's module;
    under mutation testing the trampoline's decorator line is left out, so the variant is the plain function (the
    trampoline's own globals are mutmut's, where lfverify's names are not)."""
    func = inspect.unwrap(func)
    source = _MUTATION_TRAMPOLINE.sub("", textwrap.dedent(inspect.getsource(func)))
    count = source.count(old)
    if count != 1:
        raise AssertionError(f"{func.__qualname__}: {old!r} occurs {count} times in its source; expected once")
    namespace: dict = {}
    code = compile(source.replace(old, new), inspect.getsourcefile(func), "exec")
    exec(code, func.__globals__, namespace)  # noqa: S102 - the project's own source, one token changed
    variant = namespace[func.__name__]
    if isinstance(variant, staticmethod):
        variant = variant.__func__
    return variant


def planting(monkeypatch, owner, name: str, old: str, new: str):
    """Install ``planted(getattr(owner, name), old, new)`` as ``owner.name`` for the current test."""
    original = inspect.getattr_static(owner, name)
    func = original.__func__ if isinstance(original, staticmethod) else original
    variant = planted(func, old, new)
    monkeypatch.setattr(owner, name, staticmethod(variant) if isinstance(original, staticmethod) else variant)
    return variant
