"""The declared parameter constraints, each constructor on its own (lfverify.learn._constraints).

Oracle: the documented contract of each constructor, typed out - what it accepts at and beside its bounds, the
error class, and the message "NAME must be EXPECTATION; got VALUE".  The estimators' tests reach these constraints
only through tables built when their module is imported, which a per-test coverage record (mutation testing's
narrowed runs) credits to no test; these tests call the constructors themselves.  Found by the fresh-seed mutation run
of 2026-12-07 (``integer`` without its bound, ``any_of`` without its constraints, ``real`` without ``low``, the bool
constraint without its expectation: each survived).

Private: lfverify.learn._constraints, the constraint constructors the estimators declare their tables with.
"""

from __future__ import annotations

import numpy as np
import pytest

from lfverify.learn import _constraints as c

pytestmark = pytest.mark.claims("package:estimator")


def test_integer_keeps_its_bound_and_refuses_bools_and_floats():
    rule = c.integer(2)
    assert rule.check(2, "k") == 2 and rule.check(np.int64(7), "k") == 7
    for bad in (1, True, 2.0, "2"):
        with pytest.raises(ValueError) as refused:
            rule.check(bad, "k")
        assert str(refused.value) == f"k must be an int >= 2; got {bad!r}"
    with pytest.raises(ValueError, match=r"^k must be at least one; got 0$"):
        c.integer(1, expectation="at least one").check(0, "k")


def test_boolean_is_a_type_error_naming_the_expectation():
    rule = c.boolean()
    assert rule.check(True, "flag") is True and rule.check(np.bool_(False), "flag") == np.bool_(False)
    with pytest.raises(TypeError) as refused:
        rule.check(1, "flag")
    assert str(refused.value) == "flag must be a bool; got 1"


def test_any_of_takes_the_first_constraint_that_accepts_and_else_its_own_message():
    rule = c.any_of(c.options(("auto",)), c.integer(2), expectation="'auto' or an int >= 2")
    assert rule.check("auto", "cv") == "auto" and rule.check(3, "cv") == 3
    for bad in (1, "manual", None):
        with pytest.raises(ValueError) as refused:
            rule.check(bad, "cv")
        assert str(refused.value) == f"cv must be 'auto' or an int >= 2; got {bad!r}"
    with pytest.raises(ValueError, match=r"^cv must be nothing; got 3$"):
        c.any_of(expectation="nothing").check(3, "cv")  # no constraint: nothing is accepted


@pytest.mark.parametrize("value, accepted", [(0.0, False), (1e-300, True), (1.0, True), (1.0000000000000002, False),
                                             (-1.0, False)])
def test_real_keeps_both_bounds_and_their_inclusion(value, accepted):
    """(0, 1]: the lower bound excluded, the upper included; returned as a float."""
    rule = c.real(low=0.0, high=1.0, low_inclusive=False)
    if accepted:
        assert rule.check(value, "rate") == value and type(rule.check(value, "rate")) is float
    else:
        with pytest.raises(ValueError) as refused:
            rule.check(value, "rate")
        assert str(refused.value) == f"rate must lie in (0.0, 1.0]; got {value!r}"


def test_real_with_an_inclusive_lower_bound_accepts_it_and_refuses_below():
    rule = c.real(low=0.0)
    assert rule.check(0, "tol") == 0.0 and rule.check(1e300, "tol") == 1e300
    with pytest.raises(ValueError, match=r"^tol must lie in \[0\.0, inf\); got -1e-300$"):
        rule.check(-1e-300, "tol")


def test_optional_unused_dict_of_and_the_table_check():
    rule = c.optional(c.integer(0))
    assert rule.check(None, "seed") is None and rule.check(5, "seed") == 5
    with pytest.raises(ValueError, match=r"^seed must be an int >= 0; got -1$"):
        rule.check(-1, "seed")
    with pytest.raises(ValueError) as refused:
        c.unused("objective='cost-sensitive'", "no loss").check(0.5, "tau")
    assert str(refused.value) == ("tau does not act under objective='cost-sensitive' (no loss); leave it None or "
                                  "choose the other objective; got tau=0.5")
    weights = c.dict_of(c.real(low=0.0))
    assert weights.check({0: 1, 1: 2.5}, "class_weight") == {0: 1, 1: 2.5}
    with pytest.raises(ValueError, match=r"^class_weight\[1\] must lie in \[0\.0, inf\); got -2\.0$"):
        weights.check({0: 1.0, 1: -2.0}, "class_weight")
    with pytest.raises(ValueError, match=r"^class_weight must be a dict; got 'x'$"):
        weights.check("x", "class_weight")
    # the table: checked in its order, the first failure raised, converted values returned
    table = {"a": c.real(low=0.0), "b": c.boolean(), "c": c.not_string()}
    assert c.check_parameters({"a": 1, "b": False, "c": [1], "d": "ignored"}, table) == {"a": 1.0, "b": False,
                                                                                          "c": [1]}
    with pytest.raises(ValueError, match=r"^a must lie in \[0\.0, inf\); got -1\.0$"):
        c.check_parameters({"a": -1, "b": "not a bool", "c": "s"}, table)


def test_options_keep_strings_only_and_their_expectation_and_none_names_itself():
    """``options``: strings only by default (a non-string equal to an option is refused), every value with
    ``strings_only=False``; a given expectation is the message, else "one of (...)"; ``NONE`` says "None".  Found by
    the seed-2027 mutation sample (``options`` passing ``strings_only=None``, the expectation ignored, NONE's
    "none" / None: each survived)."""
    with pytest.raises(ValueError, match=r"^k must be one of \(1, 2\); got 1$"):
        c.options((1, 2)).check(1, "k")
    assert c.options((1, 2), strings_only=False).check(1, "k") == 1
    assert c.options(("a", "b")).check("a", "k") == "a"
    with pytest.raises(ValueError, match=r"^k must be 'a' or 'b'; got 'c'$"):
        c.options(("a", "b"), expectation="'a' or 'b'").check("c", "k")
    with pytest.raises(ValueError, match=r"^k must be None; got 0$"):
        c.NONE.check(0, "k")
    assert c.NONE.check(None, "k") is None

