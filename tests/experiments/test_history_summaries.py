"""Summaries of histories with a missing or non-finite entry at the start, the middle and the end (issue 45, item 4).

* ``fit_warning_summary`` (the FitQualityWarnings counted in a run's timing files): a None entry counts none; a count
  that is NaN or inf (a damaged timing file) is skipped and said ("1 timing file with an unreadable count
  skipped").  Oracle: three timings of 2 warnings each plus the bad entry give "6 fits", wherever the entry is.
* ``collect_fit_time_ratios``: a None timing gives that trial no ratio; a NaN or inf LogReg time skips the trial;
  a NaN or inf time of one method skips that method in that trial.  Oracle: trials with LogReg 2 s, U-GD 4 s
  (+ 1 s of ERM start), Plug-in 1 s give the ratios 2.5 and 0.5 exactly, one fewer where the entry is bad.
* ``iterations_to_final`` (the convergence experiment's histories): None, NaN and inf count as outside the band,
  the relative band uses the first *finite* value, and a history that does not end finite is a ValueError.
  Oracle: [x, 5, 9, 10, 10, 10] at relative 0.05 (band 0.25) gives 3 with x bad or 0; a bad entry at index 4
  gives 5; a bad last entry raises.

Companions: each check run against a one-line planted variant (tests/planted.py): the count summed without a
check, the first entry dropped, a falsy-only test of the LogReg time, the band from the first entry whatever it is;
each must raise AssertionError.

Private: lfverify.experiments._runner (fit_warning_summary, not exported: the bench's once-per-run line),
lfverify.experiments._comparison (collect_fit_time_ratios, the compare experiment's time ratios) and
lfverify.experiments._markdown (iterations_to_final, the convergence experiment's rule).
"""

from __future__ import annotations

import math

import pytest

import lfverify.experiments._comparison as comparison
import lfverify.experiments._markdown as markdown
import lfverify.experiments._runner as runner
from planted import planted as mutant

pytestmark = pytest.mark.claims("package:benchmark-machinery")

BAD = [None, math.nan, math.inf]
POSITIONS = ["start", "middle", "end"]


