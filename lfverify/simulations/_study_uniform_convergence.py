"""Study "uniform-convergence": Lemma 4, sup_{theta in Theta} ||V_hat(theta) - V(theta)|| = O_p(n^-1/2).

For each population (finite support; bounded continuous, :class:`~lfverify.core.BoundedLogisticPopulation`;
:mod:`lfverify.simulations`) and metric (F_1 with tau = 0.33, Jaccard with tau = 0.75), R replications
at each of several log-spaced n measure

    E(S) = sup_{||theta|| <= c_Theta} ||V_hat(theta; S) - V(theta)||,

with V exact (finite sums; deterministic quadrature to ~1e-15) and the sup taken over

* a net of 64 directions x 4 radii (c_Theta/4 ... c_Theta) plus theta = 0 (257 points), whose population V is
  computed once per study, and
* a local refinement of each replication's worst net point: a pattern search over the 8 compass directions
  (2 d axis and diagonal moves in general), stepping while the error grows and halving the step otherwise,
  projected onto the ball (batched over replications).

Each record row (records.csv) is one (metric, replication) of a task, with the columns population, metric, tau,
n, replication, sup_error (E(S)), net_sup_error (the max over the net alone), refinement_moves (pattern-search
moves accepted) and worst_theta_1 ... worst_theta_d (where the sup was found).

log E(S) is fitted on log n over all replications (:func:`lfverify.simulations._rates.fit_rate`, HC3 standard
errors): Lemma 4's rate holds when the slope's 95 % interval covers -0.5 and lies within [-0.6, -0.4].

The explicit bound of the proof is evaluated at confidence delta = 0.05 with the constants of the lemma for the
study's Theta (c_X = max ||x||, c_k = sup of |W~_k| over |xi| <= c_X c_Theta, rho_k = max |slope_k| sup |phi'|,
gamma = max_k |slope_k| (gamma_-1 + gamma_+1): the Lipschitz constants of W~_k', slope_k the coefficients of
phi in W~_k), in three forms from :mod:`lfverify.proofs.lemma4_uniform_convergence`: as printed, as the proof
gives it (factor sqrt(2) c_X c_Theta restored), and the corrected bound derived there (offset and jump terms;
not machine-verified, a heuristic).  Reported: the fraction of replications exceeding each (must be <= delta)
and its looseness (bound / the (1 - delta) quantile of E(S)).
"""

from __future__ import annotations

import math

import numpy as np

from lfverify.core import FiniteSupportPopulation, score_coefficients, tau_logistic
from lfverify.proofs.lemma4_uniform_convergence import (
    corrected_uniform_convergence_bound,
    printed_uniform_convergence_bound,
    uniform_convergence_bound,
)
from lfverify.simulations._engine import Study
from lfverify.simulations._intervals import clopper_pearson, mean_interval
from lfverify.simulations._rate_figures import loglog_rate_figure
from lfverify.simulations._rates import fit_rate
from lfverify.simulations._replicated import ReplicatedSamples, estimates
from lfverify.simulations._replications import block_tasks, draw_replications
from lfverify.simulations._study_populations import (
    METRICS,
    POPULATIONS,
    feature_bound,
)

__all__ = ["STUDY", "theta_net", "lemma4_constants", "lemma4_bounds", "sup_errors", "dimension_population",
           "dimension_sweep", "dimension_verdicts", "D_EXPONENT"]

SEED = 2020_0826_0004
#: Radius c_Theta of the parameter ball Theta.
C_THETA = 3.0
#: Confidence of Lemma 4's high-probability bound.
DELTA = 0.05
#: The claimed exponent, and the half-width of the acceptance band of the fitted slope.
EXPECTED_SLOPE, TOLERANCE = -0.5, 0.1
NET_DIRECTIONS, NET_RADII = 64, 4

MODES = {
    "smoke": {"sample_sizes": [100, 400, 1600], "replications": 8, "refinement_rounds": 3,
              "samples_per_task": 8000},
    "quick": {"sample_sizes": [100, 316, 1000, 3162, 10000], "replications": 30, "refinement_rounds": 8,
              "samples_per_task": 1 << 18},
    "full": {"sample_sizes": [100, 215, 464, 1000, 2154, 4642, 10000, 21544, 46416, 100000], "replications": 100,
             "refinement_rounds": 10, "samples_per_task": 1 << 18},
}


