"""The paper's experiments (Sec. 6, App. C) on the staged data sets, as files in ``--out``.

Experiments (``--experiments``, all by default):

* ``table`` - Tables 2, 4 and 5: every method on every data set, ``--trials`` (50) trials, written beside the
  paper's printed values (``paper_benchmark.md``);
* ``convergence`` - Sec. 6 / App. C.3: U-GD vs U-BFGS for ``--convergence-iter`` (300) iterations from N(0, I),
  the test metric by iteration (``convergence_<metric>.png``) and how many iterations U-BFGS needs;
* ``sample-complexity`` - App. C.5: the training set subsampled to ``--sizes`` (20, 40, ..., 400)
  (``sample_complexity_<metric>.png``);
* ``tau`` - App. C.6: U-GD and U-BFGS with tau in ``--taus`` (0.1, ..., 0.9) (``tau_sensitivity_<metric>.png``);
* ``compare`` - not in the paper, not run by default: the paper's U-GD / U-BFGS, the remedies of
  :class:`lfverify.learn.LinearFractionalClassifier` and the estimators a user would pick instead
  (``TunedThresholdClassifierCV(LogisticRegression)``, plain ``LogisticRegression``, the paper's Plug-in) on the
  same splits, with fit times as ratios to ``LogisticRegression`` (:mod:`lfverify.experiments`).

``--quick`` shrinks everything to a few minutes on 2 cores (3 small data sets, a few trials, coarse grids);
explicit options override it.  Records of finished trials are kept under ``--out/records`` and reused by the next
run with the same settings (resume after an interruption; see :mod:`lfverify.experiments`).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import lfverify.experiments._markdown as report
import lfverify.experiments._protocol as protocol
from lfverify.core import check_real
from lfverify.experiments._comparison import compare_section
from lfverify.experiments._figures import plot_convergence, plot_curves
from lfverify.experiments._runner import Cell, fingerprint, fit_warning_summary, load_timings, run_cells
from lfverify.io import claim_output_folder, write_text_atomically
from lfverify.learn import (
    DATASET_SPECS,
    STAGED_DATASETS,
    available_datasets,
    ensure_datasets,
    fetchable_datasets,
    load_dataset,
    missing_dataset_files,
)
from lfverify.parallel import WORKERS_PER_CPU, make_executor, max_local_workers

__all__ = ["BenchOptions", "QUICK", "EXPERIMENTS", "DEFAULT_EXPERIMENTS", "run_benchmark", "validate_options",
           "DATASET_NOTES"]

EXPERIMENTS = ("table", "convergence", "sample-complexity", "tau", "compare")
#: What ``lfverify bench`` runs without ``--experiments``: the paper's experiments.
DEFAULT_EXPERIMENTS = EXPERIMENTS[:4]

#: Remarks printed under the tables where the staged data differ from the paper's (MANIFEST.md).
DATASET_NOTES = {
    "sonar": "the staged sonar has prior 0.466 (+1 = rock); the paper prints 0.394, which matches neither class "
             "(it is spambase's value), so the paper's sonar may differ from this one.",
    "w8a": "only the LIBSVM training file is staged (49,749 of the paper's 64,700 rows).",
}


@dataclass(frozen=True)
class BenchOptions:
    """Everything ``lfverify bench`` needs (defaults: the paper's full protocol)."""

    out: Path = Path("bench-results")
    datasets: tuple | None = None  # None: every available data set
    metrics: tuple = protocol.METRICS
    methods: tuple = protocol.TABLE_METHODS
    experiments: tuple = DEFAULT_EXPERIMENTS
    trials: int = 50
    compare_methods: tuple = protocol.COMPARE_METHODS
    compare_trials: int | None = None  # None: trials
    max_iter: int = 100
    learning_rates: tuple = protocol.LEARNING_RATES
    sizes: tuple = tuple(range(20, 401, 20))
    size_trials: int | None = None  # None: trials
    taus: tuple = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
    tau_trials: int | None = None
    convergence_iter: int = 300
    convergence_trials: int | None = None
    convergence_learning_rate: float = 0.1
    seed: int = 0
    jobs: int = 1  # local worker processes (1: this process), unless executor says otherwise
    executor: str | None = None  # None: from jobs; "serial", "processes", or "dask" (with dask_address / dask_local)
    dask_address: str | None = None
    dask_local: int | None = None
    dask_timeout: float | None = None  # seconds to reach the scheduler at dask_address (None: the executor's default)
    alpha: float = 0.05
    test: str = "welch"
    data_root: str | None = None
    figures: bool = True
    progress: bool | str | None = field(default=None, compare=False)  # how trials are shown, not what they compute
    command: str = field(default="", compare=False)
    show_fit_warnings: bool = field(default=False, compare=False)  # --debug: every FitQualityWarning, not a count


#: ``--quick``: small data sets, few trials, coarse grids (a few minutes on 2 cores).
QUICK = dict(datasets=("breast-cancer", "diabetes", "sonar"), trials=5, sizes=(20, 60, 100, 200, 400),
             size_trials=3, taus=(0.1, 0.3, 0.5, 0.7, 0.9), tau_trials=3, convergence_trials=3)


#: The largest value of each count option.  The run holds every cell (and, as they finish, their records) in
#: memory, so memory grows with the counts; these bounds keep it bounded whatever is asked (a count beyond them is
#: refused before any work), far above the paper's protocol (50 trials, 100 and 300 iterations, 10 sizes, 9 taus).
#: At 1,000 trials the cells of every experiment on 17 data sets take 75 MiB.
COUNT_LIMITS = {"trials": 1000, "compare_trials": 1000, "size_trials": 1000, "tau_trials": 1000,
                "convergence_trials": 1000, "max_iter": 100_000, "convergence_iter": 100_000, "sizes": 100,
                "taus": 100}


def _int_at_least(value, name, low):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an int >= {low}; got {value!r}")
    if name in COUNT_LIMITS and value > COUNT_LIMITS[name]:
        raise ValueError(f"{name} must be at most {COUNT_LIMITS[name]:,} (the run holds every trial's cell and record "
                         f"in memory); got {value:,}")
    return value


def validate_options(options: BenchOptions) -> BenchOptions:
    """Check every option (names, ranges, data sets present); raise ValueError naming the bad one."""

    protocol.check_metric_names(options.metrics)
    protocol.check_methods(options.methods)
    protocol.check_methods(options.compare_methods)
    if "compare" in options.experiments and "LogReg" not in options.compare_methods:
        raise ValueError("compare_methods must include LogReg: every fit time is measured against it")
    for e in options.experiments:
        if e not in EXPERIMENTS:
            raise ValueError(f"experiments: unknown experiment {e!r}; expected some of {EXPERIMENTS}")
    if not options.experiments:
        raise ValueError(f"experiments must name at least one of {EXPERIMENTS}")
    for name in ("trials", "max_iter", "convergence_iter", "jobs", "seed"):
        _int_at_least(getattr(options, name), name, 0 if name in ("max_iter", "seed") else 1)
    for name in ("size_trials", "tau_trials", "convergence_trials", "compare_trials"):
        if getattr(options, name) is not None:
            _int_at_least(getattr(options, name), name, 1)
    for name in ("jobs", "dask_local"):
        value = getattr(options, name)
        if isinstance(value, int) and value > max_local_workers():
            raise ValueError(f"{name} must be at most {max_local_workers()} ({WORKERS_PER_CPU} per usable CPU: more "
                             f"processes only add memory); got {value:,}")
    for name in ("sizes", "taus"):
        if len(getattr(options, name)) > COUNT_LIMITS[name]:
            raise ValueError(f"{name} must hold at most {COUNT_LIMITS[name]} values; got {len(getattr(options, name))}")
    for tau in options.taus:
        check_real(tau, "taus", low=0.0, high=1.0, low_inclusive=False)
    for size in options.sizes:
        if isinstance(size, bool) or not isinstance(size, int) or size < 4:
            raise ValueError(f"sizes must be an int >= 4; got {size!r}")
    check_real(options.alpha, "alpha", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    check_real(options.convergence_learning_rate, "convergence_learning_rate", low=0.0, low_inclusive=False)
    if options.test not in ("welch", "paired"):
        raise ValueError(f"test must be 'welch' or 'paired'; got {options.test!r}")
    if options.data_root is not None and not Path(options.data_root).is_dir():
        raise ValueError(f"data_root (--data-root) must be a folder holding the data sets; got "
                         f"{str(options.data_root)!r}, which is not a folder")
    available = available_datasets(root=options.data_root)
    # at the cache location every data set with pinned sources is fetched on demand (run_benchmark)
    available += [name for name in fetchable_datasets(root=options.data_root) if name not in available]
    datasets = tuple(available) if options.datasets is None else tuple(options.datasets)
    if not datasets:
        raise ValueError("datasets: no data set is available under the data root")
    for name in datasets:
        if name in available:
            continue
        if name not in DATASET_SPECS:
            raise ValueError(f"datasets: unknown data set {name!r}; known: {', '.join(DATASET_SPECS)}")
        missing = missing_dataset_files(name, root=options.data_root)
        why = (f"its data location lacks {'; '.join(missing)}" if missing
               else DATASET_SPECS[name].note or "not available at the data location")
        raise ValueError(f"datasets: data set {name!r} cannot be used: {why}; available: "
                         f"{', '.join(available) or '(none)'}")
    return replace(options, datasets=datasets)


def _n_train(name: str, root) -> int:
    staged = STAGED_DATASETS.get(name)
    n = staged[1] if staged and staged[1] else load_dataset(name, root=root).X.shape[0]
    return n - int(round(0.2 * n))


def build_cells(options: BenchOptions) -> dict:
    """experiment -> list of cells."""
    base = {"metrics": list(options.metrics), "max_iter": options.max_iter,
            "learning_rates": list(options.learning_rates), "seed": options.seed}
    cells = {}

    def make(kind, dataset, parameter, trials, settings):
        remedies = sorted(m for m in settings.get("methods", ()) if m in protocol.REMEDY_METHODS)
        if remedies:  # their options define what the column computes: part of the fingerprint
            settings = {**settings, "remedy_options": json.dumps({m: protocol.REMEDY_METHODS[m] for m in remedies},
                                                                 sort_keys=True)}
        key = tuple(sorted(settings.items(), key=lambda kv: kv[0]))
        key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in key)
        return [Cell(kind, dataset, parameter=parameter, trial=t, settings=key) for t in range(trials)]

    for experiment in options.experiments:
        out = []
        for dataset in options.datasets:
            if experiment == "table":
                out += make("table", dataset, parameter="default", trials=options.trials,
                            settings={**base, "methods": list(options.methods)})
            elif experiment == "sample-complexity":
                n_train = _n_train(dataset, options.data_root)
                for size in options.sizes:
                    if size <= n_train:
                        out += make("sample-complexity", dataset, parameter=f"n={size}",
                                    trials=options.size_trials or options.trials,
                                    settings={**base, "methods": list(options.methods), "train_size": size})
            elif experiment == "tau":
                methods = [m for m in options.methods if m in protocol.PROPOSED_METHODS]
                for tau in options.taus:
                    out += make("tau", dataset, parameter=f"tau={tau:g}", trials=options.tau_trials or options.trials,
                                settings={**base, "methods": methods, "tau": float(tau)})
            elif experiment == "compare":
                out += make("compare", dataset, parameter="default", trials=options.compare_trials or options.trials,
                            settings={**base, "methods": list(options.compare_methods)})
            elif experiment == "convergence":
                out += make("convergence", dataset, parameter="default",
                            trials=options.convergence_trials or options.trials,
                            settings={"metrics": list(options.metrics), "max_iter": options.convergence_iter,
                             "learning_rate": options.convergence_learning_rate, "seed": options.seed})
        cells[experiment] = out
    return cells


#: BenchOptions fields that say where the trials run, not what they compute: left out of summary.json, so that
#: every executor writes the same summary.
EXECUTION_OPTIONS = ("out", "progress", "jobs", "executor", "dask_address", "dask_local", "dask_timeout",
                     "show_fit_warnings")


def make_bench_executor(options: BenchOptions):
    """The executor of :mod:`lfverify.parallel` that ``options`` select."""

    if options.dask_timeout is not None and options.dask_address is None:
        raise ValueError("--dask-timeout applies to --dask ADDRESS only")
    if options.dask_address is not None or options.dask_local is not None:
        return make_executor(dask_address=options.dask_address, dask_local=options.dask_local,
                             dask_timeout=options.dask_timeout)
    if options.executor is not None:
        return make_executor(options.executor, workers=options.jobs)
    return make_executor("serial") if options.jobs == 1 else make_executor("processes", workers=options.jobs)


def run_benchmark(options: BenchOptions, *, executor=None) -> Path:
    """Run the selected experiments, write ``paper_benchmark.md``, ``summary.json`` and the figures; return the
    path of the markdown report.

    ``executor`` (an executor instance of :mod:`lfverify.parallel`, e.g. the one ``lfverify verify``
    uses for its studies) overrides the one the options select."""

    options = validate_options(options)
    executor = make_bench_executor(options) if executor is None else executor
    getattr(executor, "check", lambda: None)()  # a Dask scheduler must answer before any trial runs
    out = claim_output_folder(options.out, command="bench", fingerprint=fingerprint({"seed": options.seed}),
                              settings=f"seed {options.seed}")
    # the workers read the data sets: fetch the missing ones here, once, before any trial
    ensure_datasets(options.datasets, root=options.data_root, progress=options.progress)
    all_cells = build_cells(options)
    started = time.time()
    records, timings, compute = {}, {}, 0.0
    # Every experiment's trials in one run of the executor: one pool of workers started once (a spawned worker
    # imports lfverify in 2-3 s) and no worker idle at the end of each experiment while the other finishes its last
    # trial (FINDINGS.md, "A faster suite, round 2").
    found = run_cells([c for cells in all_cells.values() for c in cells], out, executor=executor,
                      data_root=options.data_root, progress=options.progress, description="benchmark",
                      show_fit_warnings=options.show_fit_warnings)
    for experiment, cells in all_cells.items():
        if cells:
            ordered = sorted(cells, key=lambda c: (c.dataset, c.parameter, c.trial))
            records[experiment] = [found[c] for c in ordered]
            times = load_timings(out, cells)
            timings[experiment] = [times.get(c) for c in ordered]
            compute += sum(t.get("elapsed_seconds", 0.0) for t in times.values())
    elapsed = time.time() - started
    said = fit_warning_summary([t for ts in timings.values() for t in ts])
    if said and options.progress not in ("off", False):
        print(f"benchmark: {said}", file=sys.stderr, flush=True)
    lines = ["# The paper's benchmark, reproduced (`lfverify bench`)", "",
             f"Command: `{options.command or 'lfverify bench'}`", "",
             f"Data sets: {', '.join(options.datasets)}. Metrics: {', '.join(options.metrics)}. "
             f"Seed {options.seed}. U-GD / U-BFGS: {options.max_iter} iterations, ERM (linear SVM) start, "
             f"learning rate from {{{', '.join(f'{r:g}' for r in options.learning_rates)}}} on a 4:1 validation "
             f"split, tau = 0.33 (F1) / 0.75 (Jaccard). Compute time of the trials: {compute:.0f} s (sum over "
             f"trials, one worker each); wall time of this invocation: {elapsed:.0f} s on "
             f"{executor.describe()} (trials recorded by an earlier run are reused, not recomputed).", ""]
    summary = {"options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.__dict__.items()
                           if k not in EXECUTION_OPTIONS}}
    summary["options"]["out"] = str(options.out)
    if "table" in records:
        _table_sections(records, options, lines, summary)
    if "compare" in records:
        markdown, summary["compare"] = compare_section(records["compare"], timings["compare"],
                                                       metrics=options.metrics, methods=options.compare_methods,
                                                       alpha=options.alpha, test=options.test)
        lines.append(markdown)
    if "convergence" in records:
        _convergence_section(records, options, out=out, lines=lines, summary=summary)
    _curve_sections(records, options, out=out, lines=lines, summary=summary)
    report_path = write_text_atomically(out / "paper_benchmark.md", "\n".join(lines).rstrip() + "\n")
    write_text_atomically(out / "summary.json", json.dumps(summary, indent=1, sort_keys=True, default=repr) + "\n")
    return report_path


