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

from lfverify.core import child, text_key
from lfverify.simulations._engine import RunResult, Study, Task, run, seed_sequence
from lfverify.simulations._intervals import geometric_mean_interval, mean_interval
from lfverify.simulations._rates import _check_settings, fit_power_law, fit_rate
from lfverify.simulations._replications import block_tasks, replication_sample

__all__ = ["Replication", "StatisticError", "rate_study", "RateResult", "measure_rate"]

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
        try:
            X, y = replication_sample(population, name, n, replication=r, study_seed=study_seed)
        except ValueError as exc:
            raise StatisticError(f"{where}: {exc}") from None
        key = (("population", name), ("n", int(n)), ("replication", r))
        rep = Replication(X, y, n=int(n), replication=r, population=name,
                          seed=child(seed_sequence(study_seed, key), *text_key("statistic")))
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
    return block_tasks([(("population", p),) for p in config["populations"]], config["sample_sizes"],
                       config["replications"], config["samples_per_task"])


def _quantity_names(rows) -> list[str]:
    return list(dict.fromkeys(k for r in rows for k in r if k not in ("population", "n", "replication")))


def _fits(rows, config) -> dict:
    """{"population/quantity": fit dict, table, dropped} for every population and quantity of the rows."""
    out = {}
    for pop_name in config["populations"]:
        for q in _quantity_names(rows):
            mine = [(r["n"], r[q]) for r in rows if r["population"] == pop_name and q in r]
            fit = _fit_means if config["fit"] == "means" else _fit_errors
            out[f"{pop_name}/{q}"] = {"population": pop_name, "quantity": q, **fit(mine, config)}
    return out


def _fit_errors(mine, config) -> dict:
    """Positive errors: OLS of log(error) on log(n) over the replications, HC3 (non-positive values are dropped and
    counted: a log cannot take them)."""
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
    record = {"table": table, "dropped": len(mine) - len(kept)}
    try:
        fit = fit_rate([n for n, _ in kept], [v for _, v in kept], expected=config["expected"],
                       tolerance=config["tolerance"], level=config["level"])
        record.update(fit=fit.as_dict(), verdict=fit.verdict, holds=fit.holds)
    except ValueError as exc:  # too few positive values to fit: reported, never a verdict of "holds"
        record.update(fit=None, verdict=f"no fit: {exc}", holds=False)
    return record


def _fit_means(mine, config) -> dict:
    """Signed deviations (estimate - target): per n their mean with a Student-t interval.  With ``expected`` None
    the claim is "no bias": it is confirmed when every n's interval covers 0, the intervals at the Bonferroni level
    1 - (1 - level) / k over the k sizes (family-wise false alarm at most 1 - level).  With an exponent the claim is
    "mean = c n^expected": a nonlinear WLS fit with the means' standard errors
    (:func:`lfverify.simulations._rates.fit_power_law`)."""
    sizes = sorted({n for n, _ in mine})
    level = config["level"]
    interval_level = 1.0 - (1.0 - level) / len(sizes) if config["expected"] is None else level
    table = []
    for n in sizes:
        m = mean_interval([v for k, v in mine if k == n], level=interval_level)
        table.append({"n": n, "replications": int(m.count), "mean": float(m.mean),
                      "standard_error": float(m.standard_error), "ci_low": float(m.low), "ci_high": float(m.high),
                      "level": interval_level})
    record = {"table": table, "dropped": 0}
    if config["expected"] is None:
        away = [row["n"] for row in table if not row["ci_low"] <= 0.0 <= row["ci_high"]]
        holds = not away
        verdict = (f"no bias: every n's {100 * interval_level:.4g}% interval (Bonferroni over {len(sizes)} sizes, "
                   f"family level {100 * level:g}%) " + ("covers 0: confirmed" if holds else
                                                         f"covers 0: not confirmed (excludes 0 at n = {away})"))
        record.update(fit=None, verdict=verdict, holds=holds)
        return record
    try:
        fit = fit_power_law([row["n"] for row in table], [row["mean"] for row in table],
                            [row["standard_error"] for row in table], expected=config["expected"],
                            tolerance=config["tolerance"], level=level)
        record.update(fit=fit.as_dict(), verdict=fit.verdict, holds=fit.holds)
    except ValueError as exc:  # no mean significantly away from 0: no rate to fit, never "holds"
        record.update(fit=None, verdict=f"no fit: {exc}", holds=False)
    return record


def _summarize(rows, config, context) -> dict:
    rates = _fits(rows, config)
    return {"rates": rates, "verdicts": {k: v["holds"] for k, v in rates.items()},
            "rate_holds": all(v["holds"] for v in rates.values())}


