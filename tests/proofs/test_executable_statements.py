"""Every conclusion of every corrected statement, evaluated on every instance the project owns (issue 40).

Oracle: the facts of each instance come from tests/proofs/adversary.py (a direct search on U_phi and exact enumeration
of labellings, no lfverify code) and tests/proofs/continuous_oracle.py (quadrature with a pointwise minimisation that
never uses the band's formula); the predicates of lfverify/proofs/_executable.py say what each conclusion predicts
there.
Where every hypothesis of a statement holds on an instance, a conclusion that "fails" is a contradiction between a
corrected statement and the project's own evidence, and fails this test; a conclusion that no instance exercises
("holds" on none) fails it too.  "undecidable" evaluations (a tie the search's precision cannot order) are listed,
never counted as agreement.

Private: lfverify.proofs._executable, the statements as code (predicates, evaluators, scope, _canonical_utility and
_band, the closed forms and the undefined value they may meet, PrintedStatement for planted printed claims), and
lfverify.proofs._executable_printed's _thm7_printed_conditions (Thm. 7's printed conditions) and
_executable_rademacher's rate display check (_rate_expectation, with _rate_function planted off), tested against the
oracles here; _executable's compare (the tie rule every predicate orders mpmath values with), at its documented width.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter, defaultdict
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
import statement_instances as instances

from lfverify.proofs import STATEMENTS
from lfverify.proofs._executable import (
    CONCLUSION_PREDICATES,
    HYPOTHESIS_PREDICATES,
    evaluate_hypotheses,
    evaluate_statement,
    in_scope,
)

#: The default: the tests over every statement and every instance check every corrected statement.  Tests of the
#: machinery's completeness (a predicate per conclusion, an executable form per checkable claim, the counting of
#: undecidable evaluations) keep the registry; a printed claim's verdict names that claim; a review's pinned instance
#: names the statement it is a witness for.
pytestmark = pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)",
                                 "Lemma (App. C) (corrected)", "Lemma 4 (corrected)")


@functools.lru_cache(maxsize=None)
def _cases() -> tuple:
    return instances.all_cases()


@functools.lru_cache(maxsize=None)
def _report():
    """(contradictions, counts[(statement, conclusion)][status], undecidable evaluations, hypothesis failures)."""
    contradictions, undecidable = [], []
    counts: dict = defaultdict(Counter)
    off_hypotheses: dict = defaultdict(list)  # (statement, hypothesis) -> cases where only it fails
    for statement in STATEMENTS.values():
        for case in _cases():
            if not in_scope(statement, case):
                continue
            hypotheses = evaluate_hypotheses(statement, case)
            failing = [k for k, v in hypotheses.items() if v is not True]
            if failing:
                if len(failing) == 1:
                    off_hypotheses[(statement.key, failing[0])].append(case)
                continue
            for key, result in evaluate_statement(statement, case).items():
                counts[(statement.key, key)][result.status] += 1
                if result.status == "fails":
                    contradictions.append(f"{statement.title}, {key}, on {case.name} ({case.source}): {result.detail}")
                elif result.status == "undecidable":
                    undecidable.append(f"{statement.title}, {key}, on {case.name}: {result.detail}")
    return contradictions, counts, undecidable, off_hypotheses


@pytest.mark.claims("package:registry")
def test_every_conclusion_and_hypothesis_has_a_predicate():
    for statement in STATEMENTS.values():
        for c in statement.conclusions:
            assert (statement.key, c.key) in CONCLUSION_PREDICATES, (statement.key, c.key)
        for h in statement.hypotheses:
            assert h.key in HYPOTHESIS_PREDICATES, (statement.key, h.key)


@pytest.mark.parametrize("kind, prior, c1, d1, expected", [
    ("finite", F(1, 4), F(-1), F(2), False),  # b1(1/4) = -1 + 2/4 = -1/2: the finite case's own prior decides
    ("finite", F(3, 4), F(-1), F(2), True),  # b1(3/4) = 1/2
    ("continuous", None, F(1, 2), F(0), True),  # no prior of its own: b1 = 1/2 + 0 pi > 0 at every pi in (0, 1)
    ("continuous", None, F(0), F(1, 3), True),  # b1 = pi / 3 > 0 on (0, 1)
    ("rate", None, F(0), F(0), False),  # b1 = 0
])
def test_b1_positive_reads_the_finite_cases_prior_and_else_every_prior(kind, prior, c1, d1, expected):
    """Oracle: Definition 1's b_1 = c_1 + d_1 pi, evaluated by hand at the case's prior; a case without one (its
    coefficients non-negative, as Definition 1 has them) needs b_1 > 0 at every pi in (0, 1), i.e. c_1 > 0 or
    d_1 > 0."""
    metric = SimpleNamespace(c1=c1, d1=d1, b1=lambda pi: c1 + d1 * pi)
    case = SimpleNamespace(kind=kind, prior=prior, metric=metric)
    assert HYPOTHESIS_PREDICATES["b1_positive"](case) is expected


def test_no_corrected_conclusion_contradicts_an_owned_instance():
    contradictions, counts, undecidable, _ = _report()
    assert contradictions == []
    names = Counter(case.name for case in _cases())
    assert [name for name, count in names.items() if count > 1] == []  # an instance is named once: witnesses by name


def test_every_conclusion_is_exercised_by_some_instance():
    """Per conclusion, how many instances exercised it (its condition met, its predicate decided and true)."""
    _, counts, undecidable, _ = _report()
    unexercised = [f"{s}: {c} ({dict(counts[(s, c)])})" for s in STATEMENTS for c in
                   (x.key for x in STATEMENTS[s].conclusions) if counts[(s, c)]["holds"] == 0]
    assert unexercised == []


@functools.lru_cache(maxsize=None)
def _necessity_by_name() -> dict:
    """The necessity witnesses by name (tests/proofs/statement_instances.py necessity_cases: the owned instances built
    to violate one hypothesis each; test_no_corrected_conclusion_contradicts_an_owned_instance checks that names are
    unique in the whole corpus)."""
    return {case.name: case for case in instances.necessity_cases()}



def _necessity_problems(statement) -> list:
    """What is wrong with the statement's necessity records: a hypothesis without one, a witness that is not an owned
    instance, that violates another hypothesis too, satisfies this one, or does not break the named conclusion."""
    problems = []
    for h in statement.hypotheses:
        record = statement.necessity_of(h.key)
        if record is None:
            problems.append(f"{statement.key}: {h.key} has no necessity record")
            continue
        if not record.needed:
            continue
        case = _necessity_by_name().get(record.witness)
        if case is None:
            problems.append(f"{statement.key}: {h.key}'s witness {record.witness!r} is not an owned instance")
            continue
        hypotheses = evaluate_hypotheses(statement, case)
        others = [k for k, v in hypotheses.items() if k != h.key and v is not True]
        if not in_scope(statement, case) or others or hypotheses[h.key] is not False:
            problems.append(f"{statement.key}: {h.key}'s witness {record.witness!r} must violate exactly it "
                            f"(in scope {in_scope(statement, case)}, {h.key} {hypotheses[h.key]}, others {others})")
            continue
        result = evaluate_statement(statement, case)[record.breaks]
        if result.status != "fails":
            problems.append(f"{statement.key}: {h.key}'s witness {record.witness!r} does not break {record.breaks} "
                            f"({result.status}: {result.detail})")
    return problems


def test_every_hypothesis_earns_its_place():
    """Each hypothesis of each statement has a witness (an owned instance that violates only it and breaks the named
    conclusion) or the statement says it is sufficient, not known to be necessary, and why."""
    problems = [p for statement in STATEMENTS.values() for p in _necessity_problems(statement)]
    assert problems == []


# ---------------------------------------------------------------------------------------------- companions
def _contradictions_with(monkeypatch, module, name, replacement, cases) -> list:
    """The contradictions the statements show on ``cases`` with ``module.name`` planted as ``replacement``."""
    monkeypatch.setattr(module, name, replacement)
    found = []
    for statement in STATEMENTS.values():
        for case in cases:
            if not in_scope(statement, case):
                continue
            if any(v is not True for v in evaluate_hypotheses(statement, case).values()):
                continue
            found += [(statement.key, key, case.name) for key, r in evaluate_statement(statement, case).items()
                      if r.status == "fails"]
    return found


@pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)")
def test_a_planted_wrong_band_contradicts_the_owned_instances(monkeypatch):
    """Companion: the band read with rho inverted (c/(c + a/rho): the planted error of tests/proofs/test_adversary.py)
    is contradicted by the pinned witnesses - the test above can fail."""
    import lfverify.proofs._executable as X

    original = X._band
    planted = _contradictions_with(monkeypatch, X, "_band",
                                   lambda m, rho, u: original(m, 1 / rho if rho else rho, u),
                                   [c for c in instances.witness_cases() if c.name.startswith("witness:")])
    assert {("corrected_calibration.sign_pattern", "signs")} <= {(s, k) for s, k, _ in planted}


@pytest.mark.claims("Lemma (App. C) (corrected)", "Lemma 4 (corrected)")
def test_the_displays_of_review_1_are_contradicted_where_the_referee_found_them(monkeypatch):
    """Companions of review 1 of issue 40: App. C's bound with -phi'(0+) for |phi'(0+)| fails on the one-point
    instance of a convex increasing loss; the indicator bound and Lemma 4's order form with log 2 for log 4 fail at
    the smallest sizes (n = 1 resp. n = 2, d = 1)."""
    import sympy as sp

    import lfverify.proofs.corrected_rademacher as R

    rademacher = [c for c in instances.rademacher_cases() if c.kind == "rademacher"]
    signed = R.kappa * (2 * (R.gp + R.gm) * R.R_F - R.dplus * R.S_n + R.jump_s * R.R_I)
    found = _contradictions_with(monkeypatch, R, "lemma_bound_expression", lambda: signed, rademacher)
    assert ("corrected_rademacher.lemma", "bound", "log2(1 + e^t) (convex, increasing), n = 1, F = {0}") in found
    monkeypatch.undo()
    found = _contradictions_with(monkeypatch, R, "indicator_bound_expression",
                                 lambda n, d: sp.sqrt(2 * (sp.log(2) + d * sp.log(n + 1)) / n), rademacher)
    assert any(k == "rates" for _, k, _ in found)
    monkeypatch.undo()
    total, order = R.rate_expressions()
    log2 = order.subs(sp.log(4), sp.log(2))
    found = _contradictions_with(monkeypatch, R, "rate_expressions", lambda: (total, log2),
                                 [c for c in instances.rate_cases() if c.kind == "rate"])
    assert ("corrected_rademacher.rate", "order", "c_Theta = 1, n = 2, d = 1") in found


@pytest.mark.claims("Lemma (App. C) (corrected)", "Lemma 4 (corrected)")
@pytest.mark.parametrize("n, d", [(1, 1), (1, 2), (2, 1), (2, 2)])
def test_the_displayed_indicator_bound_holds_exactly_at_the_smallest_sizes(n, d):
    """Oracle: Sauer's count N = sum_{k <= d} C(n, k) + 1, exactly; the displayed bound sqrt(2 (log 4 + d log(n + 1))
    / n) must dominate Massart's sqrt(2 log(2 N) / n), i.e. 2 N <= 4 (n + 1)^d (log 2 in its place fails at n = d = 1:
    2 N = 6 > 2 (n + 1)^d = 4)."""
    import math

    import lfverify.proofs.corrected_rademacher as R

    patterns = sum(math.comb(n, k) for k in range(min(d, n) + 1)) + 1
    assert R.sauer_bound(n, d) == patterns
    shown = float(R.indicator_bound_expression(n, d))
    assert math.sqrt(2 * math.log(2 * patterns) / n) <= shown * (1 + 1e-15)
    assert 2 * patterns <= 4 * (n + 1) ** d
    if (n, d) == (1, 1):
        assert 2 * patterns > 2 * (n + 1) ** d  # the companion: log 2 + d log(n + 1) is too small here


@pytest.mark.claims("package:registry")
def test_undecidable_evaluations_are_never_counted_as_agreement():
    """A conclusion exercised only by 'undecidable' evaluations is reported unexercised (the coverage counts
    'holds' only), and each undecidable evaluation names its instance."""
    _, counts, undecidable, _ = _report()
    assert all(" on " in line for line in undecidable)
    fake = Counter({"undecidable": 3, "vacuous": 2})
    # such a conclusion would be listed by test_every_conclusion_is_exercised_by_some_instance
    assert fake["holds"] == 0


# ---------------------------------------------------------------------------------------------- printed claims
from lfverify.paper import PAPER_CLAIMS  # noqa: E402
from lfverify.proofs._executable import PRINTED_STATEMENTS_AS_CODE, evaluate_printed  # noqa: E402

#: the registry's claims with no executable form on the instance kinds, and why (checked by derivations, studies or
#: the benchmark instead)
NOT_EXECUTABLE = {
    "def:metric": "a definition", "def:discrepant-loss": "a definition",
    "tab:generalized-performance-metrics": "coefficients, derived symbolically",
    "fig:fisher-consistent-surrogate-loss": "a figure's caption, derived symbolically",
    "lem:quasi-concavity": "concavity of N_hat in theta: checked by Hessians (property tests), not on these instances",
    "lem:unbiased-gradient": "an estimator's expectation: exact enumeration in the property tests and the testing kit",
    "lem:uniform-convergence": "a rate in n: the uniform-convergence study; its corrected bound is executable (Lemma 4 "
                               "(its rate))",
    "thm:consistency": "a rate in n: the consistency study",
    "prop:calibration": "a logical reduction (Prop. 6), checked by its property test",
    "sec:supp:non-negativity-of-surrogate-utilities": "U_phi* >= 0: derived symbolically",
    "fig:supp:jaccard-calibration": "a figure, derived symbolically",
    "alg:hybrid": "an algorithm: the benchmark and the optimiser's tests", "alg:u-ga": "an algorithm",
}


@functools.lru_cache(maxsize=None)
def _printed_report() -> dict:
    """label -> Counter of statuses and the list of contradictions, over every owned instance."""
    out = {}
    for label, printed in PRINTED_STATEMENTS_AS_CODE.items():
        counts, fails = Counter(), []
        for case in _cases():
            holds, result = evaluate_printed(printed, case)
            if holds and result is not None:
                counts[result.status] += 1
                if result.status == "fails":
                    fails.append(case.name)
        out[label] = (counts, fails)
    return out


@pytest.mark.claims("package:registry")
def test_every_checkable_printed_claim_is_executable():
    """Each registry claim the instances can speak of has an executable printed form; the rest say why not."""
    labels = {c.label for c in PAPER_CLAIMS if c.expected not in ("reproduced", "partly reproduced")}
    assert labels - set(PRINTED_STATEMENTS_AS_CODE) - set(NOT_EXECUTABLE) == set()


@pytest.mark.claims("thm:f-measure-calibration")
@pytest.mark.parametrize("beta2, rho, u_star, holds", [
    # the printed hypothesis at tau = rho: U* >= (1 + beta^2) rho / (beta^2 - rho), by hand
    (F(1), F(1, 10), F(1, 2), True),      # bound 2/9
    (F(1), F(1, 10), F(1, 5), False),     # 1/5 < 2/9
    (F(1, 4), F(1, 10), F(9, 10), True),  # F_0.5: bound 5/6
    (F(1, 4), F(1, 10), F(4, 5), False),  # 4/5 < 5/6
    (F(1, 4), F(1, 2), F(1), False),      # tau = rho >= beta^2: the printed bound is not defined
])
def test_the_printed_tau_hypothesis_of_theorem_1_is_its_bound_at_tau_rho(beta2, rho, u_star, holds):
    (predicate,) = [p for name, p in PRINTED_STATEMENTS_AS_CODE["thm:f-measure-calibration"].hypotheses
                    if name.startswith("tau-discrepant")]
    case = SimpleNamespace(metric=SimpleNamespace(beta2=beta2), loss=SimpleNamespace(rho=rho), u_star=u_star)
    assert predicate(case) is holds


@pytest.mark.parametrize("label", [pytest.param(label, id=label, marks=pytest.mark.claims(label))
                                   for label in sorted(PRINTED_STATEMENTS_AS_CODE)])
def test_the_printed_claims_verdict_is_what_the_owned_instances_show(label):
    """"fails as stated" has a witness among the owned instances (printed hypotheses hold, conclusion false); a claim
    recorded as holding has none, and at least one instance exercises it.  A claim recorded as "fails as stated (see
    its errata)" is evaluated with Definition 1 read with its erratum's positive denominator (E3; _definition1), so it
    too must have none: the instances check the errata's reading, and ERRATA.md holds the printed form's witness."""
    counts, fails = _printed_report()[label]
    verdict = next(c.expected for c in PAPER_CLAIMS if c.label == label)
    if verdict == "fails as stated":
        assert fails, f"{label}: recorded as failing, but no owned instance shows it"
    else:
        assert fails == [] and counts["holds"] > 0, (label, dict(counts), fails[:3])


@pytest.mark.claims("Theorem 7 (corrected)", "Theorem 7")
def test_review_2s_instance_meets_thm7_corrected_while_the_printed_c_fails():
    """Review 2 of issue 40, finding 1, pinned: on Jaccard with (1/2) kinked-linear(1/4), weights (1/2, 1/2), eta
    (1/5, 1/2), every hypothesis of Thm. 7 (corrected) holds (U* = 7/27 <= U-dagger = 5/12: the loss is below
    1{t <= 0}) and its conclusions hold, but the unique maximiser is f* = 0, U(f*) = 0, and the printed (c) with U(f*)
    reads tau <= 0 - so the summary may not say (c) is implied (it now says so only for (c) read with U-dagger).
    Oracle: the referee's exact computation (U* = 7/27, U-dagger = 5/12), confirmed with FiniteSupportPopulation."""
    from fractions import Fraction

    from lfverify.proofs._executable import _canonical_utility

    case = next(c for c in instances.review_cases() if c.name.startswith("review 2: Jaccard"))
    general = STATEMENTS["corrected_calibration.general"]
    assert all(v is True for v in evaluate_hypotheses(general, case).values())
    assert {k: r.status for k, r in evaluate_statement(general, case).items()} == {
        "condition_b": "holds", "criterion": "holds", "continuous": "vacuous"}  # two atoms: no mass around delta
    assert (case.u_star, case.u_dagger) == (Fraction(7, 27), Fraction(5, 12))
    m, u_f = case.metric, _canonical_utility(case)
    assert u_f == 0
    printed_c = (m.a0n - m.a1n * u_f) / (m.a1p * u_f - m.a0p) * (m.a0p + m.a1p * case.u_star) / (
        -m.a0n + m.a1n * case.u_star)
    assert printed_c == 0 and case.loss.rho == Fraction(1, 4)  # tau <= 0 cannot hold for tau >= rho > 0


