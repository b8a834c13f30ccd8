"""Small (smoke) versions of the four studies, and their building blocks against independent oracles.

Oracles: EmpiricalSurrogateUtility and the exact populations (V_hat and V at the recorded worst theta), exact
enumeration of every sample of size 2 and 3 (the same-sample bias B / n), mpmath / exact-rational Dinkelbach
from tests/calibration_search.py (sup over all classifiers), scipy's Nelder-Mead (theta*), closed forms of
Lemma 4's constants.

Private: the studies lfverify.simulations._study_calibration, _study_populations, _study_unbiasedness and
_study_uniform_convergence, for their constants and parts, lfverify.simulations._maximisers (minimize patched) and
lfverify.core._pointwise_optimum (surrogate_utility_of_eta patched), each tested on its own.
"""

import itertools
import json
import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import lfverify.simulations._study_calibration as cal
import lfverify.simulations._study_populations as sp
import lfverify.simulations._study_unbiasedness as ub
import lfverify.simulations._study_uniform_convergence as uc
from lfverify import simulations as engine
from lfverify.core import (
    BoundedLogisticPopulation,
    EmpiricalSurrogateUtility,
    FiniteEta,
    FiniteSupportPopulation,
    GaussianEta,
    GaussianPopulation,
    f1,
    jaccard,
    pointwise_surrogate_optimum,
    surrogate_scores,
    surrogate_utility_of_eta,
    tau_logistic,
)
from lfverify.simulations import STUDIES, draw_replications, replication_sample, replication_stream, run_study
from lfverify.simulations._maximisers import empirical_maximiser, population_maximiser

#: The default: the studies' building blocks, records, summaries and runners are the engine's; the tests whose
#: assertion is the claim a study is about (Lemma 4's constants, the same-sample bias and the split estimator's
#: unbiasedness (Lemma 3), the consistency smoke run (Theorem 5), the calibration smoke run (Theorems 1 and 2)) name it.
pytestmark = pytest.mark.claims("package:simulation-engine")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, where the shared oracle lives
import calibration_search as cs  # noqa: E402  (the exact-rational / mpmath oracle of the property tests)


def _smoke(name, tmp_path_factory, *, figures=False):
    out = tmp_path_factory.mktemp(name)
    summary = run_study(name, "smoke", out=out, executor="serial", progress=False, figures=figures)
    return out, summary


# ---------------------------------------------------------------------------------------------- uniform convergence
@pytest.fixture(scope="module")
def uniform(tmp_path_factory):
    return _smoke("uniform-convergence", tmp_path_factory, figures=True)


def _recomputed_errors(row, seed):
    """(||V_hat - V|| at the row's worst theta, its max over the study's net) for a uniform-convergence record row,
    recomputed with the core estimator on the row's replication drawn from ``seed``."""
    population = sp.POPULATIONS[row["population"]]
    metric, tau = sp.METRICS[row["metric"]]
    loss = tau_logistic(tau)
    X, y = draw_replications(population, row["population"], row["n"], row["replication"], 1, seed)
    core = EmpiricalSurrogateUtility(metric, loss, X[0], y[0])
    theta = np.array([row["worst_theta_1"], row["worst_theta_2"]])
    net = uc.theta_net(2, uc.C_THETA)
    err = np.linalg.norm(core.gradient_direction(theta) - population.gradient_direction(metric, loss, theta))
    net_err = np.linalg.norm(core.gradient_direction(net) - population.gradient_direction(metric, loss, net), axis=1)
    return err, net_err.max()


def test_uniform_convergence_sup_is_the_core_error_at_the_recorded_theta(uniform):
    out, summary = uniform
    rows = engine.read_records(out)
    for pop_name in ("finite", "bounded-logistic"):
        for row in [r for r in rows if r["population"] == pop_name and r["replication"] == 1][:4]:
            err, net_max = _recomputed_errors(row, uc.STUDY.seed)
            assert err == pytest.approx(row["sup_error"], rel=1e-12, abs=0)
            assert np.linalg.norm([row["worst_theta_1"], row["worst_theta_2"]]) <= uc.C_THETA * (1 + 1e-12)
            assert row["net_sup_error"] == pytest.approx(net_max, rel=1e-12, abs=0)
            assert row["sup_error"] >= row["net_sup_error"]


def test_uniform_convergence_records_have_the_documented_columns(uniform):
    """Oracle: the column list of the module docstring, typed here (d = 2 for both populations).

    Kills: simulations.uniform_convergence.x__run_task__mutmut_76 ("REFINEMENT_MOVES")."""
    out, _ = uniform
    header = (out / "records.csv").read_text().splitlines()[0].split(",")
    assert header == ["population", "metric", "tau", "n", "replication", "sup_error", "net_sup_error",
                      "refinement_moves", "worst_theta_1", "worst_theta_2"]
    rows = engine.read_records(out)
    assert all(isinstance(r["refinement_moves"], int) and r["refinement_moves"] >= 0 for r in rows)


@pytest.mark.parametrize("d", [1, 2, 3, 4])
def test_pattern_search_moves_are_the_unit_axis_and_diagonal_directions(d):
    """Oracle: the docstring's set, enumerated here: +-e_l (2 d) and (+-e_l +- e_m) / sqrt 2 for l < m
    (2 d (d - 1)), each of unit length; for d = 2 the 8 compass directions.

    Kills: simulations.uniform_convergence.x__moves__mutmut_24 (diagonals divided by sqrt 3)."""
    expected = []
    for sign in (1, -1):
        expected += [sign * np.eye(d)[k] for k in range(d)]
    for k, m in itertools.combinations(range(d), 2):
        for sl, sm in itertools.product((1, -1), repeat=2):
            v = np.zeros(d)
            v[k], v[m] = sl / math.sqrt(2), sm / math.sqrt(2)
            expected.append(v)
    moves = uc._moves(d)
    assert moves.shape == (2 * d + 2 * d * (d - 1), d)
    np.testing.assert_allclose(moves, np.array(expected), rtol=0, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(moves, axis=1), 1.0, rtol=1e-15)


