"""The claims registry (lfverify/paper/_registry.py): every claim of the paper has a check, and every check exists.

Oracle: the paper's LaTeX source (its \\label{...} commands), and the test files / proof modules / self-checks /
studies / benchmark experiments themselves.

Private: lfverify.paper._registry, for claim_labels_in_tex and unregistered_labels, the registry's check against the
paper source, and lfverify.app._self_checks.CHECKS, the checks the registry must cover.
"""

import ast
import re
from pathlib import Path

import pytest

import lfverify.paper._registry as R
from lfverify.app._self_checks import CHECKS
from lfverify.proofs import all_claims
from shared_files import PAPER_TEX, needs_tex

pytestmark = pytest.mark.claims("package:registry")

REPO = Path(__file__).resolve().parents[2]


@needs_tex
def test_every_claim_of_the_paper_has_a_registry_entry():
    """A numbered definition, lemma, theorem, proposition, table, figure or algorithm without a check fails."""
    labels = R.claim_labels_in_tex(PAPER_TEX.read_text())
    assert len(labels) == 39  # counted with grep: guards against a parser that finds nothing or too much
    assert R.unregistered_labels(labels) == []


@needs_tex
def test_registry_labels_exist_in_the_paper():
    tex = PAPER_TEX.read_text()
    all_labels = set(re.findall(r"\\label\{([^}]*)\}", tex))
    assert {c.label for c in R.PAPER_CLAIMS} <= all_labels
    assert set(R.NOT_CLAIMS) <= all_labels


def test_a_missing_entry_is_detected():
    """The completeness check can fail: dropping Lemma 1's entry reports its label."""
    labels = ["lem:utility-lower-bound", "thm:consistency", "fig:overview"]
    claims = [c for c in R.PAPER_CLAIMS if c.label != "lem:utility-lower-bound"]
    assert R.unregistered_labels(labels, claims) == ["lem:utility-lower-bound"]
    assert R.claim_labels_in_tex(r"\label{lem:a} \label{eq:b} \label{sec:c} \label{tab:d} \label{lem:a}") == [
        "lem:a", "tab:d"]


def test_labels_are_unique_and_not_both_claim_and_non_claim():
    labels = [c.label for c in R.PAPER_CLAIMS]
    assert len(labels) == len(set(labels))
    assert not set(labels) & set(R.NOT_CLAIMS)


def _evidence(kind):
    return [(c.label, e) for c in R.PAPER_CLAIMS for e in c.evidence if e.kind == kind]


def test_derivation_evidence_names_existing_proof_claims_and_every_proof_is_attached():
    proof_labels = {c.label for c in all_claims()}
    targets = {e.target for _, e in _evidence("derivation")}
    assert targets <= proof_labels
    assert proof_labels <= targets  # no derivation is left outside the registry


def test_self_check_evidence_names_existing_checks_and_every_check_is_attached():
    names = {c.name for c in CHECKS}
    targets = {e.target for _, e in _evidence("self-check")}
    assert targets <= names
    assert names <= targets


def test_property_test_evidence_names_existing_tests():
    for label, e in _evidence("property-test"):
        path, name = e.target.split("::")
        tree = ast.parse((REPO / path).read_text())
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert name in defined, f"{label}: {e.target} does not exist"


def test_simulation_and_benchmark_evidence_name_existing_studies_and_experiments():
    from lfverify.experiments import EXPERIMENTS
    from lfverify.simulations import STUDIES

    assert {e.target for _, e in _evidence("simulation")} <= set(STUDIES)
    assert {e.target for _, e in _evidence("benchmark")} <= set(EXPERIMENTS) | {"datasets"}


def test_claim_by_label_and_bad_entries():
    assert R.claim_by_label("thm:consistency").number == "Theorem 5"
    with pytest.raises(ValueError, match=r"^label must be one of the registry's labels; got 'lem:nope'$"):
        R.claim_by_label("lem:nope")
    with pytest.raises(ValueError, match=r"^kind must be one of"):
        R.Evidence("opinion", "x")
    with pytest.raises(ValueError, match=r"^expected must be one of"):
        R.PaperClaim("lem:x", "Lemma 9", "s", "probably", (R.Evidence("derivation", "lem:x"),))
    with pytest.raises(ValueError, match=r"every claim needs at least one piece of evidence"):
        R.PaperClaim("lem:x", "Lemma 9", "s", "holds", ())


