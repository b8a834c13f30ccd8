"""The mathematics of the paper: Definition 1's metrics, surrogate losses, the surrogate scores of Eq. (3),
U_hat / V_hat (Eqs. (6)-(7)), exact populations with U, U_phi, V and U-dagger, the calibration conditions of
Thms. 1, 2, 7, the pointwise surrogate optimum, quadrature, and the package's input validation and seeding rule.
Imports nothing else from lfverify.
"""

from __future__ import annotations

from lfverify.core._calibration_conditions import (
    CalibrationCondition,
    CalibrationReport,
    accuracy_calibration,
    calibration_reports,
    fbeta_calibration,
    fbeta_max_tau,
    general_calibration,
    jaccard_calibration,
    jaccard_max_tau,
)
from lfverify.core._empirical import (
    EmpiricalEvaluation,
    EmpiricalSurrogateUtility,
    SampleSplit,
    sample_split,
)
from lfverify.core._losses import (
    ExponentialLoss,
    HingeLoss,
    SigmoidLoss,
    SquaredHingeLoss,
    SurrogateLoss,
    TauDiscrepantLogisticLoss,
    exponential,
    hinge,
    logistic,
    sigmoid,
    squared_hinge,
    tau_logistic,
)
from lfverify.core._metrics import (
    AdmissibilityReport,
    LinearFractionalMetric,
    UndefinedMetricWarning,
    accuracy,
    f1,
    f_beta,
    gower_legendre,
    jaccard,
)
from lfverify.core._pointwise_optimum import (
    FiniteEta,
    GaussianEta,
    PointwiseOptimum,
    pointwise_surrogate_optimum,
    surrogate_utility_of_eta,
)
from lfverify.core._populations import (
    BayesOptimal,
    BoundedLogisticPopulation,
    FiniteSupportPopulation,
    GaussianPopulation,
    LossMoments,
    Population,
)
from lfverify.core._quadrature import (
    gaussian_expectation,
    interval_expectation,
)
from lfverify.core._reference_populations import (
    BOUNDED_LOGISTIC_POPULATION,
    FINITE_POPULATION,
    GAUSSIAN_POPULATION,
)
from lfverify.core._scores import (
    RatioDirection,
    ScoreCoefficients,
    gradient_direction,
    ratio_and_direction,
    score_coefficients,
    surrogate_scores,
)
from lfverify.core._seeding import (
    DEFAULT_SEED,
    as_generator,
    as_seed_sequence,
    child,
    text_key,
)

__all__ = [
    "LinearFractionalMetric",
    "AdmissibilityReport",
    "UndefinedMetricWarning",
    "f_beta",
    "f1",
    "jaccard",
    "gower_legendre",
    "accuracy",
    "CalibrationCondition",
    "CalibrationReport",
    "fbeta_max_tau",
    "fbeta_calibration",
    "jaccard_max_tau",
    "jaccard_calibration",
    "accuracy_calibration",
    "general_calibration",
    "calibration_reports",
    "SurrogateLoss",
    "TauDiscrepantLogisticLoss",
    "HingeLoss",
    "SquaredHingeLoss",
    "ExponentialLoss",
    "SigmoidLoss",
    "tau_logistic",
    "logistic",
    "hinge",
    "squared_hinge",
    "exponential",
    "sigmoid",
    "ScoreCoefficients",
    "score_coefficients",
    "surrogate_scores",
    "gradient_direction",
    "RatioDirection",
    "ratio_and_direction",
    "SampleSplit",
    "sample_split",
    "EmpiricalEvaluation",
    "EmpiricalSurrogateUtility",
    "Population",
    "LossMoments",
    "BayesOptimal",
    "FiniteSupportPopulation",
    "GaussianPopulation",
    "BoundedLogisticPopulation",
    "FINITE_POPULATION",
    "BOUNDED_LOGISTIC_POPULATION",
    "GAUSSIAN_POPULATION",
    "gaussian_expectation",
    "interval_expectation",
    "GaussianEta",
    "FiniteEta",
    "PointwiseOptimum",
    "pointwise_surrogate_optimum",
    "surrogate_utility_of_eta",
    "DEFAULT_SEED",
    "as_seed_sequence",
    "as_generator",
    "child",
    "text_key",
]
