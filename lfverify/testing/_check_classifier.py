"""``check_metric_classifier``: a scikit-learn classifier that claims to maximise a linear-fractional metric.

Prop. 5 and Thm. 5: a classifier that maximises the metric consistently has a population metric U(f_n) that
approaches the Bayes-optimal U-dagger as n grows.  The kit fits a clone of the estimator on samples of n = 1,000 and
4,000 from two exact one-dimensional populations (:data:`~lfverify.testing.oracles.CLASSIFIER_FINITE_POPULATION`,
where U(f) follows exactly from the predictions on the five atoms, and
:data:`~lfverify.testing.oracles.CLASSIFIER_GAUSSIAN_POPULATION`, where it follows from the decision boundaries and
the normal CDF), with labels in {0, 1} (1 positive), and requires the regret U-dagger - U(f_n) at the largest n to
be at most :data:`REGRET_TOLERANCE`; a failure reports the regrets at both n and the fitted rate (the slope of
log(regret + 1e-3) on log n).  The smaller sample is fitted only for a failure's report: a consistency check that
passes at n = 4,000 costs one fit.  Where the Gaussian population's regret at n = 4,000 exceeds the tolerance, a
second stage decides: a rate study of the regret (:data:`RATE_SIZES`, :data:`RATE_REPLICATIONS` replications each,
through :func:`lfverify.simulations.rate_study`), asserted by :func:`lfverify.testing.assert_rate`'s one-sided form
(the regret falls at least like n^-1/2), so a consistent learner that is slower than the tolerance allows passes
and a regret that stays fails.  Both populations are imbalanced (prior 0.10), so a
classifier that thresholds a calibrated posterior at 1/2 (``LogisticRegression()``) keeps a regret near 0.10 of F_1
for ever.

If the estimator has a ``random_state`` parameter, the kit sets it (from its own seed), so that two fits on the same
data agree; the label and order checks compare such fits.

Fits are the cost of these checks (one fit of ``TunedThresholdClassifierCV(LogisticRegression())`` takes 1-3 s at
any n: 5 folds x 100 thresholds, each scored through scikit-learn's input validation), so the kit fits as
few times as the claims allow: one sample size per population while the check passes; the label and order checks use
the Gaussian consistency sample of n = 4,000 and its fit seed, and the float64 dense fit on it is made once per
process and reused by all three (a fit on identical data, parameters and ``random_state`` - the checks compare fits,
so reusing one is the same as refitting a deterministic estimator); the input contract fits a reference and one
variant at n = 200 (two where sparse input is refused) and passes every other variant to ``predict`` only.
"""

from __future__ import annotations

import tempfile
import warnings

import numpy as np
from sklearn.base import clone

import lfverify.testing.oracles as oracles
from lfverify.core import (
    FiniteSupportPopulation,
    LinearFractionalMetric,
    as_seed_sequence,
    child,
    int_seed,
    resolve_metric,
)
from lfverify.simulations import measure_rate, rate_study
from lfverify.testing._assert_rate import RateAssertionError, assert_rate
from lfverify.testing._framework import (
    CheckNotApplicable,
    Subject,
    TheoryCheck,
    TheoryCheckFailure,
    register_kind,
    run_all,
)
from lfverify.testing._input_contract import (
    TOLERANCES,
    _messy_csr,
    _strided,
    changed,
    feature_variants,
    snapshot,
)

__all__ = ["check_metric_classifier", "classifier_checks", "SAMPLE_SIZES", "REGRET_TOLERANCE",
           "ORDER_TOLERANCE"]

