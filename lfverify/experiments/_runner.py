"""Running many trials: parallel over trials, a progress bar, one record file per finished trial (resumable).

Every unit of work (a *cell*: experiment, data set, parameter, trial) writes one JSON record,
``<out>/records/<experiment>/<dataset>/<parameter>/trial-NNN.json``, atomically (temporary file +
``os.replace``) as soon as it finishes, so an interrupted run loses at most the cells in flight and the next run
with the same ``--out`` skips every cell whose record exists.  Each record carries the fingerprint of the settings
that produced it; finding a record with another fingerprint is an error (mixing settings in one table would be
wrong), not a silent overwrite.  Each record also carries the SHA-256 of its content (:mod:`lfverify.io`)
and is checked when read back (hash, keys and types, its cell, one result or error per metric and method of the
cell); a damaged record is reported, set aside as ``*.json.damaged`` and its cell recomputed, never used.

A record holds only what the cell computed, so it is the same byte for byte whichever executor ran it; the wall
times of the cell and of each method's fit go beside it, to ``<out>/timings/<same path>`` (written first: a
record without its timing file only means the time is unknown).

Cells run on the executors of the Monte-Carlo studies (:mod:`lfverify.parallel`): in this process,
in local worker processes, or on a Dask cluster.  Every cell runs with one BLAS thread (workers and this process
alike), which keeps the floating-point sums, and so the records, independent of where it ran; each worker loads
each data set once.  Every cell draws from its own SeedSequence
(:func:`lfverify.experiments._protocol.trial_seed_sequence`), so the numbers depend neither on the executor
nor on the number of workers.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

import lfverify.experiments._protocol as protocol
from lfverify.experiments._protocol import PROPOSED_METHODS
from lfverify.io import (
    DamagedRecord,
    Progress,
    read_bytes,
    read_sealed,
    report_damaged,
    seal,
    settings_fingerprint,
    write_text_atomically,
)
from lfverify.learn import FitQualityWarning, load_dataset
from lfverify.parallel import make_executor

__all__ = ["Cell", "record_path", "timing_path", "load_records", "load_timings", "run_cells", "fingerprint",
           "fit_warning_summary"]

#: Record format version (bump when a record's meaning changes).  2: timings moved to their own files.  3: the
#: content hash (a sound version-2 record is sealed in place when read, so earlier runs keep resuming).
RECORD_VERSION = 3


@dataclass(frozen=True)
class Cell:
    """One unit of work: ``kind`` is "table", "sample-complexity", "tau" or "convergence"; ``parameter`` is a
    string naming the cell's setting within its experiment ("default", "n=40", "tau=0.3", ...); ``settings``
    holds everything the worker needs (JSON-serialisable) and defines the fingerprint."""

    kind: str
    dataset: str
    parameter: str
    trial: int
    settings: tuple  # sorted (key, value) pairs

    @property
    def settings_dict(self) -> dict:
        return dict(self.settings)


def fingerprint(settings: dict) -> str:
    """A short hash of a cell's settings (without the trial index)."""
    return settings_fingerprint(settings)


def record_path(out: Path, cell: Cell) -> Path:
    return Path(out) / "records" / cell.kind / cell.dataset / cell.parameter / f"trial-{cell.trial:03d}.json"


def timing_path(out: Path, cell: Cell) -> Path:
    """Where the wall times of a cell go (beside its record, under ``timings/``)."""
    return Path(out) / "timings" / cell.kind / cell.dataset / cell.parameter / f"trial-{cell.trial:03d}.json"


_RECORD_FIELDS = (("kind", str), ("dataset", str), ("parameter", str), ("trial", int), ("version", int),
                  ("fingerprint", str), ("settings", dict), ("results", dict))


def _record_problem(record: dict, cell: Cell) -> str | None:
    """Why ``record`` cannot be ``cell``'s record (keys, types, its cell, one result or error for every metric and
    method the cell ran), or None."""
    for key, kind in _RECORD_FIELDS:
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            return f"lacks {key!r} (a {kind.__name__})"
    if (record["kind"], record["dataset"], record["parameter"], record["trial"]) != (
            cell.kind, cell.dataset, cell.parameter, cell.trial):
        return (f"holds trial {record['trial']} of {record['kind']}/{record['dataset']}/{record['parameter']}, "
                f"not trial {cell.trial} of {cell.kind}/{cell.dataset}/{cell.parameter}")
    if record["version"] not in (2, RECORD_VERSION):
        return f"has version {record['version']}, not {RECORD_VERSION}"
    settings, results, errors = cell.settings_dict, record["results"], record.get("errors", {})
    metrics = settings.get("metrics", list(results))
    if not isinstance(errors, dict) or sorted(results) != sorted(metrics):
        return f"holds results for the metrics {sorted(results)}, not {sorted(metrics)}"

    methods = list(PROPOSED_METHODS) if cell.kind == "convergence" else settings.get("methods")
    for metric in metrics:
        done, failed = results[metric], errors.get(metric, {})
        if not isinstance(done, dict) or not isinstance(failed, dict) or not all(
                isinstance(v, dict) for v in done.values()):
            return f"holds malformed results for {metric}"
        if methods is not None and sorted({*done, *failed}) != sorted(methods):
            return f"holds {metric} results of {sorted({*done, *failed})}, not of the cell's methods {sorted(methods)}"
    return None


