"""Absence is a difference when the benchmark reuses a record (issue 45, item 4).

A trial's record is reused by ``lfverify bench`` only if it is the record of that cell: every field present, the
results of exactly the cell's metrics, for each metric a result or an error of exactly the cell's methods, and the
fingerprint of the cell's settings.  Each comparison is checked by deleting one entry from each side in turn.

Oracle: a hand-built record of a cell with metrics (f1, jaccard) and methods (U-GD, Plug-in) has no problem (the
control); the same record with a field deleted "lacks" it; a metric or a method deleted from the record, or from the
cell's settings (so the record holds one the cell did not ask for), is a problem naming both lists; a record whose
fingerprint is deleted is damaged, and one whose fingerprint differs from the cell's is refused with ValueError.

Companions: the checks run against one-line planted variants of ``_record_problem`` (tests/planted.py) that
compare only what is present on both sides (a subset test instead of equality; a missing field read as present),
where they must raise AssertionError.

Private: lfverify.experiments._runner (its _record_problem and _load_record are the record checks under test; Cell,
record_path, fingerprint and RECORD_VERSION build the hand-made record they read).
"""

from __future__ import annotations

import json

import pytest

import lfverify.experiments._runner as runner
from lfverify.io import DamagedRecord, seal
from planted import planted as mutant

pytestmark = pytest.mark.claims("package:benchmark-machinery")

METRICS = ["f1", "jaccard"]
METHODS = ["Plug-in", "U-GD"]
FIELDS = ("kind", "dataset", "parameter", "trial", "version", "fingerprint", "settings", "results")


def _cell(metrics=METRICS, methods=METHODS):
    settings = {"metrics": list(metrics), "methods": list(methods), "seed": 0}
    return runner.Cell("table", "heart", "default", 0, tuple(sorted(settings.items())))


def _record(cell, metrics=METRICS, methods=METHODS):
    return {"kind": cell.kind, "dataset": cell.dataset, "parameter": cell.parameter, "trial": cell.trial,
            "version": runner.RECORD_VERSION, "fingerprint": runner.fingerprint(cell.settings_dict),
            "settings": cell.settings_dict,
            "results": {m: {method: {"test": 0.5} for method in methods} for m in metrics}, "errors": {}}


def check_record_problem(record_problem) -> None:
    def checked(record, cell):  # a record check that trips over the missing entry has not named it
        try:
            return record_problem(record, cell)
        except KeyError as exc:
            raise AssertionError(f"the check read the missing entry {exc} instead of naming it") from exc

    _check_record_problem(checked)


def _check_record_problem(record_problem) -> None:
    cell = _cell()
    assert record_problem(_record(cell), cell) is None  # the control
    for field in FIELDS:
        record = _record(cell)
        del record[field]
        problem = record_problem(record, cell)
        assert problem is not None and f"lacks {field!r}" in problem, (field, problem)
    # a metric missing from the record, then from the cell (the record holds one the cell did not ask for)
    for record, asked in ((_record(cell, metrics=["f1"]), cell), (_record(cell), _cell(metrics=["f1"]))):
        problem = record_problem(record, asked)
        assert problem is not None and "metrics" in problem, problem
    # a method missing from the record's results (and not among its errors), then from the cell
    for record, asked in ((_record(cell, methods=["U-GD"]), cell), (_record(cell), _cell(methods=["U-GD"]))):
        problem = record_problem(record, asked)
        assert problem is not None and "the cell's methods" in problem, problem
    failed = _record(cell, methods=["U-GD"])  # a method that failed is accounted for by its error
    failed["errors"] = {m: {"Plug-in": ["boom"]} for m in METRICS}
    assert record_problem(failed, cell) is None


def test_a_record_missing_a_field_metric_or_method_on_either_side_is_not_reused():
    check_record_problem(runner._record_problem)


@pytest.mark.parametrize("old, new", [
    ("sorted(results) != sorted(metrics)", "not set(metrics) <= set(results)"),  # record may hold more metrics
    ("sorted(results) != sorted(metrics)", "not set(results) <= set(metrics)"),  # record may lack a metric
    ("sorted({*done, *failed}) != sorted(methods)", "not set(methods) <= {*done, *failed}"),
    ("sorted({*done, *failed}) != sorted(methods)", "not {*done, *failed} <= set(methods)"),
    ("if not isinstance(record.get(key), kind)", "if key in record and not isinstance(record.get(key), kind)"),
])
def test_companion_record_check_fails_on_a_comparison_that_skips_what_is_missing(old, new):
    with pytest.raises(AssertionError):
        check_record_problem(mutant(runner._record_problem, old, new))


def test_a_record_of_another_cell_is_named_with_both_cells():
    """Oracle: the problem typed out, naming the record's trial and cell and the one asked for.

    Kills `lfverify.experiments._runner.x__record_problem__mutmut_13` (the record's trial read under another key)."""
    cell = _cell()
    record = {**_record(cell), "trial": 3, "dataset": "german.numer"}
    assert runner._record_problem(record, cell) == ("holds trial 3 of table/german.numer/default, not trial 0 of "
                                                    "table/heart/default")


def _write(tmp_path, cell, record):
    path = runner.record_path(tmp_path, cell)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))


def check_load_record_fingerprint(load_record, tmp_path) -> None:
    cell = _cell()
    _write(tmp_path, cell, seal(_record(cell)))
    assert load_record(tmp_path, cell)["results"].keys() == set(METRICS)  # the control
    other = seal({**_record(cell), "fingerprint": "0" * 16})
    _write(tmp_path, cell, other)
    assert "produced with other settings" in _refusal(load_record, tmp_path, cell)
    unfingerprinted = _record(cell)
    del unfingerprinted["fingerprint"]
    _write(tmp_path, cell, seal(unfingerprinted))
    assert "lacks 'fingerprint'" in _refusal(load_record, tmp_path, cell, DamagedRecord)


def _refusal(load_record, out, cell, kind=ValueError) -> str:
    """The message of the ``kind`` error reading ``cell``'s record raises; AssertionError if it reads it."""
    try:
        load_record(out, cell)
    except kind as exc:
        return str(exc)
    raise AssertionError(f"the record of {cell} was read, not refused with {kind.__name__}")


def test_a_record_of_other_settings_or_without_a_fingerprint_is_refused(tmp_path):
    check_load_record_fingerprint(runner._load_record, tmp_path)


def test_companion_fingerprint_check_fails_when_a_missing_fingerprint_reads_as_the_cells(tmp_path, monkeypatch):
    lenient = mutant(runner._record_problem, "if not isinstance(record.get(key), kind)",
                     "if key != 'fingerprint' and not isinstance(record.get(key), kind)")
    monkeypatch.setattr(runner, "_record_problem", lenient)  # before the mutant copies the module's names
    planted = mutant(runner._load_record, 'if record["fingerprint"] != expected:',
                     'if record.get("fingerprint", expected) != expected:')
    with pytest.raises(AssertionError):
        check_load_record_fingerprint(planted, tmp_path)