#: Training-sample sizes of the consistency checks (the regret at the largest is the verdict; the smaller gives the
#: rate).
SAMPLE_SIZES = (1000, 4000)
#: The seed children of the consistency samples start at 1 (child 0 was the sample of n = 250 in the kit's first
#: version: the samples and fits at n = 1,000 and 4,000, hence the verdicts, are the same as then).
_FIRST_CHILD = 1
#: Training-sample size of the input contract.
CONTRACT_SIZE = 200
#: Largest regret U-dagger - U(f_n) accepted at the largest n (finite, Gaussian population).
REGRET_TOLERANCE = {"finite": 0.02, "gaussian": 0.03}
#: The Gaussian consistency check's second stage, run only where the regret at n = 4,000 exceeds its tolerance: a
#: rate study of the regret (:func:`lfverify.simulations.rate_study`, serial, in a temporary folder) at these sizes
#: and replications per size, asserted by :func:`lfverify.testing.assert_rate`'s one-sided form: the check fails
#: when the regret is shown to fall more slowly than n^RATE_AT_MOST (the slope's 99 % interval wholly above it) or is
#: not shown to fall at all (the interval reaches 0).  A consistent learner slower than the tolerance allows (a
#: flexible model's regret falling like n^-1 from a larger constant) then passes, and a floor (a regret that stays,
#: as the 1/2 threshold's) fails.  n^-1/2 is a slow rate on this population: its eta is smooth with a margin
#: exponent of 1, so the regret of a threshold estimated at rate r_n falls like r_n^2 - n^-1 for a parametric fit,
#: n^-2/3 for a nonparametric one on a Lipschitz eta in one dimension.  The interval's half-width is limited only by
#: RATE_HALF_WIDTH (the one-sided conditions carry the decision; eight replications of a regret falling like n^-1
#: give half-widths of 0.3-0.4).
RATE_SIZES = (1000, 2000, 4000, 8000)
RATE_REPLICATIONS = 8
RATE_AT_MOST = -0.5
RATE_HALF_WIDTH = 1.0
#: Largest change of the population metric (Gaussian population) when the training rows are permuted.
ORDER_TOLERANCE = 0.02
_CONSISTENCY = "Prop. 5 / Thm. 5: a metric-maximising classifier is consistent, U(f_n) -> U-dagger as n grows"


def _fit(estimator, X, y, seed, check, claim, witness):
    model = clone(estimator)
    if "random_state" in model.get_params(deep=False):
        model.set_params(random_state=int_seed(seed))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                model.fit(X, y)
    except Exception as exc:  # noqa: BLE001 - the user's estimator failing is a failed check
        raise TheoryCheckFailure(check, claim, witness=witness, observed=f"fit raised {type(exc).__name__}: {exc}",
                                 expected="a fitted model", detail="the estimator must fit on this sample") from exc
    return model


_FIT_CACHE: dict = {}
_FIT_CACHE_SIZE = 4


def _cache_key(estimator, X, y, seed):
    try:
        params = repr(sorted(estimator.get_params(deep=True).items(), key=lambda kv: kv[0]))
    except Exception:  # noqa: BLE001 - an estimator whose parameters cannot be shown is not cached
        return None
    return (id(estimator), type(estimator).__qualname__, params, X.dtype.str, X.shape, X.tobytes(), y.dtype.str,
            y.tobytes(), int_seed(seed))


def _fit_shared(estimator, X, y, seed, check, claim, witness):
    """:func:`_fit` on a float64 dense sample, reusing the fit of an earlier check on identical data, parameters and
    seed (the last few fits are kept; a fit on the same inputs is what a refit would give a deterministic
    estimator, and with ``random_state`` set by the kit the estimator is deterministic)."""
    key = _cache_key(estimator, X, y, seed)
    if key is not None and key in _FIT_CACHE:
        return _FIT_CACHE[key][1]
    model = _fit(estimator, X, y, seed=seed, check=check, claim=claim, witness=witness)
    if key is not None:
        while len(_FIT_CACHE) >= _FIT_CACHE_SIZE:
            _FIT_CACHE.pop(next(iter(_FIT_CACHE)))
        _FIT_CACHE[key] = (estimator, model)  # the estimator is kept alive so its id is not reused
    return model


def _predict(model, X, check, claim, witness):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                out = np.asarray(model.predict(X))
    except Exception as exc:  # noqa: BLE001
        raise TheoryCheckFailure(check, claim, witness=witness, observed=f"predict raised {type(exc).__name__}: {exc}",
                                 expected="predictions", detail="the fitted estimator must predict") from exc
    if out.shape != (X.shape[0],):
        raise TheoryCheckFailure(check, claim, witness=witness, observed=f"predictions of shape {out.shape}",
                                 expected=f"shape ({X.shape[0]},)")
    return out


