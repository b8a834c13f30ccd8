"""README's "Which estimator should I use?" block (benchmarks/which_estimator.py, issue 42): generated from the
committed benchmark results, never typed by hand.

Oracles: the committed results themselves - README's block must be what the script makes of them (a re-run that
changes a result without regenerating the block fails here); the U-BFGS counts recomputed from the compare run's
per-trial values with SciPy's Welch test (tests/benchmark_scripts.py), independent of lfverify's
``one_sided_p_value``; the tree ensembles' gains read from the committed cells by hand.  Companions: a results
folder with one verdict changed gives other advice, and README's check then reports its block as stale.
"""

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmark_scripts import load_benchmark_script, welch_verdict

pytestmark = pytest.mark.claims("package:benchmark-machinery")

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SOURCES = ("nonlinear_peers.json", "out_of_bag_remedy.json", "paper/compare/summary.json",
           "paper/compare-0.3/summary.json", "paper/compare-few-samples/summary.json", "regime_model_class.json",
           "remedy_levels.json", "ensemble_regimes.json", "nonlinear_truth.json")


@pytest.fixture(scope="module")
def script():
    return load_benchmark_script("which_estimator")


def _copy_results(tmp_path: Path) -> Path:
    for name in SOURCES:
        target = tmp_path / "benchmarks" / "results" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / "benchmarks" / "results" / name, target)
    return tmp_path


