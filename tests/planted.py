"""Planted one-line variants of lfverify's functions, for the companions of the tests that must be able to fail.

:func:`mutant` recompiles a function from its source with one exact text replaced, in its own module's namespace
(so it sees the same helpers and constants); the test then runs its check against the variant and asserts that the
check raises AssertionError there.  A replacement that does not occur exactly once is an error of the test itself,
so a refactoring that removes the planted line makes the companion fail loudly instead of testing nothing.
"""

from __future__ import annotations

import inspect
import sys
import textwrap


def mutant(function, old: str, new: str):
    """``function`` recompiled with the one occurrence of ``old`` in its source replaced by ``new``."""
    source = textwrap.dedent(inspect.getsource(function))
    count = source.count(old)
    if count != 1:
        raise ValueError(f"old must occur exactly once in {function.__qualname__}; got {count} occurrences of {old!r}")
    namespace = dict(vars(sys.modules[function.__module__]))
    exec(compile(source.replace(old, new), f"<mutant of {function.__qualname__}>", "exec"), namespace)  # noqa: S102
    return namespace[function.__name__]