def _sample01(population, n, seed):
    X, y = population.sample(n, seed=seed)
    return X, (y == 1).astype(np.int64)


def _regret(estimator, metric, population, u_dagger, seed, check, k, n):
    """U-dagger - U(f_n) of the fit on the consistency sample of size ``n`` (seed child ``k``)."""
    X, y = _sample01(population, n, child(seed, k))
    witness = {"n": n, "sample seed": f"child(seed, {k})"}
    model = _fit_shared(estimator, X, y, seed=child(seed, 100 + k), check=check, claim=_CONSISTENCY, witness=witness)
    u = oracles.population_utility_of_classifier(
        population, metric, lambda Z: _predict(model, Z, check=check, claim=_CONSISTENCY, witness=witness) == 1)
    return u_dagger - u


def _rate(regrets) -> float:
    logs = np.log(np.asarray(regrets) + 1e-3)
    return float(np.polyfit(np.log(SAMPLE_SIZES), logs, 1)[0])


def _regret_rate(estimator, metric, population, u_dagger, root, check):
    """The second stage of ``consistency_gaussian``: a rate study of the regret, asserted one-sided.

    Returns None when the regret is not shown to fall more slowly than n^RATE_AT_MOST, else the witness entries
    (the study's table and slope) and the assertion's message.  Only the continuous population has this stage: its
    regret is positive almost surely, so log(regret) is defined; the finite population's regret takes finitely many
    values and is 0 from some n on, where a log-log slope means nothing.
    """
    def regret(rep, target):
        witness = {"n": rep.n, "replication": rep.replication, "stage": "rate study"}
        model = _fit(estimator, rep.X, (rep.y == 1).astype(np.int64), seed=rep.seed, check=check, claim=_CONSISTENCY,
                     witness=witness)
        return target - oracles.population_utility_of_classifier(
            population, metric, lambda Z: _predict(model, Z, check=check, claim=_CONSISTENCY, witness=witness) == 1)

    study = rate_study(check, statistic=regret, populations={"gaussian": population}, target={"gaussian": u_dagger},
                       sample_sizes=RATE_SIZES, replications=RATE_REPLICATIONS, expected=RATE_AT_MOST,
                       tolerance=RATE_HALF_WIDTH, quantity="regret", seed=int_seed(child(root, 50)))
    with tempfile.TemporaryDirectory(prefix="lfverify-kit-") as tmp:
        try:
            result = measure_rate(study, out=tmp, executor="serial", progress=False, figures=False)
        except Exception as exc:  # noqa: BLE001 - a StatisticError carries a TheoryCheckFailure of the fit
            cause = exc.__cause__ or exc.__context__
            if isinstance(cause, TheoryCheckFailure):
                raise cause from None
            raise
        try:
            assert_rate(result, at_most=RATE_AT_MOST, tolerance=RATE_HALF_WIDTH)
            return None
        except RateAssertionError as exc:
            message = str(exc).split("): ", 1)[-1]
    table = {row["n"]: round(row.get("geometric_mean", float("nan")), 6) for row in result.table}
    return {"rate study (n: geometric mean of the regret)": table, "replications per n": RATE_REPLICATIONS,
            "one-sided claim": f"regret falls at least like n^{RATE_AT_MOST:g} (assert_rate, level 0.99)"}, message


