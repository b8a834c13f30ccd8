"""Rate studies of anyone's statistic, estimator or classifier against an exactly known population value.

:func:`rate_study` turns a *statistic* - a function of one sample and the population's exact target, returning the
error (or several named errors) whose decay in n is claimed - into a :class:`~lfverify.simulations.Study` that the
engine runs like the built-in ones: replications of each sample size, each drawn from its own stream
(``SeedSequence(study seed, key (population, n, replication))``, the built-in studies' rule, so a user study and a
built-in seeded alike see the same samples), records on disk one finished task at a time, resume, processes or
Dask, progress.  Its summary fits log(error) on log(n) over the replications with HC3 standard errors
(:func:`lfverify.simulations._rates.fit_rate`, the uniform-convergence study's fit), compares the slope with the
expected exponent, and draws the log-log figure.  :func:`measure_rate` runs it and returns a :class:`RateResult`
(table, fits, verdict, figures); :func:`lfverify.testing.assert_rate` turns the verdict into a pytest assertion.

A population is one of lfverify's (:mod:`lfverify.core`: finite, Gaussian, bounded-logistic, with their exact
U, U_phi, V_phi, U-dagger) or anything with ``sample(n, seed) -> (X, y)``, or a function ``(n, rng) -> (X, y)``;
the exact target is given separately (``target``: a function of the population, computed once in the main process,
or a value per population name).  The statistic runs in the workers, so for the process executor it must be a
function at the top level of a module file (Dask and the serial executor take any function).
"""

from __future__ import annotations

import hashlib
import inspect
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

from lfverify.core._seeding import child, text_key
from lfverify.simulations._engine import RunResult, Study, Task, run, seed_sequence
from lfverify.simulations._intervals import geometric_mean_interval
from lfverify.simulations._rates import _check_settings, fit_rate

__all__ = ["Replication", "StatisticError", "rate_study", "RateResult", "measure_rate", "block_tasks",
           "replication_sample"]

_NAME = re.compile(r"^[A-Za-z0-9_.+-]+$")


@dataclass(frozen=True)
class Replication:
    """One replication handed to a statistic: the sample and where it comes from.

    Attributes
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), labels in {-1, +1}
    n, replication : int
    population : str
        The population's name in the study.
    seed : numpy.random.SeedSequence
        The statistic's own stream (independent of the sample's): ``numpy.random.default_rng(seed)``, or
        ``lfverify.core.int_seed(seed)`` for a scikit-learn ``random_state``.
    """

    X: np.ndarray
    y: np.ndarray
    n: int
    replication: int
    population: str
    seed: np.random.SeedSequence

    def rng(self) -> np.random.Generator:
        return np.random.default_rng(self.seed)


class StatisticError(ValueError):
    """The statistic failed, or returned something that is not a finite number, on one replication: the message
    names the population, n, the replication and the study seed (re-running the same call reproduces it)."""


def replication_sample(population, name: str, n: int, replication: int, study_seed: int):
    """(X, y) of one replication: drawn from ``SeedSequence(study_seed, key (population name, n, replication))``,
    the built-in studies' rule (:func:`lfverify.simulations.seed_sequence`)."""
    key = (("population", name), ("n", int(n)), ("replication", int(replication)))
    rng = np.random.default_rng(seed_sequence(study_seed, key))
    if hasattr(population, "sample"):
        X, y = population.sample(int(n), seed=rng)
    else:
        X, y = population(int(n), rng)
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if X.ndim != 2 or X.shape[0] != n or y.shape != (n,):
        raise StatisticError(f"population {name!r} drew X of shape {X.shape} and y of shape {y.shape} at n = {n}; "
                             f"expected ({n}, d) and ({n},)")
    return X, y.astype(np.int64)


