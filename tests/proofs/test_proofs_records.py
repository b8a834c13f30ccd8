"""The records the proofs produce, with small planted claims: the registry (lfverify.proofs), outcomes and recorded
steps (proofs.claims), ERRATA.md's text (proofs.errata) and the rendered documents' files (proofs.render).

These layers turn a derivation into a verdict on disk; the tests of the real claims (test_proofs.py) see them only
through the paper's claims, whose outcomes never exercise a failed step, a duplicate key, a newline in a summary or
a stale file that is not UTF-8.  Oracle: the texts and records written out here by hand.

Private: lfverify.proofs._errata (HEADER, _number_table) and _render (GENERATED, _steps), the pieces of the rendered
records, each pinned on its own.
"""

import pytest

import lfverify.proofs as proofs
from lfverify.proofs import (
    Claim,
    ClaimResult,
    Erratum,
    Outcome,
    Step,
    Steps,
    all_claims,
    errata_markdown,
    run_claims,
    write_documents,
)
from lfverify.proofs._errata import HEADER
from lfverify.proofs._render import GENERATED, _steps

pytestmark = pytest.mark.claims("package:registry")


def _claim(key, outcome, *, title="Lemma 9: a planted claim", label="lem:planted"):
    return Claim(key, title, label, outcome.status, lambda: outcome)


def test_all_claims_refuses_duplicate_keys_and_names_them():
    """A module registered twice gives every one of its keys twice (the registry's uniqueness check).  Oracle: the
    three keys of corrected_rademacher, written out, sorted; a key of another module is not named."""
    keys = ["corrected_rademacher.kahane_step", "corrected_rademacher.lemma", "corrected_rademacher.rate"]
    assert sorted(c.key for c in all_claims(("corrected_rademacher",))) == keys
    with pytest.raises(RuntimeError) as raised:
        all_claims(("corrected_rademacher", "counterexamples_prop5", "corrected_rademacher"))
    assert str(raised.value) == f"duplicate claim keys: {keys}"


def test_run_claims_defaults_to_the_registry_and_reports_a_raising_check(monkeypatch):
    """run_claims() with no argument checks every registered claim, in order, calling ``progress`` before each; a
    check that raises becomes 'undecided' naming the error (and so regresses from a recorded 'verified')."""
    fine = _claim("planted.fine", Outcome("verified", "derived"))

    def broken():
        raise ZeroDivisionError("division by zero")

    raising = Claim("planted.raising", "Lemma 9: raising", "lem:planted", "verified", broken)
    monkeypatch.setattr(proofs, "all_claims", lambda: [fine, raising])
    seen = []
    results = run_claims(progress=lambda claim: seen.append(claim.key))
    assert seen == ["planted.fine", "planted.raising"]
    assert [(r.claim.key, r.outcome.status, r.outcome.summary, r.regressed) for r in results] == [
        ("planted.fine", "verified", "derived", False),
        ("planted.raising", "undecided", "the check raised ZeroDivisionError: division by zero", True)]
    assert all(r.seconds >= 0 for r in results)


def test_steps_with_a_failed_check_give_an_undecided_outcome_naming_it():
    """Steps.outcome: 'verified' (with the statement) only when every step holds; otherwise 'undecided' whose summary
    names the failed steps, keeping the method and the steps (the rendered proof shows which step failed)."""
    steps = Steps()
    assert steps.add("first", "x = 1", check="SymPy") is True
    assert steps.add("second", check="exact rationals", holds=0) is False
    assert steps.add("third") is True
    outcome = steps.outcome("all derived", method="exact rationals at 5 points", statement="It holds.")
    assert (outcome.status, outcome.summary, outcome.method, outcome.statement) == (
        "undecided", "steps not confirmed: ['second']", "exact rationals at 5 points", "")
    assert outcome.steps == (Step("first", "x = 1", "SymPy", True), Step("second", "", "exact rationals", False),
                             Step("third", "", "", True))
    kept = Steps()
    kept.add("only", check="SymPy")
    verified = kept.outcome("all derived", method="symbolic", statement="It holds.")
    assert (verified.status, verified.summary, verified.method, verified.statement, verified.steps) == (
        "verified", "all derived", "symbolic", "It holds.", (Step("only", "", "SymPy", True),))


def test_outcome_refuses_an_unknown_status_and_inconsistent_records():
    with pytest.raises(ValueError) as raised:
        Outcome("proved", "x")
    assert str(raised.value) == "status must be one of ('verified', 'erratum', 'undecided'); got 'proved'"
    erratum = Erratum("Sec. 9", "a", "b", "none", "x = 1", "mpmath")
    with pytest.raises(ValueError, match=r"^an 'erratum' outcome carries errata, and only it does$"):
        Outcome("verified", "x", errata=(erratum,))
    with pytest.raises(ValueError, match=r"^a 'verified' outcome cannot contain a step whose check failed$"):
        Outcome("verified", "x", steps=(Step("s", holds=False),))


