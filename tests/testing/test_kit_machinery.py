"""The testing kit's machinery as a user meets it: its fixtures, its refusals, the failures it raises when an
implementation returns the wrong thing, the witness text and the input contract's diagnoses.

Oracles: the documented objects (the oracles module and its populations), and messages, ids and clipped texts typed
out by hand.

Private: lfverify.testing._framework (_show, call_user, as_real, as_vector: how the checks call a user's code and read
its return value), _parametrize._changed_parameters (the ids of parametrize_with_theory_checks) and _input_contract
(snapshot, changed, feature_variants, label_variants), and the listing function of lfverify.testing._check_metric,
lfverify.testing._check_loss, lfverify.testing._check_classifier and lfverify.testing._check_estimators (the options a
Subject runs with), the kit's internals under test.
"""

import importlib
import inspect

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score

import lfverify.testing
from lfverify.core import logistic
from lfverify.testing import (
    Subject,
    TheoryCheckFailure,
    _check_classifier,
    _check_estimators,
    _check_loss,
    _check_metric,
    implementations,
)
from lfverify.testing._framework import _show, as_real, as_vector, call_user
from lfverify.testing._input_contract import changed, feature_variants, label_variants, snapshot
from lfverify.testing._parametrize import _changed_parameters

pytestmark = pytest.mark.claims("package:testing-kit")


def test_the_plugins_fixtures_are_the_documented_oracles(lfverify_oracles, lfverify_finite_population,
                                                          lfverify_gaussian_population,
                                                          lfverify_classifier_populations):
    """Kills `lfverify.testing.plugin.x__oracles__mutmut_1` to `_3` (the module's name lost): no in-process test
    requested the fixtures (the kit's ten-line user file runs in a temporary folder)."""
    oracles = importlib.import_module("lfverify.testing.oracles")
    assert lfverify_oracles is oracles
    assert lfverify_finite_population is oracles.REFERENCE_FINITE_POPULATION
    assert lfverify_gaussian_population is oracles.REFERENCE_GAUSSIAN_POPULATION
    assert lfverify_classifier_populations == {"finite": oracles.CLASSIFIER_FINITE_POPULATION,
                                               "gaussian": oracles.CLASSIFIER_GAUSSIAN_POPULATION}


def test_a_subject_of_an_unknown_kind_is_refused_by_name():
    """Kills `lfverify.testing._framework.xǁSubjectǁ__init____mutmut_11` ('and' for 'or': a KeyError)."""
    with pytest.raises(TypeError) as raised:
        Subject("check_no_such_thing", object())
    assert str(raised.value).startswith("check must be one of the checks of lfverify.testing (check_")
    assert str(raised.value).endswith(" or its name; got 'check_no_such_thing'")


@pytest.mark.parametrize("value, detail", [
    ("one", "the implementation must return one real number"),
    ([1.0, 2.0], "the implementation must return one real number"),
    (float("nan"), "the implementation returned a non-finite value"),
])
def test_as_real_fails_naming_the_check_the_claim_and_what_came_back(value, detail):
    """Kills `lfverify.testing._framework.x_as_real__mutmut_12` (the claim dropped)."""
    with pytest.raises(TheoryCheckFailure) as raised:
        as_real(value, check="my_check", claim="U_hat is unbiased", witness={"n": 4}, expected=0.5)
    failure = raised.value
    assert (failure.check, failure.claim, failure.witness) == ("my_check", "U_hat is unbiased", {"n": 4})
    assert str(failure).startswith("my_check: U_hat is unbiased\n") and detail in str(failure)


@pytest.mark.parametrize("value, detail", [
    ([1.0, 2.0, 3.0], "the implementation must return an array of shape (2,); got shape (3,)"),
    (object(), "the implementation must return an array of shape (2,); got shape None"),
    ([1.0, float("inf")], "the implementation returned a non-finite value"),
])
def test_as_vector_fails_naming_the_check_the_claim_and_what_came_back(value, detail):
    """Kills `lfverify.testing._framework.x_as_vector__mutmut_15`, `_35` (the claim dropped) and `_40` (the
    detail's text)."""
    with pytest.raises(TheoryCheckFailure) as raised:
        as_vector(value, 2, check="my_check", claim="V_hat is unbiased", witness={"n": 4}, expected=[0.0, 0.0])
    failure = raised.value
    assert (failure.check, failure.claim) == ("my_check", "V_hat is unbiased")
    assert str(failure).startswith("my_check: V_hat is unbiased\n") and detail in str(failure)


