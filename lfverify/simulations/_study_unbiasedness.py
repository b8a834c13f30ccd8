"""Study "unbiasedness": Lemma 3, E[V_hat(theta)] = V(theta) exactly, thanks to the independent halves of Eq. (7).

For each population (the finite-support and the bounded continuous one of the uniform-convergence study), metric
(F_1 with tau = 0.33, Jaccard with tau = 0.75), three fixed parameter vectors and n from 4 to 1024, >= 10^4
replications give the mean of V_hat - V (V exact) with its interval, beside the *same-sample* estimator
V_ss = D_bar grad N_bar - N_bar grad D_bar (N and D averaged over all n samples), whose bias is exactly

    E[V_ss] - V = (Cov(W~_1, grad W~_0) - Cov(W~_0, grad W~_1)) / n,

(E[A_bar B_bar] = E[A] E[B] + Cov(A, B) / n for means of n i.i.d. pairs), computed here from the population
(finite sums; quadrature for the continuous population, :func:`score_moments`).

Besides every entry (theta, component), each replication records the projection
P = <V_hat - V, B> / |B|^2 over all thetas and components, whose mean is exactly 1/n for V_ss and 0 for V_hat.
Verdicts (Bonferroni over every entry, n, metric and population, family-wise level 95 %):

* ``split_unbiased``: every interval of the mean of V_hat - V (and of P) covers 0;
* ``same_sample_bias_visible``: at the smallest n the interval of P for V_ss excludes 0;
* ``same_sample_bias_matches``: every interval of the mean of V_ss - V covers the exact bias B / n (and P's 1/n);
* ``same_sample_rate``: P for V_ss, fitted as c n^p over all n (:func:`lfverify.simulations._rates.fit_power_law`),
  decays like n^-1 (the interval of p covers -1 and lies within [-1.2, -0.8]).

Replications are batched (:mod:`lfverify.simulations`); each task returns per-block moments
(count, mean, M2) merged in grid order (:func:`lfverify.simulations._intervals.merge_moments`).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from lfverify.core import (
    BoundedLogisticPopulation,
    FiniteSupportPopulation,
    check_real,
    interval_expectation,
    surrogate_scores,
    tau_logistic,
)
from lfverify.io import pyplot, save_figure
from lfverify.simulations._engine import Study
from lfverify.simulations._intervals import mean_interval, merge_moments
from lfverify.simulations._rates import fit_power_law
from lfverify.simulations._replicated import ESTIMATORS, ReplicatedSamples, estimates
from lfverify.simulations._replications import block_tasks, draw_replications
from lfverify.simulations._study_populations import (
    METRICS,
    POPULATIONS,
)

__all__ = ["STUDY", "THETAS", "score_moments", "same_sample_bias_coefficient", "bias_checks"]

SEED = 2020_0826_0003
#: Parameter vectors at which V_hat - V is averaged (shared by both populations, d = 2).
THETAS = np.array([[0.6, -0.4], [-1.0, 0.5], [1.5, 1.0]])
FAMILY_LEVEL = 0.95
#: Exponent of the same-sample bias and the half-width of the band of its fitted exponent.
BIAS_SLOPE, BIAS_TOLERANCE = -1.0, 0.2

MODES = {
    "smoke": {"sample_sizes": [4, 16, 64], "replications": 4000, "samples_per_task": 1 << 18},
    "quick": {"sample_sizes": [4, 8, 16, 32, 64, 128, 256, 512, 1024], "replications": 10_000,
              "samples_per_task": 1 << 20},
    "full": {"sample_sizes": [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048], "replications": 100_000,
             "samples_per_task": 1 << 21},
}


# ---------------------------------------------------------------------------------------------- exact moments
def score_moments(population, metric, loss, theta):
    """Population moments of the per-sample scores W~_k(theta^T x, y) of Eq. (6), for a batch theta (K, d).

    Returns a dict of arrays: ``w0``, ``w1`` (K,) = E[W~_k]; ``g0``, ``g1`` (K, d) = E[grad W~_k];
    ``w1g0``, ``w0g1`` (K, d) = E[W~_1 grad W~_0], E[W~_0 grad W~_1].  Finite support: exact sums over atoms
    and classes; bounded logistic: composite Gauss-Legendre over u split at the kink u = -theta_2 / theta_1.
    """
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    K, d = theta.shape
    if isinstance(population, FiniteSupportPopulation):
        atoms = population.atoms  # (J, d)
        out = {k: 0.0 for k in ("w0", "w1", "g0", "g1", "w1g0", "w0g1")}
        for y, mass in ((1, population.weights * population.eta), (-1, population.weights * (1 - population.eta))):
            xi = theta @ atoms.T  # (K, J)
            w0, w1, dw0, dw1 = surrogate_scores(metric, loss, xi, np.full(xi.shape, y))
            out["w0"] = out["w0"] + w0 @ mass
            out["w1"] = out["w1"] + w1 @ mass
            out["g0"] = out["g0"] + (dw0 * mass) @ atoms
            out["g1"] = out["g1"] + (dw1 * mass) @ atoms
            out["w1g0"] = out["w1g0"] + (w1 * dw0 * mass) @ atoms
            out["w0g1"] = out["w0g1"] + (w0 * dw1 * mass) @ atoms
        return out
    if isinstance(population, BoundedLogisticPopulation):
        a, b = theta[:, 0], theta[:, 1]
        inside = (np.abs(b) <= np.abs(a)) & (a != 0)
        breaks = np.divide(-b, a, out=np.full(K, -1.0), where=inside)[:, None]
        width = 1.0 / np.maximum(np.maximum(np.abs(a), abs(population.slope)), 4.0)

        def integrand(u):
            xi = a[:, None] * u + b[:, None]
            p_pos = 1.0 / (1.0 + np.exp(-(population.slope * u + population.offset)))
            parts = []
            per_class = []
            for y, p in ((1, p_pos), (-1, 1.0 - p_pos)):
                w0, w1, dw0, dw1 = surrogate_scores(metric, loss, xi, np.full(xi.shape, y))
                per_class.append((p, w0, w1, dw0, dw1))
            for name in ("w0", "w1", "g0", "g1", "w1g0", "w0g1"):
                total = [0.0] * (1 if name in ("w0", "w1") else 2)
                for p, w0, w1, dw0, dw1 in per_class:
                    if name == "w0":
                        terms = [w0]
                    elif name == "w1":
                        terms = [w1]
                    else:
                        scalar = {"g0": dw0, "g1": dw1, "w1g0": w1 * dw0, "w0g1": w0 * dw1}[name]
                        terms = [scalar * u, scalar]  # grad = dW/dxi * (u, 1)
                    total = [t + p * s for t, s in zip(total, terms)]
                parts.extend(total)
            return np.stack(parts, axis=-1)

        m = interval_expectation(integrand, -1.0, 1.0, breakpoints=breaks, max_panel_width=width)
        return {"w0": m[:, 0], "w1": m[:, 1], "g0": m[:, 2:4], "g1": m[:, 4:6], "w1g0": m[:, 6:8],
                "w0g1": m[:, 8:10]}
    raise TypeError(f"population must be a FiniteSupportPopulation or BoundedLogisticPopulation; got "
                    f"{type(population).__name__}")


def same_sample_bias_coefficient(population, metric, loss, theta) -> np.ndarray:
    """B(theta) with E[V_ss] - V = B / n exactly: Cov(W~_1, grad W~_0) - Cov(W~_0, grad W~_1); shape (K, d)."""
    s = score_moments(population, metric, loss, theta)
    return (s["w1g0"] - s["w1"][:, None] * s["g0"]) - (s["w0g1"] - s["w0"][:, None] * s["g1"])


# ---------------------------------------------------------------------------------------------- tasks
def _tasks(config):
    return block_tasks([(("population", p),) for p in POPULATIONS], config["sample_sizes"], config["replications"],
                       config["samples_per_task"])


def _context(config):
    context = {}
    for pop_name, population in POPULATIONS.items():
        for metric_name, (metric, tau) in METRICS.items():
            loss = tau_logistic(tau)
            context[(pop_name, metric_name)] = {
                "v": population.gradient_direction(metric, loss, THETAS),
                "bias_coefficient": same_sample_bias_coefficient(population, metric, loss, THETAS),
            }
    return context


def _task_rows(task, config):
    """One row per (metric, estimator): the replications of the task are summed into it."""
    return len(METRICS) * len(ESTIMATORS)


def _run_task(task, config, context, study_seed):
    p = task.params
    population = POPULATIONS[p["population"]]
    samples = ReplicatedSamples(*draw_replications(population, p["population"], p["n"], first=p["first"],
                                                   count=p["count"], study_seed=study_seed))
    rows = []
    K, d = THETAS.shape
    for metric_name, (metric, tau) in METRICS.items():
        exact = context[(p["population"], metric_name)]
        B = exact["bias_coefficient"]
        sums = samples.class_sums(THETAS, tau_logistic(tau))
        for estimator in ESTIMATORS:
            diff = estimates(sums, metric, estimator=estimator).gradient_direction - exact["v"][None]  # (R, K, d)
            # projection on the exact same-sample bias direction, scaled so that its mean is 1/n for V_ss
            projection = np.einsum("rkj,kj->r", diff, B) / np.sum(B * B)
            row = {"population": p["population"], "metric": metric_name, "n": p["n"], "first": p["first"],
                   "count": p["count"], "estimator": estimator}
            mean = diff.mean(axis=0)
            m2 = ((diff - mean) ** 2).sum(axis=0)
            for k in range(K):
                for j in range(d):
                    row[f"mean_{k + 1}_{j + 1}"] = mean[k, j]
                    row[f"m2_{k + 1}_{j + 1}"] = m2[k, j]
            row["projection_mean"] = projection.mean()
            row["projection_m2"] = np.sum((projection - projection.mean()) ** 2)
            rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------- summary
def merged_moments(rows):
    """{(population, metric, estimator, n): (count, mean, M2)} of the per-replication vector
    (V_hat - V entries for every theta and component, then the projection), blocks merged in row order."""
    K, d = THETAS.shape
    names = [f"{k + 1}_{j + 1}" for k in range(K) for j in range(d)]
    groups = {}
    for r in rows:
        groups.setdefault((r["population"], r["metric"], r["estimator"], r["n"]), []).append(r)
    out = {}
    for key, blocks in groups.items():
        out[key] = merge_moments(
            [b["count"] for b in blocks],
            [[b[f"mean_{c}"] for c in names] + [b["projection_mean"]] for b in blocks],
            [[b[f"m2_{c}"] for c in names] + [b["projection_m2"]] for b in blocks])
    return out


def bias_checks(moments, targets, *, level: float = FAMILY_LEVEL):
    """Intervals of Monte-Carlo means against target values, Bonferroni-adjusted over every entry of every key.

    Parameters
    ----------
    moments : dict key -> (count, mean (m,), M2 (m,))
    targets : dict key -> array (m,): the exact expectation (0 for an unbiased estimator)
    level : family-wise confidence over all keys and entries

    Returns
    -------
    (checks, per_entry_level, quantile): checks[key] has ``mean``, ``standard_error``, ``z`` = (mean - target) / se,
    ``covers`` (|z| <= quantile, per entry) and ``count``.  Counts are >= 10^3, so the quantile is normal.

    Raises
    ------
    ValueError
        If ``level`` is not strictly between 0 and 1, or is so close to 1 that the per-entry level
        1 - (1 - level) / entries has an infinite normal quantile (no entry could be found biased); if ``moments``
        holds no entry, or a key of ``moments`` has no target.
    """
    # checked here, in the caller's terms: the per-entry level below is what mean_interval would check
    level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    entries = sum(np.asarray(m[1]).size for m in moments.values())
    if not entries:
        raise ValueError(f"moments must hold at least one mean to check; got {len(moments)} keys and no entries")
    missing = [key for key in moments if key not in targets]
    if missing:
        raise ValueError(f"targets must have a value for every key of moments; got none for {missing[0]!r}")
    per_entry = 1.0 - (1.0 - level) / entries
    if not 0.5 + per_entry / 2 < 1.0:  # the two-sided quantile below would be infinite
        raise ValueError(f"level is too close to 1 for {entries} entries: the per-entry level 1 - (1 - level) / "
                         f"{entries} = {per_entry!r} has an infinite normal quantile at level = {level!r}")
    q = float(stats.norm.ppf(0.5 + per_entry / 2))
    out = {}
    for key, (count, mean, m2) in moments.items():
        ci = mean_interval(count=count, mean=mean, m2=m2, level=per_entry)
        z = (mean - np.asarray(targets[key])) / ci.standard_error
        out[key] = {"mean": mean, "standard_error": ci.standard_error, "z": z, "covers": np.abs(z) <= q,
                    "count": count}
    return out, per_entry, q


def _summarize(rows, config, context):
    moments = merged_moments(rows)
    targets = {}
    for key in moments:
        bias = context[(key[0], key[1])]["bias_coefficient"] / key[3]
        if key[2] == "split":
            targets[key] = np.zeros(bias.size + 1)
        else:
            targets[key] = np.append(bias.reshape(-1), 1.0 / key[3])  # the projection's mean is exactly 1/n
    checks, per_entry, q = bias_checks(moments, targets)
    smallest = min(config["sample_sizes"])
    settings = {}
    verdicts = {"split_unbiased": True, "same_sample_bias_matches": True, "same_sample_bias_visible": True,
                "same_sample_rate": True}
    for pop_name in POPULATIONS:
        for metric_name in METRICS:
            table = []
            for n in sorted(config["sample_sizes"]):
                s = checks[(pop_name, metric_name, "split", n)]
                t = checks[(pop_name, metric_name, "same-sample", n)]
                table.append({
                    "n": n, "replications": s["count"],
                    "split_mean": s["mean"][:-1].tolist(), "split_standard_error": s["standard_error"][:-1].tolist(),
                    "split_max_abs_z": float(np.max(np.abs(s["z"]))), "split_covers_zero": bool(s["covers"].all()),
                    "split_projection": float(s["mean"][-1]),
                    "split_projection_standard_error": float(s["standard_error"][-1]),
                    "same_sample_mean": t["mean"][:-1].tolist(),
                    "same_sample_standard_error": t["standard_error"][:-1].tolist(),
                    "same_sample_exact_bias": targets[(pop_name, metric_name, "same-sample", n)][:-1].tolist(),
                    "same_sample_projection": float(t["mean"][-1]),
                    "same_sample_projection_standard_error": float(t["standard_error"][-1]),
                    "same_sample_max_abs_z_vs_exact": float(np.max(np.abs(t["z"]))),
                    "same_sample_covers_exact": bool(t["covers"].all()),
                    "same_sample_projection_z_vs_zero": float(t["mean"][-1] / t["standard_error"][-1]),
                })
            # the projection estimates 1/n for V_ss: fit c n^p to it over all n (nonlinear WLS)
            try:
                fit = fit_power_law([row["n"] for row in table], [row["same_sample_projection"] for row in table],
                                    [row["same_sample_projection_standard_error"] for row in table],
                                    expected=BIAS_SLOPE, tolerance=BIAS_TOLERANCE)
                rate, rate_holds = {**fit.as_dict(), "verdict": fit.verdict}, fit.holds
            except ValueError as exc:  # the bias is nowhere significant: no rate to fit
                rate, rate_holds = {"verdict": f"no fit: {exc}", "holds": False}, False
            split_ok = all(row["split_covers_zero"] for row in table)
            matches = all(row["same_sample_covers_exact"] for row in table)
            visible = next(row for row in table if row["n"] == smallest)["same_sample_projection_z_vs_zero"] > q
            settings[f"{pop_name}/{metric_name}"] = {
                "population": pop_name, "metric": metric_name, "thetas": THETAS.tolist(),
                "same_sample_bias_coefficient": context[(pop_name, metric_name)]["bias_coefficient"].tolist(),
                "table": table, "same_sample_rate": rate, "split_unbiased": split_ok,
                "same_sample_bias_matches": matches, "same_sample_bias_visible": bool(visible),
            }
            verdicts["split_unbiased"] &= split_ok
            verdicts["same_sample_bias_matches"] &= matches
            verdicts["same_sample_bias_visible"] &= bool(visible)
            verdicts["same_sample_rate"] &= rate_holds
    return {"family_level": FAMILY_LEVEL, "per_entry_level": per_entry, "per_entry_quantile": q,
            "settings": settings, "verdicts": verdicts, "lemma3_unbiased": verdicts["split_unbiased"]}


def _figures(rows, summary, out_dir):
    """Per population: n x (projection of the mean of V_hat - V on the exact same-sample bias B, in units of
    |B|^2), which is 1 for the same-sample estimator at every n and 0 for Eq. (7)'s V_hat."""

    plt = pyplot()
    paths = []
    for pop_name in POPULATIONS:
        fig, ax = plt.subplots(figsize=(6.4, 4.6))
        for metric_name in METRICS:
            s = summary["settings"][f"{pop_name}/{metric_name}"]
            n = np.array([row["n"] for row in s["table"]], dtype=float)
            for name, label, marker in (("split", "V_hat (Eq. 7)", "o"), ("same_sample", "same-sample", "s")):
                mean = np.array([row[f"{name}_projection"] for row in s["table"]])
                se = np.array([row[f"{name}_projection_standard_error"] for row in s["table"]])
                ax.errorbar(n, n * mean, yerr=1.96 * n * se, fmt=marker, ms=4, capsize=2,
                            label=f"{metric_name}: {label}")
        ax.axhline(1.0, color="k", ls=":", lw=1, label="exact same-sample bias (B / n)")
        ax.axhline(0.0, color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("n")
        ax.set_ylabel("n x <mean(V_hat - V), B> / |B|^2")
        reps = summary["settings"][f"{pop_name}/F1"]["table"][0]["replications"]
        ax.set_title(f"Lemma 3, {pop_name} population: bias along B, times n ({reps} replications, 95% bars)",
                     fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        paths.append(save_figure(fig, out_dir / f"unbiasedness_{pop_name}.png"))
    return paths


STUDY = Study(
    name="unbiasedness",
    claim="Lemma 3: V_hat of Eq. (7) is unbiased for V; the same-sample estimator has bias of order 1/n",
    modes=MODES,
    seed=SEED,
    tasks=_tasks,
    context=_context,
    run_task=_run_task,
    summarize=_summarize,
    figures=_figures,
    task_rows=_task_rows,
)
