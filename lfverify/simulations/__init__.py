"""Monte-Carlo studies of the paper's asymptotic claims against exactly known population values.

Studies (``lfverify simulate NAME [--quick|--full] --out DIR``; :data:`STUDIES`):

* ``uniform-convergence`` - Lemma 4: E sup_theta ||V_hat - V|| against n, fitted slope vs -1/2, and the
  explicit bound of the proof (:mod:`.uniform_convergence`);
* ``consistency`` - Thm. 5: ||theta_hat_n - theta*|| and the utility gaps against n (:mod:`.consistency`);
* ``calibration`` - Thms. 1, 2 on a Gaussian population with a linear Bayes classifier: U(theta_hat_n) against
  U-dagger, the limiting gap, and a tau sweep (:mod:`.calibration`);
* ``unbiasedness`` - Lemma 3: the mean of V_hat - V over >= 10^4 replications, beside the biased same-sample
  estimator (:mod:`.unbiasedness`).

Machinery: :mod:`.engine` (task grid, SeedSequence per task key, atomic per-task records, resume),
:mod:`.executors` (serial, local processes, Dask), :mod:`.replicated` (V_hat for R replications x K parameters
in one pass), :mod:`.rates` and :mod:`.intervals` (fitted rates, limits, intervals, verdicts),
:mod:`.figures` (matplotlib, lazily).
"""

from __future__ import annotations

from pathlib import Path

from .engine import MODES, RunResult, Study, Task, run

__all__ = ["STUDIES", "STUDY_NAMES", "run_study", "run", "Study", "Task", "RunResult", "MODES"]

#: The registered studies, in the order of the issue (a constant, so that the command line can list them
#: without importing the study modules).
STUDY_NAMES = ("uniform-convergence", "consistency", "calibration", "unbiasedness")
_MODULES = {"uniform-convergence": "uniform_convergence", "consistency": "consistency",
            "calibration": "calibration", "unbiasedness": "unbiasedness"}
_studies = None


def _registry() -> dict:
    from importlib import import_module

    studies = {name: import_module(f".{_MODULES[name]}", __name__).STUDY for name in STUDY_NAMES}
    for name, study in studies.items():
        if study.name != name:
            raise RuntimeError(f"study module {_MODULES[name]} registers {study.name!r}, expected {name!r}")
    return studies


def __getattr__(name):
    """``STUDIES`` (name -> Study) is built on first use (PEP 562)."""
    global _studies
    if name == "STUDIES":
        if _studies is None:
            _studies = _registry()
        return _studies
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run_study(name: str, mode: str = "quick", *, out, executor="processes", seed: int | None = None,
              progress: bool | None = None, figures: bool = True, overrides=None) -> dict:
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
    executor : "serial", "processes", or an executor instance (:mod:`.executors`), keyword-only
    seed : int or None, keyword-only
        The study seed (default: the study's fixed seed).
    progress, figures, overrides : see :func:`lfverify.simulations.engine.run`
    """
    if name not in STUDY_NAMES:
        raise ValueError(f"name must be one of {list(STUDY_NAMES)}; got {name!r}")
    return run(__getattr__("STUDIES")[name], mode=mode, out=Path(out), executor=executor, seed=seed, progress=progress,
               figures=figures, overrides=overrides).summary
