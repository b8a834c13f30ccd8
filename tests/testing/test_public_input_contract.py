"""lfverify's own public functions under the testing kit's input contract (issue 45 item 1).

Every public function of the wings' faces that takes arrays runs through the contract the kit asks of other
people's code (``lfverify.testing._input_contract``, private: the kit's machinery, reused here rather than copied):
the caller's arrays are unchanged after the call; float32, int64, read-only, Fortran-ordered and non-contiguous
copies of the same numbers (and CSR where a function accepts it; a clear TypeError / ValueError refusal is allowed)
give the float64 dense result, within 1e-9 of its scale (1e-4 for float32 input); and every floating result is
float64.  The oracle of each variant is the same function on the float64 dense input: the inputs are small dyadic
numbers, so every variant holds exactly the same values.  A function that takes arrays and is not in
:data:`CONTRACT` is in :data:`EXEMPT` with the reason; :func:`test_every_array_function_is_in_the_table` finds them
by their parameter names, and the companion tests plant a function that modifies its input and one that computes in
float32, which the contract must reject.

Private: lfverify.testing._input_contract, the input contract the kit's checks run (CLAIM, the variants, run_contract),
applied here to the package's own public functions.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import numpy as np
import pytest

from lfverify import core, experiments, learn, simulations
from lfverify.testing import TheoryCheckFailure
from lfverify.testing._input_contract import (
    CLAIM,
    feature_variants,
    label_variants,
    run_contract,
    vector_variants,
)

pytestmark = pytest.mark.claims("package:numerics")

X = np.array([[0.5, -1.0], [1.0, 0.25], [-0.5, 2.0], [2.0, -0.75], [0.0, 1.0], [-1.5, 0.5]])
Y = np.array([1, -1, 1, -1, 1, -1])
THETA = np.array([0.5, -0.25])
SCORES = np.array([0.5, -1.0, 2.0, 0.25, -0.5, 1.5])
WEIGHTS = np.array([1.0, 2.0, 0.5, 1.0, 1.5, 1.0])
F1, LOGISTIC = core.f1(), core.logistic()


def _pm1_labels(y):
    """The kit's label variants that keep the values -1 / +1 (the functions below take labels in {-1, +1} only:
    the {0, 1} and boolean encodings hold other numbers)."""
    return [v for v in label_variants(y) if np.array_equal(np.asarray(v[1], dtype=np.float64), y)]


def _folds(arrays, name):
    """Variants of a list of per-fold arrays: each vector variant applied to every fold."""
    kinds = [vector_variants(a, name) for a in arrays]
    return [(label, [k[i][1] for k in kinds], kind) for i, (label, _, kind) in enumerate(kinds[0])]


def _label_folds(arrays):
    kinds = [_pm1_labels(a) for a in arrays]
    return [(f"{label} of every fold", [k[i][1] for k in kinds], kind) for i, (label, _, kind) in enumerate(kinds[0])]


VARIANTS = {"features": lambda v: feature_variants(v), "labels": _pm1_labels,
            "vector": lambda v: vector_variants(v, "vector"), "folds": lambda v: _folds(v, "fold"),
            "label folds": _label_folds}


def _esu(X, y, theta):
    objective = core.EmpiricalSurrogateUtility(F1, LOGISTIC, X, y)
    return objective.value(theta), objective.gradient_direction(theta)


#: name -> (function, fixed keyword arguments, {array argument: (value, variant kind)}).
CONTRACT = {
    "core.surrogate_scores": (core.surrogate_scores, {"metric": F1, "loss": LOGISTIC, "prior": 0.5},
                              {"xi": (SCORES, "vector"), "y": (Y, "labels")}),
    "core.gradient_direction": (core.gradient_direction, {},
                                {"numerator": (np.array([0.5, 0.25]), "vector"),
                                 "denominator": (np.array([1.0, 2.0]), "vector"),
                                 "numerator_gradient": (X[:2], "features"),
                                 "denominator_gradient": (X[2:4], "features")}),
    "core.ratio_and_direction": (core.ratio_and_direction, {"what": "U"},
                                 {"numerator": (np.array([0.5, 0.25]), "vector"),
                                  "denominator": (np.array([1.0, 2.0]), "vector"),
                                  "numerator_gradient": (X[:2], "features"),
                                  "denominator_gradient": (X[2:4], "features")}),
    "core.reference_gradient_direction": (core.reference_gradient_direction, {"metric": F1, "loss": LOGISTIC},
                                          {"X": (X, "features"), "y": (Y, "labels"), "theta": (THETA, "vector")}),
    "core.reference_surrogate_utility": (core.reference_surrogate_utility, {"metric": F1, "loss": LOGISTIC},
                                         {"X": (X, "features"), "y": (Y, "labels"), "theta": (THETA, "vector")}),
    "core.EmpiricalSurrogateUtility": (_esu, {}, {"X": (X, "features"), "y": (Y, "labels"),
                                                  "theta": (THETA, "vector")}),
    "core.check_features": (core.check_features, {}, {"X": (X, "features")}),
    "core.check_labels": (core.check_labels, {}, {"y": (Y, "labels")}),
    "core.check_parameters": (core.check_parameters, {"n_features": 2}, {"theta": (THETA, "vector")}),
    "core.check_sample_weight": (core.check_sample_weight, {"n_samples": 6}, {"sample_weight": (WEIGHTS, "vector")}),
    "core.divide_zero_over_zero": (core.divide_zero_over_zero, {"zero_division": 0.0, "what": "x"},
                                   {"numerator": (np.array([0.0, 1.0, 0.5]), "vector"),
                                    "denominator": (np.array([0.0, 2.0, 0.25]), "vector")}),
    "learn.best_threshold": (learn.best_threshold, {"metric": F1},
                             {"scores": (SCORES, "vector"), "y": (Y, "labels"), "sample_weight": (WEIGHTS, "vector")}),
    "learn.reference_best_threshold": (learn.reference_best_threshold, {"metric": F1},
                                       {"scores": (SCORES, "vector"), "y": (Y, "labels")}),
    "learn.threshold_for_positive_rate": (learn.threshold_for_positive_rate, {"rate": 0.5},
                                          {"scores": (SCORES, "vector")}),
    "learn.positive_rate_from_folds": (learn.positive_rate_from_folds, {"metric": F1},
                                       {"fold_scores": ([SCORES[:3], SCORES[3:]], "folds"),
                                        "fold_labels": ([Y[:3], Y[3:]], "label folds")}),
    "learn.fit_at_weights": (learn.fit_at_weights, {"loss": LOGISTIC, "weights": (1.0, 2.0)},
                             {"X": (X, "features"), "y": (Y, "labels"), "sample_weight": (WEIGHTS, "vector")}),
    "learn.fit_cost_sensitive": (learn.fit_cost_sensitive, {"metric": F1, "loss": LOGISTIC},
                                 {"X": (X, "features"), "y": (Y, "labels"), "sample_weight": (WEIGHTS, "vector")}),
    "learn.erm_initial_parameters": (learn.erm_initial_parameters, {},
                                     {"X": (X, "features"), "y": (Y, "labels"), "sample_weight": (WEIGHTS, "vector")}),
    "learn.min_max_scale": (learn.min_max_scale, {}, {"X": (X, "features")}),
    "learn.maximize_surrogate_utility": (
        learn.maximize_surrogate_utility, {"objective": core.EmpiricalSurrogateUtility(F1, LOGISTIC, X, Y),
                                           "max_iter": 20},
        {"theta0": (THETA, "vector")}),
    "simulations.fit_rate": (simulations.fit_rate, {},
                             {"sample_sizes": (np.array([100.0, 100.0, 400.0, 400.0, 1600.0, 1600.0]), "vector"),
                              "errors": (np.array([0.125, 0.0625, 0.0625, 0.03125, 0.03125, 0.015625]), "vector")}),
    "experiments.summarize": (experiments.summarize, {}, {"values": (np.array([0.5, 0.25, 0.75]), "vector")}),
}
#: Public functions with an array-like parameter that the contract does not run, and why.
EXEMPT = {
    "core.reference_scores": "one sample's scalars (xi, y); its array form is core.surrogate_scores, in the table",
    "io.decode_text": "errors is the codec's error handler (a string), not an array",
    "io.read_text": "errors is the codec's error handler (a string), not an array",
    "simulations.rate_study": "sample_sizes is a specification (ints, validated into a list before any work), "
                              "not data; non-integral sizes are refused by design",
    "simulations.block_tasks": "sample_sizes: as rate_study's, a specification of ints",
    "experiments.compare_with_paper": "values is a mapping of table cells to trial values, not an array",
}
#: Functions whose result is an iterative solver's, with the tolerance their sparse or float32 path can reach and why.
SOLVER_TOLERANCE = {
    "learn.erm_initial_parameters": (1e-4, "liblinear's coordinate descent stops at its tolerance (1e-4); a CSR "
                                           "input takes another path to within it (measured: 2.4e-5 of the scale)"),
}
#: Parameter names that carry arrays in lfverify's public signatures.
ARRAY_PARAMETERS = {"X", "y", "xi", "theta", "theta0", "scores", "sample_weight", "numerator", "denominator",
                    "numerator_gradient", "denominator_gradient", "sample_sizes", "errors", "values", "fold_scores",
                    "fold_labels"}
FACES = ("io", "core", "parallel", "learn", "simulations", "experiments")


def _flatten(value, path="result"):
    """(path, leaf) pairs of a result: arrays, numbers, strings; dataclasses, tuples, lists, dicts and sets opened."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _flatten(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            yield from _flatten(v, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k in sorted(value, key=repr):
            yield from _flatten(value[k], f"{path}[{k!r}]")
    elif isinstance(value, (set, frozenset)):
        yield path, sorted(map(repr, value))
    else:
        yield path, value


