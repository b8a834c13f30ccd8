"""``check_surrogate_loss``: a surrogate loss against the properties it declares.

The protocol is lfverify's own (:class:`lfverify.core.SurrogateLoss`): a loss is any object with

* ``value(m)`` - phi(m), elementwise over an array of margins;
* ``derivative(m, side="right")`` - phi'(m), one-sided (``side="right"`` or ``"left"``) at a kink;

and it *declares* what it claims through optional attributes read by the same names lfverify's losses use:

==========================  ==========================================================================
``is_convex``               phi is convex (Lemma 2; Thms. 1, 2, 7; tau-discrepancy)
``is_nonincreasing``        phi is non-increasing (Thms. 1, 2, 7)
``dominates_zero_one``      phi(m) >= 1{m <= 0} for every m (Lemma 1)
``kinks``                   the points where phi is not differentiable (a tuple of floats)
``discrepancy``             phi'(0+) / phi'(0-) (Definition of tau-discrepancy: a convex phi is tau-discrepant
                            for every tau >= it)
``lipschitz``               sup |phi'| (Lemma 4); ``inf`` when unbounded
==========================  ==========================================================================

A declared property is checked on a grid (0, +-1e-12, +-1e-6 and +-0.25 ... +-30), 40 seeded random margins in
[-20, 20] and at and around the declared kinks; an undeclared property is not checked.  A property that fails
reports its witness: the margins and the numbers.
"""

from __future__ import annotations

import math

import numpy as np

from lfverify.core import as_generator
from lfverify.testing._framework import (
    CheckNotApplicable,
    Subject,
    TheoryCheck,
    TheoryCheckFailure,
    call_user,
    register_kind,
    run_all,
)
from lfverify.testing._input_contract import read_only_copy, run_contract

__all__ = ["check_surrogate_loss", "loss_checks", "DECLARED_PROPERTIES"]

#: The attributes a loss may declare, and the check each one switches on.
DECLARED_PROPERTIES = {"is_convex": "convexity", "is_nonincreasing": "monotonicity",
                       "dominates_zero_one": "zero_one_domination", "discrepancy": "tau_discrepancy",
                       "lipschitz": "lipschitz_constant", "kinks": "one_sided_derivatives"}
EPS = float(np.finfo(np.float64).eps)
#: Relative tolerance of a derivative against its one-sided, second-order finite difference (step 1e-5 max(1, |m|):
#: truncation ~ h^2 |phi'''| / 3 and rounding ~ 4 eps |phi| / h, both below 1e-7 of |phi'| + |phi| / max(1, |m|)
#: on the grid for every lfverify loss, including exp(-m) at m = -30).
DERIVATIVE_TOLERANCE = 1e-6
#: Absolute slack of the derivative comparisons: where phi and phi' vanish (the squared hinge at its kink 1), the
#: rounding of the stencil's margins m -+ h (about eps |m|) still leaves a difference quotient of about 1e-16.
ABSOLUTE_DERIVATIVE_SLACK = 1e-12
_BASE = (0.0, 1e-12, 1e-6, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0)


def _declared(loss, name):
    value = getattr(loss, name, None)
    return value


def _kinks(loss) -> tuple[float, ...]:
    return tuple(float(k) for k in (getattr(loss, "kinks", ()) or ()))


def _grid(loss, seed) -> np.ndarray:
    points = {s * v for v in _BASE for s in (1.0, -1.0)}
    for k in _kinks(loss):
        points |= {k, k - 1e-3, k + 1e-3, k - 0.25, k + 0.25}
    rng = as_generator(seed, "seed")
    points |= set(rng.uniform(-20.0, 20.0, 40).tolist())
    return np.array(sorted(points))


def _values(loss, m, check, claim, name="value", side=None):
    """phi (or phi') at the margins ``m``, called once on the array; a wrong shape or a non-finite value fails."""
    kwargs = None if side is None else {"side": side}
    witness = {"margins": m} if side is None else {"margins": m, "side": side}
    out = call_user(getattr(loss, name), (m,), check=check, claim=claim, witness=witness, kwargs=kwargs)
    arr = np.asarray(out, dtype=np.float64) if out is not None else None
    if arr is None or arr.shape != m.shape:
        raise TheoryCheckFailure(check, claim, witness=witness, observed=out, expected=f"an array of shape {m.shape}",
                                 detail=f"{name}(m) must be elementwise over an array of margins")
    if not np.isfinite(arr).all():
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise TheoryCheckFailure(check, claim, witness={**witness, "margin": float(m[bad])}, observed=float(arr[bad]),
                                 expected="a finite value", detail=f"{name} must be finite on the grid |m| <= 30")
    return arr