def _insert(items: list, bad, position: str) -> list:
    index = {"start": 0, "middle": len(items) // 2, "end": len(items)}[position]
    return items[:index] + [bad] + items[index:]


def check_fit_warning_summary(summary) -> None:
    def checked(timings):  # the documented outcome is a line, never an error, whatever an entry holds
        try:
            return summary(timings)
        except (ValueError, OverflowError) as exc:
            raise AssertionError(f"fit_warning_summary raised {exc!r} instead of skipping the entry") from exc

    _check_fit_warning_summary(checked)


def _check_fit_warning_summary(summary) -> None:
    good = [{"fit_quality_warnings": 2}] * 3
    assert summary(good).startswith("6 fits ended") and "skipped" not in summary(good)  # the control
    assert summary([None, {"fit_quality_warnings": 0}]) is None
    for position in POSITIONS:
        none = summary(_insert(good, None, position))
        assert none.startswith("6 fits ended") and "skipped" not in none, (position, none)
        for bad in (math.nan, math.inf, -1, 1.5):
            line = summary(_insert(good, {"fit_quality_warnings": bad}, position))
            assert line.startswith("6 fits ended"), (position, bad, line)
            assert line.endswith("; 1 timing file with an unreadable count skipped"), (position, bad, line)
    alone = summary([{"fit_quality_warnings": math.nan}])
    assert alone.startswith("0 fits ended") and "1 timing file" in alone
    # two and three unreadable counts: "files" (kills `lfverify.experiments._runner.x_fit_warning_summary__mutmut_41`,
    # the plural from three on)
    for k in (2, 3):
        line = summary(good + [{"fit_quality_warnings": math.nan}] * k)
        assert line.endswith(f"; {k} timing files with an unreadable count skipped"), (k, line)


def test_fit_warning_summary_with_a_missing_or_non_finite_count_anywhere():
    check_fit_warning_summary(runner.fit_warning_summary)


@pytest.mark.parametrize("old, new", [
    ("for timing in timings:", "for timing in list(timings)[1:]:"),  # the first entry dropped
    ("not (\n                math.isfinite(value)", "not (\n                True or math.isfinite(value)"),
])
def test_companion_fit_warning_check_fails_on_a_summary_that_mishandles_an_entry(old, new):
    with pytest.raises(AssertionError):
        check_fit_warning_summary(mutant(runner.fit_warning_summary, old, new))


def _timing(logreg=2.0, ugd=4.0, plug_in=1.0):
    return {"methods": {"f1": {"LogReg": logreg, "U-GD": ugd, "Plug-in": plug_in}, "erm_start": {"f1": 1.0}}}


def check_time_ratios(collect) -> None:
    good = [_timing()] * 3
    records = [{"dataset": "d"}] * 4
    assert collect(records[:3], good, "f1") == {"d": {"LogReg": [1.0] * 3, "U-GD": [2.5] * 3, "Plug-in": [0.5] * 3}}
    for position in POSITIONS:
        assert collect(records, _insert(good, None, position), "f1") == {
            "d": {"LogReg": [1.0] * 3, "U-GD": [2.5] * 3, "Plug-in": [0.5] * 3}}, position
        for bad in (math.nan, math.inf):
            base = collect(records, _insert(good, _timing(logreg=bad), position), "f1")
            assert base == {"d": {"LogReg": [1.0] * 3, "U-GD": [2.5] * 3, "Plug-in": [0.5] * 3}}, (position, bad)
            method = collect(records, _insert(good, _timing(ugd=bad), position), "f1")
            assert method == {"d": {"LogReg": [1.0] * 4, "U-GD": [2.5] * 3, "Plug-in": [0.5] * 4}}, (position, bad)


def test_fit_time_ratios_skip_a_missing_or_non_finite_time_anywhere():
    check_time_ratios(comparison.collect_fit_time_ratios)


@pytest.mark.parametrize("old, new", [
    ("if not (_readable_time(base) and base > 0):", "if not base:"),
    ("if math.isfinite(total):", "if True:"),
    ("for record, timing in zip(records, timings):", "for record, timing in list(zip(records, timings))[1:]:"),
])
def test_companion_time_ratio_check_fails_when_a_bad_time_is_kept_or_a_good_one_dropped(old, new):
    with pytest.raises(AssertionError):
        check_time_ratios(mutant(comparison.collect_fit_time_ratios, old, new))


def check_iterations_to_final(iterations) -> None:
    history = [0.0, 5.0, 9.0, 10.0, 10.0, 10.0]
    assert iterations(history, relative=0.05) == 3  # band 0.05 * |10 - 0|: indices 0-2 outside
    for bad in BAD:
        start = [bad] + history[1:]  # band 0.05 * |10 - 5| = 0.25 from the first finite value
        assert iterations(start, relative=0.05) == 3, (bad, "start")
        middle = history[:4] + [bad] + history[5:]
        assert iterations(middle, relative=0.05) == 5, (bad, "middle")
        assert iterations(middle, absolute=0.5) == 5, (bad, "middle, absolute")
        try:
            iterations(history[:-1] + [bad], relative=0.05)
        except ValueError as exc:
            assert "must end with a finite value" in str(exc)
        else:
            raise AssertionError(f"a history ending with {bad} was summarised")


def test_iterations_to_final_with_a_missing_or_non_finite_entry_anywhere():
    check_iterations_to_final(markdown.iterations_to_final)


@pytest.mark.parametrize("old, new", [
    ("finite_start = h[np.isfinite(h)][0]", "finite_start = h[0]"),
    ("outside = ~(np.abs(h - h[-1]) <= band)", "outside = np.abs(h - h[-1]) > band"),
    ("if h.size == 0 or not np.isfinite(h[-1]):", "if h.size == 0:"),
])
def test_companion_iterations_check_fails_on_a_rule_that_mishandles_a_missing_entry(old, new):
    with pytest.raises(AssertionError):
        check_iterations_to_final(mutant(markdown.iterations_to_final, old, new))
