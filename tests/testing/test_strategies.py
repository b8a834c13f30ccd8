"""The public strategies (lfverify.testing.strategies) validate their arguments, as hypothesis.extra.numpy does.

Oracle: the ranges each docstring states.  A bad argument raises ``hypothesis.errors.InvalidArgument`` at the call,
naming the argument and the value (before: ``datasets(min_n=1)`` failed deep inside Hypothesis, with an error about
``integers(0, -1)``, at the first draw); the companion draws at the boundary of each range and checks the drawn
values against it, so the validation refuses no argument the docstring allows.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from lfverify.testing import strategies as S

pytestmark = pytest.mark.claims("package:testing-kit")


@pytest.mark.parametrize(("make", "message"), [
    (lambda: S.datasets(min_n=1), r"min_n=1 must be at least 2 \(one sample of each class\)"),
    (lambda: S.datasets(min_n=5, max_n=3), r"max_n=3 must be at least min_n=5"),
    (lambda: S.datasets(max_d=0), r"max_d=0 must be at least 1"),
    (lambda: S.datasets(bound=math.inf), r"bound=inf must be finite and > 0"),
    (lambda: S.datasets(bound=-1.0), r"bound=-1.0 must be finite and > 0"),
    (lambda: S.datasets(min_n=2.5), r"min_n must be an int; got 2.5 of type float"),
    (lambda: S.datasets(max_n=True), r"max_n must be an int; got True of type bool"),
    (lambda: S.dyadic_datasets(min_n=0), r"min_n=0 must be at least 2 \(one sample of each class\)"),
    (lambda: S.parameters(0), r"d=0 must be at least 1"),
    (lambda: S.parameters(2, bound=0.0), r"bound=0.0 must be finite and > 0"),
    (lambda: S.dyadic_parameters(-1), r"d=-1 must be at least 1"),
    (lambda: S.parameter_batches(2, max_k=0), r"max_k=0 must be at least 1"),
    (lambda: S.finite_populations(min_atoms=0), r"min_atoms=0 must be at least 1"),
    (lambda: S.finite_populations(min_atoms=4, max_atoms=2), r"max_atoms=2 must be at least min_atoms=4"),
    (lambda: S.finite_populations(eta_denominators=()), r"eta_denominators must not be empty"),
    (lambda: S.finite_populations(eta_denominators=(2, 0)), r"each of eta_denominators=0 must be at least 1"),
    (lambda: S.finite_populations(eta_denominators=4), r"eta_denominators must be a sequence of ints >= 1; got 4"),
    (lambda: S.dyadic_scores(0), r"J=0 must be at least 1"),
    (lambda: S.float_scores(3, bound=math.nan), r"bound=nan must be finite and > 0"),
])
def test_a_bad_argument_is_refused_at_the_call_naming_it(make, message):
    with pytest.raises(InvalidArgument) as refused:
        make()
    assert re.fullmatch(message, str(refused.value)), str(refused.value)  # the whole message, nothing appended


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_arguments_at_the_edge_of_their_ranges_are_accepted_and_honoured(data):
    """Companion: the smallest allowed sizes draw what they promise (both classes at n = 2, one atom, d = 1)."""
    X, y = data.draw(S.datasets(min_n=2, max_n=2, max_d=1, bound=1e-3))
    assert X.shape == (2, 1) and sorted(y.tolist()) == [-1, 1] and abs(X).max(initial=0.0) <= 1e-3
    X, y = data.draw(S.dyadic_datasets(min_n=3, max_n=3, max_d=2))
    assert X.shape[0] == 3 and 1 <= X.shape[1] <= 2 and set(y.tolist()) == {-1, 1}
    case = data.draw(S.finite_populations(min_atoms=1, max_atoms=1, max_d=1, eta_denominators=[1]))
    assert case.n_atoms == 1 and case.atoms.shape == (1, 1) and 0 < case.prior < 1
    assert data.draw(S.parameter_batches(3, max_k=1)).shape == (1, 3)
    assert data.draw(S.parameters(1, bound=2)).shape == (1,) and data.draw(S.dyadic_scores(1)).shape == (1,)


def test_dyadic_parameters_reach_both_ends_of_their_range():
    """Oracle: the docstring's range, entries k/8 for k in -24..24: hypothesis finds -3 and 3 (find() raises
    NoSuchExample when no draw satisfies the condition)."""
    from hypothesis import find

    assert find(S.dyadic_parameters(1), lambda t: t[0] == -3.0)[0] == -3.0
    assert find(S.dyadic_parameters(1), lambda t: t[0] == 3.0)[0] == 3.0
    assert find(S.dyadic_parameters(2), lambda t: t[0] != t[1] and (t * 8 == np.round(t * 8)).all()).shape == (2,)
