"""The permanent numbers of ERRATA.md (lfverify/proofs/_errata.py, lfverify/proofs/errata_numbers.tsv).

A reference "ERRATA E12" in a claim's summary stays true only if E12 is the erratum it meant: numbers used to be
positions and shifted when an erratum was added (referee round 6 found the registry's references one off).  The
summaries are now generated (lfverify.proofs.claim_summary reads the numbers from the table), and the table is
kept equal to ERRATA.md here.
Oracle: the committed ERRATA.md (kept equal to a fresh run by tests/proofs/test_proofs.py), read as text: each erratum's
"Claim:" line names the label of the claim it belongs to.

Private: lfverify.proofs._errata, whose number table, numbering and affected-claim lookup (no face exports them) are
kept equal to ERRATA.md here, its resources patched to plant a broken table.
"""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from lfverify.paper import PAPER_CLAIMS
from lfverify.proofs import Erratum, Outcome, _errata, all_claims, claim_summary

pytestmark = pytest.mark.claims("package:registry")

ROOT = Path(__file__).resolve().parents[2]


def _errata_entries() -> list[tuple[int, str, str, str]]:
    """(number, location, claim key, claim label) of each erratum of the committed ERRATA.md."""
    text = (ROOT / "ERRATA.md").read_text(encoding="utf-8")
    found = re.findall(r"^### E(\d+)\. (.*)\n\n- Claim: .*\(`([^`]+)`, `([^`]+)`\)$", text, re.M)
    return [(int(n), location, key, label) for n, location, key, label in found]


def _errata_labels() -> dict[int, str]:
    """number -> the erratum's claim label and its location (which may name further labels)."""
    return {n: f"{label} | {location}" for n, location, _, label in _errata_entries()}


def _references(text: str) -> list[int]:
    numbers = []
    for first, last in re.findall(r"\bE(\d+)(?:-E(\d+))?\b", text):
        numbers += range(int(first), int(last or first) + 1)
    return numbers


def _misreferences(claims, labels) -> list[str]:
    """References of each summary that name an erratum of another claim: before "Errata that change", an
    erratum whose claim label is not one of the claim's; after "Errata that change", one whose ``affects`` does not name
    the claim."""
    wrong, affects = [], _errata.affected_by()
    for claim in claims:
        own = {claim.label} | {e.target for e in claim.evidence if e.kind == "derivation"}
        text = claim.summary.split("Corrected statement:")[0]
        found, _, other = text.partition("Errata that change its stated conclusion")
        for number in _references(found):
            mine = labels.get(number, "")
            if not any(label in mine for label in own):
                wrong.append(f"{claim.number}: E{number} is {labels.get(number)!r}, not one of {sorted(own)}")
        for number in _references(other):
            if claim.label not in affects.get(number, ()):
                wrong.append(f"{claim.number}: E{number} does not change it (affects {affects.get(number)})")
    return wrong


def _summarised():
    derivations = all_claims()
    return [replace(c, summary=claim_summary(c, derivations)) for c in PAPER_CLAIMS]


def test_every_summary_reference_names_an_erratum_of_its_own_claim():
    labels = _errata_labels()
    assert len(labels) >= 40
    assert _misreferences(_summarised(), labels) == []


def test_the_table_is_erratamd():
    """The number table, from which the summaries read, lists exactly ERRATA.md's errata (number, claim key,
    location): no stale row, none missing."""
    table = {(key, location): number for (key, location), number in _errata._number_table().items()}
    written = {(key, location.replace("\\|", "|")): n for n, location, key, _ in _errata_entries()}
    assert table == written


def test_the_registry_holds_no_hand_typed_summary():
    """Each printed claim's one-line finding is generated (claim_summary), never typed in the registry."""
    assert [c.number for c in PAPER_CLAIMS if c.summary] == []


def test_a_reference_shifted_by_one_is_caught():
    """Companion: the summaries' references shifted by one (as the registry's were before the numbers became
    permanent) fail."""
    labels = _errata_labels()
    shifted = [c for c in _summarised() if _references(c.summary)]
    moved = [replace(c, summary=re.sub(r"\bE(\d+)\b", lambda m: f"E{int(m.group(1)) + 1}", c.summary)) for c in shifted]
    assert len(_misreferences(moved, labels)) >= len(shifted) // 2


class _Result:
    def __init__(self, key, locations):
        self.claim = type("C", (), {"key": key})()
        self.outcome = Outcome("erratum", "", errata=tuple(Erratum(loc, "", "", "", "", "") for loc in locations))


