"""The pytest plugin of :mod:`lfverify.testing`, registered under the ``pytest11`` entry point ``lfverify``.

Installed with ``pip install ".[testing]" in a clone``, it gives every test session these fixtures (session-scoped:
the objects are immutable):

==========================================  =========================================================================
``lfverify_finite_population``              :data:`~lfverify.testing.oracles.REFERENCE_FINITE_POPULATION`: an exact
                                            finite population (U, U_phi, V_phi by ``math.fsum`` over its atoms)
``lfverify_gaussian_population``            :data:`~lfverify.testing.oracles.REFERENCE_GAUSSIAN_POPULATION` (U, U_phi,
                                            V_phi by quadrature)
``lfverify_classifier_populations``         ``{"finite": ..., "gaussian": ...}``: the imbalanced (prior 0.1)
                                            one-dimensional populations of
                                            :func:`~lfverify.testing.check_metric_classifier`
``lfverify_oracles``                        the module :mod:`lfverify.testing.oracles` (the exact references)
==========================================  =========================================================================

Example (no import of lfverify needed in the test file)::

    def test_my_vhat_is_unbiased(lfverify_finite_population, lfverify_oracles):
        V = lfverify_oracles.population_gradient_direction(lfverify_finite_population, "f1", loss, theta)
"""

from __future__ import annotations

import importlib

import pytest


def _oracles():
    """:mod:`lfverify.testing.oracles`, imported on first use: pytest loads this plugin in every run of an
    environment with lfverify installed, and the oracles load scikit-learn."""
    return importlib.import_module("lfverify.testing.oracles")

__all__ = ["lfverify_finite_population", "lfverify_gaussian_population", "lfverify_classifier_populations",
           "lfverify_oracles"]


@pytest.fixture(scope="session")
def lfverify_finite_population():
    """The exact finite reference population of the U_hat checks (:mod:`lfverify.testing.oracles`)."""
    return _oracles().REFERENCE_FINITE_POPULATION


@pytest.fixture(scope="session")
def lfverify_gaussian_population():
    """The Gaussian reference population of the V_hat Monte-Carlo check (:mod:`lfverify.testing.oracles`)."""
    return _oracles().REFERENCE_GAUSSIAN_POPULATION


@pytest.fixture(scope="session")
def lfverify_classifier_populations():
    """The two imbalanced populations of the classifier checks: ``{"finite": ..., "gaussian": ...}``."""
    oracles = _oracles()
    return {"finite": oracles.CLASSIFIER_FINITE_POPULATION, "gaussian": oracles.CLASSIFIER_GAUSSIAN_POPULATION}


@pytest.fixture(scope="session")
def lfverify_oracles():
    """The module :mod:`lfverify.testing.oracles`: the exact, slow-on-purpose references."""
    return _oracles()