COMMITTED = Path(__file__).resolve().parents[2] / "simulations" / "results"


@pytest.mark.parametrize("pop_name", ["finite", "bounded-logistic"])
def test_committed_uniform_convergence_records_reproduce_from_the_current_populations_and_streams(pop_name):
    """Oracle: the committed quick results (simulations/results/uniform-convergence, GENERATED and published in
    simulations/README.md): for replications 0 and 29 at n = 100 and 316, the error at the recorded worst theta
    and the max over the net, recomputed from the populations and replication streams of today's code and the
    committed seed, must equal the recorded numbers to 1e-12.  A changed population (atoms, weights, eta) or a
    changed stream key changes the sample or V, hence the numbers; so does c_X in the committed summary.

    Kills: simulations.study_populations x__populations__mutmut_* (the finite population's constants) and
    a changed key text in lfverify.simulations._replications.replication_sample (the stream key's text)."""
    folder = COMMITTED / "uniform-convergence"
    summary = json.loads((folder / "summary.json").read_text())
    checked = 0
    for row in engine.read_records(folder):
        if row["population"] != pop_name or row["n"] not in (100, 316) or row["replication"] not in (0, 29):
            continue
        err, net_max = _recomputed_errors(row, summary["generated_by"]["seed"])
        assert err == pytest.approx(row["sup_error"], rel=1e-12, abs=0)
        assert row["net_sup_error"] == pytest.approx(net_max, rel=1e-12, abs=0)
        checked += 1
    assert checked == 8  # 2 metrics x 2 sizes x 2 replications
    for metric_name in sp.METRICS:
        recorded = summary["settings"][f"{pop_name}/{metric_name}"]["constants"]["c_X"]
        assert sp.feature_bound(sp.POPULATIONS[pop_name]) == pytest.approx(recorded, rel=1e-15)


def test_replication_streams_follow_the_documented_key_and_labels_are_int64():
    """Oracle: the engine's documented scheme written out with hashlib - SeedSequence(entropy=study_seed,
    spawn_key=the four little-endian 32-bit words of BLAKE2b-128 of "population=<name>,n=<n>,replication=<r>") -
    and population.sample on that stream; labels as int64 (the records' and estimators' label type).

    Kills: simulations.study_populations a changed key text in lfverify.simulations._replications.replication_sample
    and a dropped ``astype(np.int64)`` (float labels)."""
    import hashlib

    def stream(seed, text):
        digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        words = tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))
        return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=words))

    generator = replication_stream(77, (("population", "finite"), ("n", 50), ("replication", 3)))
    np.testing.assert_array_equal(generator.random(5), stream(77, "population=finite,n=50,replication=3").random(5))
    population = sp.POPULATIONS["bounded-logistic"]
    X, y = draw_replications(population, "bounded-logistic", 40, 2, 3, 77)
    assert X.shape == (3, 40, 2) and y.shape == (3, 40)
    assert X.dtype == np.float64 and y.dtype == np.int64
    for k, r in enumerate((2, 3, 4)):
        X_r, y_r = population.sample(40, seed=stream(77, f"population=bounded-logistic,n=40,replication={r}"))
        np.testing.assert_array_equal(X[k], X_r)
        np.testing.assert_array_equal(y[k], y_r)
    # a population given as a function (n, rng) -> (X, y) gets the same stream, not the study's seed: each
    # replication its own draw (a function handed the int seed would draw one sample for every replication)
    seen = []

    def drawn_by_function(n, rng):
        seen.append(rng)
        return rng.normal(size=(n, 1)), np.where(rng.random(n) < 0.5, 1, -1)

    for r in (2, 3):
        X_f, y_f = replication_sample(drawn_by_function, "mine", 30, r, study_seed=77)
        reference = stream(77, f"population=mine,n=30,replication={r}")
        np.testing.assert_array_equal(X_f, reference.normal(size=(30, 1)))
        np.testing.assert_array_equal(y_f, np.where(reference.random(30) < 0.5, 1, -1))
    assert all(isinstance(rng, np.random.Generator) for rng in seen)