def theta_net(d: int, radius: float, *, directions: int = NET_DIRECTIONS, radii: int = NET_RADII) -> np.ndarray:
    """``directions`` unit vectors (angles 2 pi k / directions in 2-D; a fixed quasi-uniform set otherwise) times
    radii radius * (1/radii, ..., 1), plus the origin: shape (directions * radii + 1, d)."""
    if d == 2:
        angle = 2.0 * math.pi * np.arange(directions) / directions
        unit = np.column_stack([np.cos(angle), np.sin(angle)])
    else:
        unit = np.random.default_rng(np.random.SeedSequence(SEED)).standard_normal((directions, d))
        unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    scales = radius * np.arange(1, radii + 1) / radii
    return np.vstack([np.concatenate([s * unit for s in scales]), np.zeros((1, d))])


def _moves(d: int) -> np.ndarray:
    """Pattern-search moves: +-e_l and the diagonals (+-e_l +- e_m)/sqrt 2 (8 compass directions in 2-D)."""
    eye = np.eye(d)
    moves = [eye, -eye]
    for i in range(d):
        for j in range(i + 1, d):
            for si in (1, -1):
                for sj in (1, -1):
                    moves.append(((si * eye[i] + sj * eye[j]) / math.sqrt(2))[None])
    return np.concatenate(moves)


def _project(theta, radius):
    norm = np.linalg.norm(theta, axis=-1, keepdims=True)
    return np.where(norm > radius, theta * (radius / np.maximum(norm, 1e-300)), theta)


def sup_errors(samples: ReplicatedSamples, population, metric, loss, net, net_v, *, radius: float, rounds: int):
    """E(S) for R replications: max over the net, then a batched pattern search from each worst net point.

    Returns (sup, net_sup, worst_theta, moves) with shapes (R,), (R,), (R, d), (R,).
    """
    v_hat = estimates(samples.class_sums(net, loss), metric).gradient_direction  # (R, K, d)
    err = np.linalg.norm(v_hat - net_v[None], axis=2)
    worst = np.argmax(err, axis=1)
    R = samples.shape[0]
    net_sup = err[np.arange(R), worst]
    best_theta, best = net[worst].copy(), net_sup.copy()
    moves = _moves(net.shape[1])
    step = np.full(R, radius / (2 * NET_RADII))
    accepted = np.zeros(R, dtype=np.int64)
    for _ in range(rounds):
        candidates = _project(best_theta[:, None, :] + step[:, None, None] * moves[None], radius)  # (R, P, d)
        P, d = candidates.shape[1:]
        v_hat = estimates(samples.class_sums(candidates, loss), metric).gradient_direction  # (R, P, d)
        v_pop = population.gradient_direction(metric, loss, candidates.reshape(R * P, d)).reshape(R, P, d)
        cand_err = np.linalg.norm(v_hat - v_pop, axis=2)
        j = np.argmax(cand_err, axis=1)
        top = cand_err[np.arange(R), j]
        better = top > best
        best_theta[better] = candidates[np.flatnonzero(better), j[better]]
        best[better] = top[better]
        accepted += better
        step[~better] *= 0.5
    return best, net_sup, best_theta, accepted


# ---------------------------------------------------------------------------------------------- tasks
def _tasks(config):
    return block_tasks([(("population", p),) for p in POPULATIONS], config["sample_sizes"], config["replications"],
                       config["samples_per_task"])


def _context(config):
    context = {}
    for pop_name, population in POPULATIONS.items():
        net = theta_net(population.n_features, C_THETA)
        for metric_name, (metric, tau) in METRICS.items():
            context[(pop_name, metric_name)] = (net, population.gradient_direction(metric, tau_logistic(tau), net))
    return context


def _task_rows(task, config):
    """One row per (metric, replication) of the task."""
    return len(METRICS) * task.params["count"]


