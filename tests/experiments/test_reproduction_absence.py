"""Absence is a difference when our cells are compared with the printed Tables 4-5 (issue 45, item 4).

compare_with_paper compares a cell only where both sides have it; a cell of the paper's methods with a value on one
side only is named in the result's ``left_out`` and in markdown_reproduction's "Cells left out" line, so that the
counts cannot shrink silently.

Oracle: a hand-made run of the printed f1 / heart cells (every method of the tables) is compared in full (the control:
five rows, nothing left out).  Deleting one cell's trial values on our side - the method's key removed, or its list
emptied - leaves out exactly that cell as "no trial values"; deleting it on the paper's side (printed_result
answering None for that one cell, as for a cell the paper does not print) leaves it out as "not printed"; in every
case the rows are the control's minus that cell and the Markdown names it.

Companion: a planted variant of compare_with_paper (tests/planted.py) that drops the cell without recording it must
make the check raise AssertionError.

Private: lfverify.experiments._reproduction (its printed_result is patched to delete one printed cell, and
compare_with_paper is replaced by the planted variant in the companion).
"""

from __future__ import annotations

import pytest

import lfverify.experiments._reproduction as reproduction
from lfverify.paper import PAPER_METHODS, printed_result
from planted import planted

pytestmark = pytest.mark.claims("Table 4", "Table 5", "package:benchmark-machinery")

METHODS = PAPER_METHODS  # U-GD, U-BFGS, ERM, W-ERM, Plug-in: the paper prints each for f1 / heart


def _values():
    return {"f1": {"heart": {method: [0.79, 0.81] for method in METHODS}}}


def _deleted_in_ours(method, how):
    values = _values()
    if how == "key":
        del values["f1"]["heart"][method]
    else:
        values["f1"]["heart"][method] = []
    return values


def check_a_missing_side_is_reported(monkeypatch, compare) -> None:
    assert all(printed_result("f1", "heart", m) is not None for m in METHODS)  # the paper prints all five
    control = compare(_values())
    assert [r.method for r in control] == list(METHODS) and tuple(control.left_out) == ()
    cases = [(_deleted_in_ours(method, how), method, "no trial values", None)
             for method in METHODS for how in ("key", "empty")]
    cases += [(_values(), method, "not printed", method) for method in METHODS]
    for values, method, reason, unprinted in cases:
        with monkeypatch.context() as patch:
            if unprinted is not None:
                patch.setattr(reproduction, "printed_result",
                              lambda m, d, meth, unprinted=unprinted: None if meth == unprinted else
                              printed_result(m, d, meth))
            rows = compare(values)
        assert [r.method for r in rows] == [m for m in METHODS if m != method], (method, reason)
        assert tuple(getattr(rows, "left_out", ())) == (("f1", "heart", method, reason),), (method, reason)
        text = reproduction.markdown_reproduction(rows)
        assert f"Cells left out (1, a value on one side only): f1 / heart / {method} ({reason})." in text


def test_a_cell_missing_on_either_side_is_reported(monkeypatch):
    check_a_missing_side_is_reported(monkeypatch, reproduction.compare_with_paper)


def test_companion_a_comparison_that_drops_a_cell_silently_fails(monkeypatch):
    variant = planted(reproduction.compare_with_paper, "if (paper is None) != (not per_method.get(method)):",
                      "if False:")
    with pytest.raises(AssertionError):
        check_a_missing_side_is_reported(monkeypatch, variant)