def _one_sided_differences(loss, m, check, claim):
    """Second-order one-sided difference quotients (right, left) of phi at ``m`` with step h = 1e-5 max(1, |m|)."""
    h = 1e-5 * np.maximum(1.0, np.abs(m))
    stencil = np.concatenate([m, m + h, m + 2 * h, m - h, m - 2 * h])
    f = _values(loss, stencil, check, claim).reshape(5, -1)
    right = (-3 * f[0] + 4 * f[1] - f[2]) / (2 * h)
    left = (3 * f[0] - 4 * f[3] + f[4]) / (2 * h)
    return right, left, f[0], h


def _one_sided_derivatives(loss, *, seed):
    check = "one_sided_derivatives"
    claim = "phi'(m, side) is the one-sided derivative of phi: it matches one-sided difference quotients, at the " \
            "declared kinks from each side, and elsewhere both sides agree (no undeclared kink)"
    m = _grid(loss, seed)
    kinks = np.array(_kinks(loss))
    right_fd, left_fd, f, h = _one_sided_differences(loss, m, check, claim)
    right = _values(loss, m, check=check, claim=claim, name="derivative", side="right")
    left = _values(loss, m, check=check, claim=claim, name="derivative", side="left")
    distance = np.min(np.abs(m[:, None] - kinks[None, :]), axis=1) if kinks.size else np.full(m.size, np.inf)
    at_kink = distance == 0
    clear = distance > 3 * h  # neither stencil reaches a declared kink
    scale = np.abs(f) / np.maximum(1.0, np.abs(m))
    for side, derivative, fd, usable in (("right", right, right_fd, clear | at_kink),
                                         ("left", left, left_fd, clear | at_kink)):
        tol = DERIVATIVE_TOLERANCE * (np.abs(derivative) + scale) + ABSOLUTE_DERIVATIVE_SLACK
        bad = usable & (np.abs(derivative - fd) > tol)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise TheoryCheckFailure(check, claim, witness={"margin": float(m[i]), "side": side, "step h": float(h[i]),
                                                    "declared kinks": tuple(kinks.tolist())},
                                     observed=float(derivative[i]), expected=float(fd[i]),
                                     detail=f"the {side} difference quotient differs by "
                                     f"{abs(derivative[i] - fd[i]):.3g} > {tol[i]:.3g}")
    tol = DERIVATIVE_TOLERANCE * (np.abs(right) + np.abs(left) + scale) + ABSOLUTE_DERIVATIVE_SLACK
    bad = ~at_kink & (np.abs(right - left) > tol)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise TheoryCheckFailure(check, claim, witness={"margin": float(m[i]), "declared kinks": tuple(kinks.tolist())},
                                 observed=f"phi'(m+) = {float(right[i])!r}", expected=f"phi'(m-) = {float(left[i])!r}",
                                 detail="the two one-sided derivatives differ at a point that is not a declared kink")


def _pairs(m):
    a, b = np.meshgrid(m, m, indexing="ij")
    keep = a < b
    return a[keep], b[keep]


