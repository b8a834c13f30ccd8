"""Quick self-checks of the paper's claims that the core library can decide on its own.

Each :class:`Check` names the paper object it checks, runs in well under a second and returns a verdict with
a key figure.  ``lfverify verify`` runs them; the proofs, property tests, simulations and benchmark of later
work register further checks here.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

import lfverify.core as core
from lfverify.core import (
    DEFAULT_SEED,
    EmpiricalSurrogateUtility,
    FiniteSupportPopulation,
    GaussianPopulation,
    reference_gradient_direction,
)
from lfverify.learn import maximize_surrogate_utility

__all__ = ["Check", "CheckResult", "CHECKS", "run_checks"]

#: Seed of every randomized self-check (fixed, so verdicts are reproducible).
SEED = DEFAULT_SEED


@dataclass(frozen=True)
class Check:
    name: str
    label: str  #: the paper's numbered object / LaTeX label
    method: str
    expected: str  #: "verified" or "violated" (a documented counterexample)
    run: Callable[[], tuple[bool, str]]  #: returns (claim holds?, key figure)


@dataclass(frozen=True)
class CheckResult:
    name: str
    label: str
    method: str
    expected: str
    verdict: str
    detail: str
    seconds: float

    @property
    def as_expected(self) -> bool:
        return self.verdict == self.expected


def _random_population(rng, n_atoms=6, d=2):
    weights = rng.dirichlet(np.ones(n_atoms))
    return FiniteSupportPopulation(rng.normal(size=(n_atoms, d)), weights, rng.uniform(0.02, 0.98, n_atoms))


def _check_table1() -> tuple[bool, str]:
    rng = np.random.default_rng(SEED)
    worst = 0.0
    for _ in range(200):
        pi = rng.uniform(0.05, 0.95)
        tp, fp = rng.uniform(0, pi), rng.uniform(0, 1 - pi)
        fn, tn = pi - tp, 1 - pi - fp
        beta, alpha = rng.uniform(0.1, 5), rng.uniform(0, 3)
        pairs = [
            (core.f_beta(beta), (1 + beta**2) * tp / ((1 + beta**2) * tp + beta**2 * fn + fp)),
            (core.jaccard(), tp / (tp + fn + fp)),
            (core.gower_legendre(alpha), (tp + tn) / (tp + alpha * (fp + fn) + tn)),
            (core.accuracy(), tp + tn),
        ]
        for metric, definition in pairs:
            worst = max(worst, abs(float(metric.value(tp, fp, pi)) - definition) / abs(definition))
    return worst < 1e-12, f"max rel. error {worst:.1e} over 800 points"


def _check_definition1_rows() -> tuple[bool, str]:
    verdicts = {m.name: m.admissibility().admissible
                for m in (core.f1(), core.f_beta(2), core.jaccard(), core.accuracy(), core.gower_legendre(1.0))}
    return all(verdicts.values()), ", ".join(f"{k}: {'ok' if v else 'violates'}" for k, v in verdicts.items())


def _check_gower_legendre_signs() -> tuple[bool, str]:
    bad = {a: core.gower_legendre(a).admissibility().violations for a in (0.5, 2.0)}
    holds = not any(bad.values())
    return holds, "; ".join(f"alpha={a}: {', '.join(v) or 'none'}" for a, v in bad.items())


def _check_eq7_factorisation() -> tuple[bool, str]:
    rng = np.random.default_rng(SEED)
    X = rng.normal(size=(120, 3))
    y = np.where(rng.random(120) < 0.4, 1, -1)
    worst = 0.0
    for metric, loss in [(core.f1(), core.tau_logistic(0.33)), (core.jaccard(), core.tau_logistic(0.75)),
                         (core.accuracy(), core.hinge())]:
        theta = rng.normal(size=3)
        fast = EmpiricalSurrogateUtility(metric, loss, X, y).gradient_direction(theta)
        ref = reference_gradient_direction(metric, loss, X, y, theta=theta)
        worst = max(worst, float(np.linalg.norm(fast - ref) / np.linalg.norm(ref)))
    return worst < 1e-10, f"max rel. difference {worst:.1e}"


def _check_lemma3_unbiased() -> tuple[bool, str]:
    rng = np.random.default_rng(SEED)
    pop = _random_population(rng, n_atoms=2)
    theta = rng.normal(size=2)
    metric, loss = core.f1(), core.tau_logistic(0.33)
    outcomes = [(j, lab, pop.weights[j] * (pop.eta[j] if lab == 1 else 1 - pop.eta[j]))
                for j in range(2) for lab in (1, -1)]
    mean = np.zeros(2)
    for sample in itertools.product(outcomes, repeat=4):
        prob = math.prod(o[2] for o in sample)
        X = pop.atoms[[o[0] for o in sample]]
        y = np.array([o[1] for o in sample])
        mean += prob * reference_gradient_direction(metric, loss, X, y, theta=theta)
    target = pop.gradient_direction(metric, loss, theta)
    err = float(np.linalg.norm(mean - target) / np.linalg.norm(target))
    return err < 1e-12, f"|E[V_hat] - V| / |V| = {err:.1e} (exact enumeration, n = 4)"


def _check_lemma1_lower_bound() -> tuple[bool, str]:
    rng = np.random.default_rng(SEED)
    worst = -math.inf
    for _ in range(50):
        pop = _random_population(rng)
        scores = rng.normal(scale=3, size=(200, 6))
        for metric, loss in [(core.f1(), core.tau_logistic(0.33)), (core.jaccard(), core.hinge()),
                             (core.f_beta(2), core.logistic())]:
            gap = pop.surrogate_utility_of_scores(metric, loss, scores) - pop.utility_of_scores(metric, scores)
            worst = max(worst, float(gap.max()))
    return worst <= 1e-15, f"max U_phi - U = {worst:.2e} over 30,000 classifiers"


def _check_prop5_threshold() -> tuple[bool, str]:
    rng = np.random.default_rng(SEED)
    violations = 0
    for _ in range(100):
        pop = _random_population(rng)
        for metric in (core.f1(), core.jaccard(), core.accuracy()):
            best = pop._reference_bayes_optimal(metric)
            delta = float(metric.bayes_optimal_threshold(best))
            mask = pop.bayes_optimal(metric).classifier
            violations += int(np.any(mask & (pop.eta < delta)) or np.any(~mask & (pop.eta > delta)))
    return violations == 0, f"{violations} threshold violations in 300 populations"


def _check_prop5_gaussian() -> tuple[bool, str]:
    pop = GaussianPopulation([1.0, 0.5], [-0.5, 0.0], [[1.0, 0.3], [0.3, 0.8]], 0.3)
    worst = 0.0
    for metric in (core.f1(), core.jaccard(), core.f_beta(2.0)):
        best = pop.bayes_optimal(metric)
        theta = best.classifier
        # a point on the returned decision boundary theta^T (x, 1) = 0, and eta there
        x = -theta[2] * theta[:2] / float(theta[:2] @ theta[:2])
        eta = float(pop.posterior(np.append(x, 1.0)[None, :])[0])
        worst = max(worst, abs(eta - float(metric.bayes_optimal_threshold(best.utility))))
    return worst < 1e-9, f"max |eta(boundary) - delta(U-dagger)| = {worst:.1e} (F_1, Jaccard, F_2)"


def _check_tau_discrepancy() -> tuple[bool, str]:
    # one-sided difference quotients at 0 (h = 1e-7: truncation error ~ h phi'' ~ 1e-8, rounding ~ 1e-9)
    h, worst = 1e-7, 0.0
    for tau in (0.1, 0.33, 0.75, 1.0):
        loss = core.tau_logistic(tau)
        right = (float(loss.value(h)) - float(loss.value(0.0))) / h
        left = (float(loss.value(0.0)) - float(loss.value(-h))) / h
        worst = max(worst, abs(right / left - tau))
    logistic_is_not = not core.logistic().is_tau_discrepant(0.33)
    return worst < 1e-6 and logistic_is_not, (f"max |phi'(0+)/phi'(0-) - tau| = {worst:.1e} (difference quotients); "
                                              f"logistic loss 0.33-discrepant: {not logistic_is_not}")


def _optimizer_problem():
    rng = np.random.default_rng(SEED)
    X = np.c_[rng.normal(size=(300, 2)), np.ones(300)]
    y = np.where(rng.random(300) < 1 / (1 + np.exp(-(X @ np.array([1.5, -1.0, -0.5])))), 1, -1)
    return EmpiricalSurrogateUtility(core.f1(), core.tau_logistic(0.33), X, y), X, y


def _check_algorithm1() -> tuple[bool, str]:
    from scipy.optimize import minimize


    objective, _, _ = _optimizer_problem()
    start = np.array([-2.0, 2.0, 0.0])  # N_hat < 0 here: phase 1 must run
    result = maximize_surrogate_utility(objective, start, method="bfgs", max_iter=200)
    # derivative-free oracle (scipy's BFGS stalls at the loss's kink here: "precision loss" at a 5e-4 gap)
    reference = minimize(lambda t: -objective.value(t), np.full(3, 0.1), method="Nelder-Mead",
                         options={"xatol": 1e-10, "fatol": 1e-14, "maxiter": 20000})
    gap = abs(result.surrogate_utility + reference.fun) / abs(reference.fun)
    ok = objective.numerator(start) < 0 and result.phase1_steps > 0 and gap < 1e-9
    return ok, (f"phase 1: {result.phase1_steps} steps from N_hat = {float(objective.numerator(start)):.3f}; "
                f"U-BFGS vs Nelder-Mead: rel. gap {gap:.1e}")


def _check_algorithm2() -> tuple[bool, str]:
    objective, X, y = _optimizer_problem()
    theta = np.array([0.5, -0.2, 0.1])
    result = maximize_surrogate_utility(objective, theta, method="gd", learning_rate=0.05, max_iter=10)
    for _ in range(10):  # Alg. 2 transcribed, with the literal double sum of Eq. (7)
        v = reference_gradient_direction(objective.metric, objective.loss, X, y, theta=theta)
        theta = theta + 0.05 * v / np.linalg.norm(v)
    err = float(np.max(np.abs(result.theta - theta)))
    return err < 1e-12, f"max |theta_U-GD - theta_Alg.2| = {err:.1e} after 10 iterations"


# Columns: Check(name, label, method, expected, run).
CHECKS: tuple[Check, ...] = (
    Check("Table 1 coefficients reproduce the metric definitions", "tab:generalized-performance-metrics",
          "exact evaluation at random points", "verified", _check_table1),
    Check("Table 1 rows F_beta, Jaccard, accuracy, Gower-Legendre(1) satisfy Definition 1", "def:metric",
          "exact vertex analysis", "verified", _check_definition1_rows),
    Check("Gower-Legendre(alpha != 1) satisfies Definition 1's sign constraints", "tab:generalized-performance-metrics",
          "exact vertex analysis", "violated", _check_gower_legendre_signs),
    Check("Eq. (7) factorises to D grad N - N grad D", "eq:gradient-estimator",
          "fast estimator vs literal double sum", "verified", _check_eq7_factorisation),
    Check("Lemma 3: V_hat is unbiased", "lem:unbiased-gradient", "exact enumeration of all samples", "verified",
          _check_lemma3_unbiased),
    Check("Lemma 1: U_phi <= U", "lem:utility-lower-bound", "finite-support populations, random classifiers",
          "verified", _check_lemma1_lower_bound),
    Check("Prop. 5: Bayes-optimal classifiers threshold eta at delta(U-dagger)", "prop:bayes-optimal-set",
          "brute force over all classifiers of 6-atom populations", "verified", _check_prop5_threshold),
    Check("Prop. 5 on a Gaussian population: the Bayes boundary sits at eta = delta(U-dagger)",
          "prop:bayes-optimal-set", "closed-form rates, 1-D maximisation", "verified", _check_prop5_gaussian),
    Check("Definition 2: the tau-logistic loss is tau-discrepant, the logistic loss is not", "def:discrepant-loss",
          "one-sided difference quotients at 0", "verified", _check_tau_discrepancy),
    Check("Alg. 1: phase 1 makes N_hat positive; U-BFGS reaches the Nelder-Mead maximum", "alg:hybrid",
          "derivative-free oracle (scipy Nelder-Mead)", "verified", _check_algorithm1),
    Check("Alg. 2: U-GD iterates equal Alg. 2 driven by the double sum of Eq. (7)", "alg:u-ga",
          "literal transcription", "verified", _check_algorithm2),
)


def run_checks(checks=None, *, progress: Callable[[str], None] | None = None,
               done: Callable[[CheckResult], None] | None = None) -> list[CheckResult]:
    """Run ``checks`` (default: all registered :data:`CHECKS`) in order; a check that raises is reported as
    "error", never silently passed.  ``progress(name)`` is called before each check, ``done(result)`` after it."""
    results = []
    for check in CHECKS if checks is None else checks:
        if progress:
            progress(check.name)
        start = time.perf_counter()
        try:
            holds, detail = check.run()
            verdict = "verified" if holds else "violated"
        except Exception as exc:  # reported, not hidden: the verdict "error" never matches an expectation
            verdict, detail = "error", f"{type(exc).__name__}: {exc}"
        results.append(CheckResult(check.name, label=check.label, method=check.method, expected=check.expected,
                                   verdict=verdict, detail=detail, seconds=time.perf_counter() - start))
        if done:
            done(results[-1])
    return results
