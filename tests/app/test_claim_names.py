"""Claims by the names people use (lfverify/paper/_names.py): the printed name, its abbreviations, the LaTeX label
and the proofs/ file name all select the same claim, case-insensitively; an unknown name lists the close matches.

Oracles: the names typed out by hand from the paper's printed numbering and the issue ("Theorem 1", "Thm. 1",
``thm:f-measure-calibration``, ``theorem-1``); the committed proofs/ folder (its file names, and the derivation keys
each document shows); :mod:`difflib` for the close matches.  The ambiguity checker is shown to fail on a planted
registry whose two claims share a name.

Private: lfverify.app._proofs_command.select_claims, the claim selection behind `lfverify proofs --only`, which no face
exports, tested on its own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lfverify.paper import (
    CORRECTED_CLAIMS,
    PACKAGE_CONTRACTS,
    PAPER_CLAIMS,
    Evidence,
    PaperClaim,
    claim_file_name,
    claim_names,
    normalize_claim_name,
    resolve_claim,
    resolve_claim_label,
)

pytestmark = pytest.mark.claims("package:registry")

REPO = Path(__file__).resolve().parents[2]
THEOREM_1 = "thm:f-measure-calibration"


@pytest.mark.parametrize("name", ["Theorem 1", "Thm. 1", "Thm 1", "thm.1", "THEOREM 1", "theorem-1", "theorem-1.md",
                                  "proofs/theorem-1.md", THEOREM_1, "THM:F-MEASURE-CALIBRATION", " Theorem  1 "])
def test_the_names_people_use_select_theorem_1(name):
    """Oracle: the issue's list of names, typed out; each selects the printed Theorem 1."""
    assert resolve_claim(name).label == THEOREM_1
    assert resolve_claim_label(name) == THEOREM_1


@pytest.mark.parametrize("name, label", [
    ("Lemma 3", "lem:unbiased-gradient"), ("Lem. 3", "lem:unbiased-gradient"), ("Prop. 5", "prop:bayes-optimal-set"),
    ("Proposition 8", "prop:accuracy-calibration"), ("Def. 1", "def:metric"), ("Definition 2", "def:discrepant-loss"),
    ("Tab. 4", "tab:supp:result-f1"), ("Table 3", "tab:supp:datasets"),
    ("Figure 2", "fig:fisher-consistent-surrogate-loss"),
    ("Fig. 3", "fig:itertest"), ("Fig. 10", "fig:itertest"), ("Fig. 12", "fig:sample-complexity"),
    ("Figs. 13-14", "fig:supp:f1-sensitivity"), ("Fig. 14", "fig:supp:f1-sensitivity"), ("Alg. 1", "alg:hybrid"),
    ("Algorithm 2", "alg:u-ga"), ("Lemma (App. C)", "lem:non-smooth-rademacher"),
    ("lemma-app-c", "lem:non-smooth-rademacher"),
    ("App. A.5", "sec:supp:non-negativity-of-surrogate-utilities"), ("Thm. 7", "thm:general-calibration"),
    ("Theorem 1 (corrected)", "corrected:thm:f-measure-calibration"), ("corrected:thm:f-measure-calibration",
                                                                       "corrected:thm:f-measure-calibration"),
    ("Lemma (App. C) (corrected)", "corrected:lem:non-smooth-rademacher")])
def test_printed_names_abbreviations_and_labels(name, label):
    """Oracle: the paper's numbering and the usual abbreviations, typed out by hand."""
    assert resolve_claim(name).label == label


def test_every_document_of_proofs_is_found_by_its_file_name():
    """Oracle: the committed proofs/ folder: each document (but the index) is found by its file name, with and
    without ``.md``, and the claim found is the one whose document it is."""
    documents = sorted(p for p in (REPO / "proofs").glob("*.md") if p.name != "README.md")
    assert len(documents) == 15
    for path in documents:
        for name in (path.stem, path.name, f"proofs/{path.name}"):
            claim = resolve_claim(name)
            assert claim_file_name(claim) == path.stem
            assert f"# {claim.number}:" in path.read_text()


def test_every_registry_claim_is_found_by_each_of_its_names():
    for claim in PAPER_CLAIMS + CORRECTED_CLAIMS:
        for name in (claim.number, claim.label, claim_file_name(claim), claim.number.upper(), claim.label.upper()):
            assert resolve_claim(name) is claim
            assert resolve_claim_label(name) == claim.label
    for label in PACKAGE_CONTRACTS:
        assert resolve_claim_label(label) == label and resolve_claim_label(label.upper()) == label


