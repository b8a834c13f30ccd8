"""The claims registry: every numbered claim and artefact of the paper, mapped to the checks that verify it.

Each :class:`PaperClaim` names a paper object by its LaTeX label (authoritative) and by the number used in
ERRATA.md and the issue tracker ("Lemma 1", "Thm. 7", ...; the .tex numbers lemmas, theorems, propositions
and definitions with one shared counter, so printed numbers vary between versions).  Its :class:`Evidence`
entries say how the claim is checked:

* ``derivation`` - the SymPy derivations of :mod:`lfverify.proofs` whose claims carry this LaTeX label;
* ``self-check`` - a quick numerical check of :mod:`lfverify.app` (target: the check's name);
* ``property-test`` - a Hypothesis/pytest test in ``tests/`` (target: ``path::test_name``; run by ``pytest``,
  not by ``lfverify verify``, because the tests are not installed);
* ``simulation`` - a Monte-Carlo study of :mod:`lfverify.simulations` (target: the study's name);
* ``benchmark`` - a part of the App. C protocol of :mod:`lfverify.experiments` (target: the experiment).

``expected`` is the recorded verdict on the claim as printed: ``holds``, ``holds (errata in the printed
proof)``, ``fails as stated``, ``reproduced``, ``partly reproduced`` or ``definition`` (nothing to prove; its
consequences are checked).  ``lfverify verify`` re-runs the evidence and reports a regression when any piece
of evidence no longer gives its own recorded result.  ``tests/test_registry.py`` fails when a numbered
claim, table, figure or algorithm of the .tex has no entry here (or in :data:`NOT_CLAIMS`, with the reason).

Every claim that fails as stated has a corrected statement in :data:`CORRECTED_CLAIMS`: a claim of its own
(verdict ``holds``), proved by the derivations of :mod:`lfverify.proofs.corrected_calibration` and
:mod:`lfverify.proofs.corrected_rademacher` (a derivation target may name a proof claim's key instead of a
label) and attacked by property tests; ``corrects`` names the label of the printed claim it replaces.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Evidence", "PaperClaim", "PAPER_CLAIMS", "CORRECTED_CLAIMS", "NOT_CLAIMS", "PACKAGE_CONTRACTS",
           "EVIDENCE_KINDS", "VERDICTS", "claim_by_label", "corrected_claim_of"]

EVIDENCE_KINDS = ("derivation", "self-check", "property-test", "simulation", "benchmark")
VERDICTS = ("holds", "holds (errata in the printed proof)", "fails as stated", "reproduced", "partly reproduced",
            "definition")


@dataclass(frozen=True)
class Evidence:
    kind: str  #: one of EVIDENCE_KINDS
    target: str  #: LaTeX label, check name, test node id, study name or benchmark experiment
    note: str = ""  #: what this piece of evidence shows

    def __post_init__(self):
        if self.kind not in EVIDENCE_KINDS:
            raise ValueError(f"kind must be one of {EVIDENCE_KINDS}; got {self.kind!r}")


@dataclass(frozen=True)
class PaperClaim:
    label: str  #: LaTeX label (e.g. "lem:utility-lower-bound")
    number: str  #: e.g. "Lemma 1"
    statement: str  #: one line
    expected: str  #: one of VERDICTS
    evidence: tuple[Evidence, ...]
    summary: str = ""  #: the finding in one sentence, for the report
    corrects: str = ""  #: for a corrected statement: the label of the printed claim it replaces
    #: for a corrected statement: the key of its structured statement in lfverify.proofs, from which its statement
    #: line and summary are rendered (the registry holds no hand-typed summary of a corrected result)
    statement_key: str = ""

    def __post_init__(self):
        if self.expected not in VERDICTS:
            raise ValueError(f"expected must be one of {VERDICTS}; got {self.expected!r}")
        if not self.evidence:
            raise ValueError(f"{self.label}: every claim needs at least one piece of evidence")


def _d(label, note=""):
    return Evidence("derivation", label, note)


def _c(name, note=""):
    return Evidence("self-check", name, note)


def _t(node, note=""):
    return Evidence("property-test", node, note)


def _s(study, note=""):
    return Evidence("simulation", study, note)


def _b(experiment, note=""):
    return Evidence("benchmark", experiment, note)


_P = "tests/test_properties.py::"
_K = "tests/test_corrected_calibration.py::"
_R = "tests/test_corrected_rademacher.py::"
_A = "tests/test_adversary.py::"
_N = "tests/test_necessity.py::"
_C = "tests/test_calibration_properties.py::"

PAPER_CLAIMS: tuple[PaperClaim, ...] = (
    PaperClaim(
        "def:metric", "Definition 1", "linear-fractional utility U = (a0 . (TP, FP) + b0) / (a1 . (TP, FP) + b1) "
        "with sign and range constraints", "definition",
        (_d("def:metric"), _c("Table 1 rows F_beta, Jaccard, accuracy, Gower-Legendre(1) satisfy Definition 1"),
         _t(_P + "test_generated_metrics_satisfy_definition_1_and_admissibility_agrees"),
         _t(_N + "test_sign_constraints_are_needed_for_lemma1_pinned", "each sign constraint is needed by Lemma 1")),
        "Each sign constraint is needed in its sign (Lemma 1 can fail where it is reversed; for a_{0,+1}, a_{0,+1} >= 0 "
        "suffices for Lemma 1); Gower-Legendre meets them only at alpha = 1."),
    PaperClaim(
        "tab:generalized-performance-metrics", "Table 1", "coefficients of accuracy, F_beta, Jaccard, "
        "Gower-Legendre as linear-fractional utilities", "holds (errata in the printed proof)",
        (_d("tab:generalized-performance-metrics"), _c("Table 1 coefficients reproduce the metric definitions"),
         _c("Gower-Legendre(alpha != 1) satisfies Definition 1's sign constraints")),
        "Every row reproduces its metric; Gower-Legendre violates Definition 1 for alpha != 1 (ERRATA E1, E35)."),
    PaperClaim(
        "lem:utility-lower-bound", "Lemma 1", "U_phi(f) <= U(f) for a loss phi >= the 0/1 loss",
        "holds (errata in the printed proof)",
        (_d("lem:utility-lower-bound"), _c("Lemma 1: U_phi <= U"),
         _t(_P + "test_lemma1_exact_on_finite_support_populations"),
         _t(_P + "test_lemma1_empirical_split_statement_exact"),
         _t(_N + "test_lemma1_needs_domination_pinned", "domination of the 0/1 loss is necessary")),
        "Holds exactly for admissible metrics and dominating losses; the proof's algebra has a misprint (E2), and "
        "the printed Definition 1 admits a negative denominator (e.g. b_1 < 0), where the lemma can fail (E3)."),
    PaperClaim(
        "def:discrepant-loss", "Definition 2", "tau-discrepant loss: phi(m) / phi(-m) behaviour with parameter tau",
        "definition",
        (_c("Definition 2: the tau-logistic loss is tau-discrepant, the logistic loss is not"),
         _t(_P + "test_tau_logistic_discrepancy_for_generated_tau"),
         _t(_N + "test_tau_discrepancy_is_needed_pinned", "calibration fails without tau-discrepancy")),
        "For 0 < tau <= 1 (where the loss is convex; Fig. 2's caption allows more), the paper's tau-logistic loss is "
        "tau'-discrepant exactly for tau' >= tau; the plain logistic loss only for tau' >= 1."),
    PaperClaim(
        "fig:fisher-consistent-surrogate-loss", "Fig. 2", "the tau-discrepant logistic loss (caption and curve)",
        "holds (errata in the printed proof)", (_d("fig:fisher-consistent-surrogate-loss"),),
        "The caption's range tau > 0 is too wide: the loss is convex (and tau-discrepant) only for 0 < tau <= 1 "
        "(ERRATA E4)."),
    PaperClaim(
        "lem:quasi-concavity", "Lemma 2", "N_hat concave; U_hat quasi-concave on {N_hat >= 0} for convex phi",
        "holds (errata in the printed proof)",
        (_d("lem:quasi-concavity"), _d("sec:supp:quasi-concavity"),
         _t(_P + "test_lemma2_exact_concavity_superlevel_set_and_quasi_concavity"),
         _t(_N + "test_lemma2_needs_convexity_pinned", "convexity of phi is necessary"),
         _t(_N + "test_gower_legendre_alpha_below_one_needs_a1n_for_lemma2_pinned")),
        "Holds for Definition-1 metrics; fails for Gower-Legendre with 0 < alpha < 1 (ERRATA E35)."),
    PaperClaim(
        "alg:hybrid", "Algorithm 1", "hybrid optimisation: ascend N_hat until positive, then maximise U_hat",
        "reproduced",
        (_c("Alg. 1: phase 1 makes N_hat positive; U-BFGS reaches the Nelder-Mead maximum"),
         _t("tests/test_optimize.py::test_phase1_reaches_positive_numerator"),
         _t("tests/test_optimize.py::test_bfgs_reaches_scipy_bfgs_maximum"),
         _b("convergence", "U-BFGS reaches its final utility within 30 iterations")),
        "Implemented in lfverify.learn.maximize_surrogate_utility; phase 1 ends with N_hat > 0 (its sup positive) "
        "or says why not (its iteration limit, the step's resolution)."),
    PaperClaim(
        "lem:unbiased-gradient", "Lemma 3", "E_S[V_hat] = V for independent halves S_0, S_1 (Eq. (7))", "holds",
        (_d("lem:unbiased-gradient"), _d("eq:gradient-estimator"), _d("sec:gradient-direction"),
         _c("Eq. (7) factorises to D grad N - N grad D"), _c("Lemma 3: V_hat is unbiased"),
         _t(_P + "test_lemma3_unbiased_direction_by_exact_enumeration"),
         _t(_N + "test_lemma3_needs_independent_halves_pinned", "the same-sample estimator is biased"),
         _s("unbiasedness", "mean of V_hat - V over 10^4 replications; same-sample bias ~ 1/n")),
        "Exact by enumeration; the same-sample version is biased, with bias shrinking like 1/n."),
    PaperClaim(
        "alg:u-ga", "Algorithm 2", "normalized gradient ascent with V_hat / ||V_hat||", "reproduced",
        (_c("Alg. 2: U-GD iterates equal Alg. 2 driven by the double sum of Eq. (7)"),
         _t("tests/test_optimize.py::test_gd_follows_algorithm_2_literally"),
         _b("convergence", "U-GD against U-BFGS by iteration")),
        "Implemented as method='gd'; iterates equal a literal transcription driven by the double sum of Eq. (7)."),
    PaperClaim(
        "thm:f-measure-calibration", "Theorem 1", "F_beta-calibration of the surrogate utility for "
        "tau-discrepant phi with tau <= beta^2 U_phi* / (1 + beta^2 + U_phi*)", "fails as stated",
        (_d("thm:f-measure-calibration"), _d("eq:supp:f-case1-contradiction"), _d("eq:supp:fbeta-stationary-eta"),
         _d("eq:supp:fbeta-stationary-condition"),
         _t(_C + "test_theorem_1_kink_counterexample_of_errata_pinned"),
         _s("calibration", "Gaussian population: U-dagger - U(theta*) for F1, tau = 0.33")),
        "False as stated: the maximiser can sit at the loss's kink f = 0, predicted negative (ERRATA E12); without "
        "phi >= 1{t <= 0} it can be strictly negative where the Bayes rule predicts +1 (ERRATA E13)."),
    PaperClaim(
        "thm:jaccard-calibration", "Theorem 2", "Jaccard-calibration for tau-discrepant phi with "
        "tau <= U_phi*", "fails as stated",
        (_d("thm:jaccard-calibration"), _d("eq:supp:jaccard-stationary-eta"),
         _t(_C + "test_theorem_2_kink_counterexample_of_errata_pinned"),
         _s("calibration", "Gaussian population: U-dagger - U(theta*) for Jaccard, tau = 0.75")),
        "False as stated, for the same kink at 0 (ERRATA E16); without phi >= 1{t <= 0} the maximiser can be "
        "strictly negative where the Bayes rule predicts +1 (ERRATA E17)."),
    PaperClaim(
        "lem:uniform-convergence", "Lemma 4", "sup_theta ||V_hat - V|| = O_p(n^-1/2) with an explicit bound",
        "holds (errata in the printed proof)",
        (_d("lem:uniform-convergence"), _d("eq:supp:expectation-difference"),
         _s("uniform-convergence", "fitted slope of E sup ||V_hat - V|| against n")),
        "The n^-1/2 rate is measured; the printed final bound drops a factor sqrt(2) c_X c_Theta (ERRATA E34), and "
        "the E_S[E(S)] display, which has the factor, is exceeded on ERRATA E33's witness."),
    PaperClaim(
        "lem:non-smooth-rademacher", "Lemma (App. C)", "Rademacher complexity of phi composed with F for "
        "non-smooth phi", "fails as stated", (_d("lem:non-smooth-rademacher"),),
        "The statement is false (ERRATA E31); the uniform-convergence rate still holds by other means."),
    PaperClaim(
        "thm:consistency", "Theorem 5", "consistency of the empirical maximiser theta_hat_n", "reproduced",
        (_s("consistency", "||theta_hat_n - theta*|| and utility gaps against n"),),
        "theta_hat_n approaches theta* (the population maximiser) at the fitted rate reported."),
    PaperClaim(
        "prop:bayes-optimal-set", "Proposition 5", "Bayes-optimal classifiers threshold eta at delta(U-dagger)",
        "holds (errata in the printed proof)",
        (_d("prop:bayes-optimal-set"), _c("Prop. 5: Bayes-optimal classifiers threshold eta at delta(U-dagger)"),
         _c("Prop. 5 on a Gaussian population: the Bayes boundary sits at eta = delta(U-dagger)"),
         _t(_P + "test_prop5_threshold_characterisation_by_brute_force")),
        "The threshold characterisation holds; a remark after its proof has a misprint (ERRATA E5)."),
    PaperClaim(
        "prop:calibration", "Proposition 6", "sup over non-Bayes f of U_phi < sup U_phi implies calibration",
        "holds",
        (_t(_C + "test_weak_form_holds_under_the_sharper_condition",
            "where the gap condition holds, every maximiser's non-kink sign pattern is Bayes optimal"),
         _t(_C + "test_theorem_hypotheses_imply_the_weak_form")),
        "A correct logical reduction; Theorems 1, 2, 7 fail because their proofs do not establish its "
        "hypothesis at the kink f = 0 (and, for Thms. 1-2, where phi >= 1{t <= 0} is not assumed), not because of "
        "Proposition 6."),
    PaperClaim(
        "prop:accuracy-calibration", "Proposition 8", "accuracy-calibration of the surrogate utility",
        "holds (errata in the printed proof)",
        (_d("prop:accuracy-calibration"), _d("sec:supp:accuracy-calibration"),
         _d("eq:supp:accuracy-stationary-condition")),
        "The conclusion holds; cases 1 and 2 of the proof have misprints (ERRATA E18, E19), and case 3 closes only "
        "through the standing assumption P(C-dagger) = 0 (ERRATA E20)."),
    PaperClaim(
        "thm:general-calibration", "Theorem 7", "U-calibration for general linear-fractional metrics under "
        "conditions (a), (b)", "fails as stated",
        (_d("thm:general-calibration"), _d("enum:supp:tau:surrogate"), _d("enum:supp:tau:true"),
         _d("eq:supp:stationary-condition"), _d("eq:supp:calibration:contradiction:1"),
         _d("eq:supp:calibration:contradiction:2"),
         _t(_P + "test_remark_after_thm7_pathologies_are_swapped")),
        "False as stated: the maximiser can sit at the kink f = 0 (ERRATA E26); misprints in the proof's scores, "
        "G'(0) and stationary condition (ERRATA E6-E9), H's partial fraction (E21), conditions (5), (6) and (b) "
        "(E22-E24) and the case analysis (E25); the remark after the statement swaps its pathologies (E38)."),
    PaperClaim(
        "sec:supp:non-negativity-of-surrogate-utilities", "App. A.5", "the optimal surrogate utilities are "
        "non-negative", "holds (errata in the printed proof)",
        (_d("sec:supp:non-negativity-of-surrogate-utilities"),),
        "Holds for the paper's tau-logistic loss, where the derivations check it, and by E28's sequence wherever "
        "phi is non-increasing with phi(t) -> oo as t -> -oo and P(eta < 1) > 0; a constant phi = 2, or 8 + hinge where eta = 1 a.s., gives "
        "U_phi* < 0, so Thm. 1's footnote cannot use it for its whole loss class (ERRATA E29); the construction "
        "f_check in the proof is misprinted (ERRATA E27, E28)."),
    PaperClaim(
        "fig:supp:jaccard-calibration", "Fig. 8", "the Jaccard calibration construction of App. A.2", "holds",
        (_d("fig:supp:jaccard-calibration"),), "The plotted construction matches the derivation."),
    PaperClaim(
        "tab:supp:datasets", "Table 3", "the 18 benchmark data sets: dimension, size, prior", "partly reproduced",
        (_b("datasets", "every staged data set loaded and checked against MANIFEST.md"),),
        "16 of 18 data sets staged; cod-rna missing, w8a partial, sonar's prior differs from the paper."),
    PaperClaim(
        "tab:benchmark-result", "Table 2", "U-GD / U-BFGS match or beat ERM, W-ERM, Plug-in on four data sets",
        "partly reproduced", (_b("table", "means and standard errors against the printed values"),),
        "Our means against the printed values, within 3 combined standard errors or explained."),
    PaperClaim(
        "tab:supp:result-f1", "Table 4", "F1 on all data sets", "partly reproduced", (_b("table"),),
        "With Table 5 (F_1 and Jaccard together, REPRODUCTION.md): U-GD agrees with 18 of the 18 printed cells of the "
        "nine small data sets, U-BFGS with 9 (most misses: it maximises U_hat harder; 2 unexplained)."),
    PaperClaim(
        "tab:supp:result-jac", "Table 5", "Jaccard on all data sets", "partly reproduced", (_b("table"),),
        "Counted with Table 4."),
    PaperClaim(
        "fig:itertest", "Fig. 3 (and Figs. 9-10)", "U-BFGS converges within ~30 iterations, faster than U-GD",
        "partly reproduced", (_b("convergence"),)),
    PaperClaim(
        "fig:sample-complexity", "Fig. 4 (and Figs. 11-12)", "the proposed methods win at small sample sizes",
        "partly reproduced", (_b("sample-complexity"),),
        "The small-sample advantage of App. C.5 is not reproduced on the staged data sets (FINDINGS.md)."),
    PaperClaim(
        "fig:supp:f1-sensitivity", "Figs. 13-14", "performance sensitivity on tau", "partly reproduced",
        (_b("tau"),)),
)

#: The corrected statements of the claims that fail as stated (one each), proved in lfverify/proofs/corrected_*.py.
CORRECTED_CLAIMS: tuple[PaperClaim, ...] = (
    PaperClaim(
        "corrected:thm:f-measure-calibration", "Theorem 1 (corrected)", "", "holds",
        (_d("corrected_calibration.fbeta"), _d("corrected_calibration.sign_pattern"),
         _d("corrected_calibration.criterion"),
         _t(_K + "test_sign_pattern_is_the_certified_maximisers", "the band's closed form against Dinkelbach"),
         _t(_K + "test_criterion_agrees_with_brute_force", "calibration, sign rule, weak form against brute force"),
         _t(_K + "test_tau_bound_implies_the_weak_form"),
         _t(_K + "test_each_condition_is_needed_search", "populations on both sides of every condition"),
         _t(_K + "test_no_calibration_on_a_continuous_population"),
         _t(_A + "test_every_corrected_statement_holds_on_the_boundary_populations",
            "the independent adversary: own maximiser, exact enumeration, populations on every boundary")),
        corrects="thm:f-measure-calibration", statement_key="corrected_calibration.fbeta"),
    PaperClaim(
        "corrected:thm:jaccard-calibration", "Theorem 2 (corrected)", "", "holds",
        (_d("corrected_calibration.jaccard"), _d("corrected_calibration.sign_pattern"),
         _d("corrected_calibration.criterion"),
         _t(_K + "test_sign_pattern_is_the_certified_maximisers"), _t(_K + "test_criterion_agrees_with_brute_force"),
         _t(_K + "test_tau_bound_implies_the_weak_form"), _t(_K + "test_each_condition_is_needed_search"),
         _t(_K + "test_no_calibration_on_a_continuous_population"),
         _t(_A + "test_every_corrected_statement_holds_on_the_boundary_populations")),
        corrects="thm:jaccard-calibration", statement_key="corrected_calibration.jaccard"),
    PaperClaim(
        "corrected:thm:general-calibration", "Theorem 7 (corrected)", "", "holds",
        (_d("corrected_calibration.general"), _d("corrected_calibration.sign_pattern"),
         _d("corrected_calibration.criterion"),
         _t(_K + "test_general_metrics_agree_with_brute_force"), _t(_K + "test_tau_bound_implies_the_weak_form"),
         _t(_A + "test_every_corrected_statement_holds_on_random_populations")),
        corrects="thm:general-calibration", statement_key="corrected_calibration.general"),
    PaperClaim(
        "corrected:lem:non-smooth-rademacher", "Lemma (App. C) (corrected)", "", "holds",
        (_d("corrected_rademacher.lemma"), _d("corrected_rademacher.rate"),
         _t(_R + "test_corrected_lemma_holds_on_generated_samples", "exact right side, grid lower bound of the left"),
         _t(_R + "test_printed_lemma_and_the_jump_term_are_needed_search"),
         _t(_A + "test_the_rate_states_the_assembled_bounds_dependence_on_d"),
         _t("tests/test_dimension_sweep.py::test_the_committed_run_holds_its_verdicts",
            "sup ||V_hat - V|| measured on a grid of d: exponent <= 3/2, B_E(n, d) never exceeded")),
        corrects="lem:non-smooth-rademacher", statement_key="corrected_rademacher.lemma+corrected_rademacher.rate"),
)

#: Labels of the .tex that are not claims, with the reason (tests/test_registry.py requires one or the other).
NOT_CLAIMS = {
    "fig:overview": "an overview diagram of the paper's contributions",
    "fig:hybrid": "an illustration of Algorithm 1 (its behaviour is Algorithm 1's entry)",
    "def:consistency": "the definition of U-calibration; used by Theorems 1, 2, 7 and Proposition 6",
    "def:rademacher-complexity": "the standard definition of Rademacher complexity",
    "tab:comparison": "a related-work comparison table, no claim about the data",
    "fig:supp:f1-calibration-1": "an illustration of the proof of Theorem 1 (case analysis)",
    "fig:supp:f1-calibration-2": "an illustration of the proof of Theorem 1 (case analysis)",
    "fig:supp:f1-calibration-3": "an illustration of the proof of Theorem 1; its caption's misprint is ERRATA E11",
    "fig:supp:f1-itertest": "the per-data-set panels of Fig. 3, covered by fig:itertest",
    "fig:supp:jac-itertest": "the per-data-set panels of Fig. 3, covered by fig:itertest",
    "fig:supp:f1-sample-complexity": "the per-data-set panels of Fig. 4, covered by fig:sample-complexity",
    "fig:supp:jac-sample-complexity": "the per-data-set panels of Fig. 4, covered by fig:sample-complexity",
    "fig:supp:jac-sensitivity": "the Jaccard panels of the tau sensitivity, covered by fig:supp:f1-sensitivity",
}


#: The package's own contracts, which no claim of the paper covers, by label (a name for the test suite's markers and
#: ``pytest --claim``) with what they promise.  Every test names at least one registry claim or contract
#: (docs/testing.md); a test of the machinery around the paper names the contract it keeps.
PACKAGE_CONTRACTS = {
    "package:command-line": "the `lfverify` command line: its options and help texts, exit statuses, one-line "
                            "errors, progress output and what each command hands to the next step",
    "package:files": "files: atomic writes, sealed records, output folders owned by one command, the figures' "
                     "backend (lfverify.io)",
    "package:data-sets": "the paper's data sets: the pinned sources, fetching and checking by sha256, the offline "
                         "copy, the merge and scaling, user files",
    "package:parallel": "where tasks run: serial, local processes and Dask give the same results, and stop their "
                        "workers on interrupts and failures",
    "package:simulation-engine": "the Monte-Carlo engine: task grid, one seeded stream per task key, resumable "
                                 "records, the fitted rates and intervals the studies use",
    "package:testing-kit": "lfverify.testing: the theory checks for other implementations, their oracles, "
                           "strategies, named wrong implementations and the pytest plugin",
    "package:benchmark-machinery": "the benchmark's machinery: trial records, resume, reports, figures and the "
                                   "benchmark scripts, apart from the numbers they reproduce",
    "package:estimator": "the scikit-learn estimator and the extensions beyond the paper (the cost-sensitive "
                         "objective, exact thresholds, baselines, the estimator comparison)",
    "package:numerics": "the numerical building blocks: input validation, quadrature, scores, exact arithmetic "
                        "and the seeding rule",
    "package:registry": "the claims registry and REPORT.md: every claim of the .tex has an entry and every piece of "
                        "evidence exists and gives its recorded verdict",
    "package:documentation": "README and docs/ stay true: their code runs, their commands parse, their paths and "
                             "links resolve, and the floor plan of the module map holds",
    "package:mutation-testing": "the mutation-testing tool of tools/mutation/ and its recorded results",
}


def corrected_claim_of(label: str) -> PaperClaim | None:
    """The corrected statement of the printed claim ``label`` (None when it has none)."""
    return next((c for c in CORRECTED_CLAIMS if c.corrects == label), None)


def claim_by_label(label: str) -> PaperClaim:
    """The registry entry of a LaTeX label (or of a corrected statement's label)."""
    for claim in PAPER_CLAIMS + CORRECTED_CLAIMS:
        if claim.label == label:
            return claim
    raise ValueError(f"label must be one of the registry's labels; got {label!r}")


#: Prefixes of the LaTeX labels that name a claim, table, figure, algorithm or definition.
CLAIM_LABEL_PREFIXES = ("def:", "lem:", "thm:", "prop:", "tab:", "fig:", "alg:")


def claim_labels_in_tex(tex: str) -> list[str]:
    r"""Every \label{...} of ``tex`` with a prefix of :data:`CLAIM_LABEL_PREFIXES`, in order of appearance."""
    import re

    labels = re.findall(r"\\label\{([^}]*)\}", tex)
    return [label for label in dict.fromkeys(labels) if label.startswith(CLAIM_LABEL_PREFIXES)]


def unregistered_labels(labels, claims=PAPER_CLAIMS, not_claims=NOT_CLAIMS) -> list[str]:
    """The labels that have neither a registry entry nor a reason in ``not_claims``."""
    known = {c.label for c in claims} | set(not_claims)
    return [label for label in labels if label not in known]