def test_a_witness_is_shown_whole_up_to_400_characters_then_clipped_to_400():
    """repr of 398 letters is 400 characters (the quotes): shown whole; of 399, 401: clipped to 397 + '...'.

    Kills `lfverify.testing._framework.x__show__mutmut_1` (the limit 401)."""
    assert _show("a" * 398) == repr("a" * 398)
    clipped = _show("a" * 399)
    assert len(clipped) == 400 and clipped == "'" + "a" * 396 + "..."


_DEFAULT_BASE = LogisticRegression()


class _Wrapper:
    """A scikit-learn style meta-estimator whose default base learner is an instance."""

    def __init__(self, estimator=_DEFAULT_BASE, C=1.0):
        self.estimator, self.C = estimator, C

    def get_params(self, deep=False):
        return {"estimator": self.estimator, "C": self.C}


def test_parametrize_ids_show_a_base_learner_that_is_not_the_default_object():
    """An estimator parameter counts as changed unless it is the default object itself (estimators are not
    compared by repr): a fresh LogisticRegression() is shown, the default instance is not.

    Kills `lfverify.testing._parametrize.x__changed_parameters__mutmut_24` (estimators compared by repr)."""
    assert _changed_parameters(_Wrapper(LogisticRegression())) == "[estimator=LogisticRegression]"
    shown = _changed_parameters(_Wrapper(LogisticRegression(C=2.0), C=3.0))
    assert shown == "[C=3.0,estimator=LogisticRegression[C=2.0]]"
    assert _changed_parameters(_Wrapper()) == ""


def test_the_contract_says_how_a_callers_argument_was_changed():
    """Oracle: the diagnoses typed out: an array replaced by another dtype, an object modified in place.

    Kills `lfverify.testing._input_contract.x_changed__mutmut_44` (the shape shown for the dtype) and `_67` (the
    message's text)."""
    before = np.zeros(3)
    copy = snapshot(before)
    assert changed(before, copy) is None
    assert changed(before.astype(np.float32), copy) == "dtype/shape changed from float64(3,) to float32(3,)"
    options = {"metric": "f1"}
    copy = snapshot(options)
    options["metric"] = "jaccard"
    assert changed(options, copy) == "the argument was modified in place"


def test_a_users_code_runs_with_floating_point_errors_ignored_whatever_the_callers_setting():
    """Under the caller's np.errstate(all="raise"), a user's 1 / 0 still returns inf inside the kit (the check judges
    the value, not a FloatingPointError).

    Kills `lfverify.testing._framework.x_call_user__lfv_dropkw_1` (np.errstate() without all="ignore")."""
    with np.errstate(all="raise"):
        value = call_user(lambda x: np.float64(1.0) / x, (np.float64(0.0),), check="c", claim="k", witness={})
    assert value == np.inf


def test_the_read_only_variants_of_the_contract_are_read_only():
    """Kills `lfverify.testing._input_contract.x__readonly__lfv_dropkw_1` (setflags() without write=False; the function
    is `read_only_copy` now, shared with the loss check)."""
    X, y = np.arange(6.0).reshape(3, 2), np.array([1, -1, 1])
    features = {label: value for label, value, _ in feature_variants(X)}
    labels = {label: value for label, value, _ in label_variants(y)}
    for variant in (features["read-only X"], labels["read-only labels"]):
        assert not variant.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            variant[0] = 0
    np.testing.assert_array_equal(features["read-only X"], X)
    np.testing.assert_array_equal(labels["read-only labels"], y)


