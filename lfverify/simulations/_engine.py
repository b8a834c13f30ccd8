"""The simulation engine: a study is a grid of tasks, each with its own random stream, run by an executor,
recorded one finished task at a time, and resumable.

Layout of an output folder ``DIR`` (every file written atomically, :func:`lfverify.io.write_text_atomically`):

* ``DIR/lfverify-owner.json`` - the folder's owner (``simulate <study>``) and the run's fingerprint
  (:mod:`lfverify.io`): another command, or this study with other settings, refuses the folder.
* ``DIR/run.json`` - the run's identity (study, mode, configuration, seed, lfverify version) and its fingerprint;
  a folder never mixes the records of two configurations (a mismatch is an error, not a silent restart).
* ``DIR/records/<task key>.json`` - one file per finished task: its key, the fingerprint, its rows and the
  SHA-256 of that content (:mod:`lfverify.io`).  Resuming skips every task whose record exists and
  passes its checks (hash, keys, types, the number of rows the study declares for the task); a damaged record is
  reported, set aside as ``*.json.damaged`` and recomputed, never used.  So a killed run continues where it
  stopped, and ends with results identical to an uninterrupted run (every task's numbers depend only on the
  study seed and its key).
* ``DIR/records.csv`` - all rows in grid order (not completion order), floats printed to round-trip exactly.
* ``DIR/summary.json`` - the study's fitted rates, intervals and verdicts, computed from the records as read
  back from disk, and a ``generated_by`` block (command, version, seed).  No timings, so two runs compare equal.
* ``DIR/*.png`` - figures (matplotlib, the ``plot`` extra; skipped with a notice when it is missing).

Randomness: the stream of a task (or of one replication, at a study's choice) is
``SeedSequence(entropy=study_seed, spawn_key=spawn_key(key))``, where :func:`spawn_key` hashes the canonical text
of the key with BLAKE2b into four 32-bit words, so streams are independent across keys and do not depend on the
order of execution or the number of workers.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple

import numpy as np

from lfverify._version import __version__
from lfverify.core import as_seed_sequence, child, text_key
from lfverify.io import (
    DamagedRecord,
    Progress,
    claim_output_folder,
    matplotlib_available,
    read_bytes,
    read_sealed,
    read_text,
    report_damaged,
    seal,
    settings_fingerprint,
    write_text_atomically,
)
from lfverify.parallel import make_executor

__all__ = ["Task", "Study", "RunResult", "spawn_key", "seed_sequence", "run", "read_records", "MODES"]

#: Run sizes every study defines: "smoke" (the test suite, seconds), "quick" (committed results, < 1 min),
#: "full" (the issue's sizes).
MODES = ("smoke", "quick", "full")
#: Format of run.json's identity (part of the fingerprint: unchanged, so earlier folders keep resuming).
_FORMAT = 1
#: Format of a task record: 2 adds the content hash (a format-1 record is checked, then sealed in place).
_RECORD_FORMAT = 2


@dataclass(frozen=True)
class Task:
    """One unit of work: ``key`` identifies it (and seeds it); ``key`` items are (name, int | str) pairs."""

    key: tuple

    def __post_init__(self):
        if not isinstance(self.key, tuple) or not self.key:
            raise TypeError(f"Task.key must be a non-empty tuple of (name, value) pairs; got {self.key!r}")
        for item in self.key:
            if (not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], str)
                    or isinstance(item[1], bool) or not isinstance(item[1], (int, str))):
                raise TypeError(f"Task.key items must be (str, int | str) pairs; got {item!r}")

    @property
    def params(self) -> dict:
        return dict(self.key)

    @property
    def label(self) -> str:
        """Canonical text of the key, e.g. ``population=finite,n=1000,block=0``."""
        return canonical_key(self.key)


def canonical_key(key) -> str:
    return ",".join(f"{name}={value}" for name, value in key)


def spawn_key(key) -> tuple[int, ...]:
    """The :func:`lfverify.core.text_key` of ``key``'s canonical text (or of ``key`` itself, a str): a stable,
    order-independent SeedSequence spawn key."""
    return text_key(key if isinstance(key, str) else canonical_key(key))


def seed_sequence(study_seed: int, key) -> np.random.SeedSequence:
    """The stream of ``key`` (a tuple of pairs or its canonical text) within the study seeded by ``study_seed``: the
    child of ``SeedSequence(study_seed)`` at the spawn key of the key's canonical text,
    ``"population=finite,n=100,..."``
    (BLAKE2b-128 as four 32-bit words: the package's seeding rule, :mod:`lfverify.core`)."""
    if isinstance(study_seed, bool) or not isinstance(study_seed, (int, np.integer)) or study_seed < 0:
        raise ValueError(f"study_seed must be a non-negative int; got {study_seed!r}")
    return child(as_seed_sequence(int(study_seed), "study_seed"), *spawn_key(key))


@dataclass(frozen=True)
class Study:
    """A Monte-Carlo study: its task grid, per-task computation and summary.

    Attributes
    ----------
    name : str
        Registry name (``lfverify simulate NAME``).
    claim : str
        What the study measures, citing the paper.
    modes : mapping of "smoke" / "quick" / "full" to a configuration dict (JSON-serialisable)
    seed : int
        The fixed default study seed.
    tasks : callable(config) -> list[Task]
    context : callable(config) -> dict
        Study-wide quantities computed once in the main process (population values on the theta net, theta*,
        ...) and handed to every task; small and picklable.
    run_task : callable(task, config, context, study_seed) -> list[dict]
        A module-level function (picklable for the process and Dask executors) returning the task's rows of
        flat values (str, int, float, bool).
    summarize : callable(rows, config, context) -> dict
    figures : callable(rows, summary, out_dir) -> list[Path], or None
    task_rows : callable(task, config) -> int, or None
        How many rows ``run_task`` returns for ``task``; checked when a record is written and read back (a
        record holding fewer rows is damaged, not a smaller study).
    version : str or None
        The identity of the study's code (a user study's: :func:`lfverify.simulations.rate_study` sets it from its
        statistic's source and the user's ``version``); part of the run's fingerprint when set, so a changed
        statistic never resumes the records of the old one.  The built-in studies leave it None (their code is
        lfverify's, whose version is in the fingerprint already).
    command : str
        How the study is run from the command line, as ``generated_by`` names it (default: ``lfverify simulate
        NAME``, the built-ins).  A study with a command of its own is not a built-in: its output folder's owner is
        ``simulate --study NAME``, so it never shares a folder with the built-in of the same name.
    """

    name: str
    claim: str
    modes: Mapping[str, Mapping[str, Any]]
    seed: int
    tasks: Callable
    context: Callable
    run_task: Callable
    summarize: Callable
    figures: Callable | None = None
    references: tuple = field(default_factory=tuple)
    task_rows: Callable | None = None
    version: str | None = None
    command: str = ""

    @property
    def owner(self) -> str:
        """The command an output folder of this study belongs to (:mod:`lfverify.io`)."""
        return f"simulate --study {self.name}" if self.command else f"simulate {self.name}"

    def config(self, mode: str, overrides: Mapping | None = None) -> dict:
        if mode not in self.modes:
            raise ValueError(f"mode must be one of {tuple(self.modes)} for study {self.name!r}; got {mode!r}")
        config = json.loads(json.dumps(self.modes[mode]))  # a deep, JSON-clean copy
        for name, value in (overrides or {}).items():
            if name not in config:
                raise ValueError(f"override {name!r} is not a constant of study {self.name!r}; "
                                 f"known: {sorted(config)}")
            config[name] = value
        return config


class RunResult(NamedTuple):
    """What :func:`run` did: the summary (as written), how many tasks it computed and found done."""

    summary: dict
    computed: int
    skipped: int
    out: Path
    figures: list


def _execute(run_task: Callable, config: dict, study_seed: int, task: Task, context: dict) -> list[dict]:
    """Worker entry point (module level, so process and Dask workers can unpickle it; ``run_task`` is the study's
    module-level function, pickled by reference)."""
    return run_task(task, config, context, study_seed)


def _clean_value(value, where):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{where}: non-finite value {value!r} (a study must not record NaN or inf)")
        return value
    if isinstance(value, str):
        return value
    raise TypeError(f"{where}: row values must be str, int, float or bool; got {type(value).__name__}")


def _clean_rows(rows, task: Task, study: Study, config: dict) -> list[dict]:
    """The rows of ``task`` as flat JSON values; raises if they are not the list of dicts of flat values, in the
    number ``study.task_rows`` declares, that a task returns (for computed rows and rows read back alike)."""
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise TypeError(f"task {task.label}: run_task must return a list of dicts")
    if study.task_rows is not None and len(rows) != study.task_rows(task, config):
        raise ValueError(f"task {task.label}: {len(rows)} rows where the study has "
                         f"{study.task_rows(task, config)}")
    return [{str(k): _clean_value(v, f"task {task.label}, column {k}") for k, v in row.items()} for row in rows]


_SAFE = re.compile(r"[^A-Za-z0-9_.=,+-]")


def _record_path(records_dir: Path, task: Task) -> Path:
    return records_dir / (_SAFE.sub("_", task.label) + ".json")




def _write_record(path: Path, text: str) -> None:
    """One finished task's record, atomically (the resume test slows this down to kill a run mid-way)."""
    write_text_atomically(path, text)


_RECORD_KEYS = ("format", "study", "fingerprint", "key", "rows")


def _load_record(path: Path, task: Task, fingerprint: str, study: Study, config: dict) -> list[dict]:
    """The rows of a finished task's record, checked (hash, schema, row count); a format-1 record (before the
    hash) is sealed in place.

    Raises
    ------
    DamagedRecord
        If the record cannot be trusted (it is then recomputed).
    ValueError
        If it is sound but belongs to another run (another fingerprint).
    """
    data = read_sealed(path, unsealed_ok=True)
    missing = [k for k in _RECORD_KEYS if k not in data]
    if missing:
        raise DamagedRecord(path, f"lacks {', '.join(map(repr, missing))}")
    key = data["key"]
    if (data["format"] not in (1, _RECORD_FORMAT) or data["study"] != study.name
            or not isinstance(data["fingerprint"], str) or not isinstance(key, list)
            or [tuple(p) if isinstance(p, list) else p for p in key] != list(task.key)):
        raise DamagedRecord(path, f"is not a format-{_RECORD_FORMAT} record of task {task.label} of study "
                                  f"{study.name!r}")
    try:
        rows = _clean_rows(data["rows"], task, study, config)
    except (TypeError, ValueError) as exc:
        raise DamagedRecord(path, str(exc)) from exc
    if data["fingerprint"] != fingerprint:
        raise ValueError(f"record {path} belongs to a different run (fingerprint {data['fingerprint']!r}, "
                         f"expected {fingerprint!r}); use another output folder")
    if "sha256" not in data:  # written before records were sealed, and sound: seal it
        _write_record(path, _record_text(study, fingerprint, task, rows))
    return rows


def _record_text(study: Study, fingerprint: str, task: Task, rows: list[dict]) -> str:
    record = {"format": _RECORD_FORMAT, "study": study.name, "fingerprint": fingerprint,
              "key": [list(p) for p in task.key], "rows": rows}
    return json.dumps(seal(record), allow_nan=False) + "\n"


def _read_manifest(manifest: Path) -> dict | None:
    """run.json's content, or None if it is missing or damaged (the owner marker already vouched for the
    fingerprint, and the records are checked one by one, so it is rewritten)."""
    try:
        previous = json.loads(read_bytes(manifest).decode("utf-8"))  # a FIFO or device: refused, never waited on
    except (OSError, ValueError):
        return None
    return previous if isinstance(previous, dict) else None


def read_records(out) -> list[dict]:
    """The rows of ``DIR/records.csv`` with numbers parsed back (int, float) - for analysis outside a run.

    Raises
    ------
    NotARegularFile
        If ``records.csv`` is a folder, a FIFO, a device or a socket (``lfverify/io/_files.py``: never a wait).
    """
    rows = []
    with io.StringIO(read_text(Path(out) / "records.csv"), newline="") as fh:
        for row in csv.DictReader(fh):
            parsed = {}
            for k, v in row.items():
                if v == "":
                    continue
                for kind in (int, float):
                    try:
                        parsed[k] = kind(v)
                        break
                    except ValueError:
                        continue
                else:
                    parsed[k] = {"True": True, "False": False}.get(v, v)
            rows.append(parsed)
    return rows


def _csv_text(rows: list[dict]) -> str:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: repr(v) if isinstance(v, float) else v for k, v in row.items()})
    return buffer.getvalue()