def _consistency(which):
    def check_fn(estimator, *, metric, claims_optimal_threshold, seed):
        check = f"consistency_{which}"
        population = (oracles.CLASSIFIER_FINITE_POPULATION if which == "finite"
                      else oracles.CLASSIFIER_GAUSSIAN_POPULATION)
        root = child(as_seed_sequence(seed, "seed"), 1 if which == "finite" else 2)
        u_dagger = (oracles.bayes_optimal_by_enumeration(population, metric)[0]
                    if isinstance(population, FiniteSupportPopulation) else population.bayes_optimal(metric).utility)
        # The verdict is the regret at the largest n alone; the smaller sizes are fitted only for a failure's
        # witness (the fitted rate), so a passing check costs one fit (a slow estimator's fit is most of its time)
        last = len(SAMPLE_SIZES) - 1
        regret = _regret(estimator, metric, population, u_dagger=u_dagger, seed=root, check=check,
                         k=_FIRST_CHILD + last, n=SAMPLE_SIZES[-1])
        tolerance = REGRET_TOLERANCE[which]
        rate_witness = None
        if regret > tolerance and which == "gaussian":
            rate_witness = _regret_rate(estimator, metric, population, u_dagger=u_dagger, root=root, check=check)
            if rate_witness is None:
                return
        if regret > tolerance:
            regrets = [_regret(estimator, metric, population, u_dagger=u_dagger, seed=root, check=check,
                               k=_FIRST_CHILD + k, n=n)
                       for k, n in enumerate(SAMPLE_SIZES[:-1])] + [regret]
            name = "CLASSIFIER_FINITE_POPULATION" if which == "finite" else "CLASSIFIER_GAUSSIAN_POPULATION"
            witness = {"population": f"lfverify.testing.oracles.{name}", "metric": metric,
                       "n": list(SAMPLE_SIZES), "regret U-dagger - U(f_n)": [round(r, 6) for r in regrets],
                       "fitted rate (slope of log(regret + 1e-3) on log n)": round(_rate(regrets), 3),
                       "seed": seed}
            why = (f"regret {regret:.4g} > {tolerance:g} at n = {SAMPLE_SIZES[-1]}: the classifier does not "
                   "approach the Bayes-optimal metric value")
            if rate_witness is not None:
                witness.update(rate_witness[0])
                why += f", and its regret does not fall at least like n^{RATE_AT_MOST:g} ({rate_witness[1]})"
            raise TheoryCheckFailure(check, _CONSISTENCY, witness=witness, observed=u_dagger - regret,
                                     expected=u_dagger, detail=why)
    return check_fn


def _threshold_optimal(estimator, *, metric, claims_optimal_threshold, seed):
    check = "threshold_optimal_on_training"
    claim = "claimed exact threshold (Eq. (1) on the training sample): the predictions on the training data " \
            "maximise the empirical metric over every threshold of decision_function"
    if not claims_optimal_threshold:
        raise CheckNotApplicable("claims_optimal_threshold=False")
    X, y = _sample01(oracles.CLASSIFIER_GAUSSIAN_POPULATION, 300, child(as_seed_sequence(seed, "seed"), 3))
    witness = {"n": 300, "population": "lfverify.testing.oracles.CLASSIFIER_GAUSSIAN_POPULATION"}
    model = _fit(estimator, X, y, seed=child(as_seed_sequence(seed, "seed"), 4), check=check, claim=claim,
                 witness=witness)
    predicted = _predict(model, X, check=check, claim=claim, witness=witness) == 1
    scores = np.asarray(model.decision_function(X), dtype=np.float64).ravel()
    positives = int(np.count_nonzero(y == 1))
    value = float(metric.value_from_counts(int(np.count_nonzero(predicted & (y == 1))),
                                           int(np.count_nonzero(predicted & (y == 0))), positives, y.size,
                                           zero_division=0.0))
    best, _ = oracles.best_threshold_by_brute_force(scores, y, metric)
    if value < best - 1e-12:
        raise TheoryCheckFailure(check, claim, witness={**witness, "X": X[:, 0], "y": y}, observed=value, expected=best,
                                 detail="a threshold of decision_function gives a higher training metric (brute "
                                 "force over every threshold)")


#: Training-sample size of the label and order checks: the Gaussian consistency sample that
#: ``consistency_gaussian`` fits whatever its verdict, so that in a whole kit these checks add one fit each.
INVARIANCE_SIZE = SAMPLE_SIZES[-1]


def _gaussian_case(seed):
    """The Gaussian consistency sample of n = :data:`INVARIANCE_SIZE` and its fit seed (shared by the label and order
    checks)."""
    root = child(as_seed_sequence(seed, "seed"), 2)
    k = _FIRST_CHILD + SAMPLE_SIZES.index(INVARIANCE_SIZE)
    X, y = _sample01(oracles.CLASSIFIER_GAUSSIAN_POPULATION, INVARIANCE_SIZE, child(root, k))
    return X, y, child(root, 100 + k)