def test_uniform_convergence_summary_and_figures(uniform):
    out, summary = uniform
    assert set(summary["settings"]) == {"finite/F1", "finite/Jaccard", "bounded-logistic/F1",
                                        "bounded-logistic/Jaccard"}
    rows = engine.read_records(out)
    for key, s in summary["settings"].items():
        pop_name, metric_name = key.split("/")
        sup = {n: [r["sup_error"] for r in rows if r["population"] == pop_name and r["metric"] == metric_name
                   and r["n"] == n] for n in (100, 400, 1600)}
        for b in s["bounds"].values():  # exceedances recomputed from the records
            assert [p["exceed"] for p in b["per_n"]] == [int(np.sum(np.array(sup[p["n"]]) > p["bound"]))
                                                         for p in b["per_n"]]
            # totals over n, against the records and scipy's exact (Clopper-Pearson) interval
            # (kills simulations.uniform_convergence.x__summarize__mutmut_148, "XXreplicationsXX")
            total, exceed = sum(len(v) for v in sup.values()), sum(p["exceed"] for p in b["per_n"])
            assert set(b) == {"per_n", "exceed", "replications", "exceed_fraction", "exceed_fraction_ci",
                              "holds_at_delta", "looseness_min", "looseness_max"}
            assert (b["replications"], b["exceed"], b["exceed_fraction"]) == (total, exceed, exceed / total)
            ci = stats.binomtest(exceed, total).proportion_ci(confidence_level=0.95, method="exact")
            assert b["exceed_fraction_ci"] == pytest.approx([ci.low, ci.high], rel=1e-9, abs=1e-15)
            assert b["holds_at_delta"] is (exceed / total <= 0.05)
        assert [t["mean_sup_error"] for t in s["table"]] == pytest.approx([np.mean(sup[n]) for n in sup], rel=1e-12,
                                                                            abs=0)
        assert summary["verdicts"][key] == s["rate_fit"]["holds"]
    pngs = sorted(out.glob("*.png"))
    assert [p.name for p in pngs] == ["uniform_convergence_bounded-logistic.png", "uniform_convergence_finite.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


@pytest.mark.claims("Lemma 4")
def test_lemma4_constants_against_closed_forms():
    """F_1, tau-logistic: W~_0(xi, +1) = 2 (1 - phi(xi)), W~_0(xi, -1) = 0, W~_1 = 1 + phi(xi) (+1) or phi(-xi) + 0
    for y = -1 with the per-sample b_1 = pi (0 for y = -1, 1 for y = +1), so on |xi| <= R: c_0 = 2 (phi(-R) - 1),
    c_1 = 1 + 1 + phi(-R); rho_k = max|slope| / ln 2; gamma_-1 + gamma_+1 = (1 + tau^2) / (4 ln 2)."""
    tau, c_x, c_theta = 0.33, 1.5, 2.0
    R = c_x * c_theta
    phi = math.log2(1 + math.exp(R))
    k = uc.lemma4_constants(f1(), tau_logistic(tau), c_x, c_theta)
    assert k["c0"] == pytest.approx(2 * (phi - 1), rel=1e-12, abs=0)
    assert k["c1"] == pytest.approx(2 + phi, rel=1e-12, abs=0)
    assert k["rho0"] == pytest.approx(2 / math.log(2), rel=1e-14, abs=0)
    assert k["rho1"] == pytest.approx(1 / math.log(2), rel=1e-14, abs=0)
    assert k["gamma_phi"] == pytest.approx((1 + tau**2) / (4 * math.log(2)), rel=1e-12, abs=0)
    assert k["jump"] == pytest.approx((1 - tau) / (2 * math.log(2)), rel=1e-12, abs=0)
    bounds = uc.lemma4_bounds(1000, 2, k)
    assert bounds["proof"] / bounds["printed"] > 1  # the restored factor sqrt(2) c_X c_Theta > 1 here


# ---------------------------------------------------------------------------------------------- unbiasedness
@pytest.fixture(scope="module")
def unbiased(tmp_path_factory):
    return _smoke("unbiasedness", tmp_path_factory)


@pytest.mark.parametrize("pop_name", ["finite", "bounded-logistic"])
@pytest.mark.parametrize("metric_name", ["F1", "Jaccard"])
def test_score_moments_reproduce_the_population(pop_name, metric_name):
    population = sp.POPULATIONS[pop_name]
    metric, tau = sp.METRICS[metric_name]
    loss = tau_logistic(tau)
    s = ub.score_moments(population, metric, loss, ub.THETAS)
    ev = population.evaluate(metric, loss, ub.THETAS)
    np.testing.assert_allclose(s["w0"], ev.numerator, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["w1"], ev.denominator, rtol=1e-12, atol=1e-14)
    v = s["w1"][:, None] * s["g0"] - s["w0"][:, None] * s["g1"]
    np.testing.assert_allclose(v, ev.gradient_direction, rtol=1e-11, atol=1e-13)


@pytest.mark.claims("Lemma 3")
@pytest.mark.parametrize("n", [2, 3])
def test_same_sample_bias_is_exactly_b_over_n_by_enumeration(n):
    """Every sample of size n from a 2-atom population, weighted by its probability: E[V_ss] - V = B / n."""
    population = FiniteSupportPopulation(atoms=[[1.0, 0.4], [-0.6, 1.0]], weights=[0.6, 0.4], eta=[0.7, 0.2])
    metric, loss = f1(), tau_logistic(0.33)
    theta = np.array([[0.8, -0.3], [-0.5, 1.1]])
    outcomes = [(j, y, population.weights[j] * (population.eta[j] if y == 1 else 1 - population.eta[j]))
                for j in range(2) for y in (1, -1)]
    expected = np.zeros((2, 2))
    for sample in itertools.product(outcomes, repeat=n):
        X = population.atoms[[s[0] for s in sample]]
        y = np.array([s[1] for s in sample])
        xi = theta @ X.T  # (K, n)
        w0, w1, dw0, dw1 = surrogate_scores(metric, loss, xi, np.broadcast_to(y, xi.shape))
        v_ss = (w1.mean(axis=1)[:, None] * (dw0 @ X) / n) - (w0.mean(axis=1)[:, None] * (dw1 @ X) / n)
        expected += np.prod([s[2] for s in sample]) * v_ss
    bias = expected - population.gradient_direction(metric, loss, theta)
    np.testing.assert_allclose(bias, ub.same_sample_bias_coefficient(population, metric, loss, theta) / n,
                               rtol=1e-11, atol=1e-14)


@pytest.mark.claims("Lemma 3")
def test_unbiasedness_smoke_verdicts_and_planted_bias(unbiased):
    out, summary = unbiased
    assert summary["verdicts"]["split_unbiased"] is True
    assert summary["verdicts"]["same_sample_bias_matches"] is True
    moments = ub.merged_moments(engine.read_records(out))
    key = ("bounded-logistic", "F1", "same-sample", 4)
    # planted bias: the biased estimator's moments, judged against 0 as if it were V_hat, must fail
    checks, _, _ = ub.bias_checks({key: moments[key]}, {key: np.zeros(7)})
    assert not checks[key]["covers"].all()
    # and V_hat's moments against a V shifted by 4 standard errors must fail too
    split = key[:2] + ("split", 4)
    count, mean, m2 = moments[split]
    se = np.sqrt(m2 / (count - 1) / count)
    checks, _, _ = ub.bias_checks({split: moments[split]}, {split: np.full(7, 0.0) + 6 * se})
    assert not checks[split]["covers"].any()


# ---------------------------------------------------------------------------------------------- consistency
@pytest.fixture(scope="module")
def consistency(tmp_path_factory):
    return _smoke("consistency", tmp_path_factory)


def test_population_maximiser_against_nelder_mead():
    from scipy.optimize import minimize

    population = BoundedLogisticPopulation(slope=3.0, offset=-0.5)
    metric, loss = jaccard(), tau_logistic(0.75)
    opt = population_maximiser(population, metric, loss, starts=[[1.0, 0.0], [0.5, 0.5]])
    nm = minimize(lambda t: -population.surrogate_utility(metric, loss, t), [1.0, 0.0], method="Nelder-Mead",
                  options={"xatol": 1e-10, "fatol": 1e-15, "maxiter": 5000})
    np.testing.assert_allclose(opt.theta, nm.x, atol=1e-6)  # Nelder-Mead's own accuracy on a flat maximum
    assert opt.surrogate_utility >= -nm.fun - 1e-15
    assert opt.gradient_direction_norm < 1e-12 and np.all(opt.hessian_eigenvalues < 0)


def test_empirical_maximiser_is_a_maximum_of_the_core_estimator():
    """U_hat has kinks wherever theta^T x_i = 0 (phi' jumps at 0), so the oracle is not a zero gradient but: no
    nearby point is better, and Nelder-Mead from another start finds nothing better."""
    from scipy.optimize import minimize

    population = BoundedLogisticPopulation(slope=3.0, offset=-0.5)
    X, y = population.sample(2000, seed=4)
    metric, loss = f1(), tau_logistic(0.33)
    fit = empirical_maximiser(X, y, metric, loss, starts=[[1.0, 0.0], [0.5, 0.5]])
    core = EmpiricalSurrogateUtility(metric, loss, X, y)
    assert fit.surrogate_utility == pytest.approx(core.value(fit.theta), rel=1e-12, abs=0)
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    for radius in (1e-6, 1e-4, 1e-2):
        around = fit.theta + radius * np.column_stack([np.cos(angles), np.sin(angles)])
        assert np.all(core.value(around) <= fit.surrogate_utility + 1e-12)
    nm = minimize(lambda t: -core.value(t), [4.0, 3.0], method="Nelder-Mead",
                  options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 4000})
    assert -nm.fun <= fit.surrogate_utility + 1e-10


