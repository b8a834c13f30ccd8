"""Deterministic 1-D quadrature for population expectations of piecewise-smooth integrands.

The continuous populations of :mod:`lfverify.core` reduce every population quantity of the linear
model (U_phi of Eq. (4), V_phi of Sec. 3.3) to one-dimensional expectations E[g(xi)] of a surrogate loss
phi and its derivative, with xi either Gaussian (:func:`gaussian_expectation`) or supported on a finite
interval (:func:`interval_expectation`).  Both use one rule: *composite Gauss-Legendre*, i.e. the domain is
cut at every breakpoint of the integrand (the kinks of phi, where phi' jumps) and each piece into panels,
and every panel gets an n-point Gauss-Legendre rule (n = 16 by default).  On a panel where the integrand
is analytic inside the Bernstein ellipse with parameter rho, the n-point rule has error O(rho^(-2n)); the
panel widths below are chosen so that rho >= 12 for every loss in :mod:`lfverify.core`, which puts the
truncation error far below double precision.

Why not plain Gauss-Hermite.  The tau-discrepant logistic loss (kink at m = 0) and the hinge (kink at
m = 1) are not smooth, and a global Gauss-Hermite rule converges only algebraically across a kink.
Measured for E[phi(xi)], xi ~ N(0.3, 1.5^2) (reference: mpmath.quad at 40 digits split at the kink;
relative errors)::

    phi = tau_logistic(0.33)                      (kink at m = 0)
    numpy hermegauss,  40 nodes                   2.3e-03
    numpy hermegauss, 200 nodes                   4.0e-04
    gaussian_expectation (49 panels x 16 nodes)   2.9e-16

    phi = hinge                                   (kink at m = 1)
    numpy hermegauss,  40 nodes                   5.1e-03
    numpy hermegauss, 200 nodes                   9.7e-04
    gaussian_expectation (49 panels x 16 nodes)   3.8e-19

(rerun: ``python -m lfverify.core._quadrature``).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.polynomial.legendre import leggauss

from lfverify.core._losses import hinge, tau_logistic

__all__ = ["gaussian_expectation", "interval_expectation"]

#: Half-width L of the standardized Gaussian window [-L - tail_rate * std, L].  The omitted mass
#: P(|Z| > 12) = 3.6e-33, and for integrands growing at most polynomially (or like exp(tail_rate * |xi|),
#: compensated by the shifted lower end) the omitted part is below 1e-30 relative.
GAUSSIAN_HALF_WIDTH = 12.0

#: Upper bound on the quadrature nodes per batch row, so that a huge ``std`` (panel width 1 / std) fails
#: loudly instead of exhausting memory.
MAX_NODES_PER_ROW = 1 << 20

_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _composite_gauss_legendre(edges: np.ndarray, max_width: np.ndarray, nodes_per_panel: int):
    """Nodes and weights of the composite Gauss-Legendre rule on the segments between ``edges``.

    Parameters
    ----------
    edges : ndarray of shape (K, S + 1)
        Non-decreasing segment end points per batch row (empty segments are allowed).
    max_width : ndarray of shape (K,)
        Largest panel width allowed in each row.
    nodes_per_panel : int

    Returns
    -------
    nodes, weights : ndarray of shape (K, N)
        Every row uses the same number of panels per segment (the maximum over rows), so a row whose
        segment is short gets narrower panels than it needs: accuracy is only gained.

    Raises
    ------
    ValueError
        If some row of ``edges`` decreases (a negative segment would enter with negative weights).
    """
    K = edges.shape[0]
    lengths = np.diff(edges, axis=1)  # (K, S)
    if np.any(lengths < 0):
        k, s = (int(v[0]) for v in np.nonzero(lengths < 0))
        raise ValueError(f"edges must be non-decreasing in each row (the breakpoints sorted); row {k} goes from "
                         f"{float(edges[k, s])!r} down to {float(edges[k, s + 1])!r}")
    counts = np.maximum(np.ceil(lengths / max_width[:, None]).max(axis=0), 1.0)
    total = float(counts.sum()) * nodes_per_panel
    if total > MAX_NODES_PER_ROW:
        raise ValueError(
            f"the composite rule would need {total:.3g} nodes per row (limit {MAX_NODES_PER_ROW}); "
            "the integrand varies on too fine a scale relative to its domain (e.g. std or slope too large)"
        )
    counts = counts.astype(np.intp)
    segment = np.repeat(np.arange(counts.size), counts)  # segment of each panel
    index = np.arange(segment.size) - np.repeat(np.cumsum(counts) - counts, counts)  # panel index in its segment
    start = edges[:, segment]
    length = lengths[:, segment]
    lower = start + length * (index / counts[segment])
    upper = start + length * ((index + 1) / counts[segment])
    x, w = leggauss(nodes_per_panel)
    half = 0.5 * (upper - lower)
    middle = 0.5 * (upper + lower)
    nodes = middle[:, :, None] + half[:, :, None] * x
    weights = half[:, :, None] * w
    return nodes.reshape(K, -1), weights.reshape(K, -1)


def _check_nodes_per_panel(nodes_per_panel) -> int:
    if isinstance(nodes_per_panel, bool) or not isinstance(nodes_per_panel, (int, np.integer)) or nodes_per_panel < 1:
        raise ValueError(f"nodes_per_panel must be a positive int; got {nodes_per_panel!r}")
    return int(nodes_per_panel)


def _breakpoint_matrix(breakpoints, K: int) -> np.ndarray:
    bp = np.asarray(breakpoints, dtype=np.float64)
    if bp.ndim == 1:
        bp = np.broadcast_to(bp, (K, bp.size))
    if bp.ndim != 2 or bp.shape[0] != K:
        raise ValueError(f"breakpoints must have shape (B,) or ({K}, B); got shape {np.shape(breakpoints)}")
    if np.isnan(bp).any():
        raise ValueError("breakpoints must not contain NaN")
    return bp


def _weighted_sums(weights: np.ndarray, values: np.ndarray, K: int, N: int) -> np.ndarray:
    if values.shape[:2] != (K, N):
        raise ValueError(f"func must return an array of shape ({K}, {N}) or ({K}, {N}, ...); got {values.shape}")
    if not np.isfinite(values).all():
        rows = np.flatnonzero(~np.isfinite(values.reshape(K, -1)).all(axis=1))
        raise ValueError(
            f"func is not finite at some quadrature nodes of rows {rows[:10].tolist()}; the integrand overflows "
            "double precision there (e.g. the exponential loss with a large std), so the rule cannot be applied"
        )
    return np.einsum("kn,kn...->k...", weights, values)


def gaussian_expectation(func, mean, std, *, breakpoints=(), tail_rate: float = 0.0, nodes_per_panel: int = 16,
                         first_moment: bool = False):
    """E[func(xi)] for xi ~ N(mean_k, std_k^2), for every row k of a batch, by composite Gauss-Legendre.

    The integral is taken in z = (xi - mean) / std over the window [-L - tail_rate * std, L], L = 12,
    cut at every breakpoint and into panels of width at most
    min(0.5, 1 / std) in z.

    Panel rule.  The Gaussian density is entire: on a panel of width 0.5 the 16-point error bound
    ``0.5^33 (16!)^4 / (33 (32!)^3) max |d^32 exp(-z^2/2)|`` is below 1e-40.  The losses
    are piecewise analytic; their nearest complex singularities are those of the logistic pieces,
    softplus(-s t), at t = i pi / s, i.e. at distance >= pi (in xi) from the real axis for s <= 1.  In z that
    distance is pi / std, so a panel of width <= 1 / std has half-width h <= 1 / (2 std) and sees the
    singularity at distance >= 2 pi h: rho >= 2 pi + sqrt(1 + 4 pi^2) ~ 12.6 and the 16-point error is
    O(rho^(-32)) ~ 1e-35.  Kinks (jumps of phi') are made panel end points, so no panel straddles one.

    Parameters
    ----------
    func : callable
        Maps xi of shape (K, N) to values of shape (K, N) or (K, N, M) (several integrands at once).  Row k
        of xi belongs to (mean_k, std_k).  Must be finite at the nodes (else ValueError): the window reaches
        ``|z| = L + tail_rate * std``, so e.g. exp(-xi) overflows there once std >~ 20 although its mean
        exp(-mean + std^2 / 2) may still be representable.
    mean, std : array_like of shape (K,)
        Finite; std >= 0.  A row with std = 0 is degenerate and gives func(mean) exactly.
    breakpoints : array_like of shape (B,) or (K, B), keyword-only
        Points in xi where func is not smooth (e.g. kinks of phi mapped to xi); those outside the window
        are ignored.
    tail_rate : float >= 0, keyword-only
        func(xi) may grow like ``exp(tail_rate * |xi|)`` as xi -> -inf (the exponential loss: 1); the lower end
        of the window is moved to -L - tail_rate * std, where the tilted integrand has its bulk.
    nodes_per_panel : int, keyword-only
    first_moment : bool, keyword-only
        Also return E[func(xi) z] with the exact standardized node z = (xi - mean) / std (0 when std = 0),
        used for Gaussian conditioning (E[X | xi]) without cancellation in xi - mean.

    Returns
    -------
    ndarray of shape (K,) or (K, M), or a pair of them when ``first_moment``.

    Notes
    -----
    The panels are uniform, so the cost is about 16 (25 + 25 std) nodes per row for std > 2; rows are
    limited to 2^20 nodes (std up to about 2500), beyond which ValueError is raised.
    """
    n = _check_nodes_per_panel(nodes_per_panel)
    mean = np.asarray(mean, dtype=np.float64)
    std = np.asarray(std, dtype=np.float64)
    if mean.ndim != 1 or std.shape != mean.shape:
        raise ValueError(f"mean and std must be 1-D arrays of equal shape (K,); got {mean.shape} and {std.shape}")
    if not (np.isfinite(mean).all() and np.isfinite(std).all()) or np.any(std < 0):
        raise ValueError("mean must be finite and std finite and non-negative")
    if not (math.isfinite(tail_rate) and tail_rate >= 0):
        raise ValueError(f"tail_rate must be finite and >= 0; got {tail_rate!r}")
    K = mean.size
    bp = _breakpoint_matrix(breakpoints, K)
    degenerate = std == 0
    s = np.where(degenerate, 1.0, std)  # the panel geometry of a degenerate row is irrelevant
    low = -GAUSSIAN_HALF_WIDTH - tail_rate * s
    high = GAUSSIAN_HALF_WIDTH
    # clip in xi before standardizing, so a tiny std cannot overflow (b - mean) / std
    m, sc = mean[:, None], s[:, None]
    z_bp = (np.clip(bp, m + low[:, None] * sc, m + high * sc) - m) / sc
    z_bp = np.sort(np.clip(z_bp, low[:, None], high), axis=1)
    edges = np.concatenate([low[:, None], z_bp, np.full((K, 1), high)], axis=1)
    width = 1.0 / np.maximum(s, 2.0)  # min(0.5, 1 / std)
    z, w = _composite_gauss_legendre(edges, width, n)
    w = w * np.exp(-0.5 * z * z) / _SQRT_2PI
    if degenerate.any():
        w[degenerate] = 0.0
        w[degenerate, 0] = 1.0  # all nodes of the row sit at xi = mean
    xi = mean[:, None] + std[:, None] * z
    values = np.asarray(func(xi))
    expectation = _weighted_sums(w, values, K, z.shape[1])
    if not first_moment:
        return expectation
    wz = w * z
    wz[degenerate] = 0.0
    return expectation, _weighted_sums(wz, values, K, z.shape[1])


def interval_expectation(func, low: float, high: float, *, breakpoints, max_panel_width=0.25, density=None,
                         nodes_per_panel: int = 16):
    """Integral of func(u) p(u) over [low, high], for every row k of a batch, by composite Gauss-Legendre.

    Parameters
    ----------
    func : callable
        Maps u of shape (K, N) to values of shape (K, N) or (K, N, M).
    low, high : float
        Finite interval, low < high.
    breakpoints : array_like of shape (K, B) or (B,), keyword-only
        Points where func is not smooth (per row); points outside [low, high] are ignored.  K is taken
        from here (pass shape (K, 0) when there are none).
    max_panel_width : float or array_like of shape (K,), keyword-only
        Largest panel width per row.  With n = 16 nodes a panel of width w is accurate to double precision
        when the integrand is analytic within distance ~ w (rho >= 1 + sqrt 2 gives O(1e-12); distance
        pi * w, as for logistic pieces with width <= ``1 / |slope|``, gives rho >= 12 and O(1e-35)).
    density : callable or None, keyword-only
        p(u), vectorized; ``None`` is the uniform density 1 / (high - low), so the result is E[func(U)].
    nodes_per_panel : int, keyword-only

    Returns
    -------
    ndarray of shape (K,) or (K, M)
    """
    n = _check_nodes_per_panel(nodes_per_panel)
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"need finite low < high; got low={low!r}, high={high!r}")
    bp = np.asarray(breakpoints, dtype=np.float64)
    if bp.ndim != 2:
        raise ValueError(f"breakpoints must have shape (K, B); got shape {bp.shape}")
    K = bp.shape[0]
    bp = np.sort(np.clip(_breakpoint_matrix(bp, K), low, high), axis=1)
    width = np.broadcast_to(np.asarray(max_panel_width, dtype=np.float64), (K,))
    if not np.all(width > 0):
        raise ValueError("max_panel_width must be positive")
    edges = np.concatenate([np.full((K, 1), low), bp, np.full((K, 1), high)], axis=1)
    u, w = _composite_gauss_legendre(edges, width, n)
    w = w / (high - low) if density is None else w * np.asarray(density(u), dtype=np.float64)
    return _weighted_sums(w, np.asarray(func(u)), K, u.shape[1])


def _measure_against_gauss_hermite() -> None:  # pragma: no cover - documentation helper
    """Print the Gauss-Hermite vs composite Gauss-Legendre errors quoted in the module docstring."""
    import mpmath


    with mpmath.workdps(40):  # local precision: the caller's mpmath.mp.dps is left alone
        mean, std = 0.3, 1.5
        for loss, phi in [
            (tau_logistic(0.33), lambda t: mpmath.log(1 + mpmath.exp(-t if t <= 0 else -0.33 * t)) / mpmath.log(2)),
            (hinge(), lambda t: max(mpmath.mpf(0), 1 - t)),
        ]:
            kink = loss.kinks[0]
            integrand = lambda x, phi=phi: phi(x) * mpmath.npdf(x, mean, std)  # noqa: E731
            ref = mpmath.quad(integrand, [-mpmath.inf, kink, mpmath.inf])
            print(loss.name, "reference", mpmath.nstr(ref, 25))
            for nodes in (40, 200):
                x, w = np.polynomial.hermite_e.hermegauss(nodes)
                gh = float(np.sum(w * loss.value(mean + std * x)) / _SQRT_2PI)
                print(f"  hermegauss {nodes:4d}: rel. error {abs(gh - float(ref)) / float(ref):.2g}")
            gl = gaussian_expectation(loss.value, np.array([mean]), np.array([std]), breakpoints=loss.kinks)[0]
            print(f"  composite Gauss-Legendre: rel. error {float(abs(mpmath.mpf(gl) - ref) / ref):.2g}")


if __name__ == "__main__":  # pragma: no cover
    _measure_against_gauss_hermite()
