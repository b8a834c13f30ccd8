"""Study "calibration": Thms. 1 and 2 on a Gaussian population whose Bayes classifier is linear.

Population: X | Y=+1 ~ N((2, 1), Sigma), X | Y=-1 ~ N((-2, -1), Sigma), Sigma = [[1, 0.3], [0.3, 1]], pi = 0.4,
with the intercept feature (x, 1), so the linear model contains the Bayes classifier sgn(w^T x + b) for every
threshold (:class:`lfverify.core.GaussianPopulation`; U-dagger by Prop. 5, exact).

For each metric (F_1, Jaccard) and tau of the tau-logistic loss the study computes, from the population:

* theta*(tau) = argmax U_phi over the linear model (:func:`lfverify.simulations._maximisers.population_maximiser`)
  and the *linear gap* U-dagger - U(theta*);
* the theorems' own setting, all measurable classifiers (:mod:`lfverify.core`):
  (U_phi)* = sup_f U_phi, the kink interval of eta where the maximiser f* sits at 0, U(sgn f*) (sgn(0) = -1)
  and U when the kink region is labelled by the Bayes rule; the *sign gap* U-dagger - U(sgn f*);
* the hypotheses of Thm. 1 (F_beta) / Thm. 2 (Jaccard) as printed, with (U_phi)* from the line above
  (:mod:`lfverify.core`), and the largest admissible tau (the proven range);

and, by simulation, U(theta_hat_n) for theta_hat_n = argmax U_hat (Algorithm 1 + U-BFGS):

* main settings F_1 (tau = 0.33) and Jaccard (tau = 0.75): U-dagger - U(theta_hat_n) against n, extrapolated
  to n -> infinity (:func:`lfverify.simulations._rates.fit_limit`, y = a + b n^-1/2) with its interval, beside
  the exact linear gap;
* a tau sweep (0.05, 0.1, ..., 0.9) at one large n.

A non-zero gap where the hypotheses hold is reported as a finding (``findings``), cross-referenced to ERRATA.md
(the kink of phi at 0 makes f* = 0 on an interval of eta which sgn(0) = -1 predicts negative).
"""

from __future__ import annotations

import numpy as np

from lfverify.core import (
    GAUSSIAN_POPULATION,
    GaussianEta,
    f1,
    fbeta_calibration,
    jaccard,
    jaccard_calibration,
    paper_tau,
    pointwise_surrogate_optimum,
    tau_logistic,
)
from lfverify.io import pyplot, save_figure
from lfverify.simulations._engine import Study, Task
from lfverify.simulations._intervals import mean_interval
from lfverify.simulations._maximisers import empirical_maximiser, population_maximiser
from lfverify.simulations._rates import fit_limit, limit_fit_band
from lfverify.simulations._replications import block_tasks, replication_stream

__all__ = ["STUDY", "POPULATION", "METRICS", "MAIN_TAUS", "hypotheses"]

SEED = 2020_0826_0006
POPULATION = GAUSSIAN_POPULATION
METRICS = {"F1": f1(), "Jaccard": jaccard()}
#: The taus of the issue's main settings (Sec. 6 uses tau = 0.33 for F_1 and 0.75 for Jaccard).
MAIN_TAUS = {"F1": f"{paper_tau('f1'):g}", "Jaccard": f"{paper_tau('jaccard'):g}"}
POPULATION_STARTS = np.array([[1.0, 0.5, 0.0], [3.0, 1.0, 0.5], [0.5, 0.5, -0.5], [6.0, 2.0, 1.0]])
STARTS = np.array([[1.0, 0.5, 0.0], [0.5, 0.2, 0.5]])
#: A gap below this is zero up to the accuracy of the population computations (~1e-12).
GAP_ZERO = 1e-9

MODES = {
    "smoke": {"sample_sizes": [300, 1000, 3000], "replications": 4, "taus": ["0.1", "0.33", "0.75"], "sweep_n": 3000,
              "sweep_replications": 3, "samples_per_task": 20_000},
    "quick": {"sample_sizes": [100, 316, 1000, 3162, 10000], "replications": 30,
              "taus": ["0.05", "0.1", "0.2", "0.3", "0.33", "0.4", "0.5", "0.6", "0.7", "0.75", "0.8", "0.9"],
              "sweep_n": 10000, "sweep_replications": 6, "samples_per_task": 1 << 17},
    "full": {"sample_sizes": [100, 215, 464, 1000, 2154, 4642, 10000, 21544, 46416, 100000], "replications": 100,
             "taus": ["0.05", "0.1", "0.2", "0.3", "0.33", "0.4", "0.5", "0.6", "0.7", "0.75", "0.8", "0.9"],
             "sweep_n": 100000, "sweep_replications": 30, "samples_per_task": 1 << 18},
}