def test_numbers_come_from_the_table_not_from_positions():
    table = _errata._number_table()
    (key, location), number = next((k, v) for k, v in table.items() if v == 12)
    # the erratum numbered 12 keeps 12 even when it is the only one run
    assert _errata.errata_numbers([_Result(key, [location])]) == {(key, 0): 12}


def test_every_erratum_of_errata_md_has_its_permanent_number():
    found = _errata_entries()
    assert len(found) >= 40
    assert _errata.unnumbered([(n, key, location) for n, location, key, _ in found]) == []


def test_a_new_erratum_gets_the_next_free_number_and_is_listed_as_unnumbered():
    """Companion: an erratum missing from the table is numbered after every assigned number (never reusing one),
    and ``unnumbered`` gives the row to append."""
    top = max(_errata._number_table().values())
    assert _errata.errata_numbers([_Result("new.claim", ["somewhere"])]) == {("new.claim", 0): top + 1}
    assert _errata.unnumbered([(top + 1, "new.claim", "somewhere")]) == [f"{top + 1}\tnew.claim\tsomewhere\t"]


def test_numbers_are_distinct_and_one_location_holding_two_errata_of_a_claim_is_refused():
    """ERRATA.md lists errata in the order of their numbers, so the numbers must be distinct: two claims' errata at
    one location (table or new) get two numbers; one claim's two errata at one location, which the (claim, location)
    key cannot tell apart, are a ValueError naming the claim and the location (companion: the same two errata at two
    locations are numbered)."""
    (key, location), _ = next(iter(_errata._number_table().items()))
    numbers = _errata.errata_numbers([_Result(key, [location, "new place"]), _Result("other.claim", [location]),
                                      _Result("new.claim", ["new place", "another place"])])
    assert len(numbers) == 5 and len(set(numbers.values())) == 5
    for twice in ([location, location], ["new place", "new place"]):
        with pytest.raises(ValueError, match=re.escape(f"claim {key!r} lists two errata at location {twice[0]!r}")):
            _errata.errata_numbers([_Result(key, twice)])


def _plant_table(monkeypatch, tmp_path, rows: str) -> None:
    """The numbers table read from ``tmp_path``: its header, then ``rows`` (the package's resources patched)."""
    class _Files:
        def joinpath(self, name):
            return tmp_path / name

    (tmp_path / _errata.NUMBERS_FILE).write_text(f"number\tclaim\tlocation\taffects\n{rows}", encoding="utf-8")
    monkeypatch.setattr(_errata.resources, "files", lambda package: _Files())


def test_a_number_listed_twice_is_refused(monkeypatch, tmp_path):
    _plant_table(monkeypatch, tmp_path, "1\ta\tx\t\n1\tb\ty\t\n")
    with pytest.raises(ValueError, match="line 3: number 1 or erratum .* listed twice"):
        _errata._number_table()


@pytest.mark.parametrize("row, why", [
    ("7\ta\tx", "three cells"),               # the affects column missing: a digit first, the count wrong
    ("seven\ta\tx\t", "a number not in digits"),  # four cells, the first not a number
])
def test_a_malformed_row_of_the_table_is_refused_with_its_line(monkeypatch, tmp_path, row, why):
    """A row of the numbers table with other than four cells, or whose first is not a number, is refused by line with
    the expected form (either fault alone suffices)."""
    _plant_table(monkeypatch, tmp_path, f"1\ta\tx\t\n{row}\n")
    with pytest.raises(ValueError, match=r"line 3: expected 'number<TAB>claim key<TAB>location<TAB>affects'; got "):
        _errata._number_table()


def test_the_table_is_read_as_utf_8_whatever_the_locale(monkeypatch, tmp_path, ascii_locale):
    """A location with non-ASCII characters is read as written under an ASCII locale too: every read that names no
    encoding decodes as ASCII here (the ascii_locale fixture), as LC_ALL=C without Python's UTF-8 mode would."""
    _plant_table(monkeypatch, tmp_path, "1\ta\tApp. A.4, \u00a7 2\t\n")
    assert _errata._number_table() == {("a", "App. A.4, \u00a7 2"): 1}