def _label_invariance(estimator, *, metric, claims_optimal_threshold, seed):
    check = "label_invariance"
    claim = "the metric is defined by the positive class, not by its encoding: labels {0, 1} and {-1, +1}, and the " \
            "positive class given as pos_label=0, give the same classifier"
    X, y, fit_seed = _gaussian_case(seed)
    witness = {"n": INVARIANCE_SIZE, "population": "lfverify.testing.oracles.CLASSIFIER_GAUSSIAN_POPULATION"}
    base = _predict(_fit_shared(estimator, X, y, seed=fit_seed, check=check, claim=claim, witness=witness), X,
                    check=check, claim=claim, witness=witness) == 1
    variants = [("labels {-1, +1}", np.where(y == 1, 1, -1), 1, {})]
    if "pos_label" in estimator.get_params(deep=False):
        variants.append(("labels {0, 1} with the positive class 0 (pos_label=0)", 1 - y, 0, {"pos_label": 0}))
    for label, labels, positive, params in variants:
        model = _fit(clone(estimator).set_params(**params), X, labels, seed=fit_seed, check=check, claim=claim,
                     witness={**witness, "variant": label})
        predicted = _predict(model, X, check=check, claim=claim, witness={**witness, "variant": label}) == positive
        if not np.array_equal(predicted, base):
            raise TheoryCheckFailure(check, claim, witness={**witness, "variant": label},
                                     observed=f"{int(predicted.sum())} predicted "
                                     f"positive", expected=f"{int(base.sum())} (the fit on labels {{0, 1}})",
                                     detail=f"the predictions differ on {int(np.sum(predicted != base))} of "
                                     f"{y.size} training samples")


def _sample_order_invariance(estimator, *, metric, claims_optimal_threshold, seed):
    check = "sample_order_invariance"
    claim = "Eq. (1) is a function of the sample as a set: permuting the training rows does not change the " \
            f"population metric of the fitted classifier by more than {ORDER_TOLERANCE:g}"
    population = oracles.CLASSIFIER_GAUSSIAN_POPULATION
    X, y, fit_seed = _gaussian_case(seed)
    order = np.random.default_rng(child(as_seed_sequence(seed, "seed"), 6, 2)).permutation(y.size)
    witness = {"n": INVARIANCE_SIZE, "population": "lfverify.testing.oracles.CLASSIFIER_GAUSSIAN_POPULATION"}
    values = []
    for rows, fit in ((None, _fit_shared), (order, _fit)):
        model = fit(estimator, X if rows is None else X[rows], y if rows is None else y[rows], fit_seed, check,
                    claim, witness)
        values.append(oracles.population_utility_of_classifier(
            population, metric, lambda Z,
            model=model: _predict(model, Z, check=check, claim=claim, witness=witness) == 1))
    if abs(values[1] - values[0]) > ORDER_TOLERANCE:
        raise TheoryCheckFailure(check, claim, witness=witness, observed=values[1], expected=values[0],
                                 detail=f"the population metric moved by {abs(values[1] - values[0]):.4g} > "
                                 f"{ORDER_TOLERANCE:g} when the rows were permuted")


def _frozen(view: np.ndarray) -> np.ndarray:
    """``view`` (kept a view: non-contiguous stays so) made read-only."""
    view.setflags(write=False)
    return view


def _unchanged(arguments, copies, check, claim, case):
    for name, value in arguments.items():
        how = changed(value, copies[name])
        if how is not None:
            raise TheoryCheckFailure(check, claim, witness={**case, "argument": name}, observed=f"{name}: {how}",
                                     expected="unchanged", detail="fit or predict modified the caller's array")


def _agrees(predicted, reference, kind, check, claim, case):
    agreement = float(np.mean(predicted == reference))
    needed = 1.0 - (0.01 if kind == "float32" else 0.0)
    if agreement < needed:
        raise TheoryCheckFailure(check, claim, witness=case, observed=f"{agreement:.2%} of the predictions agree",
                                 expected=f">= {needed:.0%} (the float64 dense fit)",
                                 detail=f"tolerance kind {kind!r} ({TOLERANCES.get(kind, 0)})")