def _tasks(config):
    taus = sorted(set(config["taus"]) | set(MAIN_TAUS.values()), key=float)
    tasks = [Task((("kind", "population"), ("metric", m), ("tau", t))) for m in METRICS for t in taus]
    tasks += block_tasks([(("kind", "sample"), ("metric", m), ("tau", t)) for m, t in MAIN_TAUS.items()],
                         config["sample_sizes"], config["replications"], config["samples_per_task"])
    return tasks + block_tasks([(("kind", "sweep"), ("metric", m), ("tau", t))
                                for m in METRICS for t in config["taus"]],
                               [config["sweep_n"]], config["sweep_replications"], config["samples_per_task"])


def _context(config):
    return {}


def hypotheses(metric_name, tau, surrogate_optimum):
    """The printed hypotheses of Thm. 1 (F_1) or Thm. 2 (Jaccard) with (U_phi)* = ``surrogate_optimum``."""
    loss = tau_logistic(tau)
    if metric_name == "F1":
        return fbeta_calibration(1.0, loss, surrogate_optimum=surrogate_optimum, tau=tau)
    return jaccard_calibration(loss, surrogate_optimum=surrogate_optimum, tau=tau)


def _population_row(metric_name, tau_text):
    metric, tau = METRICS[metric_name], float(tau_text)
    loss = tau_logistic(tau)
    bayes = POPULATION.bayes_optimal_utility(metric)
    opt = population_maximiser(POPULATION, metric, loss, starts=POPULATION_STARTS)
    pointwise = pointwise_surrogate_optimum(metric, loss, GaussianEta(POPULATION), bayes_utility=bayes,
                                            start=opt.surrogate_utility)
    report = hypotheses(metric_name, tau, pointwise.surrogate_optimum)
    row = {"kind": "population", "metric": metric_name, "tau": tau, "bayes_utility": bayes,
           "linear_surrogate_utility": opt.surrogate_utility, "linear_true_utility": opt.true_utility,
           "linear_gap": bayes - opt.true_utility, "gradient_direction_norm": opt.gradient_direction_norm,
           "max_hessian_eigenvalue": float(np.max(opt.hessian_eigenvalues)), "start_spread": opt.start_spread,
           "surrogate_optimum": pointwise.surrogate_optimum, "kink_low": pointwise.kink_low,
           "kink_high": pointwise.kink_high, "kink_mass": pointwise.kink_mass,
           "bayes_threshold": pointwise.bayes_threshold, "sign_utility": pointwise.sign_utility,
           "sign_gap": pointwise.sign_gap, "kink_by_bayes_gap": bayes - pointwise.kink_by_bayes_utility,
           "hypotheses_hold": report.holds, "failed_hypotheses": "; ".join(report.failed),
           "max_tau": report.max_tau}
    row.update({f"theta_{j + 1}": opt.theta[j] for j in range(opt.theta.size)})
    return row


def calibration_sample(study_seed, n, replication):
    """The sample of one replication, shared by every metric and tau at this n (common random numbers)."""
    return POPULATION.sample(n, seed=replication_stream(study_seed, (("n", int(n)), ("replication", int(replication)))))


def _task_rows(task, config):
    """One row for a population task; one per replication for a sample or sweep task."""
    p = task.params
    return 1 if p["kind"] == "population" else p["count"]


def _run_task(task, config, context, study_seed):
    p = task.params
    if p["kind"] == "population":
        return [_population_row(p["metric"], p["tau"])]
    metric, tau = METRICS[p["metric"]], float(p["tau"])
    loss = tau_logistic(tau)
    fits = []
    for r in range(p["first"], p["first"] + p["count"]):
        X, y = calibration_sample(study_seed, p["n"], r)
        fits.append(empirical_maximiser(X, y, metric, loss, starts=STARTS))
    thetas = np.array([f.theta for f in fits])
    true = POPULATION.utility(metric, thetas)
    rows = []
    for i, fit in enumerate(fits):
        row = {"kind": p["kind"], "metric": p["metric"], "tau": tau, "n": p["n"], "replication": p["first"] + i,
               "empirical_surrogate_utility": fit.surrogate_utility, "converged": fit.converged,
               "iterations": fit.iterations, "true_utility": true[i]}
        row.update({f"theta_{j + 1}": fit.theta[j] for j in range(fit.theta.size)})
        rows.append(row)
    return rows


def _population_entry(row):
    keys = ("tau", "bayes_utility", "linear_true_utility", "linear_surrogate_utility", "linear_gap",
            "surrogate_optimum", "kink_low", "kink_high", "kink_mass", "bayes_threshold", "sign_utility",
            "sign_gap", "kink_by_bayes_gap", "hypotheses_hold", "failed_hypotheses", "max_tau",
            "gradient_direction_norm", "max_hessian_eigenvalue", "start_spread")
    entry = {k: row[k] for k in keys}
    entry["theta_star"] = [row[k] for k in sorted(row) if k.startswith("theta_")]
    entry["in_proven_range"] = bool(row["hypotheses_hold"])
    return entry


