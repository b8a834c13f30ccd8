"""The mathematics of the paper: Definition 1's metrics (and the registry of their names), surrogate losses, the
surrogate scores of Eq. (3), U_hat / V_hat (Eqs. (6)-(7)), exact populations with U, U_phi, V and U-dagger, the
calibration conditions of Thms. 1, 2, 7, the pointwise surrogate optimum, quadrature, and the package's input
validation and seeding rule.  Imports nothing else from lfverify.
"""

from __future__ import annotations

from lfverify.core import (
    _calibration_conditions,
    _empirical,
    _losses,
    _metric_registry,
    _metrics,
    _pointwise_optimum,
    _populations,
    _quadrature,
    _reference_populations,
    _scores,
    _seeding,
    _validation,
)
from lfverify.core._calibration_conditions import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._empirical import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._losses import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._metric_registry import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._metrics import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._pointwise_optimum import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._populations import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._quadrature import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._reference_populations import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._scores import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._seeding import *  # noqa: F403 (each module's __all__ is public)
from lfverify.core._validation import *  # noqa: F403 (each module's __all__ is public)

__all__ = [
    *_metrics.__all__,
    *_metric_registry.__all__,
    *_calibration_conditions.__all__,
    *_losses.__all__,
    *_scores.__all__,
    *_empirical.__all__,
    *_populations.__all__,
    *_reference_populations.__all__,
    *_quadrature.__all__,
    *_pointwise_optimum.__all__,
    *_seeding.__all__,
    *_validation.__all__,
]