def _input_contract(estimator, *, metric, claims_optimal_threshold, seed):
    check = "input_contract"
    claim = "input contract: fit and predict leave X and y unchanged; float32 / int64 / read-only / " \
            "Fortran-ordered / non-contiguous / CSR features give the predictions of the float64 dense fit, and a " \
            "fit on float32 CSR features with read-only non-contiguous float labels gives its predictions too"
    root = child(as_seed_sequence(seed, "seed"), 7)
    X, y = _sample01(oracles.CLASSIFIER_FINITE_POPULATION, CONTRACT_SIZE, child(root, 0))
    X = np.column_stack([X, np.ones_like(X)])  # two integer-valued columns (a constant one included)
    fit_seed = child(root, 1)
    witness = {"n": CONTRACT_SIZE,
               "population": "lfverify.testing.oracles.CLASSIFIER_FINITE_POPULATION, plus a column of ones"}
    model = _fit(estimator, X, y, seed=fit_seed, check=check, claim=claim, witness=witness)
    reference = _predict(model, X, check=check, claim=claim, witness=witness) == 1
    # Predictions are cheap and fits are not (TunedThresholdClassifierCV fits 5 folds x 100 thresholds, 1-3 s at
    # any n), so every feature variant is passed to predict of the reference fit, and one variant fit combines
    # float32, CSR (unsorted indices, a duplicate entry, an explicit zero) and read-only non-contiguous float labels;
    # its failure names the whole combination.  Where sparse input is refused, a dense float32 read-only
    # non-contiguous fit with int8 labels takes its place.
    for label, features, kind in feature_variants(X):
        case = {**witness, "variant": f"predict of the float64 fit on {label}"}
        copies = {"X": snapshot(features)}
        try:
            predicted = _predict(model, features, check=check, claim=claim, witness=case) == 1
        except TheoryCheckFailure as failure:
            if kind == "csr" and isinstance(failure.__cause__, (TypeError, ValueError)):
                continue  # a clear refusal of sparse input is allowed
            raise
        _unchanged({"X": features}, copies, check=check, claim=claim, case=case)
        _agrees(predicted, reference, kind=kind, check=check, claim=claim, case=case)
    fits = [("fit on float32 CSR X, read-only non-contiguous float labels", _messy_csr(X.astype(np.float32)),
             _frozen(_strided(y.astype(np.float64))), True),
            ("fit on float32 read-only non-contiguous X, int8 labels (sparse input was refused)",
             _frozen(_strided(X.astype(np.float32))), y.astype(np.int8), False)]
    for label, features, labels, csr in fits:
        case = {**witness, "variant": label}
        arguments = {"X": features, "y": labels}
        copies = {name: snapshot(value) for name, value in arguments.items()}
        try:
            fitted = _fit(estimator, features, labels, seed=fit_seed, check=check, claim=claim, witness=case)
            predicted = _predict(fitted, features, check=check, claim=claim, witness=case) == 1
        except TheoryCheckFailure as failure:
            if csr and isinstance(failure.__cause__, (TypeError, ValueError)):
                continue  # a clear refusal of sparse input: the dense fit instead
            raise
        _unchanged(arguments, copies, check=check, claim=claim, case=case)
        _agrees(predicted, reference, kind="float32", check=check, claim=claim, case=case)
        return


_CHECKS = (
    ("consistency_finite", _CONSISTENCY + " (finite population)", _consistency("finite")),
    ("consistency_gaussian", _CONSISTENCY + " (Gaussian population)", _consistency("gaussian")),
    ("threshold_optimal_on_training", "claimed exact threshold on the training sample", _threshold_optimal),
    ("label_invariance", "label encoding and pos_label do not change the classifier", _label_invariance),
    ("sample_order_invariance", "the order of the training rows does not change the classifier",
     _sample_order_invariance),
    ("input_contract", "input contract", _input_contract),
)
_FALSE_ALARM = {"consistency_finite": "measured (benchmarks/testing_kit_error_rates.py)",
                "consistency_gaussian": "measured (benchmarks/testing_kit_error_rates.py)",
                "sample_order_invariance": "measured (benchmarks/testing_kit_error_rates.py)"}


