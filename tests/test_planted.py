"""The companions' tool (tests/planted.py): a planted variant differs from the original exactly where the replaced
text acts, and a replacement that does not occur exactly once is refused.

Oracle: hand-computed values of a small lfverify function (``threshold_for_positive_rate`` on four scores) and of
a class's static method; the originals are checked to be untouched after ``planting``'s test ends.
"""

import numpy as np
import pytest

from lfverify.learn import threshold_for_positive_rate
from planted import planted, planting

pytestmark = pytest.mark.claims("package:documentation")


class _Owner:
    @staticmethod
    def smaller(a, b):
        return a if a <= b else b


def test_a_variant_changes_only_what_its_text_changes():
    variant = planted(_Owner.smaller, "a <= b", "a > b")
    assert (_Owner.smaller(1, 2), variant(1, 2)) == (1, 2)  # the swapped comparison acts
    assert _Owner.smaller(1, 2) == 1  # the original is untouched
    scores = np.array([4.0, 3.0, 2.0, 1.0])
    same = planted(threshold_for_positive_rate, "def threshold_for_positive_rate(", "def threshold_for_positive_rate(")
    assert same(scores, 0.5) == threshold_for_positive_rate(scores, 0.5)  # a no-op replacement keeps the result


@pytest.mark.parametrize("old", ["a < b", "a"], ids=["absent", "twice"])
def test_a_replacement_not_found_exactly_once_is_refused(old):
    with pytest.raises(AssertionError, match="expected once"):
        planted(_Owner.smaller, old, "b")


def test_planting_installs_a_static_method_for_one_test(monkeypatch):
    with monkeypatch.context() as patch:
        planting(patch, _Owner, "smaller", "a <= b", "a > b")
        assert _Owner.smaller(1, 2) == 2 and isinstance(_Owner.__dict__["smaller"], staticmethod)
    assert _Owner.smaller(1, 2) == 1  # restored when the test's patch ends


_TRAMPOLINE = """
import functools


def wrap(mutants):
    def decorate(function):
        @functools.wraps(function)
        def trampoline(*args, **kwargs):
            return mutants.get("active", function)(*args, **kwargs)
        return trampoline
    return decorate
"""
_MUTATED_MODULE = """
from fake_trampoline import wrap as _mutmut_mutated

OFFSET = 10


@_mutmut_mutated({})
def shifted(x):
    return x + OFFSET if x <= 0 else x
"""


@pytest.fixture
def fake_mutated(tmp_path, monkeypatch):
    """A module whose one function wears a trampoline defined in another module (both removed again afterwards)."""
    import importlib
    import sys

    (tmp_path / "fake_trampoline.py").write_text(_TRAMPOLINE)
    (tmp_path / "fake_mutated.py").write_text(_MUTATED_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("fake_trampoline", "fake_mutated"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    module = importlib.import_module("fake_mutated")
    yield module
    for name in ("fake_trampoline", "fake_mutated"):
        sys.modules.pop(name, None)


def test_a_function_behind_a_mutation_trampoline_is_planted_from_its_own_source(fake_mutated):
    """mutmut 3.8's shape (tools/mutation): the function decorated by a trampoline defined in another module.  The
    variant is the plain function with the one change, in the function's own module (OFFSET is found), and no
    trampoline.  Oracle: hand-computed values at the boundary x = 0."""
    variant = planted(fake_mutated.shifted, "x <= 0", "x < 0")
    assert (fake_mutated.shifted(0), variant(0), variant(-1)) == (10, 0, 9)
    assert not hasattr(variant, "__wrapped__") and variant.__globals__ is vars(fake_mutated)


def test_without_unwrapping_the_trampoline_is_what_gets_planted(fake_mutated):
    """Companion: the wrapper itself, recompiled in the trampoline module's globals (what planted did before), cannot
    find the decorator's name there."""
    import inspect
    import textwrap

    wrapper = fake_mutated.shifted
    source = textwrap.dedent(inspect.getsource(wrapper)).replace("x <= 0", "x < 0")
    with pytest.raises(NameError, match="_mutmut_mutated"):
        exec(compile(source, "fake", "exec"), wrapper.__globals__, {})  # noqa: S102
