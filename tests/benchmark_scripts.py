"""Load a script of benchmarks/ as a module, as `python benchmarks/<name>.py` would see it (its folder first on
sys.path, so the scripts' shared `timing` module imports); and the SciPy oracle of the benchmarks' Welch verdicts."""

import importlib.util
import statistics
import sys
import warnings
from pathlib import Path

from scipy import stats

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark_script(name: str):
    """The module of benchmarks/<name>.py, freshly executed and registered in sys.modules under ``name`` (so that a
    process pool's workers find its functions by name, as they would under ``python benchmarks/<name>.py``)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def welch_p(a, b) -> float:
    """The independent oracle of the benchmarks' verdicts: SciPy's one-sided Welch p of mean(a) > mean(b)
    (``scipy.stats.ttest_ind(equal_var=False, alternative="greater")``); both samples constant: decided by the sign
    of the difference (the project's documented convention where SciPy gives NaN)."""
    if statistics.variance(a) + statistics.variance(b) == 0:
        return 0.0 if statistics.fmean(a) > statistics.fmean(b) else 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nearly identical samples (mushrooms): SciPy's precision note
        return stats.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue


def welch_verdict(ours, other, alpha: float = 0.05) -> str:
    """"below" where other > ours is significant at ``alpha`` (one-sided Welch), "above" where ours > other is,
    else "tie"."""
    below, above = welch_p(other, ours), welch_p(ours, other)
    return "below" if below < alpha else "above" if above < alpha else "tie"
