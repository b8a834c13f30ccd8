"""Monte-Carlo studies of the paper's asymptotic claims against exactly known population values.

Studies (``lfverify simulate NAME [--quick|--full] --out DIR``; :data:`STUDIES`):

* ``uniform-convergence`` - Lemma 4: E sup_theta ||V_hat - V|| against n, fitted slope vs -1/2, and the
  explicit bound of the proof;
* ``consistency`` - Thm. 5: ||theta_hat_n - theta*|| and the utility gaps against n;
* ``calibration`` - Thms. 1, 2 on a Gaussian population with a linear Bayes classifier: U(theta_hat_n) against
  U-dagger, the limiting gap, and a tau sweep;
* ``unbiasedness`` - Lemma 3: the mean of V_hat - V over >= 10^4 replications, beside the biased same-sample
  estimator.

:func:`dimension_sweep` runs the uniform-convergence study's sup at one n on a grid of d: the d-dependence of
Lemma 4 (corrected), O_p(d^{3/2} sqrt(log n / n)) (``simulations/uniform_convergence_dimension.py``).

Anyone's studies (:func:`rate_study`, :func:`measure_rate`; docs/simulations.md): the error of a statistic, an
estimator or a classifier against an exact population value, fitted against n like the built-in studies.

The pieces every study is built from (the built-in ones too): :func:`seed_sequence` (the streams),
:func:`replication_sample` / :func:`draw_replications` (one replication's sample, a block of them),
:func:`replication_blocks` / :func:`block_tasks` (the grouping of replications into tasks), :func:`fit_rate`.

Machinery (private modules): the engine (task grid, SeedSequence per task key, atomic per-task records, resume),
V_hat for R replications x K parameters in one pass, fitted rates, limits, intervals and verdicts, figures.
"""

from __future__ import annotations

from pathlib import Path

from lfverify.simulations._engine import MODES, RunResult, Study, Task, read_records, run, seed_sequence
from lfverify.simulations._rate_study import RateResult, Replication, StatisticError, measure_rate, rate_study
from lfverify.simulations._rates import RateFit, fit_rate
from lfverify.simulations._replications import (
    block_tasks,
    draw_replications,
    replication_blocks,
    replication_sample,
    replication_stream,
)
from lfverify.simulations._study_calibration import STUDY as _CALIBRATION
from lfverify.simulations._study_consistency import STUDY as _CONSISTENCY
from lfverify.simulations._study_unbiasedness import STUDY as _UNBIASEDNESS
from lfverify.simulations._study_uniform_convergence import (
    D_EXPONENT,
    dimension_population,
    dimension_sweep,
)
from lfverify.simulations._study_uniform_convergence import (
    STUDY as _UNIFORM_CONVERGENCE,
)

__all__ = ["STUDIES", "STUDY_NAMES", "run_study", "run", "Study", "Task", "RunResult", "MODES", "dimension_sweep",
           "dimension_population", "D_EXPONENT", "rate_study", "measure_rate", "RateResult", "Replication",
           "StatisticError", "block_tasks", "replication_blocks", "replication_sample", "replication_stream",
           "draw_replications", "seed_sequence", "read_records", "fit_rate", "RateFit"]

#: name -> :class:`Study`, in the order of the paper's claims (Lemma 4, Thm. 5, Thms. 1-2, Lemma 3).
STUDIES = {study.name: study for study in (_UNIFORM_CONVERGENCE, _CONSISTENCY, _CALIBRATION, _UNBIASEDNESS)}
#: The registered study names (``lfverify simulate NAME``).
STUDY_NAMES = tuple(STUDIES)


def run_study(name: str, mode: str = "quick", *, out, executor="processes", seed: int | None = None,
              progress: bool | str | None = None, figures: bool = True, overrides=None) -> dict:
    """Run (or resume) the study ``name`` and return its summary (also written to ``out/summary.json``).

    Parameters
    ----------
    name : str
        One of :data:`STUDY_NAMES`.
    mode : {"smoke", "quick", "full"}
        Run size: "smoke" for tests (seconds), "quick" (the committed results, under a minute on 2 cores),
        "full" (the issue's sizes).
    out : path, keyword-only
        Output folder (records, records.csv, summary.json, PNG figures); re-running resumes.
    executor : "serial", "processes", or an executor instance (:mod:`lfverify.parallel`), keyword-only
    seed : int or None, keyword-only
        The study seed (default: the study's fixed seed).
    progress, figures, overrides : see :func:`run`
    """
    if name not in STUDY_NAMES:
        raise ValueError(f"name must be one of {list(STUDY_NAMES)}; got {name!r}")
    return run(STUDIES[name], mode=mode, out=Path(out), executor=executor, seed=seed, progress=progress,
               figures=figures, overrides=overrides).summary