@pytest.mark.claims("Theorem 5")
def test_consistency_smoke(consistency):
    out, summary = consistency
    rows = engine.read_records(out)
    for metric_name, s in summary["settings"].items():
        # the setting names its metric, tau and population (typed out: the study's F_1 at tau 0.33, Jaccard at 0.75);
        # asserted here, in the first test of the module fixture, which mutmut credits with the study's calls
        assert (s["metric"], s["tau"], s["population"]) == (
            metric_name, {"F1": 0.33, "Jaccard": 0.75}[metric_name], "bounded-logistic")
        assert s["theta_star_certificates"]["gradient_direction_norm"] < 1e-10
        assert summary["verdicts"][f"{metric_name}/theta_star_certified"] is True
        star = np.array(s["theta_star"])
        sample = [r for r in rows if r["kind"] == "sample" and r["metric"] == metric_name and r["n"] == 3200]
        dist = [np.linalg.norm(np.array([r["theta_1"], r["theta_2"]]) - star) for r in sample]
        assert s["table"][-1]["mean_distance"] == pytest.approx(np.mean(dist), rel=1e-12, abs=0)
        # the surrogate gap is non-negative: theta* maximises U_phi
        assert all(s["surrogate_utility_at_theta_star"] >= r["surrogate_utility"] - 1e-12 for r in sample)
        assert s["table"][0]["mean_distance"] > s["table"][-1]["mean_distance"]


# ---------------------------------------------------------------------------------------------- calibration
@pytest.mark.parametrize("coef, metric, tau", [
    (cs.fbeta_coefficients(1), f1(), Fraction(1, 20)),  # the pinned counterexample to Thm. 1 (ERRATA.md)
    (cs.fbeta_coefficients(1), f1(), Fraction(1, 3)),
    (cs.JACCARD, jaccard(), Fraction(3, 4)),
])
def test_pointwise_optimum_matches_the_certified_mpmath_maximiser(coef, metric, tau):
    pop = cs.ExactPopulation(weights=(Fraction(3, 10), Fraction(2, 10), Fraction(5, 10)),
                             eta=(Fraction(95, 100), Fraction(6, 10), Fraction(5, 100)))
    opt = cs.maximise_surrogate(coef, pop, tau)
    exact = cs.analyse(coef, pop, opt)
    dist = FiniteEta([float(e) for e in pop.eta], [float(w) for w in pop.weights])
    mine = pointwise_surrogate_optimum(metric, tau_logistic(float(tau)), dist, bayes_utility=float(exact.u_dagger),
                                       start=0.05)
    assert mine.surrogate_optimum == pytest.approx(float(opt.value), rel=1e-13, abs=0)
    assert mine.sign_utility == pytest.approx(float(exact.sign_utility), rel=1e-13, abs=0)
    # the atoms at the kink are those whose eta lies in [kink_low, kink_high]
    kink = [mine.kink_low <= float(e) <= mine.kink_high for e in pop.eta]
    assert kink == list(opt.kink)


def test_gaussian_eta_expectations_match_the_population():
    """For f = alpha z + beta (z = the log-odds), U_phi from the eta distribution equals the population's U_phi
    of theta = (alpha w, alpha b + beta) (quadrature in 1-D vs the population's own Gaussian moments)."""
    pop = GaussianPopulation([1.0, 0.5], [-0.5, -0.25], [[1.0, 0.3], [0.3, 1.0]], 0.3)
    dist = GaussianEta(pop)
    for metric, tau in ((f1(), 0.33), (jaccard(), 0.75)):
        loss = tau_logistic(tau)
        for alpha, beta in ((0.7, 0.2), (1.3, -0.4), (-0.5, 0.1)):
            theta = np.append(alpha * pop.bayes_direction, alpha * pop.bayes_intercept + beta)
            mine = surrogate_utility_of_eta(metric, loss, dist, lambda z, alpha=alpha, beta=beta: alpha * z + beta,
                                            breakpoints=(-beta / alpha,))[0]
            assert mine == pytest.approx(pop.surrogate_utility(metric, loss, theta), rel=1e-12, abs=1e-14)
    with pytest.raises(TypeError, match="tau-logistic"):
        surrogate_utility_of_eta(f1(), tau_logistic(0.5, base=3.0), dist, lambda z: z)