def generated_by(study: Study, mode: str, seed: int, overrides) -> dict:
    flag = {"quick": " --quick", "full": " --full"}.get(mode, f" --mode {mode}")
    command = f"{study.command or f'lfverify simulate {study.name}'}{flag} --seed {seed} --out DIR"
    return {"note": f"GENERATED by `{command}`; do not edit by hand", "command": command,
            "lfverify_version": __version__, "seed": seed, "mode": mode,
            **({"overrides": dict(overrides)} if overrides else {})}


def run(study: Study, *, mode: str = "quick", out, executor="processes", seed: int | None = None,
        progress: bool | None = None, figures: bool = True, overrides: Mapping | None = None,
        announce: Callable[[], None] | None = None) -> RunResult:
    """Run (or resume) ``study`` in ``mode`` into the folder ``out``.

    Parameters
    ----------
    study : Study
    mode : {"smoke", "quick", "full"}, keyword-only
    out : path, keyword-only
        Output folder (created).  Re-running into the same folder resumes; a folder holding another
        configuration's records is refused (ValueError).
    executor : "serial", "processes", an executor instance, keyword-only
        See :mod:`lfverify.parallel`.
    seed : int or None, keyword-only
        Study seed; ``None`` is the study's fixed seed.
    progress : bool, None, "auto" or a mode of :mod:`lfverify.io`, keyword-only
        Progress of the tasks on stderr (:class:`lfverify.io.Progress`): ``None`` shows a bar only when stderr is a
        terminal, ``"auto"`` (the command line) a bar on a terminal and a line per tenth of the tasks otherwise,
        ``True`` / ``False`` force the bar / silence.
    figures : bool, keyword-only
        Write the PNG figures (needs matplotlib).
    overrides : mapping or None, keyword-only
        Replace some of the mode's constants (tests, exploration); recorded in the fingerprint and summary.
    announce : callable or None, keyword-only
        Called once the folder is known to be this run's (claimed, and its run.json agrees), before any task runs:
        the command line prints its progress line there, so a refused folder gives one line, the refusal.
    """
    if not isinstance(study, Study):
        raise TypeError(f"study must be a Study; got {type(study).__name__}")
    config = study.config(mode, overrides)
    seed = study.seed if seed is None else seed
    seed_sequence(seed, "check")  # validates the seed
    executor = make_executor(executor)
    out = Path(out)
    identity = {"format": _FORMAT, "study": study.name, "mode": mode, "config": config, "seed": int(seed),
                "lfverify_version": __version__, **({"code": study.version} if study.version is not None else {})}
    fingerprint = settings_fingerprint(identity)
    getattr(executor, "check", lambda: None)()  # a Dask scheduler must answer before any work starts
    claim_output_folder(out, command=study.owner, fingerprint=fingerprint, option="out",
                        settings=f"mode {mode}, seed {seed}" + (f", overrides {dict(overrides)}" if overrides else "")
                        + (f", code {study.version}" if study.version is not None else ""))
    records_dir, manifest, previous = _prepared_folder(out, fingerprint)
    if announce is not None:
        announce()

    tasks = study.tasks(config)
    labels = [t.label for t in tasks]
    if len(set(labels)) != len(labels):
        raise ValueError(f"study {study.name!r} produced duplicate task keys")
    paths = [_record_path(records_dir, t) for t in tasks]
    pending = _pending_tasks(tasks, paths, fingerprint=fingerprint, study=study, config=config)
    if previous is None:  # written once the records are known to be this run's
        write_text_atomically(manifest, json.dumps({**identity, "fingerprint": fingerprint}, indent=2) + "\n")
    context = study.context(config)
    arguments = [(study.run_task, config, int(seed), tasks[i], context) for i in pending]
    if arguments:  # what cannot reach a worker is refused before any task runs (a process pool pickles by reference)
        getattr(executor, "check_arguments", lambda a: None)(arguments[0])
    bar = Progress(len(tasks), study.name, "task", mode=progress, initial=len(tasks) - len(pending))
    try:
        with contextlib.closing(executor.map_unordered(_execute, arguments)) as results:
            for j, rows in results:
                i = pending[j]
                rows = _clean_rows(rows, tasks[i], study, config)
                _write_record(paths[i], _record_text(study, fingerprint, tasks[i], rows))
                bar.advance(tasks[i].label)
    finally:
        bar.close()

    all_rows = _all_rows(tasks, paths, fingerprint=fingerprint, study=study, config=config)
    write_text_atomically(out / "records.csv", _csv_text(all_rows))
    summary = {"study": study.name, "claim": study.claim, "generated_by": generated_by(study, mode, seed, overrides),
               "config": config, **study.summarize(all_rows, config, context)}
    write_text_atomically(out / "summary.json", json.dumps(summary, indent=2, allow_nan=False) + "\n")
    written = _write_figures(study, all_rows, summary, out) if figures else []
    return RunResult(summary=summary, computed=len(pending), skipped=len(tasks) - len(pending), out=out,
                     figures=written)