def _summarize(rows, config, context):
    population = {(r["metric"], r["tau"]): _population_entry(r) for r in rows if r["kind"] == "population"}
    main, sweep, findings = {}, {}, []
    for metric_name, tau_text in MAIN_TAUS.items():
        tau = float(tau_text)
        exact = population[(metric_name, tau)]
        mine = [r for r in rows if r["kind"] == "sample" and r["metric"] == metric_name]
        table = []
        for n in sorted({r["n"] for r in mine}):
            gap = np.array([exact["bayes_utility"] - r["true_utility"] for r in mine if r["n"] == n])
            ci = mean_interval(gap)
            table.append({"n": n, "replications": int(gap.size), "mean_gap": float(ci.mean),
                          "standard_error": float(ci.standard_error), "ci_low": float(ci.low),
                          "ci_high": float(ci.high)})
        limit = fit_limit([t["n"] for t in table], [t["mean_gap"] for t in table],
                          [t["standard_error"] for t in table])
        main[metric_name] = {
            "tau": tau, "population": exact, "table": table, "limit_fit": limit.as_dict(),
            "limit_covers_linear_gap": bool(limit.ci_low <= exact["linear_gap"] <= limit.ci_high),
            "limit_covers_zero": bool(limit.ci_low <= 0.0 <= limit.ci_high),
            "theta_star_attains_bayes": bool(exact["linear_gap"] <= GAP_ZERO),
            "verdict": (f"U-dagger - U(theta_hat_n) -> {limit.limit:.5f} [{limit.ci_low:.5f}, {limit.ci_high:.5f}] "
                        f"(fit a + b n^-1/2); exact U-dagger - U(theta*) = {exact['linear_gap']:.5f}; "
                        f"hypotheses of Thm. {'1' if metric_name == 'F1' else '2'} "
                        f"{'hold' if exact['hypotheses_hold'] else 'fail: ' + exact['failed_hypotheses']}"),
        }
    for metric_name in METRICS:
        entries = []
        for tau_text in config["taus"]:
            tau = float(tau_text)
            exact = population[(metric_name, tau)]
            gap = np.array([exact["bayes_utility"] - r["true_utility"] for r in rows
                            if r["kind"] == "sweep" and r["metric"] == metric_name and r["tau"] == tau])
            ci = mean_interval(gap)
            entries.append({**exact, "n": config["sweep_n"], "replications": int(gap.size),
                            "measured_gap": float(ci.mean), "measured_gap_ci": [float(ci.low), float(ci.high)]})
            if exact["hypotheses_hold"] and exact["sign_gap"] > GAP_ZERO:
                findings.append(
                    f"{metric_name}, tau = {tau:g}: the hypotheses of Thm. {'1' if metric_name == 'F1' else '2'} "
                    f"hold ((U_phi)* = {exact['surrogate_optimum']:.4f}) but U(sgn f*) = {exact['sign_utility']:.5f} "
                    f"< U-dagger = {exact['bayes_utility']:.5f} over all measurable f: f* = 0 for eta in "
                    f"[{exact['kink_low']:.4f}, {exact['kink_high']:.4f}] (probability {exact['kink_mass']:.3f}), "
                    f"which contains the Bayes threshold {exact['bayes_threshold']:.4f}; sgn(0) = -1 predicts it "
                    f"negative (ERRATA.md, Thms. 1-2); labelling it by the Bayes rule leaves a gap of "
                    f"{exact['kink_by_bayes_gap']:.2g}")
            if exact["hypotheses_hold"] and exact["linear_gap"] > GAP_ZERO:
                findings.append(
                    f"{metric_name}, tau = {tau:g}: linear model (contains the Bayes classifier): U(theta*) = "
                    f"{exact['linear_true_utility']:.5f} < U-dagger by {exact['linear_gap']:.5f} although the "
                    "hypotheses hold")
        proven = [e["tau"] for e in entries if e["hypotheses_hold"]]
        sweep[metric_name] = {"entries": entries, "proven_taus": proven,
                              "max_admissible_tau_at_tau_max": entries[-1]["max_tau"]}
    verdicts = {
        "calibrated_where_hypotheses_hold_all_f": all(
            e["sign_gap"] <= GAP_ZERO for s in sweep.values() for e in s["entries"] if e["hypotheses_hold"]),
        "weak_form_holds_all_f": all(
            e["kink_by_bayes_gap"] <= GAP_ZERO for s in sweep.values() for e in s["entries"] if e["hypotheses_hold"]),
    }
    for m, v in main.items():
        # exact (population): does the surrogate maximiser of the linear model attain U-dagger?
        verdicts[f"{m}/linear_theta_star_attains_bayes"] = v["theta_star_attains_bayes"]
        # statistical: the limit of U-dagger - U(theta_hat_n) extrapolated from the runs covers the exact gap
        verdicts[f"{m}/linear_limit_matches_theta_star"] = v["limit_covers_linear_gap"]
        # statistical: could the runs alone tell the limit from 0?
        verdicts[f"{m}/linear_limit_ci_covers_zero"] = v["limit_covers_zero"]
    return {"population": {"mean_positive": POPULATION.mean_positive.tolist(),
                           "mean_negative": POPULATION.mean_negative.tolist(),
                           "covariance": POPULATION.covariance.tolist(), "prior": POPULATION.prior,
                           "intercept": True},
            "main": main, "sweep": sweep, "verdicts": verdicts, "findings": findings}


