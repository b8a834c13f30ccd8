"""The permanent numbers of ERRATA.md (lfverify/proofs/_errata.py, lfverify/proofs/errata_numbers.tsv).

A reference "ERRATA E12" in a claim's summary stays true only if E12 is the erratum it meant: numbers used to be
positions and shifted when an erratum was added (referee round 6 found the registry's references one off).  The
summaries are now generated (lfverify.proofs.claim_summary reads the numbers from the table), and the table is
kept equal to ERRATA.md here.
Oracle: the committed ERRATA.md (kept equal to a fresh run by tests/proofs/test_proofs.py), read as text: each erratum's
"Claim:" line names the label of the claim it belongs to.
"""

import re
from pathlib import Path

import pytest

from dataclasses import replace

from lfverify.paper import PAPER_CLAIMS
from lfverify.proofs import _errata, all_claims, claim_summary
from lfverify.proofs._claims import Erratum, Outcome

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
    wrong = []
    for claim in claims:
        own = {claim.label} | {e.target for e in claim.evidence if e.kind == "derivation"}
        for number in _references(claim.summary):
            mine = labels.get(number, "")
            if not any(label in mine for label in own):
                wrong.append(f"{claim.number}: E{number} is {labels.get(number)!r}, not one of {sorted(own)}")
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
    assert _errata.unnumbered([(top + 1, "new.claim", "somewhere")]) == [f"{top + 1}\tnew.claim\tsomewhere"]


def test_a_number_listed_twice_is_refused(monkeypatch, tmp_path):
    class _Files:
        def joinpath(self, name):
            return tmp_path / name

    (tmp_path / _errata.NUMBERS_FILE).write_text("number\tclaim\tlocation\n1\ta\tx\n1\tb\ty\n", encoding="utf-8")
    monkeypatch.setattr(_errata.resources, "files", lambda package: _Files())
    with pytest.raises(ValueError, match="line 3: number 1 or erratum .* listed twice"):
        _errata._number_table()