def _convexity(loss, *, seed):
    check = "convexity"
    claim = "declared is_convex (Lemma 2; Thms. 1, 2, 7): phi(l a + (1 - l) b) <= l phi(a) + (1 - l) phi(b), and " \
            "phi(b) >= phi(a) + phi'(a, side) (b - a) for both sides"
    if not getattr(loss, "is_convex", False):
        raise CheckNotApplicable("the loss does not declare is_convex")
    m = _grid(loss, seed)
    a, b = _pairs(m)
    fa_all = _values(loss, m, check, claim)
    index = {v: i for i, v in enumerate(m.tolist())}
    fa = fa_all[[index[v] for v in a.tolist()]]
    fb = fa_all[[index[v] for v in b.tolist()]]
    for lam in (0.1, 0.25, 0.5, 0.75, 0.9):
        c = lam * a + (1 - lam) * b
        w = (c - b) / (a - b)  # the exact position of the rounded c between a and b
        fc = _values(loss, c, check, claim)
        excess = fc - (w * fa + (1 - w) * fb) - 16 * EPS * (np.abs(fa) + np.abs(fb) + np.abs(fc))
        if (excess > 0).any():
            i = int(np.argmax(excess))
            raise TheoryCheckFailure(check, claim, witness={"a": float(a[i]), "b": float(b[i]), "lambda": lam,
                                                    "phi(a)": float(fa[i]), "phi(b)": float(fb[i])},
                                     observed=f"phi(c) = {float(fc[i])!r} at c = {float(c[i])!r}",
                                     expected=f"<= the chord {float(w[i] * fa[i] + (1 - w[i]) * fb[i])!r}",
                                     detail="the loss lies above its chord: not convex")
    for side in ("right", "left"):
        g = _values(loss, m, check=check, claim=claim, name="derivative", side=side)
        for first, second in ((a, b), (b, a)):
            i_first = np.array([index[v] for v in first.tolist()])
            i_second = np.array([index[v] for v in second.tolist()])
            f1, f2, g1 = fa_all[i_first], fa_all[i_second], g[i_first]
            excess = (f1 + g1 * (second - first) - f2
                      - 8 * EPS * (np.abs(f1) + np.abs(f2) + np.abs(g1 * (second - first))))
            if (excess > 0).any():
                i = int(np.argmax(excess))
                raise TheoryCheckFailure(check, claim,
                                         witness={"a": float(first[i]), "b": float(second[i]), "side": side,
                                                        f"phi'(a, {side})": float(g1[i])},
                                         observed=f"phi(b) = {float(f2[i])!r}",
                                         expected=f">= phi(a) + phi'(a) (b - a) = "
                                         f"{float(f1[i] + g1[i] * (second[i] - first[i]))!r}",
                                         detail="a one-sided derivative is not a subgradient: not convex")


def _monotonicity(loss, *, seed):
    check = "monotonicity"
    claim = "declared is_nonincreasing (Thms. 1, 2, 7): phi(a) >= phi(b) for a < b, and phi'(m, side) <= 0"
    if not getattr(loss, "is_nonincreasing", False):
        raise CheckNotApplicable("the loss does not declare is_nonincreasing")
    m = _grid(loss, seed)
    f = _values(loss, m, check, claim)
    rise = f[1:] - f[:-1] - 4 * EPS * np.abs(f[:-1])
    if (rise > 0).any():
        i = int(np.argmax(rise))
        raise TheoryCheckFailure(check, claim, witness={"a": float(m[i]), "b": float(m[i + 1])},
                                 observed=f"phi(b) = {float(f[i + 1])!r}", expected=f"<= phi(a) = {float(f[i])!r}",
                                 detail="the loss increases")
    for side in ("right", "left"):
        g = _values(loss, m, check=check, claim=claim, name="derivative", side=side)
        if (g > 0).any():
            i = int(np.argmax(g))
            raise TheoryCheckFailure(check, claim, witness={"margin": float(m[i]), "side": side}, observed=float(g[i]),
                                     expected="<= 0", detail="a positive derivative")


def _zero_one_domination(loss, *, seed):
    check = "zero_one_domination"
    claim = "declared dominates_zero_one (Lemma 1): phi(m) >= 1{m <= 0} for every m"
    if not getattr(loss, "dominates_zero_one", False):
        raise CheckNotApplicable("the loss does not declare dominates_zero_one")
    m = np.concatenate([_grid(loss, seed), [-5e-324, -1e-300, 5e-324]])
    f = _values(loss, m, check, claim)
    bound = np.where(m <= 0, 1.0, 0.0)
    short = bound - f - 4 * EPS * bound
    if (short > 0).any():
        i = int(np.argmax(short))
        raise TheoryCheckFailure(check, claim, witness={"margin": float(m[i])}, observed=float(f[i]),
                                 expected=f">= {bound[i]:g}", detail="the loss falls below the 0-1 loss")


