"""The four built-in studies reproduce their committed records through the public API (issue 41).

Oracle: the committed quick results (``simulations/results/NAME/records.csv``, written by ``lfverify simulate NAME
--quick --seed SEED``; the seed and configuration are read from the committed ``summary.json``).  For each study a
task is built with the public pieces - :class:`lfverify.simulations.Task` keyed as
:func:`lfverify.simulations.block_tasks` keys it - and run with the study's own ``run_task`` on the streams of
:func:`lfverify.simulations.replication_sample`; its rows must equal the committed rows bit for bit (records.csv
holds each float's shortest repr, so parsing gives back the same double).  The task is the first block of the
smallest n under the committed configuration (the unbiasedness study records sums over its block; population
values are computed for a block at once, and a batch of another size may round differently in the last bits).  A
changed stream key, population, estimator, grouping or row layout changes the rows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lfverify.simulations import STUDIES, Task, block_tasks, read_records, replication_blocks

pytestmark = pytest.mark.claims("package:simulation-engine")

COMMITTED = Path(__file__).resolve().parents[2] / "simulations" / "results"

#: study -> (the prefix of a sample task's key, n)
TASKS = {
    "uniform-convergence": ((("population", "finite"),), 100),
    "consistency": ((("kind", "sample"),), 100),
    "calibration": ((("kind", "sample"), ("metric", "F1"), ("tau", "0.33")), 100),
    "unbiasedness": ((("population", "finite"),), 4),
}


def _same_task_rows(rows, task, study):
    """The committed rows of ``task``: those whose key columns equal the task's (n and replication in its block)."""
    p = task.params
    first, count = p["first"], p["count"]
    keys = {k: v for k, v in p.items() if k not in ("first", "count")}
    mine = [r for r in rows if all(r.get(k) == (float(v) if k == "tau" else v) for k, v in keys.items())]
    if study == "unbiasedness":  # one row per (metric, estimator), summed over the block
        return [r for r in mine if (r["first"], r["count"]) == (first, count)]
    return [r for r in mine if first <= r.get("replication", -1) < first + count]


@pytest.mark.parametrize("name", sorted(TASKS))
def test_a_committed_task_is_reproduced_bit_for_bit(name):
    study = STUDIES[name]
    summary = json.loads((COMMITTED / name / "summary.json").read_text())
    config, seed = summary["config"], summary["generated_by"]["seed"]
    prefix, n = TASKS[name]
    task = block_tasks([prefix], [n], config["replications"], config["samples_per_task"])[0]
    assert task in study.tasks(config)  # the study groups its replications by the public rule
    rows = study.run_task(task, config, study.context(config), seed)
    expected = _same_task_rows(read_records(COMMITTED / name), task, name)
    assert len(rows) == len(expected) > 0
    columns = sorted({k for r in expected for k in r})
    for got, want in zip(sorted(rows, key=_order), sorted(expected, key=_order)):
        got = {k: v for k, v in got.items() if v is not None and v != ""}
        for k in columns:
            assert got.get(k) == want[k] or (isinstance(want[k], float) and float(got[k]) == want[k]), (k, got, want)


def _order(row):
    return tuple(str(row.get(k)) for k in ("metric", "estimator", "replication"))


def test_the_unbiasedness_block_is_the_committed_grouping():
    """Oracle: the committed rows' (first, count), against the public grouping rule of the committed config."""
    config = json.loads((COMMITTED / "unbiasedness" / "summary.json").read_text())["config"]
    blocks = {(r["n"], r["first"], r["count"]) for r in read_records(COMMITTED / "unbiasedness")}
    assert blocks == {(n, f, c) for n in config["sample_sizes"]
                      for f, c in replication_blocks(config["replications"], n, config["samples_per_task"])}


def test_a_changed_replication_changes_the_rows():
    """Companion: the comparison can fail - replications 1 and 2 are not the committed 0 and 1."""
    study = STUDIES["uniform-convergence"]
    summary = json.loads((COMMITTED / "uniform-convergence" / "summary.json").read_text())
    config, seed = summary["config"], summary["generated_by"]["seed"]
    shifted = Task((("population", "finite"), ("n", 100), ("first", 1), ("count", 2)))
    rows = study.run_task(shifted, config, study.context(config), seed)
    expected = _same_task_rows(read_records(COMMITTED / "uniform-convergence"),
                               Task((("population", "finite"), ("n", 100), ("first", 0), ("count", 2))),
                               "uniform-convergence")
    assert [r["sup_error"] for r in sorted(rows, key=_order)] != [r["sup_error"] for r in sorted(expected, key=_order)]