@pytest.mark.claims("Theorem 1 (corrected)")
def test_review_4s_unattained_witness_has_the_facts_it_is_written_with():
    """Review 4 of issue 40 (phi >= 0 is needed): the hand-written facts of instances.unattained_case, checked against
    the surrogate utility evaluated exactly from its definition (tests/proofs/adversary.py, Eq. (3)) - U_phi(f) =
    2f/(24 + 11f) for f > 0, increasing to 2/11 and never reaching it, U_phi <= 0 for f <= 0 - and against well_posed,
    which must refuse it (the excess N - U* D never reaches 0); U-dagger = U(+1) = 2/5 > U(-1) = 0.  Companion:
    well_posed accepts the kinked-linear loss, bounded below, on the same population."""
    from fractions import Fraction

    import adversary as A

    case = instances.unattained_case()
    pop = A.Population((Fraction(1),), (Fraction(1, 4),))
    metric, loss = A.f_beta(1), instances.UNBOUNDED_LOSS
    for f in (Fraction(1, 3), Fraction(1), Fraction(10), Fraction(10**6)):
        assert A.surrogate_utility(metric, loss, pop, (f,)) == 2 * f / (24 + 11 * f) < case.u_star == Fraction(2, 11)
    assert all(A.surrogate_utility(metric, loss, pop, (f,)) <= 0 for f in (Fraction(0), Fraction(-1), Fraction(-50)))
    # at u = U_phi* the excess N - u D stays at -3/11 on [0, oo): Dinkelbach's sup = 0 fails, no maximiser
    assert instances.well_posed(metric, loss, pop, case.u_star).startswith("sup_f N - u D = -3/11 != 0 at u = 2/11")
    assert (A.utility(metric, pop, (1,)), A.utility(metric, pop, (-1,))) == (case.u_dagger, 0)
    assert case.optimal == frozenset({(1,)}) and not case.attained and case.calibrated
    assert instances.well_posed(metric, A.kinked_linear(Fraction(1, 4)), pop,
                                A.analyse(metric, A.kinked_linear(Fraction(1, 4)), pop).opt.value) == ""