def block_tasks(populations, config) -> list[Task]:
    """Tasks population x n x block of replications: a block holds at most ``samples_per_task // n`` replications
    (at least one), so one task's memory is bounded by ``config["samples_per_task"]`` samples whatever the number
    of replications; the grouping depends on the configuration only, never on the number of workers."""
    tasks = []
    R = config["replications"]
    for pop_name in populations:
        for n in config["sample_sizes"]:
            per_task = max(1, min(R, config["samples_per_task"] // n))
            for first in range(0, R, per_task):
                tasks.append(Task((("population", pop_name), ("n", int(n)), ("first", first),
                                   ("count", min(per_task, R - first)))))
    return tasks


def _quantities(value, quantity: str, where: str) -> dict:
    """The statistic's value as {name: finite float}: a number (named ``quantity``) or a mapping of numbers."""
    items = value.items() if isinstance(value, Mapping) else [(quantity, value)]
    out = {}
    for name, v in items:
        if not isinstance(name, str) or not _NAME.match(name) or name in ("population", "n", "replication"):
            raise StatisticError(f"{where}: a quantity's name must be a word ([A-Za-z0-9_.+-], not population, n "
                                 f"or replication); got {name!r}")
        try:
            number = float(np.asarray(v).item()) if np.ndim(v) == 0 else None
        except (TypeError, ValueError):
            number = None
        if number is None or isinstance(v, (bool, np.bool_)):
            raise StatisticError(f"{where}: the statistic must return a number or a mapping of numbers; got "
                                 f"{type(v).__name__} {v!r:.60} for {name!r}")
        if not math.isfinite(number):
            raise StatisticError(f"{where}: the statistic returned {number!r} for {name!r} (not a finite number)")
        out[name] = number
    if not out:
        raise StatisticError(f"{where}: the statistic returned no quantity")
    return out


def _run_rate_task(task: Task, config: dict, context: dict, study_seed: int) -> list[dict]:
    """One block of replications of a rate study (module level: the engine's workers import it by reference)."""
    p = task.params
    name, n = p["population"], p["n"]
    population, target = context["populations"][name], context["targets"][name]
    statistic, quantity = context["statistic"], config["quantity"]
    rows = []
    for r in range(p["first"], p["first"] + p["count"]):
        where = f"population {name!r}, n = {n}, replication {r}, study seed {study_seed}"
        X, y = replication_sample(population, name, n, r, study_seed)
        key = (("population", name), ("n", int(n)), ("replication", r))
        rep = Replication(X, y, int(n), r, name, child(seed_sequence(study_seed, key), *text_key("statistic")))
        try:
            value = statistic(rep, target)
        except Exception as exc:  # noqa: BLE001 (the user's code: reported with the replication, never hidden)
            raise StatisticError(f"{where}: the statistic raised {type(exc).__name__}: "
                                 f"{' '.join(str(exc).split())}") from None
        rows.append({"population": name, "n": int(n), "replication": r, **_quantities(value, quantity, where)})
    return rows


def _task_rows(task: Task, config: dict) -> int:
    return task.params["count"]


def _tasks(config: dict) -> list[Task]:
    return block_tasks(config["populations"], config)


def _fits(rows, config) -> dict:
    """{"population/quantity": fit dict, table, dropped} for every population and quantity of the rows."""
    out = {}
    quantities = list(dict.fromkeys(k for r in rows for k in r if k not in ("population", "n", "replication")))
    for pop_name in config["populations"]:
        for q in quantities:
            mine = [(r["n"], r[q]) for r in rows if r["population"] == pop_name and q in r]
            kept = [(n, v) for n, v in mine if v > 0]
            table = []
            for n in sorted({n for n, _ in mine}):
                values = np.array([v for m, v in kept if m == n])
                entry = {"n": n, "replications": sum(1 for m, _ in mine if m == n), "positive": int(values.size),
                         "mean": float(np.mean([v for m, v in mine if m == n]))}
                if values.size >= 2:
                    gm = geometric_mean_interval(values, level=config["level"])
                    entry.update(geometric_mean=float(gm.mean), ci_low=float(gm.low), ci_high=float(gm.high))
                table.append(entry)
            record = {"population": pop_name, "quantity": q, "table": table, "dropped": len(mine) - len(kept)}
            try:
                fit = fit_rate([n for n, _ in kept], [v for _, v in kept], expected=config["expected"],
                               tolerance=config["tolerance"], level=config["level"])
                record.update(fit=fit.as_dict(), verdict=fit.verdict, holds=fit.holds)
            except ValueError as exc:  # too few positive values to fit: reported, never a verdict of "holds"
                record.update(fit=None, verdict=f"no fit: {exc}", holds=False)
            out[f"{pop_name}/{q}"] = record
    return out


def _summarize(rows, config, context) -> dict:
    rates = _fits(rows, config)
    return {"rates": rates, "verdicts": {k: v["holds"] for k, v in rates.items()},
            "rate_holds": all(v["holds"] for v in rates.values())}


def _figures(rows, summary, out_dir) -> list[Path]:
    from lfverify.simulations._rate_figures import loglog_rate_figure

    config = summary["config"]
    paths = []
    for pop_name in config["populations"]:
        series = []
        for key, record in summary["rates"].items():
            if record["population"] != pop_name or record["fit"] is None:
                continue
            q = record["quantity"]
            kept = [(r["n"], r[q]) for r in rows if r["population"] == pop_name and q in r and r[q] > 0]
            series.append({"label": q, "n": [n for n, _ in kept], "errors": [v for _, v in kept],
                           "fit": record["fit"]})
        if series:
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{summary['study']}_{pop_name}")
            paths.append(loglog_rate_figure(
                Path(out_dir) / f"{safe}.png", series, expected=config["expected"], ylabel="error (log scale)",
                title=f"{summary['study']} on {pop_name}: error against n, {config['replications']} replications "
                      f"per n (expected slope {config['expected']:g})"))
    return paths


def _code_identity(statistic, target, version) -> str:
    """The user's ``version`` and a hash of the statistic's (and target function's) source: part of the run's
    fingerprint, so changed code never resumes old records (helpers they call are not hashed: ``version`` is the
    guard for those)."""
    parts = [str(version or "")]
    for fn in (statistic, target):
        if callable(fn):
            try:
                parts.append(inspect.getsource(fn))
            except (OSError, TypeError):
                parts.append(f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', repr(fn))}")
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:16]


def _check_sizes(sample_sizes, replications, where: str) -> tuple[list[int], int]:
    try:
        sizes = [int(n) for n in sample_sizes]
    except TypeError:
        raise TypeError(f"{where}sample_sizes must be a sequence of ints; got {sample_sizes!r}") from None
    if any(isinstance(n, bool) or int(n) != n for n in sample_sizes):
        raise TypeError(f"{where}sample_sizes must be ints; got {list(sample_sizes)!r}")
    if any(n < 1 for n in sizes) or len(set(sizes)) < 3:
        raise ValueError(f"{where}sample_sizes must hold at least 3 distinct positive sizes to fit a rate; got "
                         f"{sizes!r}")
    if isinstance(replications, bool) or not isinstance(replications, (int, np.integer)) or replications < 2:
        raise ValueError(f"{where}replications must be an int >= 2 (the fit needs the spread at each n); got "
                         f"{replications!r}")
    return sorted(set(sizes)), int(replications)


def rate_study(name: str, *, statistic: Callable, populations: Mapping[str, Any], target, sample_sizes,
               replications: int, expected: float = -0.5, tolerance: float = 0.1, level: float = 0.95,
               quantity: str = "error", full: Mapping | None = None, seed: int = 0,
               samples_per_task: int = 1 << 16, version: str | None = None, claim: str = "",
               command: str = "") -> Study:
    """A study of how fast ``statistic`` falls in n, against each population's exact ``target``.

    Parameters
    ----------
    name : str
        The study's name (a word: letters, digits, ``_.+-``); its output folder belongs to ``simulate --study NAME``.
    statistic : callable(Replication, target) -> float or mapping of str to float
        The error of one replication (e.g. ``abs(my_estimate(rep.X, rep.y) - target)``), or several named ones;
        each must be a finite number.  Runs in the workers: a top-level function of a module file for the process
        executor.
    populations : mapping of str to population
        Name -> an lfverify population (:mod:`lfverify.core`), an object with ``sample(n, seed) -> (X, y)``, or a
        function ``(n, rng) -> (X, y)``.
    target : callable(population) or mapping of str to value
        The exact value the statistic measures against (e.g. ``lambda pop: pop.gradient_direction(metric, loss,
        theta)``): a function evaluated once per population in the main process, or a value per population name.
    sample_sizes : sequence of int
        At least 3 distinct positive sizes ("quick" mode; see ``full``).
    replications : int
        Per size, at least 2.
    expected, tolerance, level : float
        The claimed exponent of n, how far the slope's interval may reach from it, and the interval's level: the
        verdict holds when the interval covers ``expected`` and lies within ``expected +- tolerance``.
    quantity : str
        The name of a statistic's single number (default ``"error"``).
    full : mapping or None
        ``sample_sizes`` / ``replications`` of the "full" mode (default: those of "quick").  A "smoke" mode
        (the three smallest sizes, at most 5 replications) is always defined.
    seed : int
        The study seed (default 0).
    samples_per_task : int
        Bound on the samples one task holds (replications are grouped into tasks of at most this many samples).
    version : str or None
        Part of the code identity (with the statistic's source): change it when helpers the statistic calls change.
    claim : str
        What the study measures (written to its summary).
    command : str
        How the command line runs it (``lfverify simulate --study MODULE:OBJECT``; set by the command line).

    Returns
    -------
    Study
        Run it with :func:`measure_rate` (or :func:`lfverify.simulations.run`).

    Raises
    ------
    TypeError, ValueError
        A bad argument, named, before any work: fewer than 3 distinct sizes, fewer than 2 replications, a
        population without a sampler, a target missing for a population, a statistic that is not callable.
    """
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"name must be a word of letters, digits and _.+-; got {name!r}")
    if not callable(statistic):
        raise TypeError(f"statistic must be a callable(Replication, target); got {type(statistic).__name__}")
    if not isinstance(populations, Mapping) or not populations:
        raise TypeError(f"populations must be a non-empty mapping of names to populations; got {populations!r}")
    for pop_name, pop in populations.items():
        if not isinstance(pop_name, str) or not _NAME.match(pop_name):
            raise ValueError(f"populations: a name must be a word of letters, digits and _.+-; got {pop_name!r}")
        if not (hasattr(pop, "sample") or callable(pop)):
            raise TypeError(f"populations[{pop_name!r}] must have sample(n, seed) or be a function (n, rng) -> "
                            f"(X, y); got {type(pop).__name__}")
    if isinstance(target, Mapping):
        missing = [p for p in populations if p not in target]
        if missing:
            raise ValueError(f"target has no exact value for population(s) {missing}: give one per population, or "
                             "a function of the population")
    elif not callable(target):
        raise TypeError(f"target must be a function of the population or a mapping of population names to exact "
                        f"values; got {type(target).__name__}")
    sizes, R = _check_sizes(sample_sizes, replications, "")
    full = dict(full or {})
    unknown = set(full) - {"sample_sizes", "replications"}
    if unknown:
        raise ValueError(f"full may set sample_sizes and replications only; got {sorted(unknown)}")
    full_sizes, full_R = _check_sizes(full.get("sample_sizes", sizes), full.get("replications", R), "full: ")
    if isinstance(samples_per_task, bool) or not isinstance(samples_per_task, int) or samples_per_task < 1:
        raise ValueError(f"samples_per_task must be a positive int; got {samples_per_task!r}")
    if not isinstance(quantity, str) or not _NAME.match(quantity):
        raise ValueError(f"quantity must be a word; got {quantity!r}")
    expected, tolerance, level = _check_settings(expected, tolerance, level)  # as the summary's fit reads them
    base = {"populations": list(populations), "samples_per_task": samples_per_task, "expected": float(expected),
            "tolerance": float(tolerance), "level": float(level), "quantity": quantity}
    modes = {"smoke": {**base, "sample_sizes": sizes[:3], "replications": min(R, 5)},
             "quick": {**base, "sample_sizes": sizes, "replications": R},
             "full": {**base, "sample_sizes": full_sizes, "replications": full_R}}

    def context(config):
        targets = {p: (target[p] if isinstance(target, Mapping) else target(populations[p]))
                   for p in config["populations"]}
        return {"statistic": statistic, "populations": dict(populations), "targets": targets}

    return Study(name=name, claim=claim or f"{name}: error against n, expected slope {expected:g}", modes=modes,
                 seed=seed, tasks=_tasks, context=context, run_task=_run_rate_task, summarize=_summarize,
                 figures=_figures, task_rows=_task_rows, version=_code_identity(statistic, target, version),
                 command=command or f"rate_study({name!r})")


@dataclass(frozen=True)
class RateResult:
    """What :func:`measure_rate` found: per population and quantity, the fitted slope with its interval and
    verdict, the table per n, and the run's files."""

    rates: dict  #: "population/quantity" -> {fit, verdict, holds, table, dropped}
    holds: bool  #: every fitted slope agrees with the expected exponent
    summary: dict
    out: Path
    figures: list
    computed: int
    skipped: int

    @property
    def table(self) -> list[dict]:
        """One row per population, quantity and n."""
        return [{"population": r["population"], "quantity": r["quantity"], **row}
                for r in self.rates.values() for row in r["table"]]

    @classmethod
    def from_run(cls, result: RunResult) -> "RateResult":
        s = result.summary
        if "rates" not in s:
            raise ValueError(f"study {s.get('study')!r} is not a rate study (its summary has no 'rates')")
        return cls(s["rates"], bool(s["rate_holds"]), s, result.out, list(result.figures), result.computed,
                   result.skipped)


def measure_rate(study: Study, *, mode: str = "quick", out, executor="processes", seed: int | None = None,
                 progress=None, figures: bool = True) -> RateResult:
    """Run (or resume) the rate study ``study`` into ``out`` (:func:`lfverify.simulations.run`) and return its
    :class:`RateResult`."""
    return RateResult.from_run(run(study, mode=mode, out=out, executor=executor, seed=seed, progress=progress,
                                   figures=figures))