def _table_sections(records, options, lines: list, summary: dict) -> None:
    """Tables 2, 4 and 5 of the ``"table"`` records (and the learning rates chosen, and the training values
    where U-GD and U-BFGS both ran), appended to ``lines`` and ``summary``."""
    lines += ["## Tables 2, 4 and 5", ""]
    summary["table"] = {}
    for metric in options.metrics:
        values, errors = report.collect_table_values(records["table"], metric)
        lines.append(report.markdown_results_table(values, metric, methods=options.methods, alpha=options.alpha,
                                                   test=options.test, errors=errors, notes=DATASET_NOTES))
        summary["table"][metric] = {d: {m: list(v) for m, v in ms.items()} for d, ms in values.items()}
    for metric in options.metrics:
        proposed = [m for m in options.methods if m in protocol.PROPOSED_METHODS]
        if proposed:
            lines.append(report.markdown_learning_rate_table(records["table"], metric, methods=proposed,
                                                             rates=options.learning_rates))
    if all(m in options.methods for m in ("U-GD", "U-BFGS")):
        summary["training"] = {}
        for metric in options.metrics:
            training = report.collect_training_values(records["table"], metric)
            lines.append(report.markdown_training_table(training, metric, alpha=options.alpha))
            summary["training"][metric] = training