# ------------------------------------------------------------------ which claims an erratum's consequence changes
#: Referee round 14 found summaries that left out errata whose "Changes a conclusion" line changes another claim
#: (E12, E36, E37 -> Theorem 7; E31 -> Lemma 4; E29 -> Theorem 1).  Every claim a consequence line names, other than
#: the claim whose page shows the erratum, is either in the errata index's ``affects`` column or listed here as named
#: without its conclusion changing, with the reason: a new erratum that names a claim forces the decision.
NAMED_UNCHANGED = {
    1: {"Lemma 1": "Gower-Legendre with alpha != 1 is outside the lemmas' hypotheses",
        "Lemma 2": "Gower-Legendre with alpha != 1 is outside the lemmas' hypotheses"},
    2: {"Definition 1": "a convention at xi = 0; Lemma 1's inequalities hold under both"},
    3: {"Definition 1": "a definition (the fix adds E[W_1] > 0 to it)", "Table 1": "its metrics are unaffected"},
    4: {"Theorem 1": "'no for the theorems'", "Theorem 2": "'no for the theorems'"},
    6: {"Lemma 1": "names the proof's re-defined U_phi, not the lemma's"},
    10: {"Lemma 1": "used in the corrected bound"},
    11: {"Lemma 1": "used"},
    15: {"Proposition 6": "'does not feed Prop. 6'", "Lemma 1": "the condition under which the printed inequality is "
         "weaker (U*_phi <= U-dagger); Lemma 1's conclusion is not changed"},
    24: {"Proposition 8": "consistent with it"},
    25: {"Table 1": "the sign is false for its metrics; no conclusion changes"},
    26: {"Theorem 1": "names Thm. 1's counterexample as the source"},
    28: {"Theorem 1": "their tau conditions need U_phi* > 0: recorded by E14 and E29",
         "Theorem 2": "their tau conditions need U_phi* > 0: recorded by E14 and E29"},
    35: {"Lemma 1": "false only for alpha > 1, outside Definition 1", "Table 1": "corrects E1's wording"},
    31: {"Lemma 4": "its proof's explicit bound is unsupported; its stated rate is not refuted"},
    33: {"Lemma 4": "its proof's explicit bound, not its stated rate"},
    38: {"Definition 1": "a definition, named as the class Thm. 7 applies to"},
    # referee round 27: the step 'there exists an optimal function f* not in B' of the printed calibration proofs
    43: {"Proposition 6": "its hypothesis fails on the witness; the implication, read per P, is untouched",
         "Theorem 1": "the step of its printed proof, not its stated conclusion (changed by other errata)",
         "Theorem 2": "the step of its printed proof, not its stated conclusion (changed by other errata)",
         "Theorem 7": "the step of its printed proof, not its stated conclusion (changed by other errata)"},
}
_NAMED = re.compile(r"\b(Thms?\.|Theorems?|Lemmas?|Props?\.|Propositions?|Definition|Def\.|Tab\.|Table)\s+"
                    r"(\d+(?:\s*(?:,|and|-)\s*\d+)*)")
_KIND = {"Thm": "Theorem", "Theorem": "Theorem", "Lemma": "Lemma", "Prop": "Proposition", "Proposition": "Proposition",
         "Definition": "Definition", "Def": "Definition", "Tab": "Table", "Table": "Table"}


def named_claims(text: str) -> set[str]:
    """The registry numbers ("Theorem 7") of the claims ``text`` names ("Thm. 7", "Thms. 1 and 2", "Lemmas 1, 2")."""
    names = set()
    for kind, numbers in _NAMED.findall(text):
        kind = _KIND[kind.rstrip(".").removesuffix("s") if kind not in ("Thms.", "Props.") else kind[:-2]]
        names |= {f"{kind} {n}" for n in re.findall(r"\d+", numbers)}
    return {n for n in names if any(c.number == n for c in PAPER_CLAIMS)}


def _page_claim(label: str) -> str:
    """The registry claim whose page shows the errata of derivations with the LaTeX ``label``."""
    return next(c.number for c in PAPER_CLAIMS if label in {e.target for e in c.evidence if e.kind == "derivation"})


def _undecided(affects: dict, unchanged: dict) -> list[str]:
    text = (ROOT / "ERRATA.md").read_text(encoding="utf-8")
    by_label = {c.label: c.number for c in PAPER_CLAIMS}
    problems = []
    for number, _, _, label in _errata_entries():
        body = text.split(f"### E{number}. ", 1)[1].split("\n### ", 1)[0]
        line = re.search(r"^- Changes a conclusion: (.*)$", body, re.M).group(1)
        own = _page_claim(label)
        named = named_claims(line) - {own}
        listed = {by_label[a] for a in affects.get(number, ())}
        for name in sorted(named - listed - set(unchanged.get(number, {}))):
            problems.append(f"E{number} names {name}: add it to affects or to NAMED_UNCHANGED")
        for name in sorted(listed - named - {own}):
            problems.append(f"E{number}: affects lists {name}, which its consequence does not name")
    return problems