@pytest.mark.parametrize("metric, by_hand", [
    # F_1 = 2 TP / (TP + FP + pi); Jaccard = TP / (FP + pi)
    ("f1", lambda tp, fp, prior: 2 * tp / (tp + fp + prior)),
    ("jaccard", lambda tp, fp, prior: tp / (fp + prior)),
])
def test_the_oracles_utility_of_a_finite_population_is_its_metric_of_tp_and_fp_by_hand(metric, by_hand):
    """Oracle: TP and FP summed by hand over the atoms predicted positive (weights 0.2, 0.3, 0.5; eta 0.9, 0.4, 0.1;
    prior 0.35), for a linear rule (x > 0 on atoms 1 and 2) and an arbitrary classifier (atom 3 only)."""
    from lfverify.core import FiniteSupportPopulation
    from lfverify.testing import oracles

    population = FiniteSupportPopulation(atoms=[[1.0], [2.0], [-1.0]], weights=[0.2, 0.3, 0.5], eta=[0.9, 0.4, 0.1])
    prior = 0.2 * 0.9 + 0.3 * 0.4 + 0.5 * 0.1
    linear = by_hand(0.2 * 0.9 + 0.3 * 0.4, 0.2 * 0.1 + 0.3 * 0.6, prior)
    assert oracles.population_utility(population, metric, [1.0]) == pytest.approx(linear, rel=1e-15)
    third = by_hand(0.5 * 0.1, 0.5 * 0.9, prior)
    assert oracles.population_utility_of_classifier(population, metric, lambda X: X[:, 0] < 0) == pytest.approx(
        third, rel=1e-15)


@pytest.mark.parametrize("public, listing, subject, options", [
    ("check_metric", _check_metric.metric_checks, lambda: f1_score, {"metric": "f1"}),
    ("check_surrogate_loss", _check_loss.loss_checks, logistic, {}),
    ("check_metric_classifier", _check_classifier.classifier_checks, LogisticRegression, {"metric": "f1"}),
    ("check_gradient_direction_estimator", _check_estimators.estimator_checks("gradient_direction"),
     lambda: implementations.gradient_direction("f1", logistic()), {"metric": "f1", "loss": logistic()}),
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_subject_without_a_seed_gets_the_public_functions_default_seed(public, listing, subject, options):
    """Oracle: the default of ``seed`` in the public function's signature (documented: 0), which a Subject given no
    seed (parametrize_with_theory_checks, a plugin fixture) must run with too."""
    normalised, _ = listing(subject(), options)
    default = inspect.signature(getattr(lfverify.testing, public)).parameters["seed"].default
    assert default == 0 and normalised["seed"] == default


@pytest.mark.parametrize("name", ["surrogate_utility_double_sum", "gradient_direction_double_sum"])
def test_the_double_sum_oracles_refuse_a_bad_sample_naming_x_or_y(name):
    """Oracle: the messages of lfverify's argument checks, typed out (the oracle names the argument the user gave)."""
    from lfverify.core import logistic, resolve_metric
    from lfverify.testing import oracles

    oracle, metric = getattr(oracles, name), resolve_metric("f1")
    with pytest.raises(ValueError, match=r"^X must have at least 2 rows \(samples\); got 1$"):
        oracle(metric, logistic(), np.ones((1, 2)), np.array([1]), np.zeros(2))
    with pytest.raises(ValueError, match=r"^y must have 3 entries \(one per row of X\); got 2$"):
        oracle(metric, logistic(), np.ones((3, 2)), np.array([1, 1]), np.zeros(2))


@pytest.mark.parametrize("factory", [implementations.same_sample_gradient_direction,
                                     implementations.plug_in_prior_gradient_direction,
                                     implementations.wrong_sign_gradient_direction], ids=lambda f: f.__name__)
def test_a_named_wrong_v_hat_returns_a_float64_vector_for_an_object_dtype_x(factory):
    """Oracle: the documented interface ``fn(X, y, theta) -> (d,)`` of a float64 vector, and the kit's input contract
    (the value depends on X's values, not on its dtype): an object-dtype X of Python ints gives the float64 vector of
    the float64 X.  Kills `lfverify.testing.implementations.x__scores__mutmut_3` (X kept at its own dtype: an object
    X made the returned vector an object array)."""
    X = np.array([[1, -2], [0, 3], [2, 1], [-1, 0]])
    y, theta = np.array([1, -1, 1, -1]), np.array([0.5, -0.25])
    fn = factory("f1", logistic())
    from_objects = fn(X.astype(object), y, theta)
    assert from_objects.dtype == np.float64 and from_objects.shape == (2,)
    np.testing.assert_array_equal(from_objects, fn(X.astype(np.float64), y, theta))