def _edit(path: Path, change) -> None:
    """Apply ``change`` to the JSON results file at ``path`` in place."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _flat(text: str) -> str:
    """``text`` with every run of whitespace (the advice's line wrapping) made one space."""
    return re.sub(r"\s+", " ", text)


def test_readme_block_is_the_generated_advice(script):
    body = script.advice()
    assert script.readme_with_advice(README, body) == README
    block = README.split(script.BEGIN, 1)[1].split(script.END, 1)[0]
    assert block == body and "**Model class first.**" in block and "**Linear: the default**" in block
    assert "**By regime, linear truth**" in block


def test_the_regime_counts_are_the_committed_cells_winners(script, tmp_path):
    """Oracle: the committed rows' winners counted here; companion: one cell's winner changed to the tree ensemble
    changes both counts in the advice."""
    rows = json.loads((ROOT / "benchmarks/results/regime_model_class.json").read_text())["rows"]
    linear, trees = (sum(r["winner"] == w for r in rows) for w in ("linear", "tree ensemble"))
    text = _flat(script.advice())
    assert f"[{len(rows)} cells]" in text and f"significantly above the ensemble in {linear}, below in {trees}" in text
    root = _copy_results(tmp_path)
    _edit(root / "benchmarks/results/regime_model_class.json",
          lambda data: next(r for r in data["rows"] if r["winner"] == "linear").update(winner="tree ensemble"))
    text = _flat(script.advice(root))
    assert f"above the ensemble in {linear - 1}, below in {trees + 1}" in text


def test_the_one_level_remedy_counts_are_the_committed_verdicts(script, tmp_path):
    """Oracle: the one-level remedy's verdicts against the tuned peer counted here from both committed files (the
    staged data sets' rows, the regime sweep's column), and the default two levels' regime count; companion: one
    staged row changed to "below" turns "never significantly below" into the counts."""
    staged = json.loads((ROOT / "benchmarks/results/remedy_levels.json").read_text())["rows"]
    sweep = json.loads((ROOT / "benchmarks/results/ensemble_regimes.json").read_text())["rows"]
    one = [r["vs_tuned"] for r in staged] + [r["vs_tuned"]["HGB+remedy (5 folds, 1 level)"] for r in sweep]
    two = sum(r["vs_tuned"]["HGB+remedy (5 folds)"] == "below" for r in sweep)
    text = _flat(script.advice())
    assert one.count("below") == 0  # the committed state the advice's wording below depends on
    assert (f"never significantly below `TunedThresholdClassifierCV` ({len(staged)} staged, {len(sweep)} regime cells; "
            f"the default two levels: {two} below)") in text
    root = _copy_results(tmp_path)
    _edit(root / "benchmarks/results/remedy_levels.json", lambda data: data["rows"][0].update(vs_tuned="below"))
    assert (f"significantly below `TunedThresholdClassifierCV` in 1 and 0 of {len(staged)} staged, {len(sweep)} "
            "regime cells") in _flat(script.advice(root))


def test_the_truth_levels_are_the_committed_rows_winners(script, tmp_path):
    """Oracle: the nonlinear-truth rows' winners grouped by level here (a level is a class's when both metrics'
    rows say so); companion: one row of the first linear level changed to the tree ensemble moves that level to
    "neither or mixed"."""
    rows = json.loads((ROOT / "benchmarks/results/nonlinear_truth.json").read_text())["rows"]
    levels = sorted({r["value"] for r in rows})
    linear = [v for v in levels if {r["winner"] for r in rows if r["value"] == v} == {"linear"}]
    trees = [v for v in levels if {r["winner"] for r in rows if r["value"] == v} == {"tree ensemble"}]
    text = _flat(script.advice())
    assert (f"linear above at {', '.join(f'{v:g}' for v in linear)}, the ensemble at "
            f"{', '.join(f'{v:g}' for v in trees)}") in text
    root = _copy_results(tmp_path)
    _edit(root / "benchmarks/results/nonlinear_truth.json",
          lambda data: next(r for r in data["rows"] if r["value"] == linear[0]).update(winner="tree ensemble"))
    assert f"neither or mixed at {linear[0]:g}." in _flat(script.advice(root))


def test_the_u_bfgs_counts_are_the_welch_tests_of_the_compare_runs_values(script):
    # Oracle: SciPy's Welch test on the committed per-trial values, U-BFGS against the tuned peer.
    compare = json.loads((ROOT / "benchmarks/results/paper/compare/summary.json").read_text())["compare"]
    expected = []
    for metric, name in (("f1", "F_1"), ("jaccard", "Jaccard")):
        rows = compare["values"][metric]
        below = sum(welch_verdict(row["U-BFGS"], row["Tuned-threshold"]) == "below" for row in rows.values())
        expected.append(f"{name} {below} of {len(rows)}")
    assert f"(below that peer: {', '.join(expected)})" in _flat(script.advice())


def test_the_tree_gains_are_the_committed_cells_where_trees_won(script):
    cells = json.loads((ROOT / "benchmarks/results/nonlinear_peers.json").read_text())["classes"]
    won = [c for c in cells if c["winner"] == "trees"]
    text = _flat(script.advice())
    low, high = min(c["difference"] for c in won), max(c["difference"] for c in won)
    assert f"by {low:.2f}-{high:.2f} on {len({c['dataset'] for c in won})} data sets" in text
    assert "not significantly below it on any of the 17" in text  # no cell has the linear default above


def test_a_changed_verdict_changes_the_advice_and_readme_is_then_stale(script, tmp_path):
    """Companion: one cell where the linear default beats the trees, and one data set where the default falls
    below its peer, each show up in the advice by name; README's committed block then differs from it."""
    root = _copy_results(tmp_path)
    _edit(root / "benchmarks/results/nonlinear_peers.json",
          lambda data: next(c for c in data["classes"] if c["dataset"] == "adult").update(winner="linear"))
    _edit(root / "benchmarks/results/paper/compare-few-samples/summary.json",
          lambda data: data["compare"]["targets"]["f1"]["Cost-sensitive"]["below_peer"].append("sonar"))
    changed = _flat(script.advice(root))
    assert "significantly below it on 1 of 17 (adult)" in changed
    assert "significantly below `TunedThresholdClassifierCV(LogisticRegression())` on 1 of 17 (sonar)" in changed
    assert script.readme_with_advice(README, script.advice(root)) != README


def test_a_later_run_replaces_an_earlier_one_on_the_data_sets_it_measured(script, tmp_path):
    """The few-samples run's data sets are read from it, the others from the earlier run: a data set below its
    peer only in the earlier run is not reported once the later run re-measured it."""
    root = _copy_results(tmp_path)
    _edit(root / "benchmarks/results/paper/compare-0.3/summary.json",
          lambda data: data["compare"]["targets"]["f1"]["Cost-sensitive"]["below_peer"].extend(["sonar", "adult"]))
    text = _flat(script.advice(root))
    assert "on 1 of 17 (adult)" in text  # sonar was re-measured by the later run, adult was not


def test_the_readme_needs_exactly_one_block(script):
    for text in ("no block", README + script.BEGIN + script.END):
        with pytest.raises(ValueError, match="exactly one"):
            script.readme_with_advice(text, "x\n")
