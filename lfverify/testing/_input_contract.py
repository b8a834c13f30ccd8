"""The input contract every checked object must keep, as scikit-learn's estimator checks ask of its API.

1. The caller's arrays are never modified: after every call, each argument equals a copy taken before it (dense:
   dtype, shape and every value; sparse CSR: ``data``, ``indices`` and ``indptr``, so a silent ``sort_indices()``
   or ``sum_duplicates()`` on the caller's matrix is caught - the CSR matrices passed have unsorted indices, an
   explicit zero and a duplicate entry on purpose).
2. The same numbers in another form give the float64 dense result: float32, int64, read-only, Fortran-ordered and
   non-contiguous (strided) arrays, and for labels int8 / float / {0, 1} / boolean encodings.  Every variant holds
   exactly the same values (the inputs are small integers or dyadic fractions), so only the implementation's own
   arithmetic may differ: within 1e-9 of the result's scale, or 1e-4 for float32 input (an implementation may
   compute in the input's precision).
3. A CSR matrix may be refused with a ``TypeError`` or ``ValueError`` (a clear refusal); if it is accepted it must
   give the dense result.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from lfverify.testing._framework import TheoryCheckFailure, call_user

__all__ = ["snapshot", "read_only_copy", "changed", "feature_variants", "label_variants", "vector_variants",
           "run_contract", "TOLERANCES"]

#: Relative tolerance of each kind of variant against the float64 dense result (module docstring).
TOLERANCES = {"exact": 1e-9, "float32": 1e-4}
CLAIM = "input contract: the caller's arrays are unchanged, and the same numbers in another dtype or layout give " \
        "the float64 dense result"


def snapshot(value):
    """A deep copy of an argument, for :func:`changed`."""
    if sparse.issparse(value):
        return ("sparse", value.format, value.shape, value.data.copy(), value.indices.copy(), value.indptr.copy())
    if isinstance(value, np.ndarray):
        return ("dense", value.dtype, value.shape, value.copy())
    return ("other", repr(value))


def changed(value, copy) -> str | None:
    """How ``value`` differs from its :func:`snapshot` ``copy``, or None."""
    kind = copy[0]
    if kind == "sparse":
        if not sparse.issparse(value) or value.format != copy[1] or value.shape != copy[2]:
            return "the sparse matrix was replaced or reshaped"
        for label, now, before in (("data", value.data, copy[3]), ("indices", value.indices, copy[4]),
                                   ("indptr", value.indptr, copy[5])):
            if now.dtype != before.dtype or now.shape != before.shape or not np.array_equal(now, before):
                return f"its {label} array was modified in place ({before.tolist()[:12]} -> {now.tolist()[:12]})"
        return None
    if kind == "dense":
        if value.dtype != copy[1] or value.shape != copy[2]:
            return f"dtype/shape changed from {copy[1]}{copy[2]} to {value.dtype}{value.shape}"
        if not np.array_equal(value, copy[3], equal_nan=value.dtype.kind == "f"):
            where = np.argwhere(value != copy[3])[:3].tolist()
            return f"values were modified in place (first changed indices {where})"
        return None
    return None if repr(value) == copy[1] else "the argument was modified in place"


def read_only_copy(arr: np.ndarray) -> np.ndarray:
    """A copy of ``arr`` that refuses writes (the contract's read-only variants)."""
    out = np.array(arr, copy=True)
    out.setflags(write=False)
    return out


def _strided(arr: np.ndarray) -> np.ndarray:
    """The same values as a non-contiguous view (every other element of a larger array along the last axis)."""
    big = np.repeat(arr, 2, axis=-1)
    view = big[..., ::2]
    assert not view.flags.c_contiguous or view.size <= 1
    return view


def _messy_csr(X: np.ndarray):
    """X as a CSR matrix of X's (float) dtype with unsorted column indices in every row, one explicit zero and one
    duplicate entry (two halves of a dyadic value, which sum to it exactly)."""
    rows, cols, vals = [], [], []
    for i, row in enumerate(X):
        nonzero = [j for j in range(X.shape[1]) if row[j] != 0][::-1]  # reversed: unsorted indices
        for j in nonzero:
            rows.append(i)
            cols.append(j)
            vals.append(row[j])
    if rows:  # split one entry into two duplicates that sum to it (exact: halves of a dyadic value)
        rows.append(rows[0])
        cols.append(cols[0])
        vals[0] = vals[0] / 2
        vals.append(vals[0])
    rows.append(0)  # an explicit zero in row 0 at a column that is otherwise empty, or next to an entry
    cols.append(0)
    vals.append(0.0)
    order = np.argsort(np.array(rows), kind="stable")
    data = np.array(vals, dtype=X.dtype)[order]
    indices = np.array(cols, dtype=np.int32)[order]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(np.array(rows), minlength=X.shape[0]))]).astype(np.int32)
    matrix = sparse.csr_matrix((data, indices, indptr), shape=X.shape)
    matrix.has_sorted_indices = False
    assert np.array_equal(matrix.toarray(), X)
    return matrix


