"""Input validation shared by every public entry point.

Every check raises :class:`ValueError` or :class:`TypeError` whose message names the argument, what was
expected and what was received, so that bad input never turns into a silent NaN further down.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "check_real",
    "check_features",
    "check_labels",
    "check_parameters",
    "check_sample_weight",
]


def _describe(value) -> str:
    """A short description of a received value for error messages."""
    if isinstance(value, np.ndarray):
        return f"array of shape {value.shape} and dtype {value.dtype}"
    if isinstance(value, np.generic):  # a numpy scalar reads as the Python number it holds: inf, not np.float64(inf)
        value = value.item()
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _reject_complex(value, name: str, expected: str):
    """``value`` itself, unless it is complex: the float conversion would drop the imaginary part (with only a
    ComplexWarning), so any complex dtype is refused (:class:`TypeError` naming ``name``, tagged ``complex_input``
    for :func:`check_features`, which converts inside a ``try``)."""
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        try:
            dtype = np.asarray(value).dtype
        except (TypeError, ValueError):  # ragged or not numeric: the conversion that follows reports it
            return value
    if np.issubdtype(dtype, np.complexfloating):
        error = TypeError(f"{name} must hold {expected}; got complex values ({_describe(value)})")
        error.complex_input = True
        raise error
    return value


def check_real(
    value,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
) -> float:
    """Return ``value`` as a finite float inside the given interval, or raise.

    Parameters
    ----------
    value : real number
    name : str
        The argument's name, used in the error message.
    low, high : float or None
        Interval bounds (``None`` for unbounded).
    low_inclusive, high_inclusive : bool
        Whether each bound belongs to the interval.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number; got {_describe(value)}")
    x = float(value)
    lo_br = "[" if low_inclusive and low is not None else "("
    hi_br = "]" if high_inclusive and high is not None else ")"
    interval = f"{lo_br}{'-inf' if low is None else low}, {'inf' if high is None else high}{hi_br}"
    if not np.isfinite(x):
        raise ValueError(f"{name} must be a finite real number in {interval}; got {x!r}")
    if low is not None and (x < low or (x == low and not low_inclusive)):
        raise ValueError(f"{name} must lie in {interval}; got {x!r}")
    if high is not None and (x > high or (x == high and not high_inclusive)):
        raise ValueError(f"{name} must lie in {interval}; got {x!r}")
    return x


def _check_feature_shape(shape, name: str, min_samples: int, what: str) -> None:
    """(n, d) with n >= min_samples and d >= 1, for a dense array or a sparse matrix (``what``)."""
    if len(shape) != 2:
        raise ValueError(f"{name} must be a 2-D {what} of shape (n, d); got {'an array of ' if what == 'array' else ''}"
                         f"shape {shape}")
    n, d = shape
    if n < min_samples:
        raise ValueError(f"{name} must have at least {min_samples} rows (samples); got {n}")
    if d < 1:
        raise ValueError(f"{name} must have at least one column (feature); got shape {shape}")


def _check_sparse_features(X, name: str, min_samples: int):
    """A scipy.sparse matrix as a CSR float64 matrix (canonical: sorted indices, no duplicates) with finite values."""
    _check_feature_shape(X.shape, name, min_samples, "matrix")
    if np.iscomplexobj(X.data):
        raise TypeError(f"{name} must hold real numbers; got complex dtype {X.dtype}")
    try:
        csr = X.tocsr().astype(np.float64)  # astype copies, so canonicalising below never touches the caller's X
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a numeric sparse matrix; got dtype {X.dtype}") from exc
    csr.sum_duplicates()
    csr.sort_indices()
    if not np.isfinite(csr.data).all():
        position = int(np.flatnonzero(~np.isfinite(csr.data))[0])
        row = int(np.searchsorted(csr.indptr, position, side="right") - 1)
        column = int(csr.indices[position])
        raise ValueError(f"{name} must contain only finite values; got {_describe(csr.data[position])} at index "
                         f"({row}, {column}) (row {row}, column {column})")
    return csr