def compare(reference, result, tolerance):
    """None when ``result`` matches ``reference`` leaf by leaf (numbers within ``tolerance`` of their scale, floating
    arrays of dtype float64), else the first difference."""
    ref, got = list(_flatten(reference)), list(_flatten(result))
    if [p for p, _ in ref] != [p for p, _ in got]:
        return f"the result's structure differs: {[p for p, _ in got]} against {[p for p, _ in ref]}"
    for (path, a), (_, b) in zip(ref, got):
        if isinstance(b, np.ndarray) and b.dtype.kind == "f" and b.dtype != np.float64:
            return f"{path} has dtype {b.dtype}, not float64"
        if isinstance(a, (np.ndarray, float, int, np.floating, np.integer)) and not isinstance(a, bool):
            a_arr, b_arr = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
            scale = max(1.0, float(np.max(np.abs(a_arr), initial=0.0)))
            if a_arr.shape != b_arr.shape or not np.allclose(b_arr, a_arr, rtol=0, atol=tolerance * scale,
                                                             equal_nan=True):
                return f"{path}: {b!r} differs from the float64 dense result {a!r}"
        elif a != b:
            return f"{path}: {b!r} differs from the float64 dense result {a!r}"
    return None


def _caller(function, fixed, name):
    def call(**arrays):
        try:
            return function(**fixed, **arrays)
        except (TypeError, ValueError) as exc:
            raise TheoryCheckFailure(name, CLAIM, {}, f"raised {type(exc).__name__}: {exc}", "a result",
                                     "the variant must be accepted (CSR may be refused)") from exc
    return call