@pytest.mark.claims("Theorem 2 (corrected)")
def test_review_5s_unattained_jaccard_witness_has_the_facts_it_is_written_with():
    """Review 5 of issue 40 (phi >= 0 is needed in Thm. 2 (corrected)): instances.unattained_jaccard_case's facts
    against the surrogate utility evaluated exactly - U_phi(f) = f/(8 + 4f) on f > 0, rising to 1/4 unattained,
    U_phi <= 0 where f <= 0 and D_phi > 0 - and well_posed refuses it; U-dagger = U(+1) = 1/2 > U(-1) = 0."""
    from fractions import Fraction

    import adversary as A

    case = instances.unattained_jaccard_case()
    pop = A.Population((Fraction(1),), (Fraction(1, 2),))
    metric, loss = A.jaccard(), instances.UNBOUNDED_LOSS
    for f in (Fraction(1, 3), Fraction(1), Fraction(10), Fraction(10**6)):
        assert A.surrogate_utility(metric, loss, pop, (f,)) == f / (8 + 4 * f) < case.u_star == Fraction(1, 4)
    assert all(A.surrogate_utility(metric, loss, pop, (f,)) <= 0 for f in (Fraction(0), Fraction(-1), Fraction(-2)))
    assert instances.well_posed(metric, loss, pop, case.u_star) != ""
    assert (A.utility(metric, pop, (1,)), A.utility(metric, pop, (-1,))) == (case.u_dagger, 0)
    assert not case.attained and case.calibrated


