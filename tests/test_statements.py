"""One source for every corrected statement, and the hypothesis ledger (issue 30; lfverify/proofs/_statements.py).

Oracles: the committed documents themselves (each generated block must be byte-for-byte what its statement
generates), the registry (no corrected claim carries hand-typed text) and the proofs' own step records (the ledger
must match the statement; a statement with a hypothesis removed must be refused).  Run as a script
(``python tests/test_statements.py``) to rewrite the generated blocks of README.md and FINDINGS.md after a statement
changes.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from lfverify.paper import CORRECTED_CLAIMS
from lfverify.proofs import STATEMENTS, statement_of, with_statement_texts
from lfverify.proofs._claims import Step
from lfverify.proofs._corrected_statements import FBETA
from lfverify.proofs._corrected_statements import summary_block as _summary_block
from lfverify.proofs._statements import (Conclusion, Hypothesis, Named, Statement, generated_blocks,
                                         ledger_problems, render_generated_blocks)
from lfverify.proofs.corrected_calibration import check_fbeta, check_general, check_jaccard

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)",
                                 "Lemma (App. C) (corrected)")
#: documents with generated summary blocks, and how many each must carry (a block deleted by hand is a failure too)
DOCUMENTS = {"README.md": 8, "FINDINGS.md": 9}


def summary_block(kind, key):
    """The generated blocks' bodies, with the files they count read from this repository."""
    return _summary_block(kind, key, root=ROOT)


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_committed_summaries_are_generated_from_their_statements(name):
    text = (ROOT / name).read_text()
    blocks = generated_blocks(text)
    assert len(blocks) == DOCUMENTS[name]
    for kind, key, body in blocks:
        assert body == summary_block(kind, key), f"{name}: block {key} differs from its statement's summary"
    assert render_generated_blocks(text, summary_block) == text


def test_a_hand_edited_summary_is_detected():
    """Companion: dropping the condition from a committed summary (the gap-3 edit) breaks the equality above."""
    text = (ROOT / "README.md").read_text()
    kind, key, body = next(b for b in generated_blocks(text) if "rho <= tau_F" in b[2])
    edited = text.replace(body, body.replace("if rho <= tau_F", "always", 1))
    assert edited != text
    assert any(b != summary_block(k, key_) for k, key_, b in generated_blocks(edited))
    assert render_generated_blocks(edited, summary_block) == text


def test_corrected_claims_in_the_registry_carry_no_hand_typed_text():
    """Every corrected claim names its statement(s) and has no statement or summary of its own; what the report and
    ERRATA print is rendered from the statements."""
    assert CORRECTED_CLAIMS
    for claim in CORRECTED_CLAIMS:
        assert claim.statement_key, claim.key
        assert (claim.statement, claim.summary) == ("", ""), claim.key
        statements = [statement_of(k) for k in claim.statement_key.split("+")]
        rendered = with_statement_texts(claim)
        assert rendered.summary == " ".join(s.summary() for s in statements)
        assert all(s.headline() in rendered.statement for s in statements)


def test_an_unknown_statement_key_is_refused_with_the_known_keys():
    with pytest.raises(KeyError, match="corrected_calibration.fbeta"):
        statement_of("corrected_calibration.fbta")


@pytest.mark.parametrize("check", [check_fbeta, check_jaccard, check_general], ids=lambda c: c.__name__)
def test_the_proofs_ledger_matches_its_statement(check):
    """The steps of the proof record exactly the statement's hypotheses: none missing, none unused."""
    outcome = check()
    statement = STATEMENTS[f"corrected_calibration.{check.__name__.removeprefix('check_')}"]
    assert outcome.status == "verified"
    assert ledger_problems(statement, outcome.steps, STATEMENTS) == []


def test_the_ledger_refuses_theorem_1_without_u_star_positive():
    """Gap 1 seen by the ledger: Theorem 1 (corrected) with U_phi* > 0 removed - the form it had before the review -
    is refused, naming the hypothesis its cited Proposition uses (the adversary's witness is in
    tests/test_adversary.py::test_gap_missing_hypothesis_u_star_positive)."""
    steps = check_fbeta().steps
    weaker = dataclasses.replace(FBETA, hypotheses=tuple(h for h in FBETA.hypotheses if h.key != "u_star_positive"))
    problems = ledger_problems(weaker, steps, STATEMENTS)
    assert problems and all("u_star_positive" in p for p in problems)


def _toy(*keys):
    return Statement("toy.key", "Toy", tuple(Hypothesis(k, k) for k in keys), (),
                     (Conclusion("c", "C", "text", "a summary"),))


def test_the_ledger_reports_an_unstated_use_an_unused_hypothesis_and_an_undischarged_citation():
    cited = {"toy.cited": dataclasses.replace(_toy("h1", "h9"), key="toy.cited", title="Cited")}
    steps = [Step("a", uses=("h1",)), Step("b", uses=("h3",)), Step("c", cites=("toy.cited",))]
    problems = ledger_problems(_toy("h1", "h2"), steps, cited)
    assert problems == [
        "step 2 uses 'h3', which Toy does not state",
        "step 3 cites Cited, whose hypothesis 'h9' is neither stated by Toy nor discharged by a step",
        "hypothesis 'h2' (h2) is never used: Toy holds without it"]
    discharged = steps + [Step("d", uses=("h2",), discharges=("h9",))]
    assert ledger_problems(_toy("h1", "h2", "h3"), discharged, cited) == []


def test_a_statement_cannot_name_an_object_ambiguously_or_drop_a_condition():
    with pytest.raises(ValueError, match="non-unique object must say which"):
        Named("f^*", "a maximiser", unique=False)
    with pytest.raises(ValueError, match="must state its condition"):
        Conclusion("k", "K", "text", summary="calibrated iff no mass", condition="if rho <= tau_F")
    with pytest.raises(ValueError, match="duplicate hypothesis keys"):
        _toy("h1", "h1")


def test_every_non_unique_object_says_which_one_is_meant():
    for statement in STATEMENTS.values():
        for named in statement.objects:
            assert named.unique or named.which, (statement.key, named.symbol)


if __name__ == "__main__":
    for name in sys.argv[1:] or DOCUMENTS:
        path = ROOT / name
        path.write_text(render_generated_blocks(path.read_text(), summary_block))
        print(f"regenerated the summary blocks of {name}")
