"""The reference populations: exact populations whose U, U_phi, V and U-dagger are known exactly (a finite sum) or
to quadrature accuracy, on which the Monte-Carlo studies, the derivations' continuous evidence and the self-checks
run.

* :data:`FINITE_POPULATION` - 5 atoms in R^2 with their weights and eta (every population quantity is a finite sum);
* :data:`BOUNDED_LOGISTIC_POPULATION` - x = (u, 1), u ~ U[-1, 1], eta = sigmoid(3 u - 0.5): ||x|| <= sqrt 2 (Lemma 4's
  bounded inputs) and a linear model that contains the Bayes classifier;
* :data:`GAUSSIAN_POPULATION` - two Gaussian classes in R^2 with a shared covariance and prior 0.4, so eta(X) has a
  positive density on (0, 1) and the Bayes classifier is linear (Thms. 1-2 on a continuous population).
"""

from __future__ import annotations

from lfverify.core._populations import (
    BoundedLogisticPopulation,
    FiniteSupportPopulation,
    GaussianPopulation,
)

__all__ = ["FINITE_POPULATION", "BOUNDED_LOGISTIC_POPULATION", "GAUSSIAN_POPULATION"]

FINITE_POPULATION = FiniteSupportPopulation(
    atoms=[[1.0, 0.5], [-0.7, 1.2], [0.3, -1.1], [-1.2, -0.4], [0.6, 0.9]],
    weights=[0.3, 0.2, 0.2, 0.15, 0.15],
    eta=[0.85, 0.4, 0.15, 0.3, 0.6],
)
BOUNDED_LOGISTIC_POPULATION = BoundedLogisticPopulation(slope=3.0, offset=-0.5)
GAUSSIAN_POPULATION = GaussianPopulation(mean_positive=[2.0, 1.0], mean_negative=[-2.0, -1.0],
                                         covariance=[[1.0, 0.3], [0.3, 1.0]], prior=0.4)