def _tau_discrepancy(loss, *, seed):
    check = "tau_discrepancy"
    claim = "declared discrepancy tau = phi'(0+) / phi'(0-) (Definition of tau-discrepancy; with convexity, phi is " \
            "tau'-discrepant exactly for tau' >= tau)"
    tau = getattr(loss, "discrepancy", None)
    if tau is None:
        raise CheckNotApplicable("the loss does not declare discrepancy")
    if isinstance(tau, bool) or not isinstance(tau, (int, float, np.floating)) or math.isnan(float(tau)):
        raise CheckNotApplicable(f"discrepancy is {tau!r} (undefined)")
    tau = float(tau)
    zero = np.array([0.0])
    right_fd, left_fd, _, _ = _one_sided_differences(loss, zero, check, claim)
    if left_fd[0] == 0:
        raise CheckNotApplicable("phi'(0-) = 0: the ratio is undefined")
    ratio = float(right_fd[0] / left_fd[0])
    if abs(ratio - tau) > 10 * DERIVATIVE_TOLERANCE * (1.0 + abs(tau)):
        raise TheoryCheckFailure(check, claim, witness={"margin": 0.0, "difference quotients (right, left)":
                                                (float(right_fd[0]), float(left_fd[0]))},
                                 observed=tau, expected=ratio,
                                 detail="the declared discrepancy is not phi'(0+) / phi'(0-)")


def _lipschitz_constant(loss, *, seed):
    check = "lipschitz_constant"
    claim = "declared lipschitz = sup |phi'| (Lemma 4): |phi'(m)| <= lipschitz"
    bound = getattr(loss, "lipschitz", None)
    if bound is None or isinstance(bound, bool) or not isinstance(bound, (int, float, np.floating)):
        raise CheckNotApplicable("the loss does not declare a lipschitz constant")
    if not math.isfinite(float(bound)):
        raise CheckNotApplicable("lipschitz = inf (unbounded): nothing to check")
    m = _grid(loss, seed)
    for side in ("right", "left"):
        g = np.abs(_values(loss, m, check=check, claim=claim, name="derivative", side=side))
        if (g > float(bound) * (1 + 1e-12)).any():
            i = int(np.argmax(g))
            raise TheoryCheckFailure(check, claim, witness={"margin": float(m[i]), "side": side}, observed=float(g[i]),
                                     expected=f"<= {float(bound)!r}",
                                     detail="|phi'| exceeds the declared Lipschitz constant")


def _input_contract(loss, *, seed):
    check = "input_contract"
    m = np.array([-3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 4.0])  # dyadic: exact in float32 and as ints (some)
    claim = "input contract: value(m) and derivative(m) leave m unchanged, agree with their scalar calls, and " \
            "float32 / int / read-only / non-contiguous margins give the float64 result"
    for name, kwargs in (("value", {}), ("derivative", {"side": "right"}), ("derivative", {"side": "left"})):
        method = getattr(loss, name)

        def call(m, method=method, kwargs=kwargs):
            out = call_user(method, (m,), check=check, claim=claim, witness={"m": m, **kwargs}, kwargs=kwargs)
            return np.asarray(out, dtype=np.float64)

        def compare(reference, result, tolerance):
            if result.shape != reference.shape:
                return f"shape {result.shape} for margins of shape {reference.shape}"
            if not np.allclose(result, reference, rtol=tolerance, atol=tolerance):
                return f"max |difference| {np.max(np.abs(result - reference)):.3g}"
            return None

        reference = call(m)
        for i, v in enumerate(m):
            scalar = call(np.float64(v))
            if scalar.shape != () and scalar.shape != (1,) or not np.allclose(scalar, reference[i], rtol=1e-12, atol=0):
                raise TheoryCheckFailure(check, claim, witness={"method": name, **kwargs, "margin": float(v)},
                                         observed=scalar, expected=float(reference[i]),
                                         detail="a scalar call disagrees with the array call")
        variants = [("m", "float32 margins", m.astype(np.float32), "float32"),
                    ("m", "int64 margins", np.array([-3, -1, 0, 1, 2, 4]), "exact"),
                    ("m", "read-only margins", read_only_copy(m), "exact"),
                    ("m", "non-contiguous margins", np.repeat(m, 2)[::2], "exact"),
                    ("m", "2-D margins", m.reshape(2, 4), "exact")]
        for argument, label, value, kind in variants:
            expected = call(np.asarray(value, dtype=np.float64).copy())
            run_contract(call, {"m": np.asarray(value, dtype=np.float64).copy()}, [(argument, label, value, kind)],
                         compare=compare, check=check, witness={"method": name, **kwargs}, reference=expected)


