"""Learning: the optimizers of Algorithms 1-2 (U-GD, U-BFGS), exact thresholds, the cost-sensitive remedy, the
scikit-learn estimator :class:`LinearFractionalClassifier`, the same remedy around any classifier
(:class:`MetricOptimalClassifier`), the paper's baselines (App. C.2) and the paper's data
sets (an offline copy, or fetched from their pinned sources into the user cache).  Imports :mod:`lfverify.core`, and
:mod:`lfverify.io` for the progress of downloads.
"""

from __future__ import annotations

# resolve_metric and default_tau moved to lfverify.core's metric registry; still importable from here.
from lfverify.core import default_tau, resolve_metric  # noqa: F401
from lfverify.learn import (
    _baselines,
    _cost_sensitive,
    _datasets,
    _estimator,
    _fetch,
    _metric_optimal,
    _optimize,
    _thresholds,
)
from lfverify.learn._baselines import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._cost_sensitive import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._datasets import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._estimator import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._fetch import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._metric_optimal import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._optimize import *  # noqa: F403 (each module's __all__ is public)
from lfverify.learn._thresholds import *  # noqa: F403 (each module's __all__ is public)

__all__ = [
    *_optimize.__all__,
    *_thresholds.__all__,
    *_cost_sensitive.__all__,
    *_estimator.__all__,
    *_metric_optimal.__all__,
    *_baselines.__all__,
    *_datasets.__all__,
    *_fetch.__all__,
]