def _load_record(out: Path, cell: Cell) -> dict:
    """The checked record of ``cell``; a sound version-2 record (before the hash) is sealed in place.

    Raises DamagedRecord if it cannot be trusted, ValueError if it is sound but was made with other settings."""
    path = record_path(out, cell)
    record = read_sealed(path, unsealed_ok=True)
    problem = _record_problem(record, cell)
    if problem is not None or (record["version"] == RECORD_VERSION) != ("sha256" in record):
        raise DamagedRecord(path, problem or "its version and content hash do not go together")
    expected = fingerprint(cell.settings_dict)
    if record["fingerprint"] != expected:
        raise ValueError(
            f"{path} was produced with other settings (fingerprint {record['fingerprint']!r}, expected "
            f"{expected!r}); use another --out folder or delete {Path(out) / 'records' / cell.kind}")
    if "sha256" not in record:
        record = seal({**record, "version": RECORD_VERSION})
        _write_record(path, record)
    return record


def _write_record(path: Path, record: dict) -> None:
    write_text_atomically(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def load_records(out: Path, cells, *, recompute_damaged: bool = True) -> dict:
    """The existing, checked records of ``cells`` (cell -> record); raises if one was made with other settings.

    A damaged record is reported on stderr and set aside (its cell is then missing, so :func:`run_cells` recomputes
    it); with ``recompute_damaged=False`` it raises ValueError naming it instead."""
    found = {}
    for cell in cells:
        if not record_path(out, cell).exists():
            continue
        try:
            found[cell] = _load_record(out, cell)
        except DamagedRecord as damaged:
            if not recompute_damaged:
                raise ValueError(f"{damaged}; run the same command again to recompute it") from damaged
            report_damaged(damaged, f"trial {cell.trial} of {cell.kind}/{cell.dataset}/{cell.parameter}")
    return found


def load_timings(out: Path, cells) -> dict:
    """The wall times of those ``cells`` that have them (cell -> {"elapsed_seconds": ..., "methods": ...}); a
    damaged timing file counts as a time not known (timings are reported, never used in a result)."""
    found = {}
    for cell in cells:
        path = timing_path(out, cell)
        try:
            timing = json.loads(read_bytes(path).decode("utf-8"))  # a FIFO or folder: not known, never a wait
        except (OSError, ValueError):
            continue
        if isinstance(timing, dict) and isinstance(timing.get("elapsed_seconds"), (int, float)):
            found[cell] = timing
    return found


# ---------------------------------------------------------------------- workers
@functools.lru_cache(maxsize=4)
def _dataset(name: str, root: str | None):
    return load_dataset(name, root=root)


def _run_cell(cell: Cell, data_root: str | None, show_fit_warnings: bool = False) -> tuple[dict, dict]:
    """Run one cell in the current process (a worker or the main process): (record, timing).

    A :class:`~lfverify.learn.FitQualityWarning` (a fit near the all-positive classifier: what the paper's
    configuration gives at low priors) is counted in the timing file (``fit_quality_warnings``, summed and said once
    per run by :func:`fit_warning_summary`), and shown only with ``show_fit_warnings`` (``--debug``)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from threadpoolctl import threadpool_limits

    settings = cell.settings_dict
    started = time.perf_counter()
    dataset = _dataset(cell.dataset, data_root)
    with warnings.catch_warnings(record=True) as caught, threadpool_limits(1):
        warnings.simplefilter("default")  # as outside: each other warning is shown again below, once per place
        # liblinear / lbfgs iteration caps and Alg. 1's phase-1 warning are recorded per trial (the record
        # keeps Alg. 1's message); they must not flood the terminal of a 50-trial run.
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("always", FitQualityWarning)
        if cell.kind == "convergence":
            record = protocol.run_convergence(dataset, cell.trial, metrics=settings["metrics"],
                                              max_iter=settings["max_iter"],
                                              learning_rate=settings["learning_rate"], seed=settings["seed"])
        else:
            config = protocol.ProtocolConfig(metrics=tuple(settings["metrics"]), methods=tuple(settings["methods"]),
                                             max_iter=settings["max_iter"],
                                             learning_rates=tuple(settings["learning_rates"]),
                                             tau=settings.get("tau"), train_size=settings.get("train_size"))
            record = protocol.run_trial(dataset, cell.trial, config, seed=settings["seed"])
    fit_warnings = [w for w in caught if issubclass(w.category, FitQualityWarning)]
    for w in caught:
        if show_fit_warnings or w not in fit_warnings:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    timing = {"elapsed_seconds": round(time.perf_counter() - started, 3), "methods": record.pop("timing"),
              "fit_quality_warnings": len(fit_warnings)}
    record.update(kind=cell.kind, parameter=cell.parameter, version=RECORD_VERSION,
                  fingerprint=fingerprint(settings), settings=settings)
    return seal(record), timing


def fit_warning_summary(timings) -> str | None:
    """One line for the FitQualityWarnings counted in ``timings`` (timing dicts or None), or None if there were
    none: what a reproduction of the paper's configuration expects, said once instead of once per fit.

    A None entry or a timing without ``fit_quality_warnings`` counts none (a timing file not known, at any
    position); a count that is not a whole number >= 0 (NaN, inf, negative, fractional, not a number: a damaged
    timing file) is skipped and the line says how many were."""
    count = unreadable = 0
    for timing in timings:
        value = (timing or {}).get("fit_quality_warnings", 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                math.isfinite(value) and value >= 0 and value == int(value)):
            unreadable += 1
            continue
        count += int(value)
    if not count and not unreadable:
        return None
    skipped = (f"; {unreadable} timing file{'s' if unreadable > 1 else ''} with an unreadable count skipped"
               if unreadable else "")
    return (f"{count} fits ended at most 5 % above predicting every sample positive (FitQualityWarning): expected "
            f"for the paper's configuration at low priors (FINDINGS.md); --debug shows each{skipped}")


def _as_executor(executor, jobs):
    if executor is not None:
        return make_executor(executor)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an int >= 1; got {jobs!r}")
    return make_executor("serial") if jobs == 1 else make_executor("processes", workers=jobs)


def run_cells(cells, out, *, executor=None, jobs: int = 1, data_root=None, progress: bool | None = None,
              description: str = "trials", show_fit_warnings: bool = False) -> dict:
    """Run every cell without a record under ``out``; return all records (cell -> record).

    Parameters
    ----------
    cells : sequence of Cell
    out : path
        Output folder (records go to ``out/records``, wall times to ``out/timings``).
    executor : None, "serial", "processes" or an executor of :mod:`lfverify.parallel`, keyword-only
        Where the cells run (e.g. a ``DaskExecutor``); ``None`` chooses from ``jobs``.
    jobs : int >= 1, keyword-only
        Without ``executor``: 1 runs in this process, more in that many local worker processes.
    data_root : path or None
        Passed to :func:`lfverify.learn.load_dataset`.
    progress : bool, None, "auto" or a mode of :mod:`lfverify.io`
        Progress of the trials on stderr (:class:`lfverify.io.Progress`): ``None`` (default) shows a tqdm bar only
        when stderr is a terminal, ``"auto"`` (the command line) a bar on a terminal and a line per tenth of the
        trials otherwise, ``True`` / ``False`` force the bar / silence.
    show_fit_warnings : bool, keyword-only
        Show every FitQualityWarning of the trials (default: counted, :func:`fit_warning_summary`).
    """
    executor = _as_executor(executor, jobs)
    out = Path(out)
    cells = list(cells)
    for stale in [*(out / "records").rglob(".*.tmp"), *(out / "timings").rglob(".*.tmp")]:
        stale.unlink()  # left by a run killed while writing; never a valid record
    records = load_records(out, cells)
    todo = [c for c in cells if c not in records]
    root = None if data_root is None else str(data_root)
    bar = Progress(len(cells), description, "trial", mode=progress, initial=len(cells) - len(todo))
    try:
        with contextlib.closing(executor.map_unordered(_run_cell, [(cell, root, show_fit_warnings)
                                                                   for cell in todo])) as results:
            for index, (record, timing) in results:
                cell = todo[index]
                write_text_atomically(timing_path(out, cell), json.dumps(timing, indent=1, sort_keys=True) + "\n")
                _write_record(record_path(out, cell), record)
                records[cell] = record
                bar.advance(f"{cell.kind}, {cell.dataset}")
    finally:
        bar.close()
    return records