def test_the_statements_closed_forms_by_hand_and_undecidable_where_undefined():
    """Oracle: the closed forms worked by hand for F_1 (a0p, a0n, a1p, a1n) = (2, 0, 1, 1): at U = 1/2 Prop. 5's
    delta = gamma / (alpha + gamma) = (1/2) / (3/2 + 1/2) = 1/4, and the kink band at rho = 1/3 with a = 5/2,
    c = 1/2 is (rho c / (rho c + a), c / (c + rho a)) = (1/16, 3/8); an undefined value makes them undecidable,
    never an arithmetic error.  (lfverify.proofs._executable exports these forms; no other test called them: the
    fresh-seed mutation run's "no tests" mutants.)"""
    from lfverify.proofs._executable import Metric, Undecidable, _Undefined, bayes_threshold, kink_band

    f1 = Metric.from_tuple("F_1", (2, 0, 1, 1, 0, 0, 0, 1))
    assert bayes_threshold(f1, F(1, 2)) == F(1, 4)
    assert tuple(kink_band(f1, F(1, 3), F(1, 2))) == (F(1, 16), F(3, 8))
    undefined = _Undefined("a zero denominator")
    for call in (lambda: bayes_threshold(f1, undefined), lambda: kink_band(f1, undefined, F(1, 2)),
                 lambda: kink_band(f1, F(1, 3), undefined)):
        with pytest.raises(Undecidable, match="a zero denominator"):
            call()
    # an undefined coefficient is undecidable before any guard reads the other arguments (rho = 2 is out of range)
    broken = dataclasses.replace(f1, a1p=_Undefined("a coefficient divided by zero"))
    with pytest.raises(Undecidable, match="a coefficient divided by zero"):
        kink_band(broken, F(2), F(1, 2))