def check_features(X, name: str = "X", *, min_samples: int = 1, accept_sparse: bool = False):
    """Return ``X`` as a C-contiguous finite float64 array of shape (n, d).

    With ``accept_sparse``, a ``scipy.sparse`` matrix or array is returned as a canonical CSR float64 matrix
    instead (the format scikit-learn's linear models use); without it, sparse input is refused with a message
    that says so (never silently densified).

    Raises
    ------
    ValueError
        If ``X`` is not 2-D, has fewer than ``min_samples`` rows, no columns, or a non-finite entry.
    TypeError
        If ``X`` is not numeric, or is sparse while ``accept_sparse`` is False.
    """
    from scipy import sparse

    if sparse.issparse(X):
        if not accept_sparse:
            raise TypeError(f"{name} must be a dense array here; got a scipy.sparse {X.format} matrix of shape "
                            f"{X.shape} (use X.toarray())")
        return _check_sparse_features(X, name, min_samples)
    try:
        arr = np.asarray(_reject_complex(X, name, "real numbers"), dtype=np.float64)
    except (TypeError, ValueError) as exc:
        if getattr(exc, "complex_input", False):
            raise
        raise TypeError(f"{name} must be a numeric array of shape (n, d); got {_describe(X)}") from exc
    _check_feature_shape(arr.shape, name, min_samples, "array")
    if not np.isfinite(arr).all():
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"{name} must contain only finite values; got {_describe(arr[tuple(bad)])} at index "
            f"{tuple(int(i) for i in bad)}" + (f" (row {int(bad[0])}, column {int(bad[1])})" if bad.size == 2 else "")
        )
    return np.ascontiguousarray(arr)


def check_labels(y, name: str = "y", *, n_samples: int | None = None, require_both_classes: bool = True) -> np.ndarray:
    """Return binary labels as an int8 array with values in {-1, +1}.

    Accepted encodings are {-1, +1} and {0, 1} (and booleans); with {0, 1}, 0 is mapped to -1 (the negative
    class) and 1 to +1.  A vector holding only the value 1 is read as all-positive, only 0 or -1 as
    all-negative.

    Raises
    ------
    ValueError
        If ``y`` is not 1-D, does not have ``n_samples`` entries, holds other values, mixes the two
        encodings (-1 together with 0), or holds a single class while ``require_both_classes``.
    """
    arr = np.asarray(y)
    _reject_complex(arr, name, "real labels in {-1, +1} or {0, 1}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of labels; got an array of shape {arr.shape}")
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(f"{name} must have {n_samples} entries (one per row of X); got {arr.shape[0]}")
    if arr.dtype == bool:
        arr = arr.astype(np.int8)
    if not (np.issubdtype(arr.dtype, np.number)):
        raise TypeError(f"{name} must hold numeric labels in {{-1, +1}} or {{0, 1}}; got dtype {arr.dtype}")
    values = set(np.unique(arr).tolist())
    if not values <= {-1, 0, 1} or {-1, 0} <= values:
        raise ValueError(
            f"{name} must hold labels in {{-1, +1}} or in {{0, 1}} (0 is mapped to -1); got values {sorted(values)}"
        )
    out = np.where(arr == 1, 1, -1).astype(np.int8)
    if require_both_classes and len(set(out.tolist())) < 2:
        only = "+1" if out.size and out[0] == 1 else "-1"
        raise ValueError(f"{name} must contain both classes; got only class {only} ({out.size} labels)")
    return out


def check_parameters(theta, n_features: int, name: str = "theta") -> tuple[np.ndarray, bool]:
    """Return parameters as a finite float64 array of shape (K, d) and whether the input was 1-D.

    A single parameter vector of shape (d,) is accepted and reported as ``single=True`` so that callers can
    return scalars / (d,) arrays for it and (K,) / (K, d) arrays for a batch.
    """
    _reject_complex(theta, name, "real numbers")
    try:
        arr = np.asarray(theta, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a numeric array of shape (d,) or (K, d); got {_describe(theta)}") from exc
    single = arr.ndim == 1
    if single:
        arr = arr[np.newaxis, :]
    if arr.ndim != 2 or arr.shape[1] != n_features or arr.shape[0] < 1:
        raise ValueError(
            f"{name} must have shape ({n_features},) or (K, {n_features}) with K >= 1; got shape {np.shape(theta)}"
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must contain only finite values; got a non-finite entry")
    return np.ascontiguousarray(arr), single


def check_sample_weight(sample_weight, n_samples: int, name: str = "sample_weight") -> np.ndarray:
    """``sample_weight`` as a float64 array of shape (n_samples,): finite, non-negative, with a positive sum.

    Raises
    ------
    TypeError
        If it is not an array of real numbers.
    ValueError
        For another shape, a negative or non-finite weight, or weights summing to 0.
    """
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of real numbers; got {type(sample_weight).__name__}") from exc
    if weights.shape != (n_samples,):
        raise ValueError(f"{name} must have shape ({n_samples},) (one weight per sample); got shape {weights.shape}")
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"{name} must hold finite non-negative weights; got {float(weights[i])!r} at index {i}")
    if not weights.sum() > 0:
        raise ValueError(f"{name} must have a positive sum (some sample must carry weight); got all zeros")
    return weights
