"""Study "consistency": Thm. 5, theta_hat_n = argmax U_hat -> theta* = argmax U_phi in probability.

On the bounded continuous population of the uniform-convergence study (u ~ U[-1, 1], x = (u, 1),
eta = sigmoid(3 u - 0.5): Lemma 4's bounded inputs, and a linear model that contains the Bayes classifier), for
F_1 (tau = 0.33) and Jaccard (tau = 0.75):

* theta* is computed once per metric to high precision from the exact population
  (:func:`lfverify.simulations._maximisers.population_maximiser`, with its certificates: ||V_phi(theta*)||, the
  Hessian's eigenvalues, the spread over starts);
* for R replications at each n, theta_hat_n comes from Algorithm 1 with U-BFGS
  (:func:`lfverify.simulations._maximisers.empirical_maximiser`), and the study records ||theta_hat_n - theta*||,
  the surrogate gap U_phi(theta*) - U_phi(theta_hat_n) >= 0 and the true-utility gap U(theta*) - U(theta_hat_n)
  (population values, exact / quadrature).

Fitted slopes (:func:`lfverify.simulations._rates.fit_rate`, per replication, HC3): ||theta_hat_n - theta*|| against
the sqrt(n) rate of a Z-estimator (-1/2, band +-0.1); the surrogate gap against -1 (a smooth maximum is
quadratic: band +-0.2); |U(theta*) - U(theta_hat_n)| against -1/2 (U is differentiable at theta* with a
non-zero gradient in general, since theta* maximises U_phi, not U).  What is found is reported, whichever way.
"""

from __future__ import annotations

import numpy as np

from lfverify.core import tau_logistic
from lfverify.simulations._engine import Study, Task
from lfverify.simulations._intervals import mean_interval
from lfverify.simulations._maximisers import empirical_maximiser, population_maximiser
from lfverify.simulations._rate_figures import loglog_rate_figure
from lfverify.simulations._rates import fit_rate
from lfverify.simulations._replications import block_tasks, draw_replications
from lfverify.simulations._study_populations import (
    METRICS,
    POPULATIONS,
)

__all__ = ["STUDY", "POPULATION_NAME", "STARTS"]

SEED = 2020_0826_0005
POPULATION_NAME = "bounded-logistic"
#: Starts of the population maximiser (BFGS) and of Algorithm 1 (the same for every replication).
POPULATION_STARTS = np.array([[1.0, 0.0], [0.5, 0.5], [3.0, 1.0], [-1.0, 2.0]])
STARTS = np.array([[1.0, 0.0], [0.5, 0.5]])
#: (claimed exponent, half-width of the band) per measured quantity.
CLAIMS = {"distance": (-0.5, 0.1), "surrogate_gap": (-1.0, 0.2), "true_gap_abs": (-0.5, 0.1)}

MODES = {
    "smoke": {"sample_sizes": [200, 800, 3200], "replications": 6, "samples_per_task": 20_000},
    "quick": {"sample_sizes": [100, 316, 1000, 3162, 10000], "replications": 50, "samples_per_task": 1 << 17},
    "full": {"sample_sizes": [100, 215, 464, 1000, 2154, 4642, 10000, 21544, 46416, 100000], "replications": 100,
             "samples_per_task": 1 << 18},
}


def _tasks(config):
    return [Task((("kind", "population"), ("metric", name))) for name in METRICS] + block_tasks(
        [(("kind", "sample"),)], config["sample_sizes"], config["replications"], config["samples_per_task"])


def _context(config):
    return {}


def _population_row(metric_name):
    metric, tau = METRICS[metric_name]
    population = POPULATIONS[POPULATION_NAME]
    opt = population_maximiser(population, metric, tau_logistic(tau), starts=POPULATION_STARTS)
    row = {"kind": "population", "metric": metric_name, "tau": tau, "surrogate_utility": opt.surrogate_utility,
           "true_utility": opt.true_utility, "gradient_norm": opt.gradient_norm,
           "gradient_direction_norm": opt.gradient_direction_norm,
           "max_hessian_eigenvalue": float(np.max(opt.hessian_eigenvalues)), "start_spread": opt.start_spread,
           "bayes_utility": population.bayes_optimal_utility(metric)}
    row.update({f"theta_{j + 1}": opt.theta[j] for j in range(opt.theta.size)})
    return row


def _task_rows(task, config):
    """One row for a population task; one per (metric, replication) for a sample task."""
    p = task.params
    return 1 if p["kind"] == "population" else len(METRICS) * p["count"]


def _run_task(task, config, context, study_seed):
    p = task.params
    if p["kind"] == "population":
        return [_population_row(p["metric"])]
    population = POPULATIONS[POPULATION_NAME]
    X, y = draw_replications(population, POPULATION_NAME, p["n"], first=p["first"], count=p["count"],
                             study_seed=study_seed)
    rows = []
    for metric_name, (metric, tau) in METRICS.items():
        loss = tau_logistic(tau)
        fits = [empirical_maximiser(X[i], y[i], metric, loss, starts=STARTS) for i in range(p["count"])]
        thetas = np.array([f.theta for f in fits])
        surrogate = population.surrogate_utility(metric, loss, thetas)
        true = population.utility(metric, thetas)
        for i, fit in enumerate(fits):
            row = {"kind": "sample", "metric": metric_name, "tau": tau, "n": p["n"], "replication": p["first"] + i,
                   "empirical_surrogate_utility": fit.surrogate_utility, "converged": fit.converged,
                   "iterations": fit.iterations, "surrogate_utility": surrogate[i], "true_utility": true[i]}
            row.update({f"theta_{j + 1}": fit.theta[j] for j in range(fit.theta.size)})
            rows.append(row)
    return rows