# ---------------------------------------------------------------------------------------------- printed predicates
def _utility_by_definition(case, labels):
    """U of a labelling from Eq. (1) with Table 1's coefficients, in exact arithmetic: TP = sum of w eta and FP = sum
    of w (1 - eta) over the atoms labelled +1, b_k = c_k + d_k pi (None where the denominator is 0)."""
    m = case.metric
    tp = sum((w * e for w, e, s in zip(case.weights, case.eta, labels) if s > 0), F(0))
    fp = sum((w * (1 - e) for w, e, s in zip(case.weights, case.eta, labels) if s > 0), F(0))
    den = m.a1p * tp + m.a1n * fp + m.c1 + m.d1 * case.prior
    return None if den == 0 else (m.a0p * tp + m.a0n * fp + m.c0 + m.d0 * case.prior) / den


def _thm7_printed_by_hand(case, c: bool = True) -> bool:
    """Thm. 7 as printed (the paper's App. D, transcribed here in exact arithmetic): (1)-(6) on the coefficients with
    U(f*) the utility of the labelling sgn f*_0 (0 read as -1), and some tau in (0, 1) with (a) rho <= tau
    (tau-discrepancy), (b) tau <= B and (c) tau <= C, each of B and C defined only where its denominators are not 0.
    Such a tau exists iff max(rho, 0) < 1 and rho <= min(B, C), with min(B, C) > 0 when rho = 0.  ``c=False``
    leaves (c) out (what decides where only it can)."""
    m = case.metric
    a0p, a0n, a1p, a1n = m.a0p, m.a0n, m.a1p, m.a1n
    uf = _utility_by_definition(case, case.canonical_labelling)
    six = (a0p - a0n > 0, a1p - a1n <= 0, a0n != 0 or a1n != 0, a1n + a0n != 0, a0p * a1n + a0n * a1p > 0,
           a1n <= 0 or uf > -a0n / a1n)
    rho, u = case.loss.rho, case.u_star
    if not all(six) or rho is None or not rho < 1:
        return False
    denominators = (a1n + a0n, a0p + a1p * u, a1p * uf - a0p, -a0n + a1n * u)
    if any(d == 0 for d in denominators):
        return False
    b = (a0p - a1p) / (a1n + a0n) * (-a0n + a1n * u) / (a0p + a1p * u)
    bound = min(b, (a0n - a1n * uf) / (a1p * uf - a0p) * (a0p + a1p * u) / (-a0n + a1n * u)) if c else b
    return bound > 0 if rho == 0 else rho <= bound


