"""Tests of lfverify.core._validation: what every public entry point accepts, returns and how it refuses bad input.

The error messages are part of the contract (house standard: the message names the argument, what was expected
and what was received), so they are matched exactly, with ``re.escape`` of the full expected text.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from lfverify.core import check_features, check_labels, check_parameters, check_real

pytestmark = pytest.mark.claims("package:numerics")


def exactly(text: str) -> str:
    """A ``pytest.raises(match=...)`` pattern matching the whole message ``text`` and nothing else."""
    return "^" + re.escape(text) + "$"


# ---------------------------------------------------------------------------------------------- check_real
@pytest.mark.parametrize("value, expected", [(3, 3.0), (np.float32(0.5), 0.5), (np.int64(-2), -2.0), (1e-300, 1e-300)])
def test_check_real_returns_a_python_float(value, expected):
    out = check_real(value, "x")
    assert type(out) is float and out == expected


@pytest.mark.parametrize("low, high, low_inclusive, high_inclusive, value, interval", [
    (0.0, 1.0, True, True, 1.5, "[0.0, 1.0]"),
    (0.0, 1.0, False, False, 0.0, "(0.0, 1.0)"),
    (0.0, 1.0, False, False, 1.0, "(0.0, 1.0)"),
    (0.0, None, True, True, -0.5, "[0.0, inf)"),
    (None, 2.0, True, True, 2.5, "(-inf, 2.0]"),
    (None, 2.0, True, False, 2.0, "(-inf, 2.0)"),
    (-1.0, 3.0, True, False, 3.0, "[-1.0, 3.0)"),
])
def test_check_real_out_of_range_names_argument_interval_and_value(low, high, low_inclusive, high_inclusive,
                                                                   value, interval):
    with pytest.raises(ValueError, match=exactly(f"beta must lie in {interval}; got {value!r}")):
        check_real(value, "beta", low=low, high=high, low_inclusive=low_inclusive, high_inclusive=high_inclusive)


@pytest.mark.parametrize("low, high, low_inclusive, high_inclusive, value", [
    (0.0, 1.0, True, True, 0.0), (0.0, 1.0, True, True, 1.0), (0.0, 1.0, False, False, 0.5),
    (None, None, True, True, -1e308), (0.0, None, False, True, 5e-324),
])
def test_check_real_accepts_the_interval_and_its_inclusive_ends(low, high, low_inclusive, high_inclusive, value):
    assert check_real(value, "x", low=low, high=high, low_inclusive=low_inclusive,
                      high_inclusive=high_inclusive) == value


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_check_real_non_finite_message_names_the_interval(value):
    with pytest.raises(ValueError, match=exactly(f"tau must be a finite real number in (0.0, 1.0]; got {value!r}")):
        check_real(value, "tau", low=0.0, high=1.0, low_inclusive=False)
    with pytest.raises(ValueError, match=exactly(f"s must be a finite real number in (-inf, inf); got {value!r}")):
        check_real(value, "s")


@pytest.mark.parametrize("value, described", [
    (True, "True"), (np.bool_(False), "False"), ("0.5", "'0.5'"),
    (None, "None"), (1 + 2j, "(1+2j)"), ([1.0], "[1.0]"),
])
def test_check_real_refuses_non_reals_with_type_error(value, described):
    with pytest.raises(TypeError, match=exactly(f"alpha must be a real number; got {described}")):
        check_real(value, "alpha")


def test_check_real_describes_an_array_by_shape_and_dtype():
    with pytest.raises(TypeError, match=exactly("alpha must be a real number; got array of shape (2, 3) "
                                                "and dtype int32")):
        check_real(np.zeros((2, 3), dtype=np.int32), "alpha")


def test_received_value_is_shown_in_full_up_to_60_characters_and_cut_to_57_plus_dots_beyond():
    sixty = "a" * 58  # repr adds two quotes: 60 characters
    with pytest.raises(TypeError, match=exactly(f"x must be a real number; got '{'a' * 58}'")):
        check_real(sixty, "x")
    sixty_one = "b" * 59  # repr: 61 characters -> the first 57 and "..."
    with pytest.raises(TypeError, match=exactly("x must be a real number; got '" + "b" * 56 + "...")):
        check_real(sixty_one, "x")


# ------------------------------------------------------------------------------------------ check_features
def test_check_features_returns_c_contiguous_float64_of_integer_input():
    X = np.arange(6, dtype=np.int64).reshape(3, 2)
    out = check_features(X)
    assert out.dtype == np.float64 and out.flags.c_contiguous and out.shape == (3, 2)
    np.testing.assert_array_equal(out, [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    fortran = np.asfortranarray(np.ones((4, 3)))
    assert check_features(fortran).flags.c_contiguous


def test_check_features_accepts_a_single_row_by_default():
    np.testing.assert_array_equal(check_features([[1.5, -2.0]]), [[1.5, -2.0]])


def test_check_features_messages():
    with pytest.raises(ValueError, match=exactly("X must be a 2-D array of shape (n, d); got an array of shape (3,)")):
        check_features([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=exactly("atoms must have at least 2 rows (samples); got 1")):
        check_features([[1.0]], "atoms", min_samples=2)
    with pytest.raises(ValueError, match=exactly("X must have at least 1 rows (samples); got 0")):
        check_features(np.zeros((0, 3)))
    with pytest.raises(ValueError, match=exactly("X must have at least one column (feature); got shape (2, 0)")):
        check_features(np.zeros((2, 0)))
    X = np.ones((3, 2))
    X[2, 1] = np.inf
    with pytest.raises(ValueError, match=exactly("X must contain only finite values; got inf at index (2, 1) "
                                                 "(row 2, column 1)")):
        check_features(X)
    X[2, 1], X[1, 0] = 0.0, np.nan
    with pytest.raises(ValueError, match=exactly("Z must contain only finite values; got nan at index (1, 0) "
                                                 "(row 1, column 0)")):
        check_features(X, "Z")


def test_check_features_refuses_non_numeric_with_type_error():
    with pytest.raises(TypeError, match=exactly("X must be a numeric array of shape (n, d); got [['a', 'b']]")):
        check_features([["a", "b"]])
    with pytest.raises(TypeError, match=exactly("X must be a numeric array of shape (n, d); got [[1.0], [1.0, 2.0]]")):
        check_features([[1.0], [1.0, 2.0]])  # ragged


# -------------------------------------------------------------------------------------------- check_labels
@pytest.mark.parametrize("y, expected", [
    ([-1, 1, 1, -1], [-1, 1, 1, -1]),
    ([0, 1, 1, 0], [-1, 1, 1, -1]),
    ([False, True, True], [-1, 1, 1]),
    (np.array([0.0, 1.0]), [-1, 1]),
    (np.array([1, -1], dtype=np.int8), [1, -1]),
])
def test_check_labels_maps_both_encodings_to_int8_minus_one_plus_one(y, expected):
    out = check_labels(y)
    assert out.dtype == np.int8
    np.testing.assert_array_equal(out, expected)


def test_check_labels_single_class_is_allowed_on_request_and_keeps_its_sign():
    np.testing.assert_array_equal(check_labels([1, 1], require_both_classes=False), [1, 1])
    np.testing.assert_array_equal(check_labels([0, 0], require_both_classes=False), [-1, -1])
    np.testing.assert_array_equal(check_labels([-1], require_both_classes=False), [-1])


@pytest.mark.parametrize("y, message", [
    ([1, 1, 1], "y must contain both classes; got only class +1 (3 labels)"),
    ([1], "y must contain both classes; got only class +1 (1 labels)"),
    ([0, 0], "y must contain both classes; got only class -1 (2 labels)"),
    ([-1, -1, -1, -1], "y must contain both classes; got only class -1 (4 labels)"),
    ([True], "y must contain both classes; got only class +1 (1 labels)"),
    (np.zeros(0), "y must contain both classes; got only class -1 (0 labels)"),
])
def test_check_labels_single_class_message(y, message):
    with pytest.raises(ValueError, match=exactly(message)):
        check_labels(y)


@pytest.mark.parametrize("y, values", [
    ([-1, 0, 1], "[-1, 0, 1]"), ([-1, 0], "[-1, 0]"), ([1, 2], "[1, 2]"), ([0.5, 1.0], "[0.5, 1.0]"),
])
def test_check_labels_refuses_other_values_and_mixed_encodings(y, values):
    with pytest.raises(ValueError, match=exactly(
            f"labels must hold labels in {{-1, +1}} or in {{0, 1}} (0 is mapped to -1); got values {values}")):
        check_labels(y, "labels")


def test_check_labels_shape_count_and_dtype_messages():
    with pytest.raises(ValueError, match=exactly("y must be a 1-D array of labels; got an array of shape (2, 1)")):
        check_labels([[1], [-1]])
    with pytest.raises(ValueError, match=exactly("y_true must have 3 entries (one per row of X); got 2")):
        check_labels([1, -1], "y_true", n_samples=3)
    with pytest.raises(TypeError, match=exactly("y must hold numeric labels in {-1, +1} or {0, 1}; got dtype <U1")):
        check_labels(["a", "b"])


# ---------------------------------------------------------------------------------------- check_parameters
def test_check_parameters_single_vector_becomes_one_row_and_is_flagged():
    out, single = check_parameters([1, 2, 3], 3)
    assert single is True and out.shape == (1, 3) and out.dtype == np.float64 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, [[1.0, 2.0, 3.0]])


def test_check_parameters_batch_is_kept_and_converted_to_float64():
    batch = np.arange(6, dtype=np.int32).reshape(2, 3)
    out, single = check_parameters(batch, 3)
    assert single is False and out.dtype == np.float64 and out.shape == (2, 3)
    np.testing.assert_array_equal(out, batch)


@pytest.mark.parametrize("theta, shape", [
    (np.zeros(2), "(2,)"), (np.zeros((2, 4)), "(2, 4)"), (np.zeros((0, 3)), "(0, 3)"),
    (np.zeros((1, 1, 3)), "(1, 1, 3)"),
    (5.0, "()"),
])
def test_check_parameters_shape_message(theta, shape):
    with pytest.raises(ValueError, match=exactly(
            f"theta must have shape (3,) or (K, 3) with K >= 1; got shape {shape}")):
        check_parameters(theta, 3)


def test_check_parameters_messages_name_the_argument():
    with pytest.raises(ValueError, match=exactly("w must have shape (2,) or (K, 2) with K >= 1; got shape (3,)")):
        check_parameters([1.0, 2.0, 3.0], 2, "w")
    with pytest.raises(ValueError, match=exactly("theta must contain only finite values; got a non-finite entry")):
        check_parameters([0.0, np.nan], 2)
    with pytest.raises(TypeError, match=exactly("theta must be a numeric array of shape (d,) or (K, d); "
                                                "got ['a', 'b']")):
        check_parameters(["a", "b"], 2)
    with pytest.raises(TypeError, match=exactly("theta must be a numeric array of shape (d,) or (K, d); "
                                                "got [[1.0], [1.0, 2.0]]")):
        check_parameters([[1.0], [1.0, 2.0]], 2)  # ragged