def _run_task(task, config, context, study_seed):
    p = task.params
    population = POPULATIONS[p["population"]]
    samples = ReplicatedSamples(*draw_replications(population, p["population"], p["n"], first=p["first"],
                                                   count=p["count"], study_seed=study_seed))
    rows = []
    for metric_name, (metric, tau) in METRICS.items():
        net, net_v = context[(p["population"], metric_name)]
        sup, net_sup, worst, moves = sup_errors(samples, population, metric, tau_logistic(tau), net=net, net_v=net_v,
                                                radius=C_THETA, rounds=config["refinement_rounds"])
        for i in range(p["count"]):
            row = {"population": p["population"], "metric": metric_name, "tau": tau, "n": p["n"],
                   "replication": p["first"] + i, "sup_error": sup[i], "net_sup_error": net_sup[i],
                   "refinement_moves": moves[i]}
            row.update({f"worst_theta_{j + 1}": worst[i, j] for j in range(worst.shape[1])})
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------- summary
def lemma4_constants(metric, loss, c_X: float, c_Theta: float) -> dict:
    """The constants of Lemma 4 for f_theta(x) = theta^T x with ||x|| <= c_X, ||theta|| <= c_Theta.

    c_k = max over y and |xi| <= c_X c_Theta of |W~_k(xi, y)| (Lemma 4's sup over all xi is infinite for a convex
    non-constant phi; the proof only uses this range), rho_k = kappa_k sup|phi'| with kappa_k = max_y |slope_k(y)|
    (W~_k = offset_k(y) + slope_k(y) phi(y xi)), gamma = max(kappa_0, kappa_1) (gamma_-1 + gamma_+1).
    """
    coef = score_coefficients(metric)
    xi = np.linspace(-c_X * c_Theta, c_X * c_Theta, 4001)
    c = []
    for offset, slope in ((coef.offset0, coef.slope0), (coef.offset1, coef.slope1)):
        values = [offset[k] + slope[k] * loss.value(y * xi) for k, y in enumerate((-1.0, 1.0))]
        c.append(float(np.max(np.abs(values))))
    kappa = [float(np.max(np.abs(coef.slope0))), float(np.max(np.abs(coef.slope1)))]
    gamma_minus, gamma_plus = loss.smoothness
    left, right = float(loss.derivative(0.0, side="left")), float(loss.derivative(0.0, side="right"))
    return {"c_X": c_X, "c_Theta": c_Theta, "c0": c[0], "c1": c[1], "rho0": kappa[0] * loss.lipschitz,
            "rho1": kappa[1] * loss.lipschitz, "kappa0": kappa[0], "kappa1": kappa[1],
            "gamma_phi": gamma_minus + gamma_plus, "gamma": max(kappa) * (gamma_minus + gamma_plus),
            "slope_at_zero": abs(right), "jump": abs(left - right)}


def lemma4_bounds(n: int, d: int, k: dict, delta: float = DELTA) -> dict:
    """Lemma 4's bound at n in the three forms (see the module notes)."""

    common = dict(n=n, d=d, delta=delta, c_X=k["c_X"], c_Theta=k["c_Theta"], c0=k["c0"], c1=k["c1"],
                  rho0=k["rho0"], rho1=k["rho1"])
    return {
        "printed": printed_uniform_convergence_bound(**common, gamma=k["gamma"]),
        "proof": uniform_convergence_bound(**common, gamma=k["gamma"]),
        "corrected_heuristic": corrected_uniform_convergence_bound(
            **common, gamma=k["gamma_phi"], slope_at_zero=k["slope_at_zero"], jump=k["jump"], kappa0=k["kappa0"],
            kappa1=k["kappa1"]),
    }


