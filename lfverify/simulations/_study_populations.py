"""The populations, metrics and per-replication samples shared by the uniform-convergence, consistency and
unbiasedness studies.

* ``finite``: 5 atoms in R^2 with their weights and eta (:class:`lfverify.core.FiniteSupportPopulation`;
  every population quantity is a finite sum);
* ``bounded-logistic``: x = (u, 1), u ~ U[-1, 1], eta = sigmoid(3 u - 0.5)
  (:class:`lfverify.core.BoundedLogisticPopulation`: ||x|| <= sqrt 2, Lemma 4's bounded inputs, and a
  linear model containing the Bayes classifier);
* metrics F_1 with the tau-logistic loss at tau = 0.33 and Jaccard at tau = 0.75 (Sec. 6's choices).

Replication r of a study at sample size n draws its sample with
:func:`lfverify.simulations.replication_sample` (stream ``SeedSequence(study seed, key (population, n, r))``), so
it does not depend on how replications are grouped into tasks or which worker runs them.
"""

from __future__ import annotations

import math

import numpy as np

from lfverify.core import (
    BOUNDED_LOGISTIC_POPULATION,
    FINITE_POPULATION,
    FiniteSupportPopulation,
    f1,
    jaccard,
    paper_tau,
)

__all__ = ["POPULATIONS", "METRICS", "feature_bound"]


#: name -> population (the finite one has 5 atoms in R^2; the continuous one is x = (u, 1), u ~ U[-1, 1]).
POPULATIONS = {"finite": FINITE_POPULATION, "bounded-logistic": BOUNDED_LOGISTIC_POPULATION}
#: name -> (metric, tau of the tau-logistic loss)
METRICS = {"F1": (f1(), paper_tau("f1")), "Jaccard": (jaccard(), paper_tau("jaccard"))}


def feature_bound(population) -> float:
    """c_X = max ||x|| over the support."""
    if isinstance(population, FiniteSupportPopulation):
        return float(np.max(np.linalg.norm(population.atoms, axis=1)))
    return math.sqrt(2.0)  # x = (u, 1) with |u| <= 1