def _prepared_folder(out: Path, fingerprint: str):
    """``out``'s records folder (created; temporary files of a killed run removed), its run.json and the manifest
    read from it (None when absent): (records_dir, manifest, previous).  A manifest of another run is refused."""
    records_dir = out / "records"
    records_dir.mkdir(parents=True, exist_ok=True)
    for stale in records_dir.glob(".*.tmp"):  # left by a run killed while writing; never a valid record
        stale.unlink()
    manifest = out / "run.json"
    previous = _read_manifest(manifest)
    if previous is not None and previous.get("fingerprint") != fingerprint:
        raise ValueError(f"out: {out} holds the results of another run ({previous.get('study')!r}, mode "
                         f"{previous.get('mode')!r}, seed {previous.get('seed')!r}, fingerprint "
                         f"{previous.get('fingerprint')!r}); choose an empty folder to start this one")
    return records_dir, manifest, previous


def _write_figures(study: Study, all_rows: list[dict], summary: dict, out: Path) -> list:
    """The study's figures written into ``out`` (none without matplotlib, said on stderr, or without figures)."""
    if study.figures is None:
        return []
    if matplotlib_available():
        return list(study.figures(all_rows, summary, out))
    print(f"lfverify simulate {study.name}: matplotlib is not installed (pip install \"lfverify[plot]\"); "
          "figures skipped", file=sys.stderr)
    return []


def _pending_tasks(tasks, paths, *, fingerprint: str, study: Study, config: dict) -> list[int]:
    """The indices of the tasks to run: those without a record, and those whose record is damaged (reported)."""
    pending = []
    for i, (task, path) in enumerate(zip(tasks, paths)):
        if not path.exists():
            pending.append(i)
            continue
        try:
            _load_record(path, task=task, fingerprint=fingerprint, study=study, config=config)
        except DamagedRecord as damaged:
            report_damaged(damaged, f"task {task.label}")
            pending.append(i)
    return pending


def _all_rows(tasks, paths, *, fingerprint: str, study: Study, config: dict) -> list[dict]:
    """Every task's rows, read back from its record (ValueError for a record damaged since this run wrote it)."""
    all_rows = []
    for task, path in zip(tasks, paths):
        try:
            all_rows.extend(_load_record(path, task=task, fingerprint=fingerprint, study=study, config=config))
        except DamagedRecord as damaged:  # damaged since this run checked or wrote it
            raise ValueError(f"{damaged}; run the same command again to recompute it") from damaged
    return all_rows