def ambiguous_names(claims, contracts=()) -> list[str]:
    """The normalised names that more than one claim (or contract) answers to."""
    owners: dict[str, set] = {}
    for claim in claims:
        for name in claim_names(claim):
            owners.setdefault(normalize_claim_name(name), set()).add(claim.label)
    for label in contracts:
        owners.setdefault(normalize_claim_name(label), set()).add(label)
    return sorted(name for name, labels in owners.items() if len(labels) > 1)


def test_no_name_answers_to_two_claims():
    assert ambiguous_names(PAPER_CLAIMS + CORRECTED_CLAIMS, PACKAGE_CONTRACTS) == []


def test_the_ambiguity_checker_finds_a_planted_collision():
    """Companion: two planted claims whose printed names differ only in punctuation are reported."""
    evidence = (Evidence("derivation", "x"),)
    planted = (PaperClaim("thm:a", "Theorem 9", "a", "holds", evidence),
               PaperClaim("thm:b", "Thm. 9", "b", "holds", evidence))
    assert ambiguous_names(planted) == ["theorem 9"]


def test_normal_form():
    """Oracle: the documented comparison form, typed out."""
    assert normalize_claim_name("Thm. 1") == "theorem 1"
    assert normalize_claim_name("proofs/theorem-1.md") == "theorem 1"
    assert normalize_claim_name("Fig. 3 (and Figs. 9-10)") == "figure 3 and figure 9 10"
    assert normalize_claim_name("lem:uniform-convergence") == "lemma uniform convergence"
    assert normalize_claim_name("md") == "md" and normalize_claim_name("proofs") == "proofs"
    # the suffix and the prefix are dropped from a name of two words too, each side of the boundary
    assert normalize_claim_name("theorem.md") == "theorem" and normalize_claim_name("proofs/lemma") == "lemma"


def test_an_unknown_name_is_refused_with_the_close_matches():
    """Oracle: the documented one-line message, typed out, with difflib's close matches of the normal form."""
    with pytest.raises(ValueError) as refused:
        resolve_claim("Theorem 11", what="--only")
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("--only must be a claim's printed name (e.g. 'Theorem 1' or 'Thm. 1'), its LaTeX label "
                              "or its proofs/ file name; got 'Theorem 11'; close matches: Theorem 1 "
                              "(thm:f-measure-calibration), ")
    with pytest.raises(ValueError, match=r"; known: Definition 1 \(def:metric\), Table 1 "):
        resolve_claim("zzzz")  # nothing close: every claim is listed
    with pytest.raises(ValueError, match=re.escape("close matches: package:files")):
        resolve_claim_label("package:file")
    with pytest.raises(TypeError, match=re.escape("claim must be a claim's name (str); got 1")):
        resolve_claim(1)
    with pytest.raises(TypeError, match=re.escape("--claim must be a claim's name (str); got None")):
        resolve_claim_label(None, what="--claim")


def test_a_package_contract_is_not_a_claim_of_the_paper():
    with pytest.raises(ValueError, match=re.escape("--only: 'package:files' is a contract of the package, not a claim "
                                                   "of the paper; its tests run with `python -m pytest --claim "
                                                   "package:files`")):
        resolve_claim("package:files", what="--only")


def _document_keys(stem: str) -> list[str]:
    """The derivation keys a committed proofs/ document shows, in order."""
    text = (REPO / "proofs" / f"{stem}.md").read_text()
    return re.findall(r"^`([a-z0-9_]+\.[a-z0-9_]+)`", text, flags=re.M)


@pytest.mark.parametrize("name", ["Theorem 1", "Thm. 1", THEOREM_1, "theorem-1"])
def test_proofs_only_selects_the_derivations_of_the_document(name):
    """Oracle: the committed proofs/theorem-1.md lists the derivations of Theorem 1 and of its corrected statement;
    ``--only`` selects exactly those, for each of the names."""
    from lfverify.app._proofs_command import select_claims
    from lfverify.proofs import all_claims

    expected = _document_keys("theorem-1")
    assert len(expected) == 11 and "corrected_calibration.fbeta" in expected
    assert sorted(c.key for c in select_claims(all_claims(), name)) == sorted(expected)


def test_proofs_only_keeps_the_key_fragments_and_refuses_a_claim_without_derivations():
    from lfverify.app._proofs_command import select_claims
    from lfverify.proofs import all_claims

    claims = all_claims()
    assert [c.key for c in select_claims(claims, "lemma3")] == [c.key for c in claims if "lemma3" in c.key]
    with pytest.raises(ValueError, match=re.escape("--only: Table 4 (tab:supp:result-f1) has no derivations (its "
                                                   "evidence: benchmark); `lfverify verify --only 'Tab. 4'` checks "
                                                   "it")):
        select_claims(claims, "Tab. 4")
    with pytest.raises(ValueError, match=re.escape("; or a part of a derivation's key (`lfverify proofs --json` lists "
                                                   "the keys)")):
        select_claims(claims, "no such thing")
