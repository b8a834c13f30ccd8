"""The custom mutation operators of tools/mutation/operators.py, on small hand-written modules (no mutation run).

Oracle: the mutants of each snippet listed by hand (operator, description, mutated line); the behaviour of every
applied mutant against scipy or a hand computation, after exec of the mutated module source.
"""

import ast
from pathlib import Path

import numpy as np
import operators as mo
import pytest
from scipy import special, stats

pytestmark = pytest.mark.claims("package:mutation-testing")

MODULE, PATH = "pkg.snippet", "pkg/snippet.py"


def _mutants(source, operators):
    return mo.generate_mutants(source, MODULE, PATH, operators=operators)


def _run(source, function, *args):
    namespace = {}
    exec(compile(source, PATH, "exec"), namespace)
    return namespace[function](*args)


DIST = '''\
from scipy import stats
from scipy.special import ndtr, logit


def pvalue(z, dof):
    return stats.t.sf(z, dof)


def quantile(level):
    return stats.norm.ppf(level)


def quantile_df(level, dof):
    return stats.norm.ppf(level)


def tail(x):
    return ndtr(x)


def inverse(p):
    return logit(p)
'''


def test_dist_swaps_tails_quantiles_and_distributions_and_each_changes_the_value():
    mutants = _mutants(DIST, ("dist",))
    assert [m.name for m in mutants[:2]] == ["pkg.snippet.x_pvalue__lfv_dist_1", "pkg.snippet.x_pvalue__lfv_dist_2"]
    table = [(m.function, m.description, m.diff.splitlines()[-1]) for m in mutants]
    assert table == [
        ("pvalue", "t.sf -> t.cdf", "+    return stats.t.cdf(z, dof)"),
        ("pvalue", "t.sf -> norm.sf", "+    return stats.norm.sf(z)"),
        ("quantile", "norm.ppf -> norm.isf", "+    return stats.norm.isf(level)"),
        ("quantile_df", "norm.ppf -> norm.isf", "+    return stats.norm.isf(level)"),
        ("quantile_df", "norm.ppf -> t.ppf(df=dof)", "+    return stats.t.ppf(level, df=dof)"),
        ("tail", "ndtr(x) -> ndtr(-x)", "+    return ndtr(-(x))"),
        ("inverse", "logit(p) -> logit(1 - p)", "+    return logit(1 - (p))"),
    ]
    expected = [stats.t.cdf(1.3, 4), stats.norm.sf(1.3), stats.norm.isf(0.9), stats.norm.isf(0.9),
                stats.t.ppf(0.9, 4), special.ndtr(-1.3), special.logit(1 - 0.8)]
    arguments = {"pvalue": (1.3, 4), "quantile": (0.9,), "quantile_df": (0.9, 4), "tail": (1.3,), "inverse": (0.8,)}
    for mutant, value in zip(mutants, expected):
        args = arguments[mutant.function]
        mutated = _run(mutant.apply(DIST), mutant.function, *args)
        assert mutated == pytest.approx(value, rel=1e-12)
        assert mutated != pytest.approx(_run(DIST, mutant.function, *args), rel=1e-6)


DROPKW = '''\
import numpy as np


def spread(a):
    return a.std(ddof=1)


def total(a, axis):
    return np.sum(a, axis=axis, keepdims=True)


class Summary:
    def __init__(self, a):
        self.a = a

    @property
    def total(self):
        return np.sum(self.a, axis=0, keepdims=True)
'''


def test_dropkw_drops_each_keyword_except_where_mutmut_already_does():
    """mutmut 3.8 drops each argument of a call with two or more arguments in a function it mutates, so only
    the single-keyword call and the property (decorated: mutmut skips it) get keyword drops here."""
    mutants = _mutants(DROPKW, ("dropkw",))
    assert [(m.name, m.description) for m in mutants] == [
        ("pkg.snippet.x_spread__lfv_dropkw_1", "drop ddof="),
        ("pkg.snippet.xǁSummaryǁtotal__lfv_dropkw_1", "drop axis="),
        ("pkg.snippet.xǁSummaryǁtotal__lfv_dropkw_2", "drop keepdims="),
    ]
    a = np.array([[1.0, 2.0], [4.0, 8.0]])
    assert _run(mutants[0].apply(DROPKW), "spread", a) == np.std(a) != np.std(a, ddof=1)
    namespace = {}
    exec(compile(mutants[1].apply(DROPKW), PATH, "exec"), namespace)
    assert namespace["Summary"](a).total.shape == (1, 1)  # the sum over everything, not per column (1, 2)
    exec(compile(mutants[2].apply(DROPKW), PATH, "exec"), namespace)
    assert namespace["Summary"](a).total.shape == (2,)