@pytest.fixture(scope="module")
def calibration(tmp_path_factory):
    return _smoke("calibration", tmp_path_factory)


@pytest.mark.claims("Theorem 1", "Theorem 2")
def test_calibration_smoke(calibration):
    out, summary = calibration
    for metric_name, s in summary["sweep"].items():
        for e in s["entries"]:
            # the sup over all classifiers is at least the linear model's
            assert e["surrogate_optimum"] >= e["linear_surrogate_utility"] - 1e-12
            if e["hypotheses_hold"]:
                # the weak form (ERRATA.md): the kink region labelled by the Bayes rule attains U-dagger
                assert e["kink_by_bayes_gap"] <= cal.GAP_ZERO
                assert e["kink_low"] <= e["bayes_threshold"] <= e["kink_high"]
            hyp = cal.hypotheses(metric_name, e["tau"], e["surrogate_optimum"])
            assert hyp.holds == e["hypotheses_hold"]
    assert summary["verdicts"]["weak_form_holds_all_f"] is True
    # Jaccard with tau = 0.75 meets Thm. 2's hypotheses on this population, yet sgn(f*) misses U-dagger
    jac = next(e for e in summary["sweep"]["Jaccard"]["entries"] if e["tau"] == 0.75)
    assert jac["hypotheses_hold"] and jac["sign_gap"] > cal.GAP_ZERO
    assert any(f.startswith("Jaccard, tau = 0.75: the hypotheses of Thm. 2 hold") for f in summary["findings"])
    assert json.loads((out / "summary.json").read_text())["findings"] == summary["findings"]


def test_every_summary_has_flat_boolean_verdicts(uniform, unbiased, consistency, calibration):
    """The contract `lfverify verify` relies on: summary["verdicts"] maps str to bool, in every study."""
    for _out, summary in (uniform, unbiased, consistency, calibration):
        assert summary["verdicts"] and all(isinstance(k, str) and isinstance(v, bool)
                                           for k, v in summary["verdicts"].items())
        assert summary["generated_by"]["seed"] == STUDIES[summary["study"]].seed


@pytest.mark.claims("package:command-line")
def test_cli_runs_a_study_and_reports_errors(tmp_path, capsys):
    from lfverify.app import main

    assert main(["simulate", "unbiasedness", "--mode", "smoke", "--serial", "--out", str(tmp_path),
                 "--no-figures"]) == 0
    printed = capsys.readouterr().out
    assert "unbiasedness: 6 tasks computed, 0 found done" in printed and "split_unbiased: yes" in printed
    assert (tmp_path / "summary.json").exists() and not list(tmp_path.glob("*.png"))
    assert main(["simulate", "unbiasedness", "--mode", "smoke", "--workers", "0", "--out", str(tmp_path)]) == 2
    assert "max_workers must be a positive int" in capsys.readouterr().err


def test_finite_eta_mass_counts_exactly_the_atoms_in_the_closed_interval():
    """Oracle: hand-computed P(low <= eta <= high) for atoms eta = (0.2, 0.5, 0.8) with weights (0.2, 0.3, 0.5):
    both ends are inclusive, and an interval excludes the atoms outside it.

    Kills: simulations.pointwise_optimum.xǁFiniteEtaǁmass__mutmut_3, xǁFiniteEtaǁmass__mutmut_5."""
    dist = FiniteEta([0.2, 0.5, 0.8], [0.2, 0.3, 0.5])
    assert dist.mass(0.4, 0.6) == 0.3  # only the atom 0.5
    assert dist.mass(0.5, 0.5) == 0.3  # an atom exactly at both ends counts
    assert dist.mass(0.2, 0.5) == 0.2 + 0.3  # an atom exactly at high counts
    assert dist.mass(0.81, 0.9) == 0.0


def test_finite_eta_positive_rates_truth_table_at_an_atom():
    """Oracle: truth table at a threshold equal to the atom eta = 0.5 (atoms 0.2, 0.5, 0.8; weights 0.2, 0.3,
    0.5): inclusive (eta >= 0.5) picks {0.5, 0.8}, TP = 0.3*0.5 + 0.5*0.8, FP = 0.3*0.5 + 0.5*0.2; strict
    (eta > 0.5) picks {0.8}, TP = 0.5*0.8, FP = 0.5*0.2.

    Kills: simulations.pointwise_optimum.xǁFiniteEtaǁpositive_rates__mutmut_5, xǁFiniteEtaǁpositive_rates__mutmut_6."""
    dist = FiniteEta([0.2, 0.5, 0.8], [0.2, 0.3, 0.5])
    tp, fp = dist.positive_rates(0.5, inclusive=True)
    assert tp == pytest.approx(0.3 * 0.5 + 0.5 * 0.8, abs=1e-15)
    assert fp == pytest.approx(0.3 * 0.5 + 0.5 * 0.2, abs=1e-15)
    tp, fp = dist.positive_rates(0.5, inclusive=False)
    assert tp == pytest.approx(0.5 * 0.8, abs=1e-15)
    assert fp == pytest.approx(0.5 * 0.2, abs=1e-15)
    assert dist.positive_rates(0.5) == (tp, fp)  # the default is the strict rule


def test_gaussian_eta_rejects_coinciding_classes_with_its_message():
    """Oracle: equal class means give w = Sigma^-1 (mu_+ - mu_-) = 0, so s = 0 and eta is constant; the documented
    ValueError names that.

    Kills: simulations.pointwise_optimum.xǁGaussianEtaǁ__init____mutmut_13."""
    pop = GaussianPopulation([0.5, -0.5], [0.5, -0.5], np.eye(2), 0.3)
    with pytest.raises(ValueError, match="^the population's classes coincide: eta is constant$"):
        GaussianEta(pop)


