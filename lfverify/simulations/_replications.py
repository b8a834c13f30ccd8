"""Replications and their grouping into tasks: the one home of both rules, used by the built-in studies and by
:func:`lfverify.simulations.rate_study` alike.

* **Streams.**  Replication r of population ``name`` at sample size n draws its sample from
  ``SeedSequence(study seed, key (population, n, replication))`` (:func:`lfverify.simulations.seed_sequence`, the
  package's seeding rule), so a sample depends neither on how replications are grouped into tasks nor on which
  worker runs them, and a user's study seeded like a built-in one sees the same samples.
* **Blocks.**  A task holds at most ``samples_per_task // n`` replications (at least one), consecutive, so its
  memory is bounded by ``samples_per_task`` samples whatever the number of replications; the grouping depends on
  the configuration only, never on the number of workers.
"""

from __future__ import annotations

import numpy as np

from lfverify.simulations._engine import Task, seed_sequence

__all__ = ["replication_blocks", "block_tasks", "replication_stream", "replication_sample", "draw_replications"]


def replication_blocks(replications: int, n: int, samples_per_task: int) -> list[tuple[int, int]]:
    """(first, count) of each block of ``replications`` replications of size ``n``: at most
    ``samples_per_task // n`` replications per block (at least one), consecutive, covering 0 .. replications - 1
    once."""
    per_task = max(1, min(replications, samples_per_task // n))
    return [(first, min(per_task, replications - first)) for first in range(0, replications, per_task)]


def block_tasks(prefixes, sample_sizes, replications: int, samples_per_task: int) -> list[Task]:
    """The tasks prefix x n x block: ``Task(prefix + (("n", n), ("first", first), ("count", count)))`` for each
    prefix (a tuple of (name, value) pairs, e.g. ``(("population", "finite"),)``), each n of ``sample_sizes`` and
    each block of :func:`replication_blocks`."""
    return [Task(tuple(prefix) + (("n", int(n)), ("first", first), ("count", count)))
            for prefix in prefixes for n in sample_sizes
            for first, count in replication_blocks(replications, int(n), samples_per_task)]


def replication_stream(study_seed: int, key) -> np.random.Generator:
    """``numpy.random.default_rng(seed_sequence(study_seed, key))``: the generator of one replication's key."""
    return np.random.default_rng(seed_sequence(study_seed, key))


def replication_sample(population, name: str, n: int, replication: int, study_seed: int):
    """(X, y) of one replication, X float64 of shape (n, d) and y int64 in {-1, +1}, drawn from the stream of key
    (("population", name), ("n", n), ("replication", replication)).

    ``population`` is an lfverify population (or anything with ``sample(n, seed) -> (X, y)``) or a function
    ``(n, rng) -> (X, y)``.

    Raises
    ------
    ValueError
        If the population draws X or y of the wrong shape (naming the population and n).
    """
    key = (("population", name), ("n", int(n)), ("replication", int(replication)))
    rng = replication_stream(study_seed, key)
    X, y = population.sample(int(n), seed=rng) if hasattr(population, "sample") else population(int(n), rng)
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if X.ndim != 2 or X.shape[0] != n or y.shape != (n,):
        raise ValueError(f"population {name!r} drew X of shape {X.shape} and y of shape {y.shape} at n = {n}; "
                         f"expected ({n}, d) and ({n},)")
    return X, y.astype(np.int64)


def draw_replications(population, name: str, n: int, first: int, count: int, study_seed: int):
    """X of shape (count, n, d) and y of shape (count, n): replications first .. first + count - 1 of
    :func:`replication_sample`, stacked."""
    draws = [replication_sample(population, name, n, replication=r, study_seed=study_seed)
             for r in range(first, first + count)]
    return np.stack([d[0] for d in draws]), np.stack([d[1] for d in draws])