def _exact_finite_cases() -> list:
    """The owned finite instances whose U_phi*, rho and U(f*) are exact rationals (the by-hand predicates' domain)."""
    return [c for c in _cases() if c.kind == "finite" and isinstance(c.u_star, F) and isinstance(c.loss.rho, F)
            and _utility_by_definition(c, c.canonical_labelling) is not None]


@pytest.mark.claims("Theorem 7")
def test_the_printed_conditions_of_theorem_7_agree_with_the_paper_on_every_exact_instance():
    """Oracle: Thm. 7's printed conditions transcribed from the paper in exact arithmetic (above), and U(f*) from
    Eq. (1), against lfverify's predicate and its U(sgn f*_0), on each owned finite instance with exact facts; both
    outcomes occur (a predicate that is always False would meet an oracle that is)."""
    from lfverify.proofs._executable import _canonical_utility
    from lfverify.proofs._executable_printed import _thm7_printed_conditions

    cases = _exact_finite_cases()
    assert len(cases) > 200
    for case in cases:
        assert _canonical_utility(case) == _utility_by_definition(case, case.canonical_labelling), case.name
    decided = Counter(_thm7_printed_by_hand(case) for case in cases)
    assert decided[True] >= 5 and decided[False] >= 5, decided
    wrong = [case.name for case in cases if _thm7_printed_conditions(case) != _thm7_printed_by_hand(case)]
    assert wrong == []


@pytest.mark.claims("Lemma (App. C)")
def test_the_printed_app_c_lemma_speaks_only_where_its_multipliers_are_one():
    """The printed lemma's multipliers have kappa = 1 (the paper's App. C): on every owned Rademacher instance its
    conclusion is "vacuous" exactly where kappa != 1 and decided ("holds" or "fails") where kappa = 1; both kinds of
    instance exist."""
    printed = PRINTED_STATEMENTS_AS_CODE["lem:non-smooth-rademacher"]
    kinds = Counter()
    for case in (c for c in _cases() if c.kind == "rademacher" and printed.hypotheses[0][1](c)):
        _, result = evaluate_printed(printed, case)
        one = case.kappa == 1
        kinds[one] += 1
        assert (result.status == "vacuous") is (not one), (case.name, case.kappa, result)
    assert kinds[True] and kinds[False], kinds


@pytest.mark.claims("package:registry")
def test_an_undecidable_printed_hypothesis_or_conclusion_says_why():
    """A printed hypothesis or conclusion that cannot be decided (lfverify.proofs._executable's Undecidable) is an
    "undecidable" evaluation carrying the reason, at either stage (planted statements on a stand-in instance)."""
    from lfverify.proofs._executable import PrintedStatement, Undecidable

    def tie(case):
        raise Undecidable("planted: a tie at the search's precision")

    case = SimpleNamespace(kind="finite")
    at_hypothesis = PrintedStatement("planted", ("finite",), (("tied", tie),), lambda c: None)
    at_conclusion = PrintedStatement("planted", ("finite",), (("true", lambda c: True),), tie)
    for printed, holds in ((at_hypothesis, None), (at_conclusion, True)):
        found, result = evaluate_printed(printed, case)
        assert found is holds and (result.status, result.detail) == (
            "undecidable", "planted: a tie at the search's precision")
    assert evaluate_printed(at_conclusion, SimpleNamespace(kind="continuous")) == (None, None)