def _theta(row):
    return np.array([row[k] for k in sorted(row) if k.startswith("theta_")])


def _measured(rows, metric_name):
    """theta*'s row, the metric's sample rows, their n and, per replication, ||theta_hat_n - theta*||, the
    surrogate gap and the true-utility gap."""
    star = next(r for r in rows if r["kind"] == "population" and r["metric"] == metric_name)
    theta_star = _theta(star)
    mine = [r for r in rows if r["kind"] == "sample" and r["metric"] == metric_name]
    n = np.array([r["n"] for r in mine], dtype=float)
    distance = np.array([np.linalg.norm(_theta(r) - theta_star) for r in mine])
    surrogate_gap = np.array([star["surrogate_utility"] - r["surrogate_utility"] for r in mine])
    true_gap = np.array([star["true_utility"] - r["true_utility"] for r in mine])
    return star, mine, n, distance, surrogate_gap, true_gap


def _fitted(n, distance, surrogate_gap, true_gap):
    """The replications each rate is fitted on: name -> (n, positive values); a gap can underflow to 0 (or round
    below it) only when theta_hat = theta*."""
    out = {}
    for name, values in (("distance", distance), ("surrogate_gap", surrogate_gap), ("true_gap_abs", np.abs(true_gap))):
        keep = values > 0
        out[name] = n[keep], values[keep]
    return out


def _summarize(rows, config, context):
    settings, verdicts = {}, {}
    for metric_name in METRICS:
        star, mine, n, distance, surrogate_gap, true_gap = _measured(rows, metric_name)
        theta_star = _theta(star)
        table = []
        for size in sorted(set(n.tolist())):
            at = n == size
            rows_at = {name: mean_interval(values[at]) for name, values in
                       (("distance", distance), ("surrogate_gap", surrogate_gap), ("true_gap", true_gap),
                        ("true_gap_abs", np.abs(true_gap)))}
            table.append({"n": int(size), "replications": int(at.sum()),
                          "converged_fraction": float(np.mean([r["converged"] for r, a in zip(mine, at) if a])),
                          **{f"mean_{k}": float(v.mean) for k, v in rows_at.items()},
                          **{f"standard_error_{k}": float(v.standard_error) for k, v in rows_at.items()}})
        fits = {}
        for name, (sizes, values) in _fitted(n, distance, surrogate_gap, true_gap).items():
            expected, tolerance = CLAIMS[name]
            fit = fit_rate(sizes, values, expected=expected, tolerance=tolerance)
            fits[name] = {**fit.as_dict(), "verdict": fit.verdict,
                          "excluded_non_positive": int(n.size - sizes.size)}
        settings[metric_name] = {
            "metric": metric_name, "tau": star["tau"], "population": POPULATION_NAME,
            "theta_star": theta_star.tolist(),
            "theta_star_certificates": {k: star[k] for k in ("gradient_norm", "gradient_direction_norm",
                                                            "max_hessian_eigenvalue", "start_spread")},
            "surrogate_utility_at_theta_star": star["surrogate_utility"],
            "true_utility_at_theta_star": star["true_utility"], "bayes_utility": star["bayes_utility"],
            "table": table, "rate_fits": fits,
        }
        verdicts[f"{metric_name}/theta_star_certified"] = bool(
            star["gradient_direction_norm"] < 1e-9 and star["max_hessian_eigenvalue"] < 0
            and star["start_spread"] < 1e-6)
        verdicts[f"{metric_name}/consistent_at_root_n"] = fits["distance"]["holds"]
        verdicts[f"{metric_name}/surrogate_gap_rate_n^-1"] = fits["surrogate_gap"]["holds"]
        verdicts[f"{metric_name}/true_gap_rate_n^-1/2"] = fits["true_gap_abs"]["holds"]
    return {"settings": settings, "verdicts": verdicts,
            "theorem5_consistent": all(verdicts[f"{m}/consistent_at_root_n"] for m in METRICS)}


def _figures(rows, summary, out_dir):

    fitted = {metric_name: _fitted(*_measured(rows, metric_name)[2:]) for metric_name in summary["settings"]}
    paths = []
    for name, label in (("distance", "||theta_hat_n - theta*||"),
                        ("surrogate_gap", "U_phi(theta*) - U_phi(theta_hat_n)"),
                        ("true_gap_abs", "|U(theta*) - U(theta_hat_n)|")):
        series = [{"label": f"{metric_name} (tau = {s['tau']:g})", "n": fitted[metric_name][name][0],
                   "errors": fitted[metric_name][name][1], "fit": s["rate_fits"][name]}
                  for metric_name, s in summary["settings"].items()]
        paths.append(loglog_rate_figure(out_dir / f"consistency_{name}.png", series, expected=CLAIMS[name][0],
                                        title=f"Thm. 5 on the {POPULATION_NAME} population: {label}",
                                        ylabel=f"geometric mean of {label}"))
    return paths


STUDY = Study(
    name="consistency",
    claim="Thm. 5: theta_hat_n = argmax U_hat converges in probability to theta* = argmax U_phi",
    modes=MODES,
    seed=SEED,
    tasks=_tasks,
    context=_context,
    run_task=_run_task,
    summarize=_summarize,
    figures=_figures,
    task_rows=_task_rows,
)
