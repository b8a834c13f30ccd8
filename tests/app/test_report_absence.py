"""Absence is a difference in ``lfverify verify``'s comparisons with the record (issue 45, item 4).

Each comparison of this run's results with the record is checked by deleting one entry from each side in turn:
a verdict the study's summary lacks, a verdict the record lacks, a derivation or self-check the run did not give,
a selected study or benchmark experiment that left no result.

Oracle: the record {"a": True, "b": False} against the summary {"a": True, "b": False} is "as recorded" (the
control); the same pair with "b" deleted from either side must be REGRESSED and must say which key is missing
("missing from the summary" / "missing from the record"), in the evidence's figure and in the study's rows.  A
derivation, self-check, study or benchmark experiment asked for and absent from the run's results is "error"
(a regression), never "as recorded" nor "not selected".

Each check is a function run twice: against lfverify, and (companion) against a planted variant that skips what
is missing (the comparisons as they were before this test, or a one-line change to them), where it must raise
AssertionError.

Private: lfverify.app._report (its _study_evidence, _verdict_differences, study_rows, _claim_report,
_derivation_evidence and _self_check_evidence are the comparisons under test; STUDY_EXPECTATIONS is patched to a toy
record) and lfverify.app._self_checks (its CheckResult, the self-check results the report compares).
"""

from __future__ import annotations

import pytest

import lfverify.app._report as report
from lfverify.app._self_checks import CheckResult
from lfverify.paper import Evidence, PaperClaim

pytestmark = pytest.mark.claims("package:command-line", "package:registry")

RECORD = {"a": True, "b": False}


def _one_side_deleted():
    """(record, summary verdicts, which side lacks "b") for the control and each deletion."""
    return [(dict(RECORD), {"a": True}, "summary"), ({"a": True}, dict(RECORD), "record")]


def check_study_evidence(study_evidence, monkeypatch) -> None:
    monkeypatch.setitem(report.STUDY_EXPECTATIONS, "quick", {"toy": dict(RECORD)})
    control = study_evidence("toy", "quick", {"verdicts": dict(RECORD)}, 0.0)
    assert control.outcome == "as recorded", control
    for record, verdicts, side in _one_side_deleted():
        monkeypatch.setitem(report.STUDY_EXPECTATIONS, "quick", {"toy": record})
        result = study_evidence("toy", "quick", {"verdicts": verdicts}, 0.0)
        assert result.outcome == "REGRESSED", (side, result)
        assert f"missing from the {side}" in result.figure and "'b'" in result.figure, (side, result.figure)


def check_study_rows(study_rows, monkeypatch) -> None:
    monkeypatch.setitem(report.STUDY_EXPECTATIONS, "quick", {"toy": dict(RECORD)})
    control = study_rows("toy", "quick", {"verdicts": dict(RECORD)})
    assert [(r.key, r.outcome) for r in control] == [("a", "as recorded"), ("b", "as recorded")]
    for record, verdicts, side in _one_side_deleted():
        monkeypatch.setitem(report.STUDY_EXPECTATIONS, "quick", {"toy": record})
        rows = {r.key: r for r in study_rows("toy", "quick", {"verdicts": verdicts})}
        assert set(rows) == {"a", "b"}, (side, rows)  # the key missing on one side still has its row
        assert rows["a"].outcome == "as recorded" and rows["b"].outcome == "REGRESSED", (side, rows)
    monkeypatch.setitem(report.STUDY_EXPECTATIONS, "quick", {"toy": dict(RECORD)})
    missing = {r.key: r for r in study_rows("toy", "quick", {"verdicts": {"a": True}})}["b"]
    assert missing.text == "b: missing from the summary (REGRESSED)", missing.text


def _planted_differences(expected, verdicts):
    """The comparison skipping what is missing: only keys present on both sides are compared."""
    return {k: verdicts[k] for k, v in expected.items() if k in verdicts and verdicts[k] != v}


def _planted_record_skip(expected, verdicts):
    """A one-sided variant: a key the record lacks is not a difference (the summary's extra verdicts pass)."""
    return {k: verdicts.get(k, report.MISSING_FROM_SUMMARY) for k, v in expected.items() if verdicts.get(k) != v}


def test_study_evidence_reports_a_verdict_missing_on_either_side(monkeypatch):
    check_study_evidence(report._study_evidence, monkeypatch)


@pytest.mark.parametrize("planted", [_planted_differences, _planted_record_skip])
def test_companion_study_evidence_check_fails_on_a_comparison_that_skips_missing_keys(monkeypatch, planted):
    monkeypatch.setattr(report, "_verdict_differences", planted)
    with pytest.raises(AssertionError):
        check_study_evidence(report._study_evidence, monkeypatch)


def test_study_rows_keep_a_verdict_missing_on_either_side(monkeypatch):
    check_study_rows(report.study_rows, monkeypatch)