_CHECKS = (
    ("one_sided_derivatives", "phi' matches one-sided difference quotients; kinks are declared",
     _one_sided_derivatives),
    ("convexity", "declared is_convex (Lemma 2; Thms. 1, 2, 7)", _convexity),
    ("monotonicity", "declared is_nonincreasing (Thms. 1, 2, 7)", _monotonicity),
    ("zero_one_domination", "declared dominates_zero_one (Lemma 1)", _zero_one_domination),
    ("tau_discrepancy", "declared discrepancy phi'(0+) / phi'(0-) (tau-discrepancy)", _tau_discrepancy),
    ("lipschitz_constant", "declared lipschitz (Lemma 4)", _lipschitz_constant),
    ("input_contract", "input contract (margins unchanged; dtypes and layouts give the same values)",
     _input_contract),
)
#: Which declaration switches each check on (None: always).
_SWITCH = {"convexity": "is_convex", "monotonicity": "is_nonincreasing", "zero_one_domination": "dominates_zero_one",
           "tau_discrepancy": "discrepancy", "lipschitz_constant": "lipschitz"}


def loss_checks(loss, options) -> tuple[dict, list[TheoryCheck]]:
    """The normalised options and the checks of ``check_surrogate_loss`` that the loss's declarations switch on."""
    missing = [name for name in ("value", "derivative") if not callable(getattr(loss, name, None))]
    if missing:
        raise TypeError(f"loss must have methods value(m) and derivative(m, side=...) (lfverify.core.SurrogateLoss's "
                        f"protocol); {type(loss).__name__} lacks {', '.join(missing)}")
    for name in ("is_convex", "is_nonincreasing", "dominates_zero_one"):
        value = getattr(loss, name, None)
        if value is not None and not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"loss.{name} must be a bool (a declared property); got {value!r}")
    kinks = getattr(loss, "kinks", ())
    try:
        kinks = tuple(float(k) for k in (kinks or ()))
    except (TypeError, ValueError):
        raise TypeError(f"loss.kinks must be a sequence of floats (the points of non-differentiability); got "
                        f"{kinks!r}") from None
    if not all(math.isfinite(k) for k in kinks):
        raise ValueError(f"loss.kinks must be finite; got {kinks!r}")
    seed = options.get("seed", 0)
    as_generator(seed, "seed")
    normalised = {"seed": seed}
    checks = []
    for name, claim, function in _CHECKS:
        switch = _SWITCH.get(name)
        if switch is not None:
            declared = getattr(loss, switch, None)
            if declared is None or declared is False:
                continue
            if switch in ("discrepancy", "lipschitz") and (isinstance(declared, bool) or not isinstance(
                    declared, (int, float, np.floating)) or not math.isfinite(float(declared))):
                continue
        checks.append(TheoryCheck(name, "check_surrogate_loss", claim,
                                  (lambda obj, _f=function, **_: _f(obj, **normalised))))
    return normalised, checks


def check_surrogate_loss(loss, *, seed=0) -> None:
    """Check a surrogate loss against the properties it declares (module :mod:`lfverify.testing`, section
    "The loss protocol").

    Checks (each runs only when the loss declares its property; failures name the margins and the numbers):

    * ``one_sided_derivatives`` (always) - ``derivative(m, side)`` matches second-order one-sided difference
      quotients to 1e-6 relative, at the declared ``kinks`` from each side; elsewhere the two sides agree;
    * ``convexity`` (``is_convex``) - chords and the subgradient inequality of both one-sided derivatives;
    * ``monotonicity`` (``is_nonincreasing``) - phi(a) >= phi(b) for a < b and phi' <= 0;
    * ``zero_one_domination`` (``dominates_zero_one``) - phi(m) >= 1{m <= 0}, at 0 and +-5e-324 included;
    * ``tau_discrepancy`` (a finite ``discrepancy``) - it equals the ratio of the one-sided difference quotients at 0;
    * ``lipschitz_constant`` (a finite ``lipschitz``) - abs(phi') never exceeds it;
    * ``input_contract`` (always) - margins unchanged; scalar, float32, int, read-only, non-contiguous and 2-D
      margins give the float64 values.

    Deterministic: no false alarm beyond the stated rounding slacks.

    Parameters
    ----------
    loss : object
        With ``value(m)`` and ``derivative(m, side=...)``, and the declarations it claims.
    seed : int, keyword-only
        Seed of the 40 random margins.

    Raises
    ------
    AssertionError
        (:class:`~lfverify.testing.TheoryCheckFailure`) when a declared property fails.
    TypeError, ValueError
        If ``loss`` lacks ``value`` or ``derivative``, or a declaration has the wrong type.
    """
    run_all(Subject(check_surrogate_loss, loss, seed=seed))


register_kind(check_surrogate_loss, loss_checks)