def _figures(rows, summary, out_dir):
    plt = pyplot()
    paths = []
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    handles, labels = [], []
    for i, (metric_name, s) in enumerate(summary["main"].items()):
        color = f"C{i}"
        table, fit = s["table"], s["limit_fit"]
        n = np.array([t["n"] for t in table], dtype=float)
        mean = np.array([t["mean_gap"] for t in table])
        handles.append(ax.errorbar(n, mean, yerr=[mean - [t["ci_low"] for t in table],
                                                  [t["ci_high"] for t in table] - mean],
                                   fmt="o", ms=4, capsize=2, color=color))
        labels.append(f"{metric_name} (tau = {s['tau']:g}): mean U-dagger - U(theta_hat_n), 95% CI")
        # the band of the fit, from the same means and standard errors fit_limit was given in _summarize
        grid = np.geomspace(n.min(), n.max(), 50)
        low, high = limit_fit_band(n, mean, [t["standard_error"] for t in table], grid, exponent=fit["exponent"],
                                   level=fit["level"])
        band = ax.fill_between(grid, low, high, color=color, alpha=0.2, lw=0)
        [line] = ax.plot(grid, fit["limit"] + fit["coefficient"] * grid ** fit["exponent"], "-", lw=1, color=color)
        handles.append((band, line))
        labels.append(f"  fit a + b n^{fit['exponent']:g} (WLS): a = {fit['limit']:.4f} [{fit['ci_low']:.4f}, "
                      f"{fit['ci_high']:.4f}], {100 * fit['level']:g}% band")
        handles.append(ax.axhline(s["population"]["linear_gap"], ls=":", color=color, lw=1))
        labels.append(f"  exact U-dagger - U(theta*) = {s['population']['linear_gap']:.4f}")
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("U-dagger - U(theta_hat_n)")
    ax.set_title("Calibration on a Gaussian population with a linear Bayes classifier", fontsize=10)
    ax.legend(handles, labels, fontsize=7)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    paths.append(save_figure(fig, out_dir / "calibration_gap_vs_n.png"))

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=False)
    for ax, (metric_name, s) in zip(axes, summary["sweep"].items()):
        e = s["entries"]
        tau = np.array([x["tau"] for x in e])
        ax.plot(tau, [x["linear_gap"] for x in e], "o-", ms=4, label="linear model: U-dagger - U(theta*)")
        ax.errorbar(tau, [x["measured_gap"] for x in e],
                    yerr=[[x["measured_gap"] - x["measured_gap_ci"][0] for x in e],
                          [x["measured_gap_ci"][1] - x["measured_gap"] for x in e]],
                    fmt="x", capsize=2, label=f"measured U-dagger - U(theta_hat_n), n = {e[0]['n']}")
        ax.plot(tau, [x["sign_gap"] for x in e], "s--", ms=4, label="all f: U-dagger - U(sgn f*)")
        for x in e:
            if x["hypotheses_hold"]:
                ax.axvspan(x["tau"] - 0.02, x["tau"] + 0.02, color="green", alpha=0.12, lw=0)
        ax.set_xlabel("tau")
        ax.set_ylabel("gap to U-dagger")
        ax.set_title(f"{metric_name}: tau sweep (green: the theorem's hypotheses hold)", fontsize=9)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    paths.append(save_figure(fig, out_dir / "calibration_tau_sweep.png"))
    return paths


STUDY = Study(
    name="calibration",
    claim="Thms. 1-2: U(theta_hat_n) -> U-dagger for F_1 (tau = 0.33) and Jaccard (tau = 0.75) on a Gaussian "
          "population with a linear Bayes classifier; tau sweep against the hypotheses",
    modes=MODES,
    seed=SEED,
    tasks=_tasks,
    context=_context,
    run_task=_run_task,
    summarize=_summarize,
    figures=_figures,
    task_rows=_task_rows,
)
