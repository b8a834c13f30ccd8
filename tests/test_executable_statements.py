"""Every conclusion of every corrected statement, evaluated on every instance the project owns (issue 40).

Oracle: the facts of each instance come from tests/adversary.py (a direct search on U_phi and exact enumeration of
labellings, no lfverify code) and tests/continuous_oracle.py (quadrature with a pointwise minimisation that never uses
the band's formula); the predicates of lfverify/proofs/_executable.py say what each conclusion predicts there.
Where every hypothesis of a statement holds on an instance, a conclusion that "fails" is a contradiction between a
corrected statement and the project's own evidence, and fails this test; a conclusion that no instance exercises
("holds" on none) fails it too.  "undecidable" evaluations (a tie the search's precision cannot order) are listed,
never counted as agreement.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict

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

pytestmark = pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)",
                                 "Lemma (App. C) (corrected)", "Lemma 4")


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


def test_every_conclusion_and_hypothesis_has_a_predicate():
    for statement in STATEMENTS.values():
        for c in statement.conclusions:
            assert (statement.key, c.key) in CONCLUSION_PREDICATES, (statement.key, c.key)
        for h in statement.hypotheses:
            assert h.key in HYPOTHESIS_PREDICATES, (statement.key, h.key)


def test_no_corrected_conclusion_contradicts_an_owned_instance():
    contradictions, counts, undecidable, _ = _report()
    assert contradictions == []


def test_every_conclusion_is_exercised_by_some_instance():
    """Per conclusion, how many instances exercised it (its condition met, its predicate decided and true)."""
    _, counts, undecidable, _ = _report()
    unexercised = [f"{s}: {c} ({dict(counts[(s, c)])})" for s in STATEMENTS for c in
                   (x.key for x in STATEMENTS[s].conclusions) if counts[(s, c)]["holds"] == 0]
    assert unexercised == []


@functools.lru_cache(maxsize=None)
def _by_name() -> dict:
    cases = {}
    for case in _cases():
        assert case.name not in cases, f"two instances named {case.name!r}"
        cases[case.name] = case
    return cases


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
        case = _by_name().get(record.witness)
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