def _validated(estimator, options):
    if isinstance(estimator, type):
        raise TypeError(f"estimator must be an estimator instance, not the class {estimator.__name__}; pass "
                        f"{estimator.__name__}()")
    missing = [name for name in ("fit", "predict", "get_params") if not callable(getattr(estimator, name, None))]
    if missing:
        raise TypeError(f"estimator must be an unfitted scikit-learn classifier (fit, predict, get_params); "
                        f"{type(estimator).__name__} lacks {', '.join(missing)}")
    metric = options.get("metric")
    if not isinstance(metric, (str, LinearFractionalMetric)):
        raise TypeError(f"metric must be a LinearFractionalMetric or a metric name ('f1', 'f<beta>', 'jaccard', "
                        f"'accuracy'); got {metric!r}, which is not a linear-fractional metric")
    claims = options.get("claims_optimal_threshold", False)
    if not isinstance(claims, (bool, np.bool_)):
        raise TypeError(f"claims_optimal_threshold must be a bool; got {claims!r}")
    if claims and not callable(getattr(estimator, "decision_function", None)):
        raise TypeError("claims_optimal_threshold=True needs the estimator's decision_function (the scores whose "
                        f"threshold is claimed optimal); {type(estimator).__name__} has none")
    seed = options.get("seed", 0)
    as_seed_sequence(seed, "seed")
    return {"metric": resolve_metric(metric), "claims_optimal_threshold": bool(claims), "seed": seed}


def classifier_checks(estimator, options):
    """The normalised options and the checks of ``check_metric_classifier``."""
    normalised = _validated(estimator, options)
    checks = []
    for name, claim, function in _CHECKS:
        if name == "threshold_optimal_on_training" and not normalised["claims_optimal_threshold"]:
            continue
        def bound(obj, _f=function, _options=normalised, **_):
            return _f(obj, **_options)

        checks.append(TheoryCheck(name, "check_metric_classifier", claim, bound,
                                  false_alarm=_FALSE_ALARM.get(name, TheoryCheck.false_alarm)))
    return normalised, checks


def check_metric_classifier(estimator, *, metric, claims_optimal_threshold=False, seed=0) -> None:
    """Check a scikit-learn classifier that claims to maximise a linear-fractional metric.

    Checks (module :mod:`lfverify.testing`): ``consistency_finite`` and ``consistency_gaussian`` (regret
    U-dagger - U(f_n) at n = 4,000 at most 0.02 resp. 0.03; a failure reports the rate from n = 1,000; where the
    Gaussian regret exceeds 0.03, a rate study of it at n = 1,000 ... 8,000 decides: it must be shown to fall and
    not shown to fall more slowly than n^-1/2),
    ``label_invariance`` ({0, 1} vs {-1, +1} labels, and ``pos_label=0`` where the estimator has that parameter),
    ``sample_order_invariance`` (permuted rows move the population metric by at most 0.02),
    ``threshold_optimal_on_training`` (only with ``claims_optimal_threshold=True``: the training predictions
    maximise the empirical metric over every threshold of ``decision_function``) and ``input_contract``.

    Parameters
    ----------
    estimator : scikit-learn classifier
        Unfitted; it is cloned for every fit (``sklearn.base.clone``), with ``random_state`` set by the kit where it
        is a parameter.
    metric : LinearFractionalMetric or str, keyword-only
        The metric the classifier claims to maximise.
    claims_optimal_threshold : bool, keyword-only
        Whether its threshold is claimed exactly optimal on the training sample.
    seed : int, keyword-only
        Seed of the samples and the fits.

    Raises
    ------
    AssertionError
        (:class:`~lfverify.testing.TheoryCheckFailure`) when a check fails.
    TypeError, ValueError
        If ``estimator`` is a class or not an estimator, or ``metric`` is not a linear-fractional metric.
    """
    run_all(Subject(check_metric_classifier, estimator, metric=metric,
                    claims_optimal_threshold=claims_optimal_threshold, seed=seed))


register_kind(check_metric_classifier, classifier_checks)