def _summarize(rows, config, context):
    out = {"settings": {}, "verdicts": {}}
    for pop_name, population in POPULATIONS.items():
        d = population.n_features
        for metric_name, (metric, tau) in METRICS.items():
            mine = [r for r in rows if r["population"] == pop_name and r["metric"] == metric_name]
            sizes = sorted({r["n"] for r in mine})
            constants = lemma4_constants(metric, tau_logistic(tau), feature_bound(population), C_THETA)
            table, bound_rows = [], {name: [] for name in ("printed", "proof", "corrected_heuristic")}
            for n in sizes:
                sup = np.array([r["sup_error"] for r in mine if r["n"] == n])
                net_sup = np.array([r["net_sup_error"] for r in mine if r["n"] == n])
                ci = mean_interval(sup)
                table.append({"n": n, "replications": int(sup.size), "mean_sup_error": float(ci.mean),
                              "standard_error": float(ci.standard_error), "ci_low": float(ci.low),
                              "ci_high": float(ci.high), "mean_net_sup_error": float(net_sup.mean()),
                              "mean_refinement_gain": float(np.mean(sup / net_sup - 1.0)),
                              "quantile_1_minus_delta": float(np.quantile(sup, 1 - DELTA))})
                for name, bound in lemma4_bounds(n, d, constants).items():
                    bound_rows[name].append({"n": n, "bound": bound, "exceed": int(np.sum(sup > bound)),
                                             "replications": int(sup.size),
                                             "looseness": bound / table[-1]["quantile_1_minus_delta"]})
            fit = fit_rate([r["n"] for r in mine], [r["sup_error"] for r in mine], expected=EXPECTED_SLOPE,
                           tolerance=TOLERANCE)
            bounds = {}
            for name, per_n in bound_rows.items():
                exceed = sum(b["exceed"] for b in per_n)
                total = sum(b["replications"] for b in per_n)
                low, high = clopper_pearson(exceed, total)
                bounds[name] = {"per_n": per_n, "exceed": exceed, "replications": total,
                                "exceed_fraction": exceed / total, "exceed_fraction_ci": [low, high],
                                "holds_at_delta": exceed / total <= DELTA,
                                "looseness_min": min(b["looseness"] for b in per_n),
                                "looseness_max": max(b["looseness"] for b in per_n)}
            key = f"{pop_name}/{metric_name}"
            out["settings"][key] = {"population": pop_name, "metric": metric_name, "tau": tau, "c_Theta": C_THETA,
                                    "delta": DELTA, "constants": constants, "table": table,
                                    "rate_fit": fit.as_dict(), "rate_verdict": fit.verdict, "bounds": bounds}
            out["verdicts"][key] = fit.holds
    out["lemma4_rate_holds"] = all(out["verdicts"].values())
    return out


def _figures(rows, summary, out_dir):

    paths = []
    for pop_name in POPULATIONS:
        series = []
        for metric_name in METRICS:
            s = summary["settings"][f"{pop_name}/{metric_name}"]
            mine = [r for r in rows if r["population"] == pop_name and r["metric"] == metric_name]
            series.append({"label": f"{metric_name} (tau = {s['tau']:g})", "n": [r["n"] for r in mine],
                           "errors": [r["sup_error"] for r in mine], "fit": s["rate_fit"]})
        paths.append(loglog_rate_figure(
            out_dir / f"uniform_convergence_{pop_name}.png", series, expected=EXPECTED_SLOPE,
            title=f"Lemma 4, {pop_name} population: sup ||V_hat - V|| over ||theta|| <= {C_THETA:g}",
            ylabel="geometric mean of sup_theta ||V_hat(theta) - V(theta)||"))
    return paths


# ---------------------------------------------------------------------------------------------- the d-dependence
#: The exponent of d in Lemma 4 (corrected)'s order O_p(d^{3/2} sqrt(log n / n)) (proofs/lemma-4.md).
D_EXPONENT = 1.5


def dimension_population(d: int) -> FiniteSupportPopulation:
    """2 d atoms +-e_1, ..., +-e_d in R^d (c_X = 1), equal weights, eta = 0.85 / 0.65 at +e_j (j even / odd) and
    0.15 / 0.35 at -e_j (prior 1/2): every direction of theta matters, so the linear class is fully d-dimensional."""
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be a positive integer; got {d!r}")
    eye = np.eye(d)
    high = np.where(np.arange(d) % 2 == 0, 0.85, 0.65)
    return FiniteSupportPopulation(np.vstack([eye, -eye]), np.full(2 * d, 1.0 / (2 * d)),
                                   np.concatenate([high, 1.0 - high]))