def _variants(arrays):
    for argument, (value, kind) in arrays.items():
        for label, variant, tolerance in VARIANTS[kind](value):
            yield argument, label, variant, tolerance


def run_public_contract(name, function, fixed, arrays):
    floor = SOLVER_TOLERANCE.get(name, (0.0, ""))[0]
    run_contract(_caller(function, fixed, name), {k: v for k, (v, _) in arrays.items()}, list(_variants(arrays)),
                 compare=lambda a, b, tolerance: compare(a, b, max(tolerance, floor)), check=name,
                 witness={"function": name})


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_public_function_keeps_the_input_contract(name):
    function, fixed, arrays = CONTRACT[name]
    run_public_contract(name, function, fixed, arrays)


def test_every_array_function_is_in_the_table():
    """Every public function of the faces with an array parameter is run by the contract or exempt with a reason."""
    missing = []
    for face in FACES:
        module = importlib.import_module(f"lfverify.{face}")
        for attr in getattr(module, "__all__", ()):
            obj = getattr(module, attr)
            if not inspect.isfunction(obj):
                continue
            params = set(inspect.signature(obj).parameters) & ARRAY_PARAMETERS
            name = f"{face}.{attr}"
            if params and name not in CONTRACT and name not in EXEMPT:
                missing.append(f"{name} ({', '.join(sorted(params))})")
    assert missing == []
    assert not set(EXEMPT) & set(CONTRACT)


def test_the_contract_rejects_a_function_that_modifies_its_input():
    def normalise_in_place(X):
        X /= np.abs(X).max()
        return X

    with pytest.raises(TheoryCheckFailure, match="modified in place"):
        run_public_contract("planted", normalise_in_place, {}, {"X": (X.copy(), "features")})


def test_the_contract_rejects_a_function_that_computes_in_float32():
    def mean_in_input_precision(values):
        return np.asarray(values) / 3

    with pytest.raises(TheoryCheckFailure, match="dtype float32, not float64"):
        run_public_contract("planted", mean_in_input_precision, {}, {"values": (np.array([0.5, 0.25]), "vector")})