def test_pointwise_optimum_reports_a_decreasing_dinkelbach_iteration(monkeypatch):
    """Oracle: a spy replacing surrogate_utility_of_eta returns U_phi = 0.5 then 0.2 (a decrease by more than 1e-9
    after the first step); the documented RuntimeError names both values and says the problem was not solved.

    Kills: simulations.pointwise_optimum.x_pointwise_surrogate_optimum__mutmut_51."""
    import lfverify.core._pointwise_optimum as po

    values = iter([0.5, 0.2])
    monkeypatch.setattr(po, "surrogate_utility_of_eta", lambda *a, **k: (next(values), 1.0, 1.0))
    dist = FiniteEta([0.2, 0.5, 0.8], [0.2, 0.3, 0.5])
    with pytest.raises(RuntimeError, match=r"^Dinkelbach's iteration decreased \(0\.5 -> 0\.2\): the pointwise "
                                           r"problem was not solved$"):
        po.pointwise_surrogate_optimum(f1(), tau_logistic(0.5), dist, bayes_utility=0.8, start=0.3)


def test_run_study_forwards_every_option_to_run(monkeypatch, tmp_path):
    """Oracle: a spy replacing engine.run (as bound in lfverify.simulations) records what run_study passes:
    first the documented defaults (mode "quick", executor "processes", the study's own seed (None), progress
    None, figures True, no overrides), then every option at a non-default value; ``out`` becomes a Path, the
    study is the registered one, and the spy's summary is what run_study returns.

    Kills `lfverify.simulations.x_run_study__mutmut_3` (default executor "XXprocessesXX"), `x_run_study__mutmut_14`
    (progress=None), `x_run_study__mutmut_15` (figures=None), `x_run_study__mutmut_21` (seed dropped),
    `x_run_study__mutmut_23` (figures dropped), `x_run_study__mutmut_24` (overrides dropped)."""
    import lfverify.simulations as simulations

    calls = []

    def spy(study, **kwargs):
        calls.append((study, kwargs))
        return engine.RunResult(summary={"call": len(calls)}, **{f: None for f in engine.RunResult._fields
                                                                   if f != "summary"})

    monkeypatch.setattr(simulations, "run", spy)
    assert simulations.run_study("consistency", out=str(tmp_path)) == {"call": 1}
    assert simulations.run_study("calibration", "smoke", out=str(tmp_path / "b"), executor="serial", seed=7,
                                 progress=True, figures=False, overrides={"replications": 2}) == {"call": 2}
    assert calls[0][0] is STUDIES["consistency"] and calls[1][0] is STUDIES["calibration"]
    assert calls[0][1] == {"mode": "quick", "out": tmp_path, "executor": "processes", "seed": None,
                           "progress": None, "figures": True, "overrides": None}
    assert calls[1][1] == {"mode": "smoke", "out": tmp_path / "b", "executor": "serial", "seed": 7,
                           "progress": True, "figures": False, "overrides": {"replications": 2}}
    assert all(isinstance(kw["out"], Path) for _, kw in calls)


def test_consistency_sample_records_name_their_columns(consistency):
    """Oracle: the record format typed out by hand: every sample row of the smoke run holds exactly the columns
    kind, metric, tau, n, replication, the four fit values and theta_1, theta_2, with tau the metric's tau of
    the study (F_1: 0.33, Jaccard: 0.75), and every (metric, n, replication) once.

    Kills `lfverify.simulations._study_consistency.x__run_task__mutmut_69` (the column tau misnamed)."""
    out, _ = consistency
    rows = [r for r in engine.read_records(out) if r["kind"] == "sample"]
    assert rows and all(set(r) == {"kind", "metric", "tau", "n", "replication", "empirical_surrogate_utility",
                                   "converged", "iterations", "surrogate_utility", "true_utility", "theta_1",
                                   "theta_2"} for r in rows)
    assert all(r["tau"] == {"F1": 0.33, "Jaccard": 0.75}[r["metric"]] for r in rows)
    assert sorted((r["metric"], r["n"], r["replication"]) for r in rows) == sorted(
        (m, n, i) for m in ("F1", "Jaccard") for n in (200, 800, 3200) for i in range(6))