@pytest.mark.claims("Theorem 7")
def test_the_printed_conditions_of_theorem_7_follow_the_paper_on_a_grid_of_given_facts():
    """The same oracle on facts given by hand rather than found: F_1, F_2 and Jaccard on two atoms of weight 1/2 with
    eta in {1/5, 1/2, 9/10}, every labelling with a positive atom as sgn f*_0, U_phi* in {1/5, 1/2, 4/5} and rho in
    {0, 1/10, 1/3, 2/3} (the predicate is arithmetic on the facts it is given, true or not).  The grid reaches
    facts where (c) alone decides, both ways, which the owned instances do not."""
    import itertools

    from lfverify.proofs._executable import Metric
    from lfverify.proofs._executable_printed import _thm7_printed_conditions

    metrics = [Metric.from_tuple("F_1", (2, 0, 1, 1, 0, 0, 0, 1)), Metric.from_tuple("F_2", (5, 0, 1, 1, 0, 0, 0, 4)),
               Metric.from_tuple("Jaccard", (1, 0, 0, 1, 0, 0, 0, 1))]
    assert [(m.name, m.a0p, m.a1n, m.d1) for m in metrics] == [("F_1", 2, 1, 1), ("F_2", 5, 1, 4), ("Jaccard", 1, 1, 1)]
    etas = [F(1, 5), F(1, 2), F(9, 10)]
    by_c, agree = Counter(), 0
    for metric, e1, e2, labels, u, rho in itertools.product(metrics, etas, etas, [(1, 1), (1, -1), (-1, 1)],
                                                            [F(1, 5), F(1, 2), F(4, 5)], [F(0), F(1, 10), F(1, 3),
                                                                                           F(2, 3)]):
        case = SimpleNamespace(metric=metric, weights=(F(1, 2), F(1, 2)), eta=(e1, e2), prior=(e1 + e2) / 2,
                               canonical_labelling=labels, u_star=u, loss=SimpleNamespace(rho=rho))
        expected = _thm7_printed_by_hand(case)
        assert _thm7_printed_conditions(case) is expected, (metric.name, e1, e2, labels, u, rho)
        agree += 1
        if _thm7_printed_by_hand(case, c=False):
            by_c[expected] += 1  # (1)-(6), (a), (b) hold: (c) decides
    assert agree == 3 * 9 * 3 * 3 * 4 and by_c[True] >= 3 and by_c[False] >= 3, by_c


# ---------------------------------------------------------------------------------------------- Lemma 4's rate
def _rate_case():
    """An owned Rademacher-rate instance without an exact lower bound (only the display check decides there)."""
    return next(c for c in instances.rate_cases() if c.parameters.get("lower") is None)


def _public_expectation_bound(case) -> float:
    """B_E(n) at the instance's parameters from lemma4's public bound (independent of the display)."""
    from lfverify.proofs import lemma4_uniform_convergence as L4

    p = case.parameters
    return L4.corrected_expectation_bound(p["n"], p["d"], p["c_X"], p["c_Theta"], p["c0"], p["c1"], p["rho0"],
                                          p["rho1"], p["gamma"], slope_at_zero=p["slope_at_zero"], jump=p["jump"],
                                          kappa0=p["kappa0"], kappa1=p["kappa1"])


@pytest.mark.claims("Lemma 4 (corrected)")
@pytest.mark.parametrize("relative, status", [(F(1, 2 * 10**10), "holds"), (F(2, 10**10), "fails")])
def test_the_rates_display_check_holds_within_its_tolerance_and_fails_past_it(monkeypatch, relative, status):
    """The displayed B_E(n) must equal the function to a relative 1e-10 (30 digits): the function planted off by
    half that tolerance still holds, by twice it fails (the boundary from both sides).  On the unplanted instance the
    detail states B_E's value, which lemma4's public bound gives independently of the display."""
    import mpmath as mp

    import lfverify.proofs._executable_rademacher as rademacher

    case = _rate_case()
    bound = _public_expectation_bound(case)
    assert rademacher._rate_expectation(case) == rademacher.Evaluation(
        "holds", f"B_E = {mp.nstr(mp.mpf(bound), 8)} (display = function)")
    function = rademacher._rate_function
    monkeypatch.setattr(rademacher, "_rate_function",
                        lambda c: mp.mpf(function(c)) * (1 + mp.mpf(relative.numerator) / relative.denominator))
    assert rademacher._rate_expectation(case).status == status


