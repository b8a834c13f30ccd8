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

Bits need the same floating-point kernels: OpenBLAS picks its kernels by CPU, numpy its SIMD loops.  The committed
records reproduce bit for bit under OpenBLAS's AVX-512 kernels (``RECORDING_BLAS_CORE``), so the bit-for-bit test
runs under them - in a child process with ``OPENBLAS_CORETYPE`` set where this process has others - and is skipped,
with the reason, on a CPU without AVX-512 or with another BLAS.  On any kernels, the two studies without a maximiser
are compared to a relative 1e-12 (measured worst across kernels: 4.4e-14); the two whose rows come from an iterative
maximiser are not, because its path moves with the last bits (measured: theta 1.6e-4 apart, a converged flag and
the iteration count changed; FINDINGS.md, "Bits across CPUs").
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from threadpoolctl import threadpool_info

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

#: The OpenBLAS kernel set the committed records were written with.  Recipe (2026-12-07, an AMD EPYC whose OpenBLAS
#: picks "Haswell"): ``OPENBLAS_CORETYPE=X python -m pytest THIS_FILE`` passes for X = SkylakeX and Cooperlake and
#: fails for Haswell, Zen, Sandybridge and Prescott (calibration and consistency differ).
RECORDING_BLAS_CORE = "SkylakeX"
#: numpy's SIMD level the records need (with X86_V4 disabled, unbiasedness and uniform-convergence differ too).
RECORDING_NUMPY_SIMD = "AVX512_SKX"
#: The studies whose rows do not pass through an iterative maximiser, and their rounding tolerance across kernels.
#: Measured worst relative difference over three blocks each, between the AVX-512 kernels and numpy without
#: AVX-512 / AVX2 with OpenBLAS's Prescott kernels: 4.4e-14 (a block mean); 1e-12 leaves a factor of 20.
NO_MAXIMISER, ACROSS_KERNELS_RTOL = ("uniform-convergence", "unbiasedness"), 1e-12


def _blas_cores():
    """The kernel sets (threadpoolctl's "architecture") of the BLAS libraries this process has loaded."""
    return {info.get("architecture") for info in _blas()}


def _blas() -> list[dict]:
    return [info for info in threadpool_info() if info.get("user_api") == "blas"]


def _recording_kernels_here():
    """None if this process runs the recording kernels; else the environment that pins them in a child process;
    a skip reason (str) where this CPU or BLAS cannot run them."""
    try:  # numpy's own table of the SIMD features it found (numpy.show_runtime prints it)
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:
        return "this numpy does not say which SIMD loops it runs"
    if not __cpu_features__.get(RECORDING_NUMPY_SIMD):
        return f"this CPU lacks numpy's {RECORDING_NUMPY_SIMD} loops the records were written with"
    apis = {info.get("internal_api") for info in _blas()}
    if apis != {"openblas"}:
        return f"the records were written with OpenBLAS; this process's BLAS is {sorted(map(str, apis))}"
    if _blas_cores() == {RECORDING_BLAS_CORE}:
        return None
    return {**os.environ, "OPENBLAS_CORETYPE": RECORDING_BLAS_CORE}


def _same_task_rows(rows, task, study):
    """The committed rows of ``task``: those whose key columns equal the task's (n and replication in its block)."""
    p = task.params
    first, count = p["first"], p["count"]
    keys = {k: v for k, v in p.items() if k not in ("first", "count")}
    mine = [r for r in rows if all(r.get(k) == (float(v) if k == "tau" else v) for k, v in keys.items())]
    if study == "unbiasedness":  # one row per (metric, estimator), summed over the block
        return [r for r in mine if (r["first"], r["count"]) == (first, count)]
    return [r for r in mine if first <= r.get("replication", -1) < first + count]


def _task_rows(name, task=None, committed=None):
    """(rows of ``task`` - default the study's first - run now, the committed rows of ``committed`` - default the
    same task)."""
    study = STUDIES[name]
    summary = json.loads((COMMITTED / name / "summary.json").read_text())
    config, seed = summary["config"], summary["generated_by"]["seed"]
    prefix, n = TASKS[name]
    first = block_tasks([prefix], [n], config["replications"], config["samples_per_task"])[0]
    assert first in study.tasks(config)  # the study groups its replications by the public rule
    rows = study.run_task(task or first, config, study.context(config), seed)
    return rows, _same_task_rows(read_records(COMMITTED / name), committed or task or first, name)