def test_empirical_maximiser_says_that_no_start_reached_the_domain_and_why():
    """F_1's numerator sums over the positives of S_0 only: with none there, N_hat = 0 for every theta, so no start
    reaches Alg. 1's domain N_hat > 0.  Oracle: the message typed out, with phase one's message for each start.

    Kills `lfverify.simulations._maximisers.x_empirical_maximiser__mutmut_40` (the message dropped)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = np.r_[-np.ones(20), np.ones(20)].astype(int)  # S_0 = the first 20 points: all negative
    why = "phase 1 failed: grad N_hat = 0 while N_hat <= 0 (the numerator cannot be made positive)"
    with pytest.raises(ValueError) as raised:
        empirical_maximiser(X, y, f1(), tau_logistic(0.33), starts=[[0.0, 0.0], [1.0, 1.0]])
    assert str(raised.value) == f"no start reached N_hat > 0: {[why, why]}"


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5])
def test_bias_checks_refuses_a_family_level_outside_0_1_in_the_callers_terms(level):
    """Oracle: the message typed out names the level given, not the per-entry level derived from it (1.5 over 2
    entries would be 1.25).  (The intervals' standard errors, all bias_checks reads of them, do not depend on the
    level; the level only sets the quantile.)"""
    key = ("bounded-logistic", "F1", "split", 4)
    with pytest.raises(ValueError) as raised:
        ub.bias_checks({key: (10, np.zeros(2), np.ones(2))}, {key: np.zeros(2)}, level=level)
    assert str(raised.value) == f"level must lie in (0.0, 1.0); got {level}"


def test_bias_checks_refuses_a_family_level_whose_per_entry_quantile_is_infinite_in_the_callers_terms():
    """Oracle: binary arithmetic by hand.  level = 1 - 2^-53 (the largest double below 1) lies in (0, 1), but over 2
    entries the per-entry level 1 - 2^-54 rounds to 1 (a tie, to even), whose normal quantile is infinite: the
    check could find no entry biased.  The message names the level given and the count of entries (mean_interval
    would refuse "level 1.0", a value the caller never gave).  At 1 - 2^-50 over one entry the quantile's argument
    1/2 + (1 - 2^-50)/2 = 1 - 2^-51 is a double below 1: accepted, with a finite quantile."""
    key = ("bounded-logistic", "F1", "split", 4)
    with pytest.raises(ValueError) as raised:
        ub.bias_checks({key: (10, np.zeros(2), np.ones(2))}, {key: np.zeros(2)}, level=1.0 - 2.0 ** -53)
    assert str(raised.value) == ("level is too close to 1 for 2 entries: the per-entry level 1 - (1 - level) / 2 = "
                                 "1.0 has an infinite normal quantile at level = 0.9999999999999999")
    checks, per_entry, q = ub.bias_checks({key: (10, np.zeros(1), np.ones(1))}, {key: np.zeros(1)},
                                          level=1.0 - 2.0 ** -50)
    assert per_entry == 1.0 - 2.0 ** -50 and math.isfinite(q) and bool(checks[key]["covers"][0])


def test_bias_checks_refuses_no_entries_and_a_key_without_its_target_by_name():
    """Oracle: the messages typed out.  No moments at all, or keys whose means are empty, leave nothing to check
    (the Bonferroni count would divide by 0); a key of ``moments`` absent from ``targets`` is a difference, named,
    not a KeyError.  Companion: one key with its target is checked."""
    key, other = ("bounded-logistic", "F1", "split", 4), ("bounded-logistic", "F1", "split", 8)
    for moments in ({}, {key: (10, np.zeros(0), np.zeros(0))}):
        with pytest.raises(ValueError) as raised:
            ub.bias_checks(moments, {key: np.zeros(0)})
        assert str(raised.value) == f"moments must hold at least one mean to check; got {len(moments)} keys and no " \
                                    "entries"
    with pytest.raises(ValueError) as raised:
        ub.bias_checks({key: (10, np.zeros(1), np.ones(1)), other: (10, np.zeros(1), np.ones(1))}, {key: np.zeros(1)})
    assert str(raised.value) == f"targets must have a value for every key of moments; got none for {other!r}"
    checks, _, _ = ub.bias_checks({key: (10, np.zeros(1), np.ones(1))}, {key: np.zeros(1)})
    assert list(checks) == [key]


def test_empirical_maximiser_keeps_the_best_start():
    """Oracle: with no phase-2 iteration (max_iter=0) and starts already in Algorithm 1's domain N_hat > 0 (checked
    on the core estimator), each start is its own result, so the maximiser must return the start of largest
    U_hat by EmpiricalSurrogateUtility, here the middle one of three, whatever the order of the starts.

    Kills `lfverify.simulations._maximisers.x_empirical_maximiser__mutmut_43` (argmax(None): the first start)."""
    population = BoundedLogisticPopulation(slope=3.0, offset=-0.5)
    X, y = population.sample(200, seed=4)
    metric, loss = f1(), tau_logistic(0.33)
    core = EmpiricalSurrogateUtility(metric, loss, X, y)
    starts = np.array([[3.0, -0.5], [1.0, 0.5], [0.8, 0.1]])
    assert np.all(core.numerator(starts) > 0)
    values = core.value(starts)
    assert values[1] > max(values[0], values[2])  # the best start is not the first
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        fit = empirical_maximiser(X, y, metric, loss, starts=starts[order], max_iter=0)
        np.testing.assert_array_equal(fit.theta, [1.0, 0.5])
        assert fit.surrogate_utility == pytest.approx(values[1], rel=1e-13, abs=0)
        assert (fit.converged, fit.iterations) == (False, 0)


class _QuadraticPopulation:
    """A stand-in population with U_phi(theta) = -|theta - (1, 2)|^2 (gradient -2 (theta - c), Hessian -2 I);
    ``trial_value`` (if set) is what surrogate_utility returns for a single theta (Newton's trial point)."""

    centre = np.array([1.0, 2.0])

    def __init__(self, trial_value=None):
        self.trial_value = trial_value

    def evaluate(self, metric, loss, theta):
        from types import SimpleNamespace

        t = np.atleast_2d(theta) - self.centre
        return SimpleNamespace(value=-np.sum(t * t, axis=1), gradient=-2 * t, gradient_direction=-2 * t)

    def surrogate_utility(self, metric, loss, theta):
        if np.ndim(theta) == 1 and self.trial_value is not None:
            return self.trial_value
        return self.evaluate(metric, loss, theta).value

    def utility(self, metric, theta):
        return 0.5


def _scripted_minimize(monkeypatch, xs):
    """Replace scipy's minimize in the maximisers module by a spy returning the given points in turn."""
    from types import SimpleNamespace

    import lfverify.simulations._maximisers as mx

    calls, points = [], iter(xs)
    monkeypatch.setattr(mx, "minimize", lambda fun, x0, **kw: calls.append((np.array(x0), kw))
                        or SimpleNamespace(x=np.array(next(points), dtype=float)))
    return calls


def test_population_maximiser_keeps_the_best_bfgs_result(monkeypatch):
    """Oracle: BFGS (a spy) ends at (-3, 0) from the first start and (1, 2.5) from the second; on U_phi = -|theta -
    (1, 2)|^2 these have U_phi = -20 and -0.25, so theta* = (1, 2.5) (no Newton step), |grad| = |-2 (0, 0.5)| = 1,
    the spread |(1, 2.5) - (-3, 0)| = sqrt(22.25), Hessian eigenvalues -2; and BFGS received each start with
    the exact gradient, gtol 1e-11 and 2000 iterations.

    Kills `lfverify.simulations._maximisers.x_population_maximiser__mutmut_44` (values = None: the first result)."""
    calls = _scripted_minimize(monkeypatch, [[-3.0, 0.0], [1.0, 2.5]])
    opt = population_maximiser(_QuadraticPopulation(), f1(), tau_logistic(0.33), starts=[[0.0, 0.0], [2.0, 2.0]],
                               newton_steps=0)
    np.testing.assert_array_equal(opt.theta, [1.0, 2.5])
    assert opt.surrogate_utility == -0.25 and opt.gradient_norm == 1.0 and opt.true_utility == 0.5
    assert opt.start_spread == pytest.approx(math.sqrt(22.25), rel=1e-15, abs=0)
    np.testing.assert_allclose(opt.hessian_eigenvalues, [-2.0, -2.0], rtol=1e-9)
    assert [c[0].tolist() for c in calls] == [[0.0, 0.0], [2.0, 2.0]]
    assert all(c[1] == {"jac": True, "method": "BFGS", "options": {"gtol": 1e-11, "maxiter": 2000}} for c in calls)


@pytest.mark.parametrize("offset, accepted", [
    (0.0, True),  # U_phi(trial) exactly U_phi(theta) - 1e-15: accepted (>=)
    (-1, False),  # one double below: rejected
    (1, True),  # one double above: accepted
])
def test_population_maximiser_newton_acceptance_truth_table(monkeypatch, offset, accepted):
    """Oracle: a truth table for Newton's acceptance rule U_phi(trial) >= U_phi(theta) - 1e-15, with BFGS (a spy)
    stopping at its start (0, 0), where U_phi = -5, and the trial point's U_phi scripted at the threshold -5 - 1e-15
    and one double either side; an accepted step lands on the maximum (1, 2) of -|theta - (1, 2)|^2 (Newton is exact
    on a quadratic), a rejected one leaves (0, 0).

    Kills `lfverify.simulations._maximisers.x_population_maximiser__mutmut_86` (> instead of >=)."""
    threshold = -5.0 - 1e-15
    trial_value = {0.0: threshold, -1: np.nextafter(threshold, -np.inf), 1: np.nextafter(threshold, np.inf)}[offset]
    _scripted_minimize(monkeypatch, [[0.0, 0.0]])
    opt = population_maximiser(_QuadraticPopulation(trial_value), f1(), tau_logistic(0.33), starts=[[0.0, 0.0]],
                               newton_steps=1)
    if accepted:
        np.testing.assert_allclose(opt.theta, [1.0, 2.0], rtol=0, atol=1e-9)
    else:
        np.testing.assert_array_equal(opt.theta, [0.0, 0.0])


def test_pointwise_optimum_integrates_with_the_kink_interval_as_breakpoints(monkeypatch):
    """Oracle: a spy on surrogate_utility_of_eta records the breakpoints of every Dinkelbach step; they must be the
    log-odds of the kink interval at the current level u, by the closed form of the module notes
    eta_lo = tau c / (tau c + a), eta_hi = c / (c + tau a), a = a_0+ + u a_1+, c = u a_1- - a_0- (scipy's logit),
    with u the start, then the running maximum of the returned values.

    Kills `lfverify.core._pointwise_optimum.x_pointwise_surrogate_optimum__lfv_dist_1` (logit(1 - lo))."""
    from scipy.special import logit

    import lfverify.core._pointwise_optimum as po

    real, calls = po.surrogate_utility_of_eta, []

    def spy(metric, loss, distribution, f, *, breakpoints=()):
        out = real(metric, loss, distribution, f, breakpoints=breakpoints)
        calls.append((breakpoints, out[0]))
        return out

    monkeypatch.setattr(po, "surrogate_utility_of_eta", spy)
    pop = GaussianPopulation([1.0, 0.5], [-0.5, -0.25], [[1.0, 0.3], [0.3, 1.0]], 0.3)
    metric, tau, start = f1(), 0.33, 0.3
    po.pointwise_surrogate_optimum(metric, tau_logistic(tau), GaussianEta(pop),
                                   bayes_utility=pop.bayes_optimal_utility(metric), start=start)
    assert len(calls) >= 3
    u = start
    for i, (breakpoints, new) in enumerate(calls):
        a, c = metric.a0p + u * metric.a1p, u * metric.a1n - metric.a0n
        expected = (logit(tau * c / (tau * c + a)), logit(c / (c + tau * a)))
        assert breakpoints == pytest.approx(expected, rel=1e-14, abs=1e-14)
        assert breakpoints[0] < breakpoints[1]
        u = new if i == 0 else max(u, new)


def test_score_moments_reproduce_the_population_at_steep_parameters():
    """Oracle: the population's own moments (as in test_score_moments_reproduce_the_population) at parameters with
    |theta_1| from 12 to 60, where phi(theta^T x) bends within 1 / |theta_1| of the kink in u, so that the
    quadrature's panels must be that narrow (width 1 / max(|theta_1|, slope, 4)) to reach 1e-12.

    Kills `lfverify.simulations._study_unbiasedness.x_score_moments__mutmut_113` (width = 1.0 * max(...): one panel each
    side of the kink, relative errors of ~3e-7)."""
    population = sp.POPULATIONS["bounded-logistic"]
    theta = np.array([[40.0, 3.0], [-25.0, -10.0], [60.0, 0.0], [12.0, 20.0]])
    for metric_name in ("F1", "Jaccard"):
        metric, tau = sp.METRICS[metric_name]
        loss = tau_logistic(tau)
        s = ub.score_moments(population, metric, loss, theta)
        ev = population.evaluate(metric, loss, theta)
        np.testing.assert_allclose(s["w0"], ev.numerator, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(s["w1"], ev.denominator, rtol=1e-12, atol=1e-14)
        v = s["w1"][:, None] * s["g0"] - s["w0"][:, None] * s["g1"]
        np.testing.assert_allclose(v, ev.gradient_direction, rtol=1e-11, atol=1e-12)