def test_the_rate_checks_failure_details_name_both_values(monkeypatch):
    """Lemma 4's rate checks, planted to fail, say which values disagreed, each to 12 significant digits (oracle:
    mpmath's nstr of the planted and the public values): (i) the display of B_E(n) against the function planted
    twice the value; (ii) an exact lower bound planted at twice B_E; (iii) the linear class's displayed bound
    planted as the constant 1/7000 (0.000142857142857 to 12 digits), below R_S(I_F)."""
    import mpmath as mp
    import sympy as sp

    import lfverify.proofs._executable_rademacher as rademacher
    from lfverify.proofs import corrected_rademacher as R

    case = _rate_case()
    bound = _public_expectation_bound(case)
    lower = dataclasses.replace(case, parameters={**case.parameters, "lower": 2 * mp.mpf(bound)})
    assert rademacher._rate_expectation(lower) == rademacher.Evaluation(
        "fails", f"the exact lower bound {mp.nstr(mp.mpf(2 * bound), 12)} > B_E = {mp.nstr(mp.mpf(bound), 12)}")
    function = rademacher._rate_function
    monkeypatch.setattr(rademacher, "_rate_function", lambda c: 2 * mp.mpf(function(c)))
    with mp.workdps(30):
        assert rademacher._rate_expectation(case) == rademacher.Evaluation(
            "fails", f"the displayed B_E(n) = {mp.nstr(mp.mpf(bound), 12)}, the function "
                     f"{mp.nstr(2 * mp.mpf(bound), 12)}")
    monkeypatch.undo()
    linear = next(c for c in instances.rademacher_cases() if c.d and c.rademacher_indicators > mp.mpf(1) / 7000)
    monkeypatch.setattr(R, "indicator_bound_expression", lambda n, d: sp.Rational(1, 7000))
    outcome = rademacher._rademacher_rates(linear)
    assert outcome.status == "fails" and outcome.detail.endswith(", the displayed bound 0.000142857142857")


@pytest.mark.parametrize("relative, status", [(F(1, 2 * 10**12), "holds"), (F(2, 10**12), "fails")])
def test_the_deviation_display_check_holds_within_its_tolerance_and_fails_past_it(monkeypatch, relative, status):
    """The displayed deviation term must equal lemma4's mcdiarmid_deviation to a relative 1e-12: the function planted
    off by half that tolerance still holds, by twice it fails (the boundary from both sides)."""
    import lfverify.proofs._executable_rademacher as rademacher
    from lfverify.proofs import lemma4_uniform_convergence as L4

    case = _rate_case()
    assert rademacher._rate_deviation(case).status == "holds"
    deviation = L4.mcdiarmid_deviation
    monkeypatch.setattr(L4, "mcdiarmid_deviation",
                        lambda *args, **kw: deviation(*args, **kw) * (1 + relative.numerator / relative.denominator))
    assert rademacher._rate_deviation(case).status == status


def test_compare_orders_mpmath_values_from_the_documented_tie_width_on():
    """The tie rule of every predicate's comparisons (lfverify.proofs._executable.compare): two mpmath values closer
    than 1e-25 * max(1, |x|, |y|) are undecidable, farther ones are ordered, and an mpf equal to itself is 0 (a band of
    width 0).  Oracle: the documented width, at 50 digits, from both sides and at both scales of the max: near 1/2 the
    width is 1e-25 (a gap of 1.5e-25 is ordered, 0.5e-25 is not); near 4 it is 4e-25 (3e-25 is not ordered, 5e-25
    is)."""
    import mpmath as mp

    from lfverify.proofs._executable import Undecidable, compare

    with mp.workdps(50):
        tie = mp.mpf(10) ** -25
        for x, ordered, tied in ((mp.mpf(1) / 2, 1.5, 0.5), (mp.mpf(4), 5, 3), (-mp.mpf(4), 5, 3)):
            assert (compare(x, x + ordered * tie), compare(x + ordered * tie, x)) == (-1, 1)
            for a, b in ((x, x + tied * tie), (x + tied * tie, x)):
                with pytest.raises(Undecidable, match="agree to the working precision"):
                    compare(a, b)
            assert compare(x, x) == 0


@pytest.mark.parametrize(("statement", "bound_name"), [("corrected_calibration.fbeta", "tau_F"),
                                                       ("corrected_calibration.jaccard", "U*/U-dagger"),
                                                       ("corrected_calibration.general", "H(1) c/a")])
def test_a_failing_weak_form_names_rho_and_the_bound_it_is_within(monkeypatch, statement, bound_name):
    """The weak-form conclusions, on the first owned instance where one holds with rho <= its bound, with the
    maximisers' truth (_weak_form_truth) planted false: the conclusion fails, and its detail shows rho and the
    statement's bound as numbers with rho <= bound (oracle: the detail's own two numbers, read back)."""
    import re

    import lfverify.proofs._executable as executable

    key = (statement, "condition_b" if statement.endswith("general") else "weak_form")
    predicate = CONCLUSION_PREDICATES[key]
    case = next(c for c in _cases() if in_scope(STATEMENTS[statement], c) and _status_of(predicate, c) == "holds")
    monkeypatch.setattr(executable, "_weak_form_truth", lambda case, r: False)
    planted = predicate(case)
    assert planted.status == "fails"
    shown = re.fullmatch(rf"rho = (\S+) <= {re.escape(bound_name)} = (\S+), but a maximiser's sign or the Bayes "
                         r"labelling of its zero set fails", planted.detail)
    assert shown is not None, planted.detail
    assert F(shown[1]) <= F(shown[2])  # exact rationals print as p/q, mpmath values as decimals


def _status_of(predicate, case) -> str:
    try:
        return predicate(case).status
    except Exception:  # an undecidable or undefined instance is not the one this test needs
        return "undecidable"