def test_every_claim_that_fails_as_stated_has_one_corrected_statement_that_holds():
    """Each 'fails as stated' claim is corrected by exactly one entry of CORRECTED_CLAIMS with verdict 'holds', whose
    derivations name existing proof claims recorded as 'verified' (by key) and carry the corrected statement, and whose
    property tests exist; a corrected entry names no claim that holds.  Oracle: the registry, the proof claims and
    the test files themselves."""
    failing = {c.label for c in R.PAPER_CLAIMS if c.expected == "fails as stated"}
    assert failing == {"thm:f-measure-calibration", "thm:jaccard-calibration", "thm:general-calibration",
                       "lem:non-smooth-rademacher", "lem:uniform-convergence"}
    assert sorted(c.corrects for c in R.CORRECTED_CLAIMS) == sorted(failing)
    proofs = {c.key: c for c in all_claims()}
    for fix in R.CORRECTED_CLAIMS:
        assert fix.expected == "holds" and R.corrected_claim_of(fix.corrects) is fix
        assert R.claim_by_label(fix.label) is fix and fix.label not in {c.label for c in R.PAPER_CLAIMS}
        kinds = {e.kind for e in fix.evidence}
        assert {"derivation", "property-test"} <= kinds
        for e in fix.evidence:
            if e.kind == "derivation":
                assert proofs[e.target].expected == "verified", e.target
            elif e.kind == "property-test":
                path, name = e.target.split("::")
                tree = ast.parse((REPO / path).read_text())
                assert name in {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}, e.target
    assert R.corrected_claim_of("lem:utility-lower-bound") is None


_HELPER_KINDS = {"_d": "derivation", "_c": "self-check", "_t": "property-test", "_s": "simulation", "_b": "benchmark"}


def test_evidence_helpers_build_the_documented_kind_target_and_note():
    """Each helper, called with and without a note, against records typed out by hand (the kinds of the module
    docstring; the note defaults to "").

    Kills `lfverify.paper._registry.x__b__mutmut_3`, `_7`, `_8`, `x__c__mutmut_1`, `_3`, `_4`, `_5`, `x__d__mutmut_2`,
    `_6`, `x__s__mutmut_3`, `x__t__mutmut_3`, `_7` and `x__t__lfv_args_1` (a target or note dropped, swapped or
    None, a wrong kind, a non-empty default note)."""
    for helper, kind in _HELPER_KINDS.items():
        build = getattr(R, helper)
        assert build("target-x", "note-y") == R.Evidence(kind, "target-x", "note-y")
        bare = build("target-x")
        assert (bare.kind, bare.target, bare.note) == (kind, "target-x", "")


def test_registered_evidence_is_what_each_call_site_of_registry_py_says():
    """Oracle: the source of lfverify/paper/_registry.py itself.  Every call ``_d/_c/_t/_s/_b(target[, note])`` of the
    registry, in source order, is one registered Evidence (PAPER_CLAIMS, then CORRECTED_CLAIMS) with the helper's
    kind, the call's target and note ("" when omitted), so no note or target is lost or swapped at import time.

    Kills (at import time) the mutants of `lfverify.paper._registry._b/_c/_d/_s/_t` named in the test above."""
    tree = ast.parse((REPO / "lfverify" / "paper" / "_registry.py").read_text())
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                    and n.func.id in _HELPER_KINDS), key=lambda n: (n.lineno, n.col_offset))

    def value(node):  # the arguments are literals or module constants such as _P + "test_name"
        return eval(compile(ast.Expression(node), "registry.py", "eval"), {k: v for k, v in vars(R).items()
                                                                            if k.isupper() or k.startswith("_")
                                                                            and k[1:].isupper()})

    expected = []
    for call in calls:
        assert not call.keywords and len(call.args) in (1, 2), ast.unparse(call)
        note = value(call.args[1]) if len(call.args) == 2 else ""
        expected.append((_HELPER_KINDS[call.func.id], value(call.args[0]), note))
    registered = [(e.kind, e.target, e.note) for c in R.PAPER_CLAIMS + R.CORRECTED_CLAIMS for e in c.evidence]
    assert len(registered) > 50 and registered == expected
    assert {kind for kind, _, _ in registered} == set(R.EVIDENCE_KINDS)
    assert any(note for _, _, note in registered) and any(not note for _, _, note in registered)
