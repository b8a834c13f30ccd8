"""No result is typed by hand where a user reads it (issue 40): every sentence that states a theorem-level result is
generated from a statement or quotes one.

Oracle: the committed documents (README.md, FINDINGS.md, the docs pages, the simulations' and benchmarks' READMEs,
and the generated ERRATA.md and proofs/) read with tests/result_sentences.py; the companions plant the sentences
review 1 of issue 40 found and show each is caught.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lfverify.paper import PAPER_CLAIMS
from lfverify.proofs import STATEMENTS
from result_sentences import result_sentences

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.claims("Theorem 1 (corrected)", "Theorem 2 (corrected)", "Theorem 7 (corrected)",
                                 "Lemma (App. C) (corrected)")
#: hand-written documents a user reads: no result sentence outside generated blocks
WRITTEN = ("README.md", "FINDINGS.md", "simulations/README.md", *(f"docs/{p.name}" for p in
                                                                   sorted((ROOT / "docs").glob("*.md"))))
#: documents generated from the proofs' code: no universal claim that is not a statement's
GENERATED = ("ERRATA.md", *(f"proofs/{p.name}" for p in sorted((ROOT / "proofs").glob("*.md"))))
TITLES = tuple(s.title for s in STATEMENTS.values())


@pytest.mark.parametrize("name", WRITTEN)
def test_no_hand_written_result_sentence(name):
    assert result_sentences((ROOT / name).read_text(encoding="utf-8"), statements=TITLES) == []


@pytest.mark.parametrize("name", GENERATED)
def test_generated_documents_claim_nothing_universal_outside_the_statements(name):
    assert result_sentences((ROOT / name).read_text(encoding="utf-8"), verdicts=False, statements=TITLES) == []


def test_the_registry_claims_nothing_universal():
    """The registry's one-line findings reach REPORT.md and `lfverify verify --json`."""
    found = [(c.number, s) for c in PAPER_CLAIMS for s in result_sentences(c.summary, verdicts=False)]
    assert found == []


@pytest.mark.parametrize("planted", [
    # review 1 of issue 40 found these in README, FINDINGS, ERRATA and the claim outcomes
    "Thms. 1-2 fail on every eta-continuous population, for every tau (the plain logistic loss included).",
    "Under the paper's own standing assumption Thms. 1 and 2 fail for every tau.",
    "No such phi is F_beta-calibrated, for no tau.",
    "The printed lemma excludes every tau-discrepant loss with tau < 1.",
    "What holds: every atom with f*(x) != 0 has the Bayes sign, so labelling the kink atoms by the Bayes rule attains "
    "U-dagger.",
    "Thms. 1, 2 and 7 are false as stated.",
    "Every maximiser f* has f*(x) > 0 for every x with eta(x) > eta_hi.",
])
def test_a_planted_result_sentence_is_found(planted):
    text = f"# A page\n\nSome prose.  {planted}  More prose.\n"
    assert result_sentences(text, statements=TITLES) != []


def test_generated_blocks_code_mathematics_and_quotations_are_not_read():
    """Companion: the same sentences inside a generated block, a code span, mathematics or a quotation of the paper,
    or quoting a statement's summary, are not hand-written results."""
    sentence = "Thms. 1-2 fail on every eta-continuous population, for every tau."
    for text in (f"<!-- generated: summary k -->\n{sentence}\n<!-- end generated -->\n", f"`{sentence}`",
                 f"$every\\ tau$ and $$\\forall P$$", f"The paper says '{sentence[:-1]}'.",
                 f"- **Printed:** {sentence}\n", f"{TITLES[2]}: with mass on both sides of delta, no loss meeting "
                                                 f"the hypotheses is F_beta-calibrated, whatever its rho."):
        assert result_sentences(text, statements=TITLES) == [], text
