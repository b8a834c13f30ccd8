"""The 8:2 train / test split of a staged data set shared by the benchmark scripts (imported as ``data_splits``:
the scripts run from this folder)."""

from __future__ import annotations

import numpy as np

from lfverify.learn._datasets import load_dataset


def eight_two_split(name: str, seed: int, n_train_max: int | None = None):
    """App. C.1's random 8:2 split of a staged data set: (X_train, y_train, X_test, y_test), the training part
    optionally cut to its first ``n_train_max`` rows (of the random order).  Same seed, same split."""
    data = load_dataset(name)
    order = np.random.default_rng(np.random.SeedSequence(seed)).permutation(data.y.shape[0])
    n_train = int(round(0.8 * data.y.shape[0]))
    train, test = order[:n_train], order[n_train:]
    if n_train_max is not None:
        train = train[:n_train_max]
    return data.X[train], data.y[train], data.X[test], data.y[test]