def test_every_claim_a_consequence_names_is_affected_or_declared_unchanged():
    affects = _errata.affected_by()
    assert {n for n, a in affects.items() if a} >= {3, 12, 16, 29, 31, 36, 37, 39}
    assert _undecided(affects, NAMED_UNCHANGED) == []


def test_an_affects_entry_removed_or_planted_is_caught():
    """Companion: E12's 'refutes Thm. 7' without its affects entry, or Theorem 7 added to E5 (whose consequence does
    not name it), fails; the name reader sees the forms the errata use."""
    affects = dict(_errata.affected_by())
    assert _undecided({**affects, 12: ()}, NAMED_UNCHANGED) == ["E12 names Theorem 7: add it to affects or to "
                                                                "NAMED_UNCHANGED"]
    assert _undecided({**affects, 5: ("thm:general-calibration",)}, NAMED_UNCHANGED) == [
        "E5: affects lists Theorem 7, which its consequence does not name"]
    assert named_claims("Thms. 1 and 2; Lemmas 1, 2; Prop. 8 and Thm. 7") == {
        "Theorem 1", "Theorem 2", "Lemma 1", "Lemma 2", "Proposition 8", "Theorem 7"}


def test_a_claims_summary_lists_the_errata_that_change_it():
    """The generated summary of Theorem 7 lists E12, E36, E37 (found on Theorems 1 and 2's pages), Lemma 4's lists
    E31; Definition 1's lists none of Theorems 1 and 2's errata (a location naming def:metric is not an erratum of
    Definition 1: referee round 14)."""
    summaries = {c.number: c.summary for c in _summarised()}
    assert "Errata that change its stated conclusion: E12, E16, E26, E36, E37, E39." in summaries["Theorem 7"]
    assert "Errata that change its stated conclusion: E3." in summaries["Lemma 1"]  # referee round 15
    # E31, E33 change Lemma 4's proof, not its stated rate; E42 (its printed hypotheses, referee round 17) does
    assert "Errata that change its stated conclusion: E42." in summaries["Lemma 4"]
    assert "E36" not in summaries["Definition 1"] and "E37" not in summaries["Definition 1"]


#: the verdicts that say a claim's stated conclusion is true as printed
HOLDING = ("holds", "holds (errata in the printed proof)", "definition")


def _verdict_conflicts(claims, affects) -> list[str]:
    by_label = {}
    for number, labels in affects.items():
        for label in labels:
            by_label.setdefault(label, []).append(number)
    problems = []
    for c in claims:
        changed = by_label.get(c.label, [])
        if c.expected in HOLDING and changed:
            problems.append(f"{c.number} is recorded as {c.expected!r}, yet E{changed} change its stated conclusion")
        if c.expected.startswith("fails as stated") and not changed:
            problems.append(f"{c.number} is recorded as {c.expected!r}, but no erratum changes its conclusion")
    return problems


def test_a_verdict_agrees_with_the_errata_that_change_its_claim():
    """Referee round 15: Lemma 1 was recorded as holding while E3 says it is false for a metric the printed
    Definition 1 admits.  A claim whose stated conclusion an erratum changes is recorded as failing; a claim recorded
    as failing has such an erratum."""
    assert _verdict_conflicts(PAPER_CLAIMS, _errata.affected_by()) == []


def test_a_verdict_that_contradicts_its_errata_is_caught():
    """Companion: Lemma 1 back at 'holds (errata in the printed proof)', or E31 dropped from the index, fails."""
    lemma1 = next(c for c in PAPER_CLAIMS if c.number == "Lemma 1")
    planted = [replace(lemma1, expected="holds (errata in the printed proof)")]
    assert _verdict_conflicts(planted, _errata.affected_by()) == [
        "Lemma 1 is recorded as 'holds (errata in the printed proof)', yet E[3] change its stated conclusion"]
    app_c = [c for c in PAPER_CLAIMS if c.number == "Lemma (App. C)"]
    assert _verdict_conflicts(app_c, {**_errata.affected_by(), 31: ()}) == [
        "Lemma (App. C) is recorded as 'fails as stated', but no erratum changes its conclusion"]