def _figures(rows, summary, out_dir) -> list[Path]:
    from lfverify.simulations._rate_figures import loglog_rate_figure, mean_deviation_figure

    config = summary["config"]
    paths = []
    for pop_name in config["populations"]:
        records = [r for r in summary["rates"].values() if r["population"] == pop_name]
        safe = Path(out_dir) / (re.sub(r"[^A-Za-z0-9_.-]", "_", f"{summary['study']}_{pop_name}") + ".png")
        what = f"{summary['study']} on {pop_name}, {config['replications']} replications per n"
        if config["fit"] == "means":
            claim = "no bias" if config["expected"] is None else f"expected c n^{config['expected']:g}"
            series = [{"label": r["quantity"], "table": r["table"], "fit": r["fit"]} for r in records]
            paths.append(mean_deviation_figure(safe, series, title=f"{what}: mean deviation against n ({claim})"))
            continue
        series = []
        for record in records:
            if record["fit"] is None:
                continue
            q = record["quantity"]
            kept = [(r["n"], r[q]) for r in rows if r["population"] == pop_name and q in r and r[q] > 0]
            series.append({"label": q, "n": [n for n, _ in kept], "errors": [v for _, v in kept],
                           "fit": record["fit"]})
        if series:
            paths.append(loglog_rate_figure(
                safe, series, expected=config["expected"], ylabel="error (log scale)",
                title=f"{what}: error against n (expected slope {config['expected']:g})"))
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
               replications: int, expected: float | None = -0.5, tolerance: float = 0.1, level: float = 0.95,
               fit: str = "errors", quantity: str = "error", full: Mapping | None = None, seed: int = 0,
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
        verdict holds when the interval covers ``expected`` and lies within ``expected +- tolerance``.  With
        ``fit="means"``, ``expected=None`` claims no bias at all.
    fit : {"errors", "means"}
        ``"errors"`` (default): the statistic is a positive error per replication (Lemma 4's and Thm. 5's
        questions); log(error) is fitted on log(n) over the replications (HC3).  ``"means"``: the statistic is a
        signed deviation, estimate - target (Lemma 3's question, a bias); per n its mean and Student-t interval,
        then either mean = c n^expected fitted with the means' standard errors, or, with ``expected=None``, "no
        bias": every n's interval (Bonferroni over the sizes) covers 0.
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
    _check_inputs(name, statistic, populations, target)
    modes = _rate_modes(populations, sample_sizes=sample_sizes, replications=replications, full=full,
                        samples_per_task=samples_per_task, quantity=quantity, fit=fit, expected=expected,
                        tolerance=tolerance, level=level)

    def context(config):
        targets = {p: (target[p] if isinstance(target, Mapping) else target(populations[p]))
                   for p in config["populations"]}
        return {"statistic": statistic, "populations": dict(populations), "targets": targets}

    default_claim = (f"{name}: error against n, expected slope {expected:g}" if fit == "errors" else
                     f"{name}: mean deviation against n, " + ("no bias" if expected is None else
                                                               f"expected c n^{expected:g}"))
    return Study(name=name, claim=claim or default_claim, modes=modes,
                 seed=seed, tasks=_tasks, context=context, run_task=_run_rate_task, summarize=_summarize,
                 figures=_figures, task_rows=_task_rows, version=_code_identity(statistic, target, version),
                 command=command or f"rate_study({name!r})")


def _check_inputs(name, statistic, populations, target) -> None:
    """:func:`rate_study`'s checks of its name, statistic, populations and target (TypeError / ValueError naming
    the argument)."""
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


def _rate_modes(populations, *, sample_sizes, replications, full, samples_per_task, quantity, fit, expected,
                tolerance, level) -> dict:
    """:func:`rate_study`'s checked settings as its "smoke", "quick" and "full" modes."""
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
    if fit not in ("errors", "means"):
        raise ValueError(f"fit must be 'errors' (positive errors, log-log fit) or 'means' (signed deviations, their "
                         f"mean per n); got {fit!r}")
    if expected is None and fit != "means":
        raise ValueError("expected=None (no bias) needs fit='means'; errors need an exponent")
    # checked as the summary's fit reads them (an exponent of 0 stands in for None: same checks of the others)
    checked, tolerance, level = _check_settings(0.0 if expected is None else expected, tolerance, level)
    base = {"populations": list(populations), "samples_per_task": samples_per_task, "fit": fit,
            "expected": None if expected is None else float(checked), "tolerance": float(tolerance),
            "level": float(level), "quantity": quantity}
    modes = {"smoke": {**base, "sample_sizes": sizes[:3], "replications": min(R, 5)},
             "quick": {**base, "sample_sizes": sizes, "replications": R},
             "full": {**base, "sample_sizes": full_sizes, "replications": full_R}}
    return modes


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
