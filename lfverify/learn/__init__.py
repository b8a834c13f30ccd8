"""Learning: the optimizers of Algorithms 1-2 (U-GD, U-BFGS), exact thresholds, the cost-sensitive remedy, the
scikit-learn estimator :class:`LinearFractionalClassifier`, the paper's baselines (App. C.2) and the staged data
sets.  Imports only :mod:`lfverify.core`.
"""

from __future__ import annotations

from lfverify.learn._baselines import (
    BASELINES,
    COST_GRID,
    REGULARIZATION_GRID,
    THRESHOLD_GRID,
    HingeERMClassifier,
    LogisticRegressionBaseline,
    PlugInClassifier,
    TunedThresholdBaseline,
    WeightedERMClassifier,
    make_baseline,
)
from lfverify.learn._cost_sensitive import (
    CostSensitiveFit,
    WeightedSurrogateRisk,
    bayes_level_weights,
    fit_at_weights,
    fit_cost_sensitive,
)
from lfverify.learn._datasets import (
    DATASET_SPECS,
    DATASETS_ENV_VARIABLE,
    FILE_FORMATS,
    PAPER_DATASETS,
    STAGED_DATASETS,
    DataFile,
    Dataset,
    DatasetSpec,
    available_datasets,
    dataset_root,
    load_dataset,
    load_file,
    min_max_scale,
)
from lfverify.learn._estimator import (
    ERM_REGULARIZATION,
    OBJECTIVES,
    THRESHOLDS,
    LinearFractionalClassifier,
    default_tau,
    erm_initial_parameters,
    hinge_erm_svm,
    resolve_metric,
)
from lfverify.learn._optimize import (
    METHODS,
    OptimizationResult,
    maximize_surrogate_utility,
)
from lfverify.learn._thresholds import (
    ThresholdChoice,
    best_threshold,
    positive_rate_from_folds,
    threshold_for_positive_rate,
)

__all__ = [
    "OptimizationResult",
    "maximize_surrogate_utility",
    "METHODS",
    "ThresholdChoice",
    "best_threshold",
    "threshold_for_positive_rate",
    "positive_rate_from_folds",
    "CostSensitiveFit",
    "bayes_level_weights",
    "WeightedSurrogateRisk",
    "fit_at_weights",
    "fit_cost_sensitive",
    "LinearFractionalClassifier",
    "resolve_metric",
    "default_tau",
    "ERM_REGULARIZATION",
    "hinge_erm_svm",
    "erm_initial_parameters",
    "OBJECTIVES",
    "THRESHOLDS",
    "BASELINES",
    "REGULARIZATION_GRID",
    "COST_GRID",
    "THRESHOLD_GRID",
    "make_baseline",
    "HingeERMClassifier",
    "WeightedERMClassifier",
    "PlugInClassifier",
    "TunedThresholdBaseline",
    "LogisticRegressionBaseline",
    "Dataset",
    "DataFile",
    "DatasetSpec",
    "DATASET_SPECS",
    "PAPER_DATASETS",
    "STAGED_DATASETS",
    "FILE_FORMATS",
    "DATASETS_ENV_VARIABLE",
    "available_datasets",
    "dataset_root",
    "load_dataset",
    "load_file",
    "min_max_scale",
]