def _rows_without_missing(name, mode, summary):
    """study_rows as it was: only the summary's rows (a recorded row the summary lacks silently left out)."""
    return [r for r in report.study_rows(name, mode, summary) if r.value != report.MISSING_FROM_SUMMARY]


def _rows_record_lenient(name, mode, summary):
    """A row the record lacks read as agreement (``expected.get(key, value) == value``)."""
    rows = report.study_rows(name, mode, summary)
    expected = report.STUDY_EXPECTATIONS["quick"]["toy"]
    return [r if r.key in expected or r.value == report.MISSING_FROM_SUMMARY else
            report.StudyRow(r.study, key=r.key, value=r.value, outcome="as recorded") for r in rows]


@pytest.mark.parametrize("planted", [_rows_without_missing, _rows_record_lenient])
def test_companion_study_rows_check_fails_when_a_missing_row_is_skipped(monkeypatch, planted):
    with pytest.raises(AssertionError):
        check_study_rows(planted, monkeypatch)


# ------------------------------------------------------------------ the evidence a claim asks for and the run lacks
CLAIM = PaperClaim(label="toy:claim", number="Toy 1", statement="a toy", expected="holds",
                   evidence=(Evidence("simulation", "toy-study"), Evidence("benchmark", "table")))


def _study_ok():
    return report.EvidenceResult("simulation", "toy-study", "as recorded", "fine")


def _bench_ok():
    return report.EvidenceResult("benchmark", "table", "as recorded", "fine")


def check_claim_report(claim_report) -> None:
    selected = {"simulation": {"toy-study"}, "benchmark": {"table"}}
    both = claim_report(CLAIM, by_label={}, checks={}, study_results={"toy-study": _study_ok()},
                        bench_results={"table": _bench_ok()}, selected=selected)
    assert not both.regressed and both.verdict == "holds", both
    no_study = claim_report(CLAIM, by_label={}, checks={}, study_results={}, bench_results={"table": _bench_ok()},
                            selected=selected)
    no_bench = claim_report(CLAIM, by_label={}, checks={}, study_results={"toy-study": _study_ok()},
                            bench_results={}, selected=selected)
    for result, kind in ((no_study, "simulation"), (no_bench, "benchmark")):
        missing = next(e for e in result.evidence if e.kind == kind)
        assert result.regressed and missing.outcome == "error", (kind, missing)
    unselected = claim_report(CLAIM, by_label={}, checks={}, study_results={}, bench_results={},
                              selected={"simulation": set(), "benchmark": set()})
    assert {e.outcome for e in unselected.evidence} == {"not run (pytest)"} and not unselected.regressed


def _claim_report_as_before(claim, *, by_label, checks, study_results, bench_results, selected=None):
    """The report before this test: a selected target without a result read as "not selected in this run"."""
    return report._claim_report(claim, by_label=by_label, checks=checks, study_results=study_results,
                                bench_results=bench_results, selected=None)


def test_a_selected_study_or_experiment_without_a_result_is_an_error():
    check_claim_report(report._claim_report)


def test_companion_claim_report_check_fails_when_a_missing_result_reads_as_not_selected():
    with pytest.raises(AssertionError):
        check_claim_report(_claim_report_as_before)


def check_missing_derivation_and_self_check(derivation_evidence, self_check_evidence) -> None:
    ok = CheckResult("check", label="toy:claim", method="m", expected="verified", verdict="verified", detail="",
                     seconds=0.0)
    assert self_check_evidence("check", {"check": ok}).outcome == "as recorded"
    assert self_check_evidence("check", {}).outcome == "error"  # the run lacks it
    flipped = CheckResult("check", label="toy:claim", method="m", expected="verified", verdict="error",
                          detail="", seconds=0.0)
    assert self_check_evidence("check", {"check": flipped}).outcome == "REGRESSED"
    missing = derivation_evidence("toy:claim", {})
    assert missing.outcome == "error" and "no derivation" in missing.figure, missing


def test_a_missing_derivation_or_self_check_is_an_error():
    check_missing_derivation_and_self_check(report._derivation_evidence, report._self_check_evidence)


def test_companion_missing_evidence_check_fails_on_lenient_lookups():
    def lenient_derivation(target, by_label):
        return report.EvidenceResult("derivation", target, "as recorded", "")

    def lenient_check(target, checks):
        return report.EvidenceResult("self-check", target, "as recorded" if target not in checks
                                     else "as recorded" if checks[target].as_expected else "REGRESSED", "")

    with pytest.raises(AssertionError):
        check_missing_derivation_and_self_check(lenient_derivation, report._self_check_evidence)
    with pytest.raises(AssertionError):
        check_missing_derivation_and_self_check(report._derivation_evidence, lenient_check)
