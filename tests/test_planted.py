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