def _convergence_section(records, options, out, lines: list, summary: dict) -> None:
    """The convergence tables (Sec. 6, App. C.3) of the ``"convergence"`` records, and their figures, appended to
    ``lines`` and ``summary``."""
    lines += ["## Convergence of U-GD and U-BFGS (Sec. 6, App. C.3)", ""]
    summary["convergence"] = {}
    for metric in options.metrics:
        conv = report.convergence_summary(records["convergence"], metric)
        lines.append(report.markdown_convergence_table(conv, metric, max_iter=options.convergence_iter))
        summary["convergence"][metric] = {d: {m: {k: (v._asdict() if hasattr(v, "_asdict") else v)
                                                  for k, v in s.items()} for m, s in ms.items()}
                                          for d, ms in conv.items()}
        if options.figures:
            path = plot_convergence(records["convergence"], metric, out / f"convergence_{metric}.png",
                                    title=f"Test {metric} by iteration (N(0, I) start)")
            lines += [f"![convergence {metric}]({path.name})", ""]


def _curve_sections(records, options, out, lines: list, summary: dict) -> None:
    """The sample-complexity (App. C.5) and tau (App. C.6) curves, their claims and figures, appended to ``lines``
    and ``summary``."""
    for experiment, key, label, title, stem in (
            ("sample-complexity", "train_size", "training-set size n", "Sample complexity (App. C.5)",
             "sample_complexity"),
            ("tau", "tau", "tau", "Sensitivity to tau (App. C.6)", "tau_sensitivity")):
        if experiment not in records:
            continue
        lines += [f"## {title}", ""]
        summary[experiment] = {}
        for metric in options.metrics:
            curves = report.collect_curve_values(records[experiment], metric, key)
            lines.append(report.markdown_curve_table(curves, metric, label=label, title=title,
                                                     errors=report.collect_curve_errors(records[experiment], metric,
                                                                                        key)))
            claims = (report.markdown_sample_complexity_claims if experiment == "sample-complexity" else
                      report.markdown_tau_claims)
            lines.append(claims(curves, metric, alpha=options.alpha))
            summary[experiment][metric] = {d: {m: {repr(x): v for x, v in xs.items()} for m, xs in ms.items()}
                                           for d, ms in curves.items()}
            if options.figures and curves:
                path = plot_curves(curves, out / f"{stem}_{metric}.png", xlabel=label, ylabel=f"test {metric}",
                                   title=f"{title}: test {metric}")
                lines += [f"![{stem} {metric}]({path.name})", ""]