SUBSET = '''\
def fit_and_score(X, y, fit_idx, val_idx, model):
    model.fit(X[fit_idx], y[fit_idx])
    return model.score(X[val_idx], y[val_idx])


def evaluate(model, X_fit, y_fit, X_val, y_val):
    model.fit(X_fit, y_fit)
    return model.score(X_val, y_val)
'''


class _Spy:
    """Records the rows each call receives."""

    def __init__(self):
        self.calls = []

    def fit(self, X, y):
        self.calls.append(("fit", list(X), list(y)))

    def score(self, X, y):
        self.calls.append(("score", list(X), list(y)))


def test_subset_swaps_the_rows_a_call_receives_and_the_spy_sees_it():
    mutants = _mutants(SUBSET, ("subset",))
    assert [(m.function, m.description) for m in mutants] == [
        ("fit_and_score", "X[fit_idx] -> X[val_idx]"),
        ("fit_and_score", "y[fit_idx] -> y[val_idx]"),
        ("fit_and_score", "X[val_idx] -> X[fit_idx]"),
        ("fit_and_score", "y[val_idx] -> y[fit_idx]"),
        ("evaluate", "model.fit(...): X_fit -> X_val"),
        ("evaluate", "model.fit(...): y_fit -> y_val"),
        ("evaluate", "model.score(...): X_val -> X_fit"),
        ("evaluate", "model.score(...): y_val -> y_fit"),
    ]
    X, y = np.arange(6), -np.arange(6)
    fit_idx, val_idx = np.array([0, 1, 2, 3]), np.array([4, 5])
    spy = _Spy()
    _run(SUBSET, "fit_and_score", X, y, fit_idx, val_idx, spy)
    assert spy.calls == [("fit", [0, 1, 2, 3], [0, -1, -2, -3]), ("score", [4, 5], [-4, -5])]
    spy = _Spy()
    _run(mutants[0].apply(SUBSET), "fit_and_score", X, y, fit_idx, val_idx, spy)
    assert spy.calls[0] == ("fit", [4, 5], [0, -1, -2, -3])  # the fit sees the validation rows of X
    spy = _Spy()
    _run(mutants[6].apply(SUBSET), "evaluate", spy, X[fit_idx], y[fit_idx], X[val_idx], y[val_idx])
    assert spy.calls[1] == ("score", [0, 1, 2, 3], [-4, -5])  # the score sees the fitting rows of X


START = '''\
def refit(model, X, theta0, start_erm, seed, rng):
    return model.fit(X, init=theta0, random_state=seed)
'''


class _Recorder:
    def fit(self, X, **settings):
        return settings


def test_start_swaps_a_start_or_a_seed_for_another_of_the_same_role_only():
    mutants = _mutants(START, ("start",))
    assert [(m.name, m.description) for m in mutants] == [
        ("pkg.snippet.x_refit__lfv_start_1", "start model.fit(init=...): theta0 -> start_erm"),
        ("pkg.snippet.x_refit__lfv_start_2", "seed model.fit(random_state=...): seed -> rng"),
    ]
    settings = [_run(m.apply(START), "refit", _Recorder(), None, "zeros", "erm", 1, 2) for m in mutants]
    assert settings == [{"init": "erm", "random_state": 1}, {"init": "zeros", "random_state": 2}]


ARGS = '''\
import numpy as np


def power(base, exponent, modulus):
    return pow(base, exponent, modulus)


def square(x):
    return pow(x, 2, 5)


def larger(a, b):
    return max(a, b) + isinstance(a, float)


def bounded(x, low, high):
    return np.clip(x, low, high)
'''


