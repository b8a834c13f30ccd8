"""The package's one seeding rule.

Every public entry point that draws random numbers takes its seed (``random_state``, ``seed``) as None, an int
>= 0, a :class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`, and turns it into a
SeedSequence with :func:`as_seed_sequence` (or into a Generator with :func:`as_generator`): one rule, one error
message.  The independent streams of one computation (cross-fitting folds, trials, tasks, replications) are
*children* of that SeedSequence derived by a key, :func:`child`, never by ``SeedSequence.spawn``, which advances a
counter: the same key gives the same stream whatever ran before it and whichever worker runs it, so results do not
depend on the number of workers.  A text key (a task's canonical key) becomes four 32-bit words by BLAKE2b
(:func:`text_key`).

:data:`DEFAULT_SEED` is the fixed seed of the derivations' and self-checks' seeded evidence.  Their exact rational
witnesses are drawn with the standard library's ``random.Random(DEFAULT_SEED + k)`` (Fractions, not floats); the
numbers they print are pinned in ERRATA.md and ``proofs/``.
"""

from __future__ import annotations

import hashlib
import numbers

import numpy as np

__all__ = ["DEFAULT_SEED", "check_seed", "as_seed_sequence", "as_generator", "child", "text_key", "int_seed"]

#: The fixed seed of the derivations' and the self-checks' seeded evidence.
DEFAULT_SEED = 20200826

_EXPECTED = "None, an int >= 0, a numpy SeedSequence or a numpy Generator"


def check_seed(seed, name: str = "random_state"):
    """``seed`` unchanged if it is a seed :func:`as_seed_sequence` accepts (nothing is drawn from a Generator).

    Raises
    ------
    TypeError
        If ``seed`` is not None, an int, a SeedSequence or a Generator (a bool included).
    ValueError
        If ``seed`` is a negative int.
    """
    if seed is None or isinstance(seed, (np.random.SeedSequence, np.random.Generator)):
        return seed
    if isinstance(seed, numbers.Integral) and not isinstance(seed, (bool, np.bool_)):
        if seed < 0:
            raise ValueError(f"{name} must be {_EXPECTED}; got the negative int {int(seed)}")
        return seed
    text = repr(seed)
    raise TypeError(f"{name} must be {_EXPECTED}; got {text if len(text) <= 60 else text[:57] + '...'} "
                    f"({type(seed).__name__})")


def as_seed_sequence(seed, name: str = "random_state") -> np.random.SeedSequence:
    """``seed`` as a SeedSequence.

    Parameters
    ----------
    seed : None, int >= 0, numpy.random.SeedSequence or numpy.random.Generator
        None: fresh entropy from the operating system.  A Generator is advanced by one draw (as scikit-learn's
        ``check_random_state`` advances a RandomState), so two calls with one Generator give two streams.
    name : str
        The argument's name, for the error message.

    Raises
    ------
    TypeError
        If ``seed`` is of another type (a bool included).
    ValueError
        If ``seed`` is a negative int.
    """
    seed = check_seed(seed, name)
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2 ** 63)))
    return np.random.SeedSequence(None if seed is None else int(seed))


def as_generator(seed, name: str = "random_state") -> np.random.Generator:
    """``seed`` as a Generator: a Generator itself (its stream continues), anything else through
    :func:`as_seed_sequence`."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(as_seed_sequence(seed, name))


def child(seq: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The child of ``seq`` at ``key`` (ints >= 0): the same SeedSequence on every call, in every process."""
    if not isinstance(seq, np.random.SeedSequence):
        raise TypeError(f"seq must be a numpy SeedSequence; got {type(seq).__name__}")
    words = []
    for k in key:
        if not isinstance(k, numbers.Integral) or isinstance(k, (bool, np.bool_)) or k < 0:
            raise ValueError(f"key items must be ints >= 0; got {k!r}")
        words.append(int(k))
    return np.random.SeedSequence(seq.entropy, spawn_key=tuple(seq.spawn_key) + tuple(words))


def int_seed(seq: np.random.SeedSequence) -> int:
    """An int in [0, 2^31 - 1) from ``seq``, for a library that takes an integer seed (scikit-learn's
    ``random_state``): the first 32-bit word of its state, reduced."""
    return int(seq.generate_state(1)[0] % (2 ** 31 - 1))


def text_key(text: str) -> tuple[int, ...]:
    """Four 32-bit words of BLAKE2b(``text``): a stable key for :func:`child` from a task's canonical text."""
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
    return tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))