def dimension_sweep(*, dimensions=(1, 2, 4, 8, 16), n: int = 2000, replications: int = 30, metric: str = "F1",
                    rounds: int = 8, seed=SEED, level: float = 0.95) -> dict:
    """E(S) of the study at one n on a grid of d: the d-dependence of Lemma 4 (corrected), which bounds E(S) by
    B_E(n, d) = O(d^{3/2} sqrt(log n / n)).

    For each d the population :func:`dimension_population` (replication r drawn from the stream keyed by
    ("dimension-d", n, r), so results do not depend on grouping or workers), the sup over the study's net in R^d
    and its pattern search (a lower estimate of the sup; the net is coarser in higher d).  log E(S) is fitted on
    log d (``fit_rate``: OLS, HC3 standard errors).  Verdicts: ``d_exponent_within_bound`` (the
    slope's upper ``level`` limit is at most :data:`D_EXPONENT`) and ``bound_holds_every_d`` (at every d the
    fraction of replications above B_E(n, d) + the delta deviation, the corrected bound at delta = 0.05, is at
    most delta).

    Returns
    -------
    dict
        ``settings``, ``table`` (one row per d) and ``rate_fit`` (the fit's dict), ``verdicts``, and
        ``d``/``errors`` (one per replication, for the figure).
    """
    dims = [int(d) for d in dimensions]
    if len(set(dims)) < 3 or min(dims) < 1:
        raise ValueError(f"dimensions must hold at least 3 distinct positive integers; got {list(dimensions)!r}")
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)}; got {metric!r}")
    lf, tau = METRICS[metric]
    loss = tau_logistic(tau)
    table, all_d, all_errors = [], [], []
    for d in dims:
        population = dimension_population(d)
        net = theta_net(d, C_THETA)
        samples = ReplicatedSamples(*draw_replications(population, f"dimension-{d}", n, first=0, count=replications,
                                                       study_seed=seed))
        sup, _, _, _ = sup_errors(samples, population, lf, loss, net=net,
                                  net_v=population.gradient_direction(lf, loss, net), radius=C_THETA, rounds=rounds)
        bound = lemma4_bounds(n, d, lemma4_constants(lf, loss, 1.0, C_THETA))["corrected_heuristic"]
        ci = mean_interval(sup, level=level)
        exceed = int(np.sum(sup > bound))
        table.append({"d": d, "n": n, "replications": replications, "mean_sup_error": float(ci.mean),
                      "ci_low": float(ci.low), "ci_high": float(ci.high), "bound": float(bound),
                      "exceed": exceed, "exceed_fraction_ci": list(clopper_pearson(exceed, replications)),
                      "looseness": float(bound / np.quantile(sup, 1 - DELTA))})
        all_d += [d] * replications
        all_errors += [float(e) for e in sup]
    fit, verdicts = dimension_verdicts(all_d, all_errors, table, level=level)
    return {"settings": {"metric": metric, "tau": tau, "n": n, "replications": replications, "dimensions": dims,
                         "c_Theta": C_THETA, "delta": DELTA, "seed": int(seed), "refinement_rounds": rounds},
            "table": table, "rate_fit": fit.as_dict(), "verdicts": verdicts, "d": all_d, "errors": all_errors}


def dimension_verdicts(d, errors, table, *, level: float = 0.95):
    """(fit, verdicts) of :func:`dimension_sweep` from one error per replication and its table rows."""
    fit = fit_rate(d, errors, expected=D_EXPONENT, tolerance=D_EXPONENT, level=level)
    return fit, {"d_exponent_within_bound": bool(fit.ci_high <= D_EXPONENT),
                 "bound_holds_every_d": all(row["exceed"] <= DELTA * row["replications"] for row in table)}


STUDY = Study(
    name="uniform-convergence",
    claim="Lemma 4: sup_theta ||V_hat(theta) - V(theta)|| = O_p(n^-1/2); and the explicit bound of its proof",
    modes=MODES,
    seed=SEED,
    tasks=_tasks,
    context=_context,
    run_task=_run_task,
    summarize=_summarize,
    figures=_figures,
    task_rows=_task_rows,
)