def test_args_swaps_neighbouring_data_arguments_but_not_literals_or_symmetric_calls():
    mutants = _mutants(ARGS, ("args",))
    assert [(m.name.removeprefix("pkg.snippet."), m.description, m.diff.splitlines()[-1]) for m in mutants] == [
        ("x_power__lfv_args_1", "swap arguments 1 and 2 of pow(...)", "+    return pow(exponent, base, modulus)"),
        ("x_power__lfv_args_2", "swap arguments 2 and 3 of pow(...)", "+    return pow(base, modulus, exponent)"),
        # np.clip(x, low, high) = min(max(x, low), high): swapping x and low is equivalent, low and high is not
        ("x_bounded__lfv_args_1", "swap arguments 2 and 3 of np.clip(...)", "+    return np.clip(x, high, low)"),
    ]
    assert _run(ARGS, "power", 3, 4, 7) == 81 % 7
    assert _run(mutants[0].apply(ARGS), "power", 3, 4, 7) == 4 ** 3 % 7
    assert _run(mutants[1].apply(ARGS), "power", 3, 4, 7) == 3 ** 7 % 4


def test_only_function_bodies_are_mutated_and_a_mutant_that_changes_nothing_is_dropped():
    source = '''\
import numpy as np
DEFAULT = np.zeros(shape=1)


def f(a, b=np.zeros(shape=1)):
    return a.sum(keepdims=True) + a.sum(keepdims=True)
'''
    mutants = _mutants(source, mo.OPERATORS)
    # module level and the default are left alone; both identical calls give one mutant each (different places)
    assert [(m.function, m.description) for m in mutants] == [("f", "drop keepdims="), ("f", "drop keepdims=")]
    assert mutants[0].edits != mutants[1].edits
    same = '''\
def g(a):
    return max(a, a)
'''
    assert _mutants(same, mo.OPERATORS) == []


def _real_module():
    """The smallest module of lfverify/ using scipy.stats that has dist, dropkw and args mutants (found, not named:
    modules move)."""
    repo = Path(__file__).resolve().parents[3]
    for path in sorted((repo / "lfverify").rglob("*.py"), key=lambda p: p.stat().st_size):
        source = path.read_text(encoding="utf-8")
        if "scipy" in source:
            rel = path.relative_to(repo).as_posix()
            name = rel.removesuffix(".py").replace("/", ".")
            mutants = mo.generate_mutants(source, name, rel)
            if {m.operator for m in mutants} >= {"dist", "dropkw", "args"}:
                return source, name, rel, mutants
    raise AssertionError("no module of lfverify/ has dist, dropkw and args mutants")


def test_every_mutant_of_a_real_module_parses_and_changes_its_function():
    source, name, rel, mutants = _real_module()
    names = [m.name for m in mutants]
    assert len(set(names)) == len(names)
    assert mo.generate_mutants(source, name, rel) == mutants  # deterministic
    for m in mutants:
        mutated = m.apply(source)
        ast.parse(mutated)
        assert mutated != source and m.diff.startswith(f"--- {rel}")
        assert mo.operator_of(m.name) == m.operator
        assert mo.function_key_of(m.name) == f"{name}.{m.key}"


def test_names_and_keys_parse_back():
    assert mo.operator_of("lfverify.m.xǁCǁ__init____lfv_subset_12") == "subset"
    assert mo.function_key_of("lfverify.m.xǁCǁ__init____lfv_subset_12") == "lfverify.m.xǁCǁ__init__"
    assert mo.operator_of("lfverify.m.x_f__mutmut_3") is None
    assert mo.function_key_of("lfverify.m.x_f__mutmut_3") == "lfverify.m.x_f"
    with pytest.raises(ValueError, match="overlapping edits"):
        mo.apply_edits("abcdef", (mo.Edit(0, 3, "x"), mo.Edit(2, 4, "y")))
    assert mo.apply_edits("abcdef", (mo.Edit(4, 5, "E"), mo.Edit(0, 1, "A"))) == "AbcdEf"
    with pytest.raises(ValueError, match="operators must be among"):
        mo.generate_mutants("", "m", "m.py", operators=("nope",))


def test_non_ascii_text_before_a_mutated_node_keeps_the_edit_in_place():
    source = 'def f(a, b):\n    return g("η ≤ 1", a, b)\n'
    (mutant,) = _mutants(source, ("args",))
    assert mutant.apply(source) == 'def f(a, b):\n    return g("η ≤ 1", b, a)\n'