def _mismatches(rows, expected, rtol=0.0):
    """The (column, got, want) that differ: keys, flags and counts exactly; floats exactly or within ``rtol``."""
    assert len(rows) == len(expected) > 0
    columns, found = sorted({k for r in expected for k in r}), []
    for got, want in zip(sorted(rows, key=_order), sorted(expected, key=_order)):
        got = {k: v for k, v in got.items() if v is not None and v != ""}
        for k in columns:
            g, w = got.get(k), want[k]
            if isinstance(w, float) and g is not None and not isinstance(g, (str, bool)):
                same = float(g) == w or math.isclose(float(g), w, rel_tol=rtol, abs_tol=0.0)
            else:
                same = g == w
            if not same:
                found.append((k, g, w))
    return found


@pytest.fixture(scope="module")
def pinned_child():
    """Where this process runs another OpenBLAS kernel: every study's mismatches computed once in a child process
    pinned to the recording kernel (name -> repr of the list), with the kernels the child ran; else None."""
    pinned = _recording_kernels_here()
    if not isinstance(pinned, dict):
        return pinned
    here = str(Path(__file__).parent)
    code = (f"import json, sys; sys.path.insert(0, {here!r}); import {Path(__file__).stem} as t; "
            "print(json.dumps({'cores': sorted(map(str, t._blas_cores())), "
            "'found': {n: repr(t._mismatches(*t._task_rows(n))) for n in sorted(t.TASKS)}}))")
    child = subprocess.run([sys.executable, "-c", code], env=pinned, capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stderr[-3000:]
    return json.loads(child.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", sorted(TASKS))
def test_a_committed_task_is_reproduced_bit_for_bit(name, pinned_child):
    """Under the recording kernels every column is the committed one, bit for bit."""
    if isinstance(pinned_child, str):
        pytest.skip(f"bit for bit needs the recording kernels: {pinned_child}")
    if pinned_child is None:
        assert _mismatches(*_task_rows(name)) == []
    else:  # the pin must have taken, or the comparison would have run on another kernel
        assert pinned_child["cores"] == [RECORDING_BLAS_CORE]
        assert pinned_child["found"][name] == "[]"


@pytest.mark.parametrize("name", NO_MAXIMISER)
def test_the_studies_without_a_maximiser_reproduce_on_any_kernels(name):
    """Whatever this CPU's kernels: keys and counts exactly, floats within their rounding (``ACROSS_KERNELS_RTOL``)."""
    assert _mismatches(*_task_rows(name), rtol=ACROSS_KERNELS_RTOL) == []


def _order(row):
    return tuple(str(row.get(k)) for k in ("metric", "estimator", "replication"))


def test_the_unbiasedness_block_is_the_committed_grouping():
    """Oracle: the committed rows' (first, count), against the public grouping rule of the committed config."""
    config = json.loads((COMMITTED / "unbiasedness" / "summary.json").read_text())["config"]
    blocks = {(r["n"], r["first"], r["count"]) for r in read_records(COMMITTED / "unbiasedness")}
    assert blocks == {(n, f, c) for n in config["sample_sizes"]
                      for f, c in replication_blocks(config["replications"], n, config["samples_per_task"])}


def test_a_changed_replication_changes_the_rows():
    """Companion: the comparison can fail, at the tolerance across kernels too - replications 1 and 2 are not the
    committed 0 and 1."""
    shifted = Task((("population", "finite"), ("n", 100), ("first", 1), ("count", 2)))
    rows, expected = _task_rows("uniform-convergence", shifted,
                                Task((("population", "finite"), ("n", 100), ("first", 0), ("count", 2))))
    wrong = {k for k, _, _ in _mismatches(rows, expected, rtol=ACROSS_KERNELS_RTOL)}
    assert {"sup_error", "replication"} <= wrong


def test_a_kernel_difference_is_within_the_tolerance_and_a_changed_value_is_not():
    """Companion of the tolerance: a relative 1e-13 change (a rounding difference) passes it, 1e-11 does not."""
    rows, expected = _task_rows("uniform-convergence")
    nudged = [{**r, "sup_error": r["sup_error"] * (1 + 1e-13)} for r in rows]
    moved = [{**r, "sup_error": r["sup_error"] * (1 + 1e-11)} for r in rows]
    assert _mismatches(nudged, expected, rtol=ACROSS_KERNELS_RTOL) == []
    assert _mismatches(nudged, expected) != []
    assert {k for k, _, _ in _mismatches(moved, expected, rtol=ACROSS_KERNELS_RTOL)} == {"sup_error"}