def test_errata_markdown_of_one_erratum_one_verified_and_one_undecided_claim():
    """ERRATA.md's whole text for three planted results.  Oracle: written out by hand; a table cell escapes '|'
    and joins lines (a summary with a newline must not break the table row).  A planted erratum has no permanent
    number: it takes the next free one (lfverify/proofs/errata_numbers.tsv)."""
    from lfverify.proofs._errata import _number_table

    free = max(_number_table().values()) + 1
    erratum = Erratum("Sec. 9, eq:planted", "x + 1", "x - 1", "none", "x = 0: 1 vs -1", "finite differences")
    results = [
        ClaimResult(_claim("planted.wrong", Outcome("erratum", "sign", errata=(erratum,))), Outcome(
            "erratum", "sign", errata=(erratum,)), 0.0),
        ClaimResult(_claim("planted.right", Outcome("verified", "a|b\nc", method="exact | rationals"),
                           title="Lemma 9: right"), Outcome("verified", "a|b\nc", method="exact | rationals"), 0.0),
        ClaimResult(_claim("planted.open", Outcome("undecided", "no decision"), title="Lemma 9: open"),
                    Outcome("undecided", "no decision"), 0.0),
    ]
    expected = HEADER + "\n" + "\n".join([
        "## Errata (1)\n",
        f"### E{free}. Sec. 9, eq:planted\n",
        "- Claim: Lemma 9: a planted claim (`planted.wrong`, `lem:planted`)",
        "- Printed: x + 1",
        "- Derived: x - 1",
        "- Changes a conclusion: none",
        "- Witness: x = 0: 1 vs -1",
        "- Evidence: finite differences",
        "",
        "## Verified claims (1)\n",
        "| claim | label | method | what was derived |",
        "|---|---|---|---|",
        "| Lemma 9: right | `lem:planted` | exact \\| rationals | a\\|b c |",
        "",
        "## Could not decide (1)\n",
        "- Lemma 9: open (`lem:planted`): no decision",
    ]) + "\n"
    assert errata_markdown(results) == expected
    none = errata_markdown(results[1:2])
    assert "## Errata (0)\n\nNone found.\n\n## Verified claims (1)\n" in none and "Could not decide" not in none
    assert none.endswith("| Lemma 9: right | `lem:planted` | exact \\| rationals | a\\|b c |\n")


def test_rendered_steps_mark_a_failed_check():
    """A step's check is rendered with its verdict: '(holds)' or '(FAILED)' (an undecided derivation's document
    shows which step failed); a step without a check or formula is its text alone."""
    rendered = _steps((Step("first", "x = 1", "SymPy: a_{0} * b", True), Step("second", "", "exact", False),
                       Step("third")))
    assert rendered == ["**Step 1.** first", "", "$$", "x = 1", "$$", "",
                        "*Check:* SymPy: a\\_{0} \\* b (holds)", "",
                        "**Step 2.** second", "", "*Check:* exact (FAILED)", "",
                        "**Step 3.** third", ""]


def test_write_documents_creates_missing_parents_and_keeps_files_it_did_not_write(tmp_path):
    """write_documents: the folder is created with its missing parents; a stale generated document is removed; a
    hand-written one is kept, even if it is not UTF-8 (read with replacement, not an error)."""
    folder = tmp_path / "a" / "b" / "proofs"
    written = write_documents(folder, {"x.md": f"{GENERATED}\nx\n"})
    assert written == [folder / "x.md"] and (folder / "x.md").read_text() == f"{GENERATED}\nx\n"
    (folder / "old.md").write_text(f"{GENERATED}\nold\n")
    (folder / "notes.md").write_bytes(b"hand-written \xff\xfe notes\n")
    write_documents(folder, {"x.md": f"{GENERATED}\ny\n"})
    assert sorted(p.name for p in folder.iterdir()) == ["notes.md", "x.md"]
    assert (folder / "notes.md").read_bytes() == b"hand-written \xff\xfe notes\n"


def test_write_documents_into_a_file_is_a_one_line_error_naming_it(tmp_path):
    target = tmp_path / "proofs"
    target.write_text("not a folder")
    with pytest.raises(ValueError) as raised:
        write_documents(target, {"x.md": "x\n"})
    assert str(raised.value) == f"--render: {str(target)!r} is a file, not a folder"
    assert target.read_text() == "not a folder"