def feature_variants(X: np.ndarray, *, csr: bool = True):
    """(label, array, tolerance kind) for a float64 feature matrix of small integers or dyadic values."""
    variants = [("float32 X", X.astype(np.float32), "float32"),
                ("read-only X", read_only_copy(X), "exact"),
                ("Fortran-ordered X", np.asfortranarray(X), "exact"),
                ("non-contiguous X", _strided(X), "exact")]
    if np.array_equal(X, np.round(X)):
        variants.insert(1, ("int64 X", X.astype(np.int64), "exact"))
    if csr:
        variants.append(("CSR X (unsorted indices, a duplicate entry, an explicit zero)", _messy_csr(X), "csr"))
    return variants


def label_variants(y: np.ndarray):
    """(label, array, tolerance kind) for labels in {-1, +1}."""
    positive = y == 1
    return [("int8 labels", y.astype(np.int8), "exact"),
            ("float64 labels", y.astype(np.float64), "exact"),
            ("{0, 1} labels", positive.astype(np.int64), "exact"),
            ("boolean labels", positive.copy(), "exact"),
            ("read-only labels", read_only_copy(y), "exact"),
            ("non-contiguous labels", _strided(y), "exact")]


def vector_variants(v: np.ndarray, name: str):
    """(label, array, tolerance kind) for a float64 vector of dyadic values (theta, margins)."""
    return [(f"float32 {name}", v.astype(np.float32), "float32"),
            (f"read-only {name}", read_only_copy(v), "exact"),
            (f"non-contiguous {name}", _strided(v), "exact")]


def run_contract(call, arguments: dict, variants, *, compare, check: str, witness: dict, reference=None):
    """Call ``call(**arguments)`` with each variant substituted, checking the result and every argument.

    Parameters
    ----------
    call : callable
        ``call(**arguments) -> result``.
    arguments : dict
        The float64 dense arguments.
    variants : iterable of (argument name, label, value, tolerance kind)
    compare : callable
        ``compare(reference, result, tolerance) -> None or a detail string``.
    reference : object, optional
        The float64 dense result (computed here when not given).
    """
    if reference is None:
        reference = _call_watching(call, arguments, check, {**witness, "variant": "float64 dense"})
    for argument, label, value, kind in variants:
        args = {**arguments, argument: value}
        case = {**witness, "variant": label}
        if kind == "csr":
            try:
                result = _call_watching(call, args, check, case, allow_refusal=True)
            except _Refused:
                continue
        else:
            result = _call_watching(call, args, check, case)
        detail = compare(reference, result, TOLERANCES["float32" if kind == "float32" else "exact"])
        if detail is not None:
            raise TheoryCheckFailure(check, CLAIM, witness=case, observed=result, expected=reference, detail=detail)


class _Refused(Exception):
    pass


def _call_watching(call, arguments, check, witness, allow_refusal=False):
    copies = {name: snapshot(value) for name, value in arguments.items()}
    if allow_refusal:
        try:
            result = call(**arguments)
        except TheoryCheckFailure as failure:
            cause = failure.__cause__
            if isinstance(cause, (TypeError, ValueError)):
                raise _Refused() from cause
            raise
    else:
        result = call(**arguments)
    for name, value in arguments.items():
        how = changed(value, copies[name])
        if how is not None:
            raise TheoryCheckFailure(check, CLAIM, witness={**witness, "argument": name}, observed=f"{name}: {how}",
                                     expected="unchanged", detail="the implementation must not modify its inputs")
    return result


def user_call(fn, check):
    """A ``call(**arguments)`` for :func:`run_contract` that calls ``fn`` positionally through
    :func:`~lfverify.testing._framework.call_user` (so its exceptions are failures naming the witness)."""
    def call(**arguments):
        return call_user(fn, tuple(arguments.values()), check=check, claim=CLAIM,
                         witness={k: v for k, v in arguments.items()})
    return call
